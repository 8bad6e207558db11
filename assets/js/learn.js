// Learn: play a trace of the search (the events of `queens trace --format json`, from
// /api/trace). Each event names a square (row, col), carries the board after the step as a
// positions array (-1 = empty), indexed by row, or by column for the column-wise `backtrack`
// solver ("positions_by"), and for that solver its first-untried array ("untried").
//
// Beside the board: the algorithm's own code with the line the step runs (js/code.js), the
// state as a teacher draws it (each array a row of indexed cells, the entry just changed
// marked), and, with "Compare with", a second search of the same board stepping along.

import { api } from "./api.js";
import { Board, board } from "./board.js";
import { CODE, lineOf } from "./code.js";
import { $, fillOptions, fillSizes, offers } from "./dom.js";

// What the algorithm select says of each algorithm the server traces (any other: its name).
const DESCRIPTIONS = {
  backtrack: "backtrack (column-wise, COMP 333)",
  iterative: "iterative (textbook loop)",
  recursive: "recursive (Horowitz-Sahni)",
  wirth: "wirth (boolean arrays)",
  bfs: "bfs (breadth-first)",
  bitboard: "bitboard (bitmasks)",
};

// The board size shown first, unless the address asks for another.
const DEFAULT_N = 6;

// Speeds the slider offers, in steps a second.
const SPEEDS = [1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120, 200, 400];

// The server's limits for this view (config.learn): max_n, events_default, events_max, algorithms.
let limits = null;
let changed = () => {};

const second = new Board("board2");

const state = {
  main: null, // the trace shown: see loadTrack
  other: null, // the trace compared with it, or null
  at: -1, // index of the event shown; -1 = before the first
  timer: null,
  loaded: "",
  tooLarge: null, // a size the address asked for above the limit
  askedStep: null, // the step the address asked for, until the trace is there
  pinned: null, // [row, col] whose attacks the user asked to see, or null
  active: false,
};

const fmt = (k) => (typeof k === "number" ? k.toLocaleString("en") : String(k));
const plural = (k, one, many) => `${fmt(k)} ${k === 1 ? one : many || `${one}s`}`;

// The kinds of step each jump button goes to.
const JUMPS = {
  "learn-next-place": ["place", "enqueue"],
  "learn-next-back": ["backtrack"],
  "learn-next-solution": ["solution", "nosolution"],
};

// The queens of an event's board as columns by row (-1 for an empty row).
function eventQueens(ev, n) {
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

function explain(ev, n) {
  const at = ev.row !== null && ev.col !== null ? square(ev.row, ev.col) : "";
  const byColumn = ev.positions_by === "column";
  switch (ev.event) {
    case "try":
      return byColumn
        ? `Try the first untried row of column ${ev.col}: ${at} (setPositionTried: untried[${ev.col}] becomes ${ev.untried ? ev.untried[ev.col] : ev.row + 1}).`
        : `Try the square at ${at}.`;
    case "conflict":
      return `The square at ${at} is attacked by the queen at ${square(ev.with.row, ev.with.col)}`
        + ` along their ${ev.kind}: skip it.`;
    case "place":
      return byColumn
        ? `No queen attacks ${at}: keep the queen there and go on to column ${ev.col + 1}.`
        : `No queen attacks ${at}: place a queen there.`;
    case "remove":
      return `Take the queen off ${at} and look further${byColumn ? " down its column" : " along its row"}.`;
    case "backtrack":
      if (byColumn && ev.col !== null) {
        return ev.col > 0
          ? `Every row of column ${ev.col} has been tried: mark them all untried again (setAllPositionsUntried) and back up to column ${ev.col - 1}.`
          : "Every row of column 0 has been tried: nothing is left to back up to.";
      }
      if (ev.row !== null) {
        return ev.row > 0
          ? `Every square of row ${ev.row} has been tried: back up to row ${ev.row - 1}.`
          : "Every square of row 0 has been tried: nothing is left to back up to.";
      }
      return "Nothing left to try here: back up.";
    case "solution":
      return byColumn
        ? "A queen in every column and none attacks another: a solution!"
        : "A queen on every row and none attacks another: a solution!";
    case "nosolution":
      return `Every placement has been tried: the ${n}\u00d7${n} board has no solution.`;
    case "enqueue":
      return at
        ? `Queue the board with a new queen at ${at} (${plural(ev.queue, "board")} waiting).`
        : `Queue the empty board (${plural(ev.queue, "board")} waiting).`;
    case "dequeue":
      if (ev.row === null || ev.row >= n) {
        return `Take the next board off the queue: every row is filled (${plural(ev.queue, "board")} left waiting).`;
      }
      return `Take the next board off the queue to fill row ${ev.row} (${plural(ev.queue, "board")} left waiting).`;
    default:
      return `${ev.event} ${at}`;
  }
}

// A trace as the page keeps it: its events (and a closing "nosolution" when the search ended
// without one), the counts up to each event, and what the server says of it.
function makeTrack(algo, n, body) {
  const events = body.events.slice();
  if (!body.cut && body.summary && body.summary.solutions === 0) {
    const last = events[events.length - 1];
    events.push({
      event: "nosolution",
      step: (last ? last.step : 0) + 1,
      row: null,
      col: null,
      positions: last ? last.positions : new Array(n).fill(-1),
      positions_by: body.positions_by,
      untried: last ? last.untried : undefined,
    });
  }
  const counts = [];
  const c = { tries: 0, conflicts: 0, placements: 0, backtracks: 0 };
  for (const ev of events) {
    if (ev.event === "try") c.tries++;
    else if (ev.event === "conflict") c.conflicts++;
    else if (ev.event === "place" || (ev.event === "enqueue" && ev.row !== null)) c.placements++;
    else if (ev.event === "backtrack") c.backtracks++;
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
  return { algo, n, events, counts, marks, cut: Boolean(body.cut), summary: body.summary, byColumn: body.positions_by === "column", full: null };
}

function size() {
  return Number($("learn-size").value);
}

function lastIndex() {
  const lengths = [state.main, state.other].filter(Boolean).map((t) => t.events.length);
  return (lengths.length ? Math.max(...lengths) : 0) - 1;
}

// Draws event `index` of `track` on `view` (index -1: the empty board).
function drawStep(view, track, index, n, marks) {
  const ev = index >= 0 ? track.events[Math.min(index, track.events.length - 1)] : null;
  if (!ev) {
    view.show(n, [], `${n}-queens search, before the first step`, `Empty ${n} by ${n} board`);
    return null;
  }
  const queens = eventQueens(ev, n);
  view.show(n, queens, `${n}-queens search, step ${ev.step}: ${queens.join(" ")}`,
    `Step ${index + 1}: ${explain(ev, n)}`);
  const r = ev.row;
  const c = ev.col;
  const onBoard = r !== null && c !== null && r >= 0 && c >= 0 && r < n && c < n;
  if (marks.all) {
    queens.forEach((col, row) => {
      if (col >= 0) view.markAttackedFrom(row, col);
    });
  }
  switch (ev.event) {
    case "try":
      if (onBoard) {
        if (!marks.all) view.markAttackedFrom(r, c);
        view.mark(r, c, "tried");
        if (queens[r] !== c) view.ghost(r, c, "trying");
      }
      break;
    case "conflict":
      if (onBoard) {
        view.mark(r, c, "conflict");
        if (queens[r] !== c) view.ghost(r, c, "conflict");
      }
      if (ev.with) {
        const q = view.queen(ev.with.row, ev.with.col);
        if (q) q.classList.add("attacker");
        view.line(ev.with.row, ev.with.col, r, c);
      }
      break;
    case "place":
    case "enqueue":
      if (onBoard) {
        view.mark(r, c, "placed");
        const q = view.queen(r, c);
        if (q) q.classList.add("just-placed");
      }
      break;
    case "remove":
      if (onBoard) {
        view.mark(r, c, "removed");
        view.ghost(r, c, "removed");
      }
      break;
    case "backtrack":
      view.band(ev.positions_by === "column" ? c : r, ev.positions_by === "column", "backtrack-band");
      break;
    case "dequeue":
      view.band(r, false, "dequeue-band");
      break;
    case "solution":
      view.frame("solution-frame");
      for (const q of view.svg.querySelectorAll(".queen")) q.classList.add("solved");
      break;
    case "nosolution":
      view.frame("nosolution-frame");
      break;
    default:
      break;
  }
  if (marks.pinned) {
    const [pr, pc] = marks.pinned;
    if (pr < n && pc < n) {
      view.markAttackedFrom(pr, pc, "attacked");
      view.mark(pr, pc, "pinned");
    }
  }
  return ev;
}

function countsText(track, index) {
  const c = index >= 0 ? track.counts[Math.min(index, track.counts.length - 1)] : null;
  const k = c || { tries: 0, conflicts: 0, placements: 0, backtracks: 0 };
  const placed = track.algo === "bfs" ? "boards queued" : "placements";
  return `${plural(k.tries, "try", "tries")}, ${plural(k.conflicts, "conflict")}, `
    + `${fmt(k.placements)} ${k.placements === 1 ? placed.replace(/s$/, "").replace("boards", "board") : placed}, `
    + `${plural(k.backtracks, "backtrack")}`;
}

// One array as a row of indexed cells; `changed` holds the indexes that just changed.
function arrayTable(name, values, changed, note) {
  const table = document.createElement("table");
  table.className = "array";
  const caption = document.createElement("caption");
  caption.textContent = name;
  if (note) {
    const small = document.createElement("span");
    small.className = "array-note";
    small.textContent = ` ${note}`;
    caption.appendChild(small);
  }
  table.appendChild(caption);
  const head = document.createElement("tr");
  const body = document.createElement("tr");
  const th0 = document.createElement("th");
  th0.textContent = "i";
  th0.scope = "row";
  head.appendChild(th0);
  const th1 = document.createElement("th");
  th1.textContent = "";
  th1.scope = "row";
  body.appendChild(th1);
  values.forEach((v, i) => {
    const h = document.createElement("th");
    h.scope = "col";
    h.textContent = String(i);
    head.appendChild(h);
    const d = document.createElement("td");
    d.textContent = String(v);
    if (changed.has(i)) d.className = "changed";
    if (v === "F") d.classList.add("taken");
    body.appendChild(d);
  });
  table.append(head, body);
  return table;
}

function diff(now, before) {
  const out = new Set();
  if (!before) return out;
  now.forEach((v, i) => {
    if (before[i] !== v) out.add(i);
  });
  return out;
}

// Wirth's three arrays, from the board: a[j] no queen in column j, b[i+j] none on that
// down-left diagonal, c[i-j+N-1] none on that down-right one.
function wirthArrays(queens, n) {
  const a = new Array(n).fill("T");
  const b = new Array(2 * n - 1).fill("T");
  const c = new Array(2 * n - 1).fill("T");
  queens.forEach((j, i) => {
    if (j < 0) return;
    a[j] = "F";
    b[i + j] = "F";
    c[i - j + n - 1] = "F";
  });
  return { a, b, c };
}

// The bitmask search's masks on the row it fills next (bit j = column j, as the board shows it).
function bitMasks(queens, n) {
  const k = queens.findIndex((c) => c < 0);
  const row = k < 0 ? n : k;
  const cols = new Array(n).fill(0);
  const left = new Array(n).fill(0);
  const right = new Array(n).fill(0);
  queens.forEach((c, r) => {
    if (c < 0) return;
    cols[c] = 1;
    const d = row - r;
    if (c - d >= 0) left[c - d] = 1;
    if (c + d < n) right[c + d] = 1;
  });
  const free = cols.map((v, j) => (v || left[j] || right[j] ? 0 : 1));
  return { row, cols, left, right, free };
}

function showArrays(track, index, n) {
  const holder = $("learn-arrays");
  holder.replaceChildren();
  const ev = index >= 0 ? track.events[Math.min(index, track.events.length - 1)] : null;
  const prev = index > 0 ? track.events[Math.min(index - 1, track.events.length - 1)] : null;
  const empty = new Array(n).fill(-1);
  const positions = ev ? ev.positions : empty;
  const before = prev ? prev.positions : (ev ? empty : null);
  holder.appendChild(arrayTable(track.byColumn ? "positions[column] = row" : "positions[row] = column",
    positions, diff(positions, before)));
  if (track.algo === "backtrack") {
    const untried = ev && Array.isArray(ev.untried) ? ev.untried : new Array(n).fill(0);
    const was = prev && Array.isArray(prev.untried) ? prev.untried : (ev ? new Array(n).fill(0) : null);
    holder.appendChild(arrayTable("untried[column] = first row not tried yet", untried, diff(untried, was)));
  }
  const queens = ev ? eventQueens(ev, n) : empty;
  const prevQueens = prev ? eventQueens(prev, n) : (ev ? empty : null);
  if (track.algo === "wirth") {
    const now = wirthArrays(queens, n);
    const was = prevQueens ? wirthArrays(prevQueens, n) : null;
    holder.appendChild(arrayTable("a[j]: column j free", now.a, diff(now.a, was && was.a)));
    holder.appendChild(arrayTable("b[i+j]: diagonal \u2199 free", now.b, diff(now.b, was && was.b)));
    holder.appendChild(arrayTable("c[i\u2212j+N\u22121]: diagonal \u2198 free", now.c, diff(now.c, was && was.c)));
  }
  if (track.algo === "bitboard") {
    const m = bitMasks(queens, n);
    if (m.row < n) {
      holder.appendChild(arrayTable(`cols (row ${m.row})`, m.cols, new Set()));
      holder.appendChild(arrayTable("left", m.left, new Set()));
      holder.appendChild(arrayTable("right", m.right, new Set()));
      holder.appendChild(arrayTable("free", m.free, new Set()));
    }
  }
  if (track.algo === "bfs") {
    // The queue's length and the board last taken out of it, as of this step.
    let queue = null;
    let taken = null;
    let level = 0;
    for (let i = Math.min(index, track.events.length - 1); i >= 0; i--) {
      const e = track.events[i];
      if (queue === null && typeof e.queue === "number") queue = e.queue;
      if (e.event === "dequeue" && taken === null) {
        taken = e.positions;
        level = e.row === null ? n : e.row;
      }
      if (taken !== null && queue !== null) break;
    }
    if (queue === null) queue = 0;
    if (ev && typeof ev.queue === "number") queue = ev.queue;
    const p = document.createElement("p");
    p.className = "queue";
    p.id = "learn-queue";
    p.textContent = taken
      ? `Queue: ${plural(queue, "board")} waiting; filling row ${level} of the board taken out:`
      : `Queue: ${plural(queue, "board")} waiting.`;
    holder.appendChild(p);
    if (taken) holder.appendChild(arrayTable("board taken out (positions[row] = column)", taken, new Set()));
    // The queue's length as each level began: the boards with k rows filled.
    const levels = [];
    for (let i = 0; i <= Math.min(index, track.events.length - 1); i++) {
      const e = track.events[i];
      if (e.event === "dequeue" && e.row !== null && levels[e.row] === undefined) levels[e.row] = e.queue + 1;
    }
    if (levels.length) {
      holder.appendChild(arrayTable("boards queued at level k (k rows filled)", [...levels].map((v) => v ?? 0), new Set()));
    }
  }
}

function showCode(track, ev) {
  const code = CODE[track.algo];
  const list = $("learn-code");
  $("learn-code-title").textContent = code ? code.title : track.algo;
  list.replaceChildren();
  if (!code) return;
  const current = ev ? lineOf(track.algo, ev.event, ev) : -1;
  code.lines.forEach((text, i) => {
    const li = document.createElement("li");
    li.textContent = text || "\u00a0";
    if (i === current) {
      li.className = "current";
      li.setAttribute("aria-current", "step");
    }
    list.appendChild(li);
  });
}

function showEvent() {
  const n = size();
  const track = state.main;
  if (!track) return;
  const total = lastIndex() + 1;
  const marks = { all: $("learn-attacks").checked, pinned: state.pinned };
  $("learn-step-label").textContent = `Step ${state.at + 1} of ${total}${track.cut ? " (trace cut short)" : ""}`;
  const ev = drawStep(board, track, state.at, n, marks);
  const text = ev ? explain(ev, n) : (total ? "Press Play or Step to start the search." : "");
  $("learn-explain").textContent = state.other && ev && state.at > track.events.length - 1
    ? `${track.algo} has finished. ${text}`
    : text;
  showArrays(track, state.at, n);
  showCode(track, ev);
  $("learn-counts").textContent = `${track.algo}: ${countsText(track, state.at)}`;
  if (state.other) {
    const evOther = drawStep(second, state.other, state.at, n, marks);
    $("learn-counts2").textContent = `${state.other.algo}: ${countsText(state.other, state.at)}`;
    $("learn-explain2").textContent = evOther ? explain(evOther, n) : "";
  }
  setButtons();
  // While playing, the address follows on pause (browsers refuse hundreds of updates a second).
  if (!state.timer) changed();
}

function setButtons() {
  const last = lastIndex();
  const none = !state.main || last < 0;
  $("learn-start").disabled = none || state.at < 0;
  $("learn-back").disabled = none || state.at < 0;
  $("learn-step").disabled = none || state.at >= last;
  for (const id of Object.keys(JUMPS)) $(id).disabled = none || nextMark(id, state.at) < 0;
  $("learn-end").disabled = none || state.at >= last;
  $("learn-play").disabled = none;
  $("learn-play").textContent = state.timer ? "\u275A\u275A Pause" : "\u25B6 Play";
  $("learn-play").setAttribute("aria-pressed", state.timer ? "true" : "false");
}

function stepTo(index) {
  state.at = Math.max(-1, Math.min(index, lastIndex()));
  showEvent();
}

// The index of the first step after `at` that the jump `id` lands on, or -1.
function nextMark(id, at) {
  const list = state.main ? state.main.marks[id] : [];
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo] : -1;
}

function jump(id) {
  pause();
  const to = nextMark(id, state.at);
  if (to >= 0) stepTo(to);
}

function speed() {
  return SPEEDS[Number($("learn-speed").value)] || 8;
}

function play() {
  if (state.timer) return pause();
  if (!state.main) return undefined;
  if (state.at >= lastIndex()) state.at = -1;
  // Screen readers would be flooded while playing: only speak when stepping.
  $("learn-explain").setAttribute("aria-live", "off");
  const tick = () => {
    if (state.at >= lastIndex()) return pause();
    // Fast speeds move several steps per frame.
    const perTick = Math.max(1, Math.round(speed() / 60));
    stepTo(state.at + perTick);
    state.timer = setTimeout(tick, Math.max(1000 / speed(), 16));
    setButtons();
    return undefined;
  };
  state.timer = setTimeout(tick, 0);
  setButtons();
  return undefined;
}

export function pause() {
  const was = state.timer;
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  if (was) changed();
  $("learn-explain").setAttribute("aria-live", "polite");
  if ($("learn-play")) setButtons();
}

function describeSummary(s, algo, n) {
  const parts = [plural(s.tries, "square") + " tried"];
  if (s.conflicts) parts.push(plural(s.conflicts, "conflict"));
  if (algo !== "bfs") parts.push(`${plural(s.placements, "queen")} placed`);
  if (s.removals) parts.push(`${fmt(s.removals)} removed`);
  if (s.backtracks) parts.push(plural(s.backtracks, "backtrack"));
  if (s.enqueues) parts.push(`${plural(s.enqueues, "board")} queued`);
  const end = s.solutions ? "up to its first solution" : "to its end (no solution)";
  return `The ${algo} search of the ${n}\u00d7${n} board ${end}: ${parts.join(", ")}.`;
}

async function fetchTrack(n, algo) {
  const body = await api(`/api/trace?n=${n}&algo=${algo}&limit=${limits.events_default}`);
  return makeTrack(algo, n, body);
}

// A cut trace's whole figures come from its summary, counted apart (it may take a few seconds:
// the trace is shown meanwhile).
async function fetchFull(track, key) {
  try {
    track.full = await api(`/api/summary?n=${track.n}&algo=${track.algo}`);
  } catch (_) {
    track.full = false;
  }
  if (state.loaded === key) showNote();
}

function showNote() {
  $("learn-note").textContent = [state.main, state.other].filter(Boolean).map(noteFor).join(" ");
}

function noteFor(track) {
  const n = track.n;
  if (!track.cut) return describeSummary(track.summary, track.algo, n);
  const shown = `The trace was cut after its first ${track.events.length.toLocaleString("en")} steps.`;
  if (track.full === false) return `${shown} The whole search is longer.`;
  if (!track.full) return `${shown} The whole search is longer: counting its steps\u2026`;
  return `${shown} Counted without recording, the whole search takes ${fmt(track.full.events)} steps: `
    + describeSummary(track.full, track.algo, n);
}

async function loadTrace() {
  const n = size();
  const algo = $("learn-algo").value;
  const otherAlgo = $("learn-compare").value;
  const key = `${n}|${algo}|${otherAlgo}`;
  if (state.loaded === key) return;
  pause();
  state.loaded = key;
  state.main = null;
  state.other = null;
  $("learn-note").textContent = "Loading the trace\u2026";
  document.querySelector(".stage").classList.toggle("comparing", Boolean(otherAlgo));
  $("board2-wrap").hidden = !otherAlgo;
  try {
    const [main, other] = await Promise.all([
      fetchTrack(n, algo),
      otherAlgo ? fetchTrack(n, otherAlgo) : Promise.resolve(null),
    ]);
    if (state.loaded !== key) return;
    state.main = main;
    state.other = other;
    showNote();
    for (const track of [main, other]) if (track && track.cut) fetchFull(track, key);
    let at = -1;
    if (state.askedStep !== null) {
      at = state.askedStep === "end" ? lastIndex() : state.askedStep - 1;
      state.askedStep = null;
    }
    stepTo(at);
  } catch (error) {
    if (state.loaded !== key) return;
    state.loaded = "";
    $("learn-note").textContent = `Could not load the trace: ${error.message}`;
  }
}

function showTooLarge() {
  const n = state.tooLarge;
  const max = limits.max_n;
  board.clear(`Learn traces boards up to ${max}\u00d7${max}: ${n}\u00d7${n} has too many steps to watch. `
    + "Choose a size up to the limit, or use Browse or Solve for this board.");
  $("learn-step-label").textContent = "";
  $("learn-explain").textContent = `N = ${n} is above the Learn limit of ${max}.`;
  $("learn-note").textContent = "";
  $("learn-arrays").replaceChildren();
  $("learn-code").replaceChildren();
}

// Sets up the view: `config` is config.learn, `url` what the address asks for (its `mode`, `n`,
// `algo`, and `params`: step, compare), `onChange` is called whenever the state the address
// keeps has changed.
export function init(config, url, onChange) {
  limits = config;
  changed = onChange;
  const mine = url.mode === "learn";
  if (mine && url.n && url.n > limits.max_n) state.tooLarge = url.n;
  const asked = mine && url.n && url.n <= limits.max_n;
  fillSizes($("learn-size"), limits.max_n, asked ? url.n : Math.min(DEFAULT_N, limits.max_n));
  const names = limits.algorithms.map((name) => [name, DESCRIPTIONS[name] || name]);
  fillOptions($("learn-algo"), names);
  fillOptions($("learn-compare"), [["", "nothing"], ...names]);
  if (mine && offers($("learn-algo"), url.algo)) $("learn-algo").value = url.algo;
  if (mine) {
    const other = url.params.get("compare");
    if (other && offers($("learn-compare"), other)) $("learn-compare").value = other;
    const step = url.params.get("step");
    if (step === "end") state.askedStep = "end";
    else if (step !== null && /^\d+$/.test(step)) state.askedStep = Number(step);
  }

  const reload = () => {
    state.tooLarge = null;
    state.pinned = null;
    loadTrace();
  };
  $("learn-size").addEventListener("change", reload);
  $("learn-algo").addEventListener("change", reload);
  $("learn-compare").addEventListener("change", reload);
  $("learn-attacks").addEventListener("change", showEvent);
  $("learn-play").addEventListener("click", play);
  $("learn-step").addEventListener("click", () => { pause(); stepTo(state.at + 1); });
  $("learn-back").addEventListener("click", () => { pause(); stepTo(state.at - 1); });
  $("learn-start").addEventListener("click", () => { pause(); stepTo(-1); });
  for (const id of Object.keys(JUMPS)) $(id).addEventListener("click", () => jump(id));
  $("learn-end").addEventListener("click", () => { pause(); stepTo(lastIndex()); });
  const showSpeed = () => {
    const s = speed();
    $("learn-speed-out").textContent = `${s} steps/s`;
    $("learn-speed").setAttribute("aria-valuetext", `${s} steps a second`);
  };
  $("learn-speed").addEventListener("input", showSpeed);
  showSpeed();
}

// A click on a square of the board: shows (or hides again) what a queen there would attack.
export function toggleSquare(r, c) {
  const same = state.pinned && state.pinned[0] === r && state.pinned[1] === c;
  state.pinned = same ? null : [r, c];
  showEvent();
}

// Back to this view: the step it showed, and the trace the selects ask for.
export function show() {
  state.active = true;
  if (state.tooLarge) {
    showTooLarge();
    changed();
    return;
  }
  document.querySelector(".stage").classList.toggle("comparing", Boolean($("learn-compare").value));
  $("board2-wrap").hidden = !$("learn-compare").value;
  if (state.main) showEvent();
  loadTrace();
}

export function hide() {
  state.active = false;
  document.querySelector(".stage").classList.remove("comparing");
  $("board2-wrap").hidden = true;
}

export function toUrl(params) {
  params.set("n", state.tooLarge ? String(state.tooLarge) : $("learn-size").value);
  params.set("algo", $("learn-algo").value);
  if ($("learn-compare").value) params.set("compare", $("learn-compare").value);
  if (state.main && state.at >= 0) params.set("step", String(state.at + 1));
}

export function downloadSuffix() {
  return `-step-${state.at + 1}`;
}

// The view's keys; true when `event` was one of them.
export function onKey(event) {
  const key = event.key;
  if (state.tooLarge) return false;
  if (key === "ArrowRight" || key === "ArrowDown") { pause(); stepTo(state.at + 1); }
  else if (key === "ArrowLeft" || key === "ArrowUp") { pause(); stepTo(state.at - 1); }
  else if (key === "Home") { pause(); stepTo(-1); }
  else if (key === "End") { pause(); stepTo(lastIndex()); }
  else if (key === " " || key === "Spacebar") play();
  else return false;
  return true;
}
