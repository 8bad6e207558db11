// A trace as Learn keeps it: the events of /api/trace (`queens trace --format json`), a closing
// step where the search ends, the counts and the loop variables after each step, the words that
// explain a step, and how two traces of the same board compare. No drawing here.

import { exhaustedLine, firstAttacker, wirthReads } from "./learn-why.js";

const fmt = (k) => (typeof k === "number" ? k.toLocaleString("en") : String(k));
export const plural = (k, one, many) => `${fmt(k)} ${k === 1 ? one : many || `${one}s`}`;

// The kinds of step each jump button goes to.
export const JUMPS = {
  "learn-next-place": ["place", "enqueue"],
  "learn-next-back": ["backtrack"],
  "learn-next-solution": ["solution", "nosolution", "end"],
};

// The queens of an event's board as columns by row (-1 for an empty row).
export function eventQueens(ev, n) {
  const positions = Array.isArray(ev.positions) ? ev.positions : new Array(n).fill(-1);
  if (ev.positions_by !== "column") return positions.slice();
  const byRow = new Array(n).fill(-1);
  positions.forEach((row, col) => {
    if (row >= 0 && row < n) byRow[row] = col;
  });
  return byRow;
}

function square(r, c) {
  return `row ${r}, column ${c}`;
}

// "column 0" or "columns 0 to 3": the lines before line `k`.
function before(k, line) {
  return k === 1 ? `${line} 0` : `${line}s 0 to ${k - 1}`;
}

// "row 2", "rows 0 and 3", "rows 0, 2 and 5".
function listed(line, indexes) {
  if (indexes.length === 1) return `${line} ${indexes[0]}`;
  return `${line}s ${indexes.slice(0, -1).join(", ")} and ${indexes[indexes.length - 1]}`;
}

// What comes after a conflict on (r, c): only that square is ruled out. Without `ahead` (a
// question of where the search tries next is open) it does not say where that is.
function afterConflict(ev, n, algo, ahead) {
  const then = (next) => (ahead ? `: ${next}.` : ".");
  if (ev.positions_by === "column") {
    const next = Array.isArray(ev.untried) ? ev.untried[ev.col] : ev.row + 1;
    return next < n
      ? ` Only row ${ev.row} is ruled out${then(`next, row ${next} of column ${ev.col}`)}`
      : ` That was the last row of column ${ev.col}${then("the search backs up next")}`;
  }
  if (ev.col < n - 1) {
    return ` Only this square is ruled out${then(`next, column ${ev.col + 1} of row ${ev.row}`)}`;
  }
  return algo === "bfs"
    ? ` It was the last square of row ${ev.row} for this board${then("the next board comes off the queue")}`
    : ` It was the last square of row ${ev.row}${then("the search backs up next")}`;
}

// Wirth's conflict in Wirth's arrays: the entries the test reads, up to the false one.
function wirthConflict(ev, n) {
  const reads = wirthReads(ev, n);
  const last = reads[reads.length - 1];
  if (!last || last.value || !last.queen) return null;
  const i = ev.row;
  const j = ev.col;
  const entry = {
    a: `a[${j}]`,
    b: `b[i+j] = b[${i + j}]`,
    c: `c[i\u2212j+N\u22121] = c[${i - j + n - 1}]`,
  };
  const meaning = {
    a: `column ${j} has a queen`,
    b: `the \u2199 diagonal i + j = ${i + j} has a queen`,
    c: `the \u2198 diagonal i \u2212 j = ${i - j} has a queen`,
  };
  const trues = reads.slice(0, -1).map((r) => `${entry[r.name]} is true`);
  const read = trues.length ? `${trues.join(", ")}, but ` : "";
  return `The test at ${square(i, j)} reads ${read}${entry[last.name]} is false: ${meaning[last.name]}, `
    + `the queen at ${square(last.queen.row, last.queen.col)}. Skip the square.`;
}

const cap = (text) => text[0].toUpperCase() + text.slice(1);

// Why a line is given up (a backtrack): each of its squares is attacked by a queen of the
// earlier lines, or was safe and every way on from it has been tried.
function exhaustedWhy(ev, n, algo) {
  const line = exhaustedLine(ev, n);
  const byColumn = ev.positions_by === "column";
  const [own, other] = byColumn ? ["column", "row"] : ["row", "column"];
  const k = line.index;
  const head = byColumn
    ? `Every row of column ${k} has been tried.`
    : algo === "bitboard"
      ? `Row ${k} has no free square left.`
      : `Every square of row ${k} has been tried.`;
  if (k === 0) return `${head} Nothing is left to back up to.`;
  const attacked = line.squares.filter((sq) => sq.attacker).map((sq) => (byColumn ? sq.row : sq.col));
  const safe = line.squares.filter((sq) => !sq.attacker).map((sq) => (byColumn ? sq.row : sq.col));
  let why;
  if (safe.length === 0) {
    why = ` No ${other} of ${own} ${k} is safe with the queens of ${before(k, own)}: each square shows a queen that attacks it (\u00d7m: the queen of ${own} m).`;
  } else {
    const one = safe.length === 1;
    why = attacked.length
      ? ` ${cap(listed(other, attacked))} ${attacked.length === 1 ? "is" : "are"} attacked by the queens of ${before(k, own)} (\u00d7m: the queen of ${own} m);`
      : "";
    const safeWords = attacked.length ? listed(other, safe) : cap(listed(other, safe));
    why += k === n - 1
      ? ` ${safeWords} ${one ? "was" : "were"} safe and completed a solution (\u2713).`
      : ` ${safeWords} ${one ? "was" : "were"} safe, and every way on from ${one ? "it" : "them"} has been tried (\u2713).`;
  }
  const choice = ` So the latest choice, the queen of ${own} ${k - 1} (on ${other} ${ev.positions[k - 1]}), must change:`;
  return byColumn
    ? `${head}${why}${choice} mark column ${k}'s rows untried again (setAllPositionsUntried(${k})) and back up to column ${k - 1}.`
    : `${head}${why}${choice} back up to row ${k - 1}.`;
}

// The words for a step: what it does and, where the board shows why, why. `algo` (optional)
// names the search, for the steps each algorithm says in its own terms. `ahead` false (a
// question of where the search tries next is open): a conflict does not say where it goes on.
export function explain(ev, n, algo, ahead = true) {
  const at = ev.row !== null && ev.col !== null ? square(ev.row, ev.col) : "";
  const byColumn = ev.positions_by === "column";
  switch (ev.event) {
    case "try":
      if (byColumn) {
        return `Try the first untried row of column ${ev.col}: ${at} (row \u2190 getUntried(${ev.col}) = ${ev.row}; setPositionTried: untried[${ev.col}] becomes ${ev.untried ? ev.untried[ev.col] : ev.row + 1}).`;
      }
      return algo === "bitboard"
        ? `Try the square at ${at}, the lowest column still free in row ${ev.row} (bit \u2190 free & \u2212free).`
        : `Try the square at ${at}.`;
    case "conflict":
      if (byColumn) {
        return `setPosition(${ev.col}, ${ev.row}) puts the queen on ${at}; hasConflictCumulative checks ${before(ev.col, "column")} in order and stops at the first attacker: the queen at ${square(ev.with.row, ev.with.col)}, on its ${ev.kind}. So setPosition(${ev.col}, \u22121) takes it off.${afterConflict(ev, n, algo, ahead)}`;
      }
      return `${(algo === "wirth" && wirthConflict(ev, n))
        || `The square at ${at} is attacked by the queen at ${square(ev.with.row, ev.with.col)} along their ${ev.kind}: skip it.`}${afterConflict(ev, n, algo, ahead)}`;
    case "place":
      return byColumn
        ? `setPosition(${ev.col}, ${ev.row}) puts the queen on ${at}; no earlier queen attacks it, so keep it and go on to column ${ev.col + 1}.`
        : `No queen attacks ${at}: place a queen there.`;
    case "remove":
      if (byColumn) {
        const left = !Array.isArray(ev.untried) || ev.untried[ev.col] < n;
        return `Back in column ${ev.col}: take its queen off ${at} (setPosition(${ev.col}, \u22121)) and `
          + (left ? "try its next untried row."
            : `try its next untried row: there is none (untried[${ev.col}] = ${n}), so the search backs up from column ${ev.col} next.`);
      }
      if (algo === "bitboard") {
        // The bitmask search tries only free squares: past this one, is any of the row free?
        const left = Array.from({ length: n }, (_, c) => c).some((c) => c > ev.col && !firstAttacker(ev, ev.row, c));
        return left
          ? `Take the queen off ${at} and look further along its row.`
          : `Take the queen off ${at}: no free square of row ${ev.row} is left past it, so the search backs up from that row next.`;
      }
      return ev.col < n - 1
        ? `Take the queen off ${at} and look further along its row.`
        : `Take the queen off ${at}: it was the last square of row ${ev.row}, so the search backs up from that row next.`;
    case "backtrack":
      if ((byColumn && ev.col !== null) || (!byColumn && ev.row !== null && ev.row < n)) return exhaustedWhy(ev, n, algo);
      if (ev.row !== null) {
        return ev.row > 0
          ? `Every square of row ${ev.row} has been tried: back up to row ${ev.row - 1}.`
          : "Every square of row 0 has been tried: nothing is left to back up to.";
      }
      return "Nothing left to try here: back up.";
    case "solution":
      return byColumn
        ? "A queen in every column and none attacks another: a solution! (To look for the next one, the search backs up into the last column.)"
        : "A queen on every row and none attacks another: a solution!";
    case "nosolution":
      return byColumn
        ? `Every row of column 0 has been tried: setAllPositionsUntried(0), col becomes \u22121 and the search ends. The ${n}\u00d7${n} board has no solution.`
        : `Every placement has been tried: the ${n}\u00d7${n} board has no solution.`;
    case "end":
      return byColumn
        ? `Every row of column 0 has been tried: setAllPositionsUntried(0), col becomes \u22121 and the search ends, with ${plural(ev.solutions, "solution")}.`
        : `Every placement has been tried: the search ends, with ${plural(ev.solutions, "solution")}.`;
    case "enqueue":
      return at
        ? `Queue the board with a new queen at ${at} (${plural(ev.queue, "board")} waiting).`
        : `Queue the empty board (${plural(ev.queue, "board")} waiting).`;
    case "dequeue":
      if (ev.row === null || ev.row >= n) {
        return `Take the next board off the queue: every row is filled, so it is a solution (${plural(ev.queue, "board")} left waiting).`;
      }
      return `Take the next board off the queue to fill row ${ev.row} (${plural(ev.queue, "board")} left waiting).`;
    default:
      return `${ev.event} ${at}`;
  }
}

// The loop variables of each algorithm's code after each step, as [name, value] pairs in the
// order the code introduces them: only those the running lines have set in the current pass
// (the column-wise loop's `row` is not shown once the pass that took it from getUntried has
// ended: it would name a row of another column).
const VARS = {
  // COMP 333: col, the column worked on, and row, the row this pass took from getUntried.
  backtrack(ev, n) {
    switch (ev.event) {
      case "try":
      case "conflict":
        return [["col", ev.col], ["row", ev.row]];
      case "place":
        return [["col", ev.col + 1], ["row", ev.row]];
      case "backtrack":
        return [["col", ev.col - 1]];
      case "remove":
        return [["col", ev.col]];
      case "solution":
        return [["col", n]];
      default:
        return [["col", -1]];
    }
  },
  // search/findPosition/isValid: k the row, j the column, i isValid's earlier row.
  iterative(ev, n) {
    switch (ev.event) {
      case "try":
      case "place":
        return [["k", ev.row], ["j", ev.col]];
      case "conflict":
        return [["k", ev.row], ["j", ev.col], ["i", ev.with.row]];
      case "remove":
        return [["k", ev.row], ["start", ev.col + 1]];
      case "backtrack":
        return [["k", ev.row - 1], ["j", -1]];
      case "solution":
        return [["k", n]];
      default:
        return [["k", -1]];
    }
  },
  // nQueens(k) and place(k, i): k the row, i the column, j place's earlier row.
  recursive(ev, n) {
    switch (ev.event) {
      case "try":
      case "place":
      case "remove":
        return [["k", ev.row], ["i", ev.col]];
      case "conflict":
        return [["k", ev.row], ["i", ev.col], ["j", ev.with.row]];
      case "backtrack":
        return [["k", ev.row]];
      case "solution":
        return [["k", n - 1], ["i", ev.positions[n - 1]]];
      default:
        return [];
    }
  },
  // try(i): i the row, j the column.
  wirth(ev, n) {
    switch (ev.event) {
      case "try":
      case "conflict":
      case "place":
      case "remove":
        return [["i", ev.row], ["j", ev.col]];
      case "backtrack":
        return [["i", ev.row]];
      case "solution":
        return [["i", n - 1], ["j", ev.positions[n - 1]]];
      default:
        return [];
    }
  },
  // The queue of boards: k the rows filled in the board taken out (N for a full board: the
  // trace names no row then), j the column tried.
  bfs(ev, n) {
    const queue = typeof ev.queue === "number" ? [["queue", `${plural(ev.queue, "board")}`]] : [];
    switch (ev.event) {
      case "dequeue":
        return [["k", ev.row === null || ev.row >= n ? n : ev.row], ...queue];
      case "try":
      case "conflict":
        return [["k", ev.row], ["j", ev.col]];
      case "enqueue":
        return ev.row === null ? queue : [["k", ev.row], ["j", ev.col], ...queue];
      default:
        return [];
    }
  },
  // solve(k, cols, left, right): k the row, bit the column taken from free.
  bitboard(ev, n) {
    switch (ev.event) {
      case "try":
      case "place":
      case "remove":
        return [["k", ev.row], ["bit", `1 << ${ev.col}`]];
      case "backtrack":
        return [["k", ev.row], ["free", 0]];
      case "solution":
        return [["k", n]];
      default:
        return [];
    }
  },
};

// The loop variables of `algo` after each of `events` (null for an algorithm without a list).
function loopVars(algo, events, n) {
  const vars = VARS[algo];
  return vars ? events.map((ev) => vars(ev, n)) : null;
}

// A trace as the page keeps it: its events (and a closing step when the search ran to its end:
// "nosolution", or "end" after every solution), the counts up to each event, and what the
// server says of it. The search's last act, resetting column 0 (setAllPositionsUntried(0)), has
// no event of its own: the closing step shows it.
export function makeTrack(algo, n, body, all) {
  const events = body.events.slice();
  const solutions = body.summary ? body.summary.solutions : 0;
  if (!body.cut && body.summary && (solutions === 0 || all)) {
    const last = events[events.length - 1];
    const untried = last && Array.isArray(last.untried) ? last.untried.map(() => 0) : undefined;
    events.push({
      event: solutions === 0 ? "nosolution" : "end",
      step: (last ? last.step : 0) + 1,
      row: null,
      col: null,
      positions: last ? last.positions : new Array(n).fill(-1),
      positions_by: body.positions_by,
      untried,
      solutions,
    });
  }
  const counts = [];
  const c = { tries: 0, conflicts: 0, placements: 0, backtracks: 0, solutions: 0 };
  for (const ev of events) {
    if (ev.event === "try") c.tries++;
    else if (ev.event === "conflict") c.conflicts++;
    // For bfs, every board queued, the empty one first (as the summary's `enqueues` counts).
    else if (ev.event === "place" || ev.event === "enqueue") c.placements++;
    else if (ev.event === "backtrack") c.backtracks++;
    else if (ev.event === "solution") c.solutions++;
    counts.push({ ...c });
  }
  // Where each jump can land: the indexes of its kinds of step, in order.
  const marks = {};
  for (const [id, kinds] of Object.entries(JUMPS)) {
    marks[id] = [];
    events.forEach((ev, i) => {
      if (kinds.includes(ev.event) && !(ev.event === "enqueue" && ev.row === null)) marks[id].push(i);
    });
  }
  const byColumn = body.positions_by === "column";
  // The quiz asks one question at each try: the try's index, in order.
  const tries = [];
  events.forEach((ev, i) => {
    if (ev.event === "try") tries.push(i);
  });
  return {
    algo,
    n,
    all,
    events,
    counts,
    marks,
    tries,
    vars: loopVars(algo, events, n),
    // Before the first step the column-wise loop has run `col ← 0`.
    startVars: byColumn ? [["col", 0]] : [],
    cut: Boolean(body.cut),
    summary: body.summary,
    byColumn,
    full: null,
  };
}

export function countsText(track, index) {
  const c = index >= 0 ? track.counts[Math.min(index, track.counts.length - 1)] : null;
  const k = c || { tries: 0, conflicts: 0, placements: 0, backtracks: 0, solutions: 0 };
  const placed = track.algo === "bfs" ? "boards queued" : "placements";
  const found = track.all ? `, ${plural(k.solutions, "solution")}` : "";
  return `${plural(k.tries, "try", "tries")}, ${plural(k.conflicts, "conflict")}, `
    + `${fmt(k.placements)} ${k.placements === 1 ? placed.replace(/s$/, "").replace("boards", "board") : placed}, `
    + `${plural(k.backtracks, "backtrack")}${found}`;
}

export function describeSummary(s, algo, n, all) {
  const parts = [plural(s.tries, "square") + " tried"];
  if (s.conflicts) parts.push(plural(s.conflicts, "conflict"));
  if (algo !== "bfs") parts.push(`${plural(s.placements, "queen")} placed`);
  if (s.removals) parts.push(`${fmt(s.removals)} removed`);
  if (s.backtracks) parts.push(plural(s.backtracks, "backtrack"));
  if (s.enqueues) parts.push(`${plural(s.enqueues, "board")} queued (the empty board among them)`);
  let end = s.solutions ? "up to its first solution" : "to its end (no solution)";
  if (all && s.solutions) end = `to its end (${plural(s.solutions, "solution")})`;
  return `The ${algo} search of the ${n}\u00d7${n} board ${end}: ${parts.join(", ")}.`;
}

// How step `a` of one search relates to step `b` of another: "same" (the same kind on the same
// square), "mirror" (the same kind on the square mirrored in the main diagonal), or null.
function relation(a, b) {
  if (!a || !b || a.event !== b.event) return null;
  const same = a.row === b.row && a.col === b.col;
  const mirror = a.row === b.col && a.col === b.row;
  if (same && mirror) return "both";
  if (same) return "same";
  return mirror ? "mirror" : null;
}

// Where two traces of one board part: { kind: "same" | "mirror", firstDiff: index or null }.
// They agree step for step while each step relates to the other's the same way; `firstDiff`
// is the first step where they do not (null when they agree to their ends).
export function compareTracks(one, other) {
  const length = Math.min(one.events.length, other.events.length);
  let kind = null;
  for (let i = 0; i < length; i++) {
    const r = relation(one.events[i], other.events[i]);
    if (r === null || (r !== "both" && kind !== null && r !== kind)) return { kind: kind || "same", firstDiff: i };
    if (r !== "both") kind = r;
  }
  const firstDiff = one.events.length === other.events.length ? null : length;
  return { kind: kind || "same", firstDiff };
}

// The page's sentence on two compared searches.
export function compareText(one, other, result) {
  const a = one.algo;
  const b = other.algo;
  const c = one.counts[one.counts.length - 1];
  if (result.firstDiff === null) {
    const counts = `${plural(c.tries, "try", "tries")} and ${plural(c.conflicts, "conflict")} each`;
    if (result.kind === "mirror") {
      return `${a} and ${b} make the same tries in the same order (${counts}), each on the other's square mirrored in the main diagonal: one fills the board column by column, the other row by row, with the same test, so reflecting the board in that diagonal turns one search into the other.`;
    }
    return `${a} and ${b} make the same steps in the same order (${counts}): both scan a line's squares in order and back up the same way; they differ only in how they keep their state and test a square.`;
  }
  const at = result.firstDiff + 1;
  const what = (track) => {
    const ev = track.events[result.firstDiff];
    if (!ev) return `${track.algo} has already ended`;
    const where = ev.row !== null && ev.col !== null ? ` at (${ev.row}, ${ev.col})` : "";
    return `${track.algo} does ${ev.event}${where}`;
  };
  const mirrored = result.kind === "mirror" ? " (until then each on the other's square mirrored in the main diagonal)" : "";
  return `The two searches first differ at step ${fmt(at)}${mirrored}: ${what(one)}, ${what(other)}.`;
}

// The quiz's words for an answer to "where does the search try next?": `index` is the try's
// index in `track`, `pick` the square [row, column] chosen. The correction says why in the
// words the steps already have: the step before the try (what led to it) and the try itself.
export function whereFeedback(track, index, pick, n) {
  const ev = track.events[index];
  const right = ev.row === pick[0] && ev.col === pick[1];
  if (right) return { right, text: `Right: the search tries ${square(ev.row, ev.col)}.` };
  const before = index > 0 ? `${explain(track.events[index - 1], n, track.algo)} ` : "";
  return {
    right,
    text: `Not ${square(pick[0], pick[1])}: the search tries ${square(ev.row, ev.col)}. Why: ${before}${explain(ev, n, track.algo)}`,
  };
}

// What happens after the try at `index` (quiz=verdict): "place" (the square is safe),
// "conflict" (attacked; `with` and `kind` name the queen the test finds and the line they
// share) or "back" (attacked, and it was the line's last square: the search backs up). `after`
// is the index of the last step the verdict covers. Null when the trace stops at the try.
export function verdictOf(track, index) {
  const next = track.events[index + 1];
  if (!next) return null;
  if (next.event === "conflict") {
    const then = track.events[index + 2];
    const back = Boolean(then && then.event === "backtrack");
    return { verdict: back ? "back" : "conflict", with: next.with, kind: next.kind, after: index + (back ? 2 : 1) };
  }
  return { verdict: "place", after: index + 1 };
}

// Whether a queen on (qr, qc) attacks (r, c) along `kind`: "row", "column" or "diagonal".
function attacksAlong(qr, qc, r, c, kind) {
  if (qr === r && qc === c) return false;
  if (kind === "row") return qr === r;
  if (kind === "column") return qc === c;
  return Math.abs(qr - r) === Math.abs(qc - c);
}

// The quiz's words for a verdict on the try at `index`: `answer` is { verdict: "place" |
// "conflict" | "back", kind, queen: [row, column] } (kind and queen for a conflict). A conflict
// is right when the queen named attacks the square along the line named, on the last square of
// a line too (the truth is then "back": the conflict comes first, and the back-up after it, so
// both answers are right); the correction gives the steps' own explanations.
export function verdictFeedback(track, index, answer, n) {
  const ev = track.events[index];
  const truth = verdictOf(track, index);
  const why = track.events.slice(index + 1, truth.after + 1).map((e) => explain(e, n, track.algo)).join(" ");
  const said = answer.verdict === "place" ? "place a queen"
    : answer.verdict === "back" ? "back up"
      : `a conflict along their ${answer.kind} with the queen at ${square(answer.queen[0], answer.queen[1])}`;
  let right = answer.verdict === truth.verdict;
  let note = "";
  if (answer.verdict === "conflict" && (truth.verdict === "conflict" || truth.verdict === "back")) {
    const [qr, qc] = answer.queen;
    const queens = eventQueens(ev, n);
    right = queens[qr] === qc && attacksAlong(qr, qc, ev.row, ev.col, answer.kind);
    if (right && (qr !== truth.with.row || qc !== truth.with.col || answer.kind !== truth.kind)) {
      note = ` (That queen attacks it along their ${answer.kind} too, but the test meets the queen at ${square(truth.with.row, truth.with.col)} first.)`;
    }
    if (right && truth.verdict === "back") {
      const last = track.byColumn ? `the last row of column ${ev.col}` : `the last square of row ${ev.row}`;
      note += ` (It was also ${last}, so the search then backs up: Back up was right too.)`;
    }
  }
  return { right, text: `${right ? "Right" : `Not ${said}`}: ${why}${note}` };
}

// The search tree of a trace (tree=1): the root is the empty board, each queen placed (or, for
// bfs, each board queued) a child of the board it extends, one level per queen, and each
// conflict a pruned leaf under the board whose line it tried. A node: { id, parent, depth,
// square: [row, col] or null, kind: "root" | "placed" | "pruned", step (the index of the event
// that made it: the place, enqueue or conflict), end (the index of the remove that undid it, or
// Infinity), solution, with and line (a pruned leaf's attacker and shared line), children }.
// `current[i]` is the node the search stands on after event i; `level[i]` the level of try i.
export function buildTree(track) {
  const nodes = [{ id: 0, parent: -1, depth: 0, square: null, kind: "root", step: -1, end: Infinity, children: [] }];
  const current = new Array(track.events.length);
  const levels = new Array(track.events.length).fill(-1);
  let cur = 0;
  const queue = [];
  const add = (parent, fields) => {
    const node = { id: nodes.length, parent, depth: nodes[parent].depth + 1, end: Infinity, children: [], ...fields };
    nodes.push(node);
    nodes[parent].children.push(node.id);
    return node.id;
  };
  track.events.forEach((ev, i) => {
    const square = ev.row !== null && ev.col !== null ? [ev.row, ev.col] : null;
    switch (ev.event) {
      case "try":
        levels[i] = nodes[cur].depth;
        break;
      case "conflict":
        add(cur, { square, kind: "pruned", step: i, with: ev.with, line: ev.kind });
        break;
      case "place":
        cur = add(cur, { square, kind: "placed", step: i });
        break;
      case "remove":
        nodes[cur].end = i;
        cur = Math.max(0, nodes[cur].parent);
        break;
      case "solution":
        nodes[cur].solution = true;
        break;
      case "enqueue":
        queue.push(square ? add(cur, { square, kind: "placed", step: i }) : 0);
        break;
      case "dequeue":
        cur = queue.length ? queue.shift() : 0;
        break;
      default:
        break;
    }
    current[i] = cur;
  });
  return { nodes, current, levels };
}
