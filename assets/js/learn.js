// Learn: play a trace of the search (the events of `queens trace --format json`, from
// /api/trace), up to the first solution or, with "Every solution", to the search's end. Each
// event names a square (row, col), carries the board after the step as a positions array
// (-1 = empty), indexed by row, or by column for the column-wise `backtrack` solver
// ("positions_by"), and for that solver its first-untried array ("untried").
//
// Beside the board (js/learn-state.js): the algorithm's own code with the lines the step runs,
// the loop variables, the state as a teacher draws it, and the conflict test in the
// algorithm's arithmetic. With "Compare with", a second search of the same board steps along
// with its own code and state, and the page says where the two first differ
// (js/learn-track.js); while a quiz's question is open, the second search is hidden.

import { api } from "./api.js";
import { Board, board } from "./board.js";
import { $, fillOptions, fillSizes, offers } from "./dom.js";
import { exhaustedLine, seedFigure } from "./learn-why.js";
import { checkText, levelText, showArrays, showCode, showTree, varsText } from "./learn-state.js";
import { JUMPS, buildTree, compareText, compareTracks, countsText, describeSummary, eventQueens, explain, makeTrack, verdictFeedback, verdictOf, whereFeedback } from "./learn-track.js";

// The board size shown first, unless the address asks for another.
const DEFAULT_N = 6;

// Speeds the slider offers, in steps a second.
const SPEEDS = [1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120, 200, 400];

// The server's limits for this view (config.learn): max_n, events_default, events_max,
// algorithms, and the label the algorithm menus show for each (labels; any other: its name).
let limits = null;
let changed = () => {};

const second = new Board("board2");

const state = {
  main: null, // the trace shown: see loadTrack
  other: null, // the trace compared with it, or null
  at: -1, // index of the event shown; -1 = before the first
  timer: null,
  loaded: "",
  tooLarge: null, // a size the address asked for above the limit, as written (or what it gave as n)
  notSize: false, // whether `tooLarge` is no size at all (`n=abc`, `n=0`, `n=1e1`)
  askedStep: null, // the step the address asked for, until the trace is there
  pinned: null, // [row, col] whose attacks the user asked to see, or null
  active: false,
  compared: null, // how the two traces relate: see compareTracks
  compareNote: "", // the page's sentence on them (compareText), shown while no question is open
  afterLoad: null, // the step to show once the next trace is there, from that trace
  askedQuestion: null, // the question the address asked for, until the trace is there
  tree: null, // the main search's tree (buildTree), made when the tree is first shown
  treeOpen: new Set(), // the tree's nodes opened by the user, off the search's path
  treeClosed: new Set(), // nodes the user closed (on the search's path too), until the search moves to another node
  treeHere: null, // the tree's node the search stood on when the tree was last drawn
  treeFocus: null, // the tree's node that has (or last had) the keyboard's focus
};

// The student's turn. quiz=where: before each try the search stops and the student says which
// square it will try. quiz=verdict: at each try the student says what happens next (a queen
// placed, a conflict and with which queen along which line, or a back-up). Question k is the
// k-th try of the main search.
const quiz = {
  kind: "", // "" (no quiz), "where" or "verdict"
  right: 0, // answers right so far
  asked: 0, // answers given so far
  streak: 0, // right answers in a row, up to the last one
  answered: 0, // the number of the last question answered (or passed): it is not asked again
  cursor: [0, 0], // the keyboard's square, [row, column] (the focused board's too)
  last: null, // the last answer: { index (of the step it led to), pick, right, text }
  naming: null, // verdict: the line of the conflict chosen ("row", "column", "diagonal"), until the queen is named
};

const fmt = (k) => (typeof k === "number" ? k.toLocaleString("en") : String(k));

function size() {
  return Number($("learn-size").value);
}

function lastIndex() {
  const lengths = [state.main, state.other].filter(Boolean).map((t) => t.events.length);
  return (lengths.length ? Math.max(...lengths) : 0) - 1;
}

// The queens of a step in the order of the array on screen: column by column for the
// column-wise search ("column 0: row 2, column 1: none, ..."), else row by row.
export function queensInWords(ev, n) {
  const positions = Array.isArray(ev.positions) ? ev.positions : new Array(n).fill(-1);
  const [line, other] = ev.positions_by === "column" ? ["column", "row"] : ["row", "column"];
  const parts = positions.map((p, i) => `${line} ${i}: ${p >= 0 ? `${other} ${p}` : "none"}`);
  return `Queens, ${line} by ${line}: ${parts.join(", ")}.`;
}

// The queens of a step as the array on screen holds them, for the board's hover title: the
// row of each column for the column-wise search, the column of each row otherwise.
function positionsInOrder(ev, n) {
  const positions = Array.isArray(ev.positions) ? ev.positions : new Array(n).fill(-1);
  const what = ev.positions_by === "column" ? "rows by column" : "columns by row";
  return `${what} ${positions.map((p) => (p >= 0 ? String(p) : "\u2013")).join(" ")}`;
}

// The seed's figure (`queens trace --format board`): Q? on the candidate, R? and D? on the
// squares of the earlier columns the conflict test compares it with (R! and D! where a queen
// stands there), CC over the current column; with `candidateOnly` (a question of what happens
// next is open) Q? and CC alone. Returns whether the step has one.
function drawSeed(view, ev, n, candidateOnly) {
  const figure = seedFigure(ev, n);
  if (!figure) return false;
  view.currentColumn(figure.col);
  const line = { R: "row", D: "diagonal" };
  for (const check of candidateOnly ? [] : figure.checks) {
    view.tag(check.row, check.col, `${check.kind}${check.queen ? "!" : "?"}`,
      check.queen ? "tag-hit" : "tag-check",
      check.queen
        ? `The queen on row ${check.row}, column ${check.col} shares the candidate's ${line[check.kind]}`
        : `The test looks here: the candidate's ${line[check.kind]} in column ${check.col}`);
  }
  view.tag(figure.row, figure.col, "Q?", "tag-candidate", `The candidate: row ${figure.row}, column ${figure.col}`);
  return true;
}

// A backtrack's reasons: each square of the line given up marks the queen that attacks it (×k:
// the queen of column k, or of row k for a row-wise search) or, when no queen attacks it, that
// it was safe and every way on from it has been tried (✓).
function drawExhausted(view, ev, n) {
  const line = exhaustedLine(ev, n);
  if (!line) return;
  for (const sq of line.squares) {
    const a = sq.attacker;
    if (a) {
      view.tag(sq.row, sq.col, `\u00d7${line.byColumn ? a.col : a.row}`, "tag-attacked",
        `Attacked by the queen on row ${a.row}, column ${a.col} (their ${a.kind})`);
    } else {
      view.tag(sq.row, sq.col, "\u2713", "tag-safe", "Safe here, and every way on from it has been tried");
    }
  }
}

// Draws event `index` of `track` on `view` (index -1: the empty board). `marks`: { all (shade
// what every queen attacks), pinned (the square whose attacks to shade, or null),
// candidateOnly (a question of what happens next is open: the candidate and nothing that
// gives the answer away, no test marks, no shading), nextHidden (a question of where the
// search tries next is open: the words do not say) }.
function drawStep(view, track, index, n, marks) {
  const ev = index >= 0 ? track.events[Math.min(index, track.events.length - 1)] : null;
  if (!ev) {
    view.show(n, [], `${n}-queens search, before the first step`, `Empty ${n} by ${n} board`);
    return null;
  }
  const queens = eventQueens(ev, n);
  view.show(n, queens, `${n}-queens search, step ${ev.step}: ${positionsInOrder(ev, n)}`,
    `Step ${index + 1}: ${explain(ev, n, track.algo, !marks.nextHidden)} ${queensInWords(ev, n)}`);
  // The seed's figure (the column-wise search's try, conflict and placement) and a backtrack's
  // reasons come first: the step's own marks go over them.
  const shadeAll = marks.all && !marks.candidateOnly;
  const seed = !shadeAll && drawSeed(view, ev, n, marks.candidateOnly);
  if (ev.event === "backtrack") drawExhausted(view, ev, n);
  const r = ev.row;
  const c = ev.col;
  const onBoard = r !== null && c !== null && r >= 0 && c >= 0 && r < n && c < n;
  if (shadeAll) {
    queens.forEach((col, row) => {
      if (col >= 0) view.markAttackedFrom(row, col);
    });
  }
  switch (ev.event) {
    case "try":
      if (onBoard) {
        if (!marks.all && !seed && !marks.candidateOnly) view.markAttackedFrom(r, c);
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

// One search's code, variables, arrays and conflict test at the step shown; `suffix` names
// its elements ("" for the main search, "2" for the compared one).
function showSearch(track, index, n, suffix) {
  const ev = index >= 0 ? track.events[Math.min(index, track.events.length - 1)] : null;
  showCode($(`learn-code-title${suffix}`), $(`learn-code${suffix}`), track, ev, index);
  $(`learn-vars${suffix}`).textContent = varsText(track, index);
  showArrays($(`learn-arrays${suffix}`), track, index, n);
  $(`learn-check${suffix}`).textContent = checkText(track, ev);
}

// While a question is open the compared search shows nothing of its step: not its board's
// queens or marks, its words, its counts, its running lines, variables, arrays or test. Another
// algorithm's step at the same index may be ahead of the main search (bitboard tries only free
// squares; bfs goes level by level), so no step of it is safe to show, even the one before:
// its panels say so, and the answer brings them back.
const HIDDEN = "hidden until you answer";

function hideOther(n) {
  const algo = state.other.algo;
  second.show(n, [], `${n}-queens search (${algo}): ${HIDDEN}`,
    `The ${algo} search's board is ${HIDDEN}: its step could give the answer away.`);
  $("learn-counts2").textContent = `${algo}: ${HIDDEN}`;
  $("learn-explain2").textContent = `Its step is ${HIDDEN}: it could give the answer away.`;
  showCode($("learn-code-title2"), $("learn-code2"), state.other, null, -1);
  $("learn-vars2").textContent = `The ${algo} search's state is ${HIDDEN}.`;
  $("learn-arrays2").replaceChildren();
  $("learn-check2").textContent = "";
}

// The sentence on the two searches; while a question is open, where they first differ is not
// said (the steps it names may be the answer: "iterative does try at (1, 0)").
function showCompareNote(asking) {
  const note = $("learn-compare-note");
  if (!state.other || !state.compared) return;
  note.textContent = asking && state.compared.firstDiff !== null
    ? `Where ${state.main.algo} and ${state.other.algo} first differ is ${HIDDEN}.`
    : state.compareNote;
}

function showEvent() {
  const n = size();
  const track = state.main;
  if (!track) return;
  const total = lastIndex() + 1;
  const asking = questionPending() > 0;
  // An open question of what happens next shows the candidate alone: the test's marks and the
  // shading would give the answer away.
  const candidateOnly = quiz.kind === "verdict" && asking;
  const nextHidden = quiz.kind === "where" && asking;
  const marks = { all: $("learn-attacks").checked, pinned: state.pinned, candidateOnly, nextHidden };
  const label = $("learn-step-label");
  label.textContent = `Step ${fmt(state.at + 1)} of ${fmt(total)}${track.cut ? " (trace cut short)" : ""}`;
  // The mark says that the compared search's step differs: it waits for the answer too.
  const differs = !asking && state.compared && state.compared.firstDiff !== null
    && state.at === state.compared.firstDiff;
  label.classList.toggle("differs", Boolean(differs));
  $("learn-searches").hidden = false;
  const ev = drawStep(board, track, state.at, n, marks);
  showQuiz();
  showCursor(n);
  let text = ev ? explain(ev, n, track.algo, !nextHidden) : (total ? "Press Play or Step to start the search." : "");
  if (ev && !track.all && !track.cut && state.at === track.events.length - 1 && ev.event === "solution") {
    text += " Tick \u201cEvery solution\u201d (or press Next solution) to go on to the next one.";
  }
  $("learn-explain").textContent = state.other && ev && state.at > track.events.length - 1
    ? `${track.algo} has finished. ${text}`
    : text;
  showSearch(track, state.at, n, "");
  showTreePanel();
  $("learn-counts").textContent = `${track.algo}: ${countsText(track, state.at)}`;
  if (state.other && asking) {
    hideOther(n);
  } else if (state.other) {
    const evOther = drawStep(second, state.other, state.at, n, marks);
    $("learn-counts2").textContent = `${state.other.algo}: ${countsText(state.other, state.at)}`;
    $("learn-explain2").textContent = evOther ? explain(evOther, n, state.other.algo) : "";
    showSearch(state.other, state.at, n, "2");
  }
  showCompareNote(asking);
  setButtons();
  // While playing, the address follows on pause (browsers refuse hundreds of updates a second).
  if (!state.timer) changed();
}

function setButtons() {
  const last = lastIndex();
  const none = !state.main || last < 0;
  $("learn-start").disabled = none || state.at < 0;
  $("learn-back").disabled = none || state.at < 0;
  // An open question holds every way forward (Step, Play, End, the jumps) until it is answered.
  const asking = questionPending() > 0;
  $("learn-step").disabled = none || state.at >= last || asking;
  for (const id of Object.keys(JUMPS)) $(id).disabled = none || nextMark(id, state.at) < 0 || asking;
  // Next solution at the end of a trace that stops at its first solution goes on past it.
  if (!none && !state.main.all && !state.main.cut) $("learn-next-solution").disabled = asking;
  $("learn-jump-who").textContent = state.main ? `Jump in ${state.main.algo}:` : "Jump:";
  const diffAt = state.compared ? state.compared.firstDiff : null;
  $("learn-first-diff").hidden = diffAt === null;
  // First difference waits too, back as well as forward: where the two searches part is news of
  // the compared search, held until the answer like the rest of it.
  $("learn-first-diff").disabled = diffAt === null || state.at === diffAt || asking;
  $("learn-end").disabled = none || state.at >= last || asking;
  $("learn-play").disabled = none || asking;
  $("learn-play").textContent = state.timer ? "\u275A\u275A Pause" : "\u25B6 Play";
  $("learn-play").setAttribute("aria-pressed", state.timer ? "true" : "false");
}

function stepTo(index) {
  state.at = Math.max(-1, Math.min(index, lastIndex()));
  showEvent();
}

// Goes forward to `index` as End and the jumps do: no further than the next question of the
// quiz, which stops them as it stops Step and Play (an open question holds them where they are).
function goForward(index) {
  stepTo(Math.min(index, nextQuestionAt() - quizOffset()));
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
  if (to >= 0) goForward(to);
  else if (id === "learn-next-solution" && state.main && !state.main.all) goOnPastTheEnd();
}

// From the first solution on to the next: the whole search's trace, at the next solution.
function goOnPastTheEnd() {
  const at = state.at;
  $("learn-all").checked = true;
  state.afterLoad = (track) => {
    const next = track.marks["learn-next-solution"].find((i) => i > at);
    return next === undefined ? at : next;
  };
  loadTrace();
}

function speed() {
  return SPEEDS[Number($("learn-speed").value)] || 8;
}

function play() {
  if (state.timer) return pause();
  if (!state.main || questionPending()) return undefined;
  if (state.at >= lastIndex() && !quiz.kind) state.at = -1;
  // Screen readers would be flooded while playing: only speak when stepping.
  $("learn-explain").setAttribute("aria-live", "off");
  const tick = () => {
    if (state.at >= lastIndex() || questionPending()) return pause();
    // Fast speeds move several steps per frame, but never past a question of the quiz.
    const perTick = Math.max(1, Math.round(speed() / 60));
    stepTo(Math.min(state.at + perTick, nextQuestionAt() - quizOffset()));
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

async function fetchTrack(n, algo, all) {
  const limit = all ? limits.events_max : limits.events_default;
  const body = await api(`/api/trace?n=${n}&algo=${algo}&limit=${limit}&all=${all}`);
  return makeTrack(algo, n, body, all);
}

// A cut trace's whole figures come from its summary, counted apart (it may take a few seconds:
// the trace is shown meanwhile).
async function fetchFull(track, key) {
  try {
    track.full = await api(`/api/summary?n=${track.n}&algo=${track.algo}&all=${track.all}`);
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
  if (!track.cut) return describeSummary(track.summary, track.algo, n, track.all);
  const shown = `The trace was cut after its first ${track.events.length.toLocaleString("en")} steps.`;
  if (track.full === false) return `${shown} The whole search is longer.`;
  if (!track.full) return `${shown} The whole search is longer: counting its steps\u2026`;
  // After the colon the summary's sentence goes on in lower case ("... steps: the backtrack search").
  const summary = describeSummary(track.full, track.algo, n, track.all);
  return `${shown} Counted without recording, the whole search takes ${fmt(track.full.events)} steps: `
    + summary[0].toLowerCase() + summary.slice(1);
}

// Where a trace's load stands, beside the step label (a live region): `text` ("" once the
// trace is there), `busy` greys the stage while it loads, `failed` offers "Try again".
function showLoad(text, busy, failed) {
  $("learn-load").textContent = text;
  $("learn-retry").hidden = !failed;
  // Browse marks the stage busy on its own: Learn marks its board (and greys its words).
  $("board-wrap").setAttribute("aria-busy", busy ? "true" : "false");
  document.querySelector(".stage").classList.toggle("learn-loading", busy);
  $("learn-searches").classList.toggle("learn-loading", busy);
}

// A trace that could not be loaded: nothing of the last one stays on the page (its board,
// step, words, code, arrays), and "Try again" asks for the same one again.
function showLoadFailed(n, error) {
  showLoad(`Could not load the ${n} \u00d7 ${n} trace: ${error.message.replace(/\.?$/, ".")}`, false, true);
  board.clear(`No ${n} \u00d7 ${n} trace: press Try again, or choose another board.`);
  showComparing(false);
  $("learn-step-label").textContent = "";
  for (const id of ["learn-explain", "learn-counts", "learn-note"]) $(id).textContent = "";
  $("learn-searches").hidden = true;
  $("learn-quiz-box").hidden = true;
  setButtons();
}

async function loadTrace() {
  const n = size();
  const algo = $("learn-algo").value;
  const otherAlgo = $("learn-compare").value;
  const all = $("learn-all").checked;
  const key = `${n}|${algo}|${otherAlgo}|${all}`;
  if (state.loaded === key) return;
  if (state.tooLarge) {
    // "Every solution" ticked while the size asked for is too large: nothing to load.
    changed();
    return;
  }
  pause();
  state.loaded = key;
  state.main = null;
  state.other = null;
  state.compared = null;
  // The last trace's step and buttons would speak of another board: they wait, greyed.
  showLoad(`Loading the ${n} \u00d7 ${n} trace\u2026`, true, false);
  $("learn-step-label").textContent = "";
  $("learn-note").textContent = "";
  setButtons();
  showComparing(Boolean(otherAlgo));
  try {
    const [main, other] = await Promise.all([
      fetchTrack(n, algo, all),
      otherAlgo ? fetchTrack(n, otherAlgo, all) : Promise.resolve(null),
    ]);
    if (state.loaded !== key) return;
    showLoad("", false, false);
    state.main = main;
    state.other = other;
    state.tree = null;
    state.treeOpen.clear();
    state.treeClosed.clear();
    state.treeHere = null;
    state.treeFocus = null;
    state.compared = other ? compareTracks(main, other) : null;
    const note = $("learn-compare-note");
    note.hidden = !other;
    state.compareNote = other ? compareText(main, other, state.compared)
      + (main.cut || other.cut ? " (As far as the traces go: they were cut short.)" : "") : "";
    note.textContent = state.compareNote;
    showNote();
    for (const track of [main, other]) if (track && track.cut) fetchFull(track, key);
    let at = -1;
    if (state.afterLoad) {
      // Next solution past the first, or "Every solution": on from the step shown, no further
      // than the quiz's next question.
      at = Math.min(state.afterLoad(main), nextQuestionAt() - quizOffset());
      state.afterLoad = null;
    } else if (state.askedStep !== null) {
      at = state.askedStep === "end" ? lastIndex() : state.askedStep - 1;
      state.askedStep = null;
      state.askedQuestion = null;
    } else if (quiz.kind) {
      // A quiz opens at its next question (the one the address names, or the first).
      const k = state.askedQuestion || quiz.answered + 1;
      state.askedQuestion = null;
      quiz.answered = k - 1;
      const i = main.tries[k - 1];
      at = i === undefined ? lastIndex() : i - quizOffset();
    }
    stepTo(at);
  } catch (error) {
    if (state.loaded !== key) return;
    state.loaded = "";
    showLoadFailed(n, error);
  }
}

// The size the address asked for and Learn does not offer (above the limit, or no size) stands
// first in the size box, chosen and disabled: the box says what the page shows, and every size
// it offers is a change, which loads.
function showAskedSize() {
  const n = state.tooLarge;
  const shown = n.length > 24 ? `${n.slice(0, 24)}...` : n;
  const option = document.createElement("option");
  option.value = "";
  option.disabled = true;
  option.dataset.asked = "true";
  option.textContent = state.notSize ? `n=${shown} (not a size)`
    : n.length <= 5 ? `${n} \u00d7 ${n} (too large)` : `N = ${shown} (too large)`;
  $("learn-size").prepend(option);
  $("learn-size").selectedIndex = 0;
}

function showTooLarge() {
  const n = state.tooLarge;
  const max = limits.max_n;
  if (state.notSize) {
    const shown = n.length > 24 ? `${n.slice(0, 24)}...` : n;
    board.clear(`The address asks for n=${shown}, which is not a board size. Choose a size from 1 to ${max}.`);
    $("learn-explain").textContent = `n must be a whole number from 1 to ${max}, not "${shown}".`;
  } else {
    board.clear(`Learn traces boards up to ${max}\u00d7${max}: ${n}\u00d7${n} has too many steps to watch. `
      + "Choose a size up to the limit, or use Browse or Solve for this board.");
    $("learn-explain").textContent = `N = ${n} is above the Learn limit of ${max}.`;
  }
  $("learn-step-label").textContent = "";
  $("learn-note").textContent = "";
  // No code, arrays or tree: there is no search to show.
  $("learn-searches").hidden = true;
}

// Shows the second board and the second search's panel, or hides them.
function showComparing(on) {
  document.querySelector(".stage").classList.toggle("comparing", on);
  $("board2-wrap").hidden = !on;
  $("learn-search2").hidden = !on;
  $("learn-searches").classList.toggle("two", on);
}

// Sets up the view: `config` is config.learn, `url` what the address asks for (its `mode`, `n`,
// `algo`, and `params`: step, compare), `onChange` is called whenever the state the address
// keeps has changed.
export function init(config, url, onChange) {
  limits = config;
  changed = onChange;
  const mine = url.mode === "learn";
  if (mine && url.n && url.n > limits.max_n) state.tooLarge = String(url.n);
  // Digits past a safe integer are a size too large; anything else in `n` is no size.
  const digits = url.nText !== null && /^[0-9]*[1-9][0-9]*$/.test(url.nText);
  if (mine && url.nText !== null && !url.n) {
    state.tooLarge = digits ? url.nText.replace(/^0+/, "") : url.nText;
    state.notSize = !digits;
  }
  const asked = mine && url.n && url.n <= limits.max_n;
  fillSizes($("learn-size"), limits.max_n, asked ? url.n : Math.min(DEFAULT_N, limits.max_n));
  if (state.tooLarge) showAskedSize();
  const labels = limits.labels || {};
  const names = limits.algorithms.map((name) => [name, labels[name] || name]);
  fillOptions($("learn-algo"), names);
  fillOptions($("learn-compare"), [["", "nothing"], ...names]);
  if (mine && offers($("learn-algo"), url.algo)) $("learn-algo").value = url.algo;
  if (mine) {
    const other = url.params.get("compare");
    if (other && offers($("learn-compare"), other)) $("learn-compare").value = other;
    if (url.params.get("all") === "1") $("learn-all").checked = true;
    readQuiz(url.params);
    const step = url.params.get("step");
    if (step === "end") state.askedStep = "end";
    else if (step !== null && /^\d+$/.test(step)) state.askedStep = Number(step);
  }

  const reload = () => {
    // The size box still shows the size the address asked for: nothing to load.
    if (state.tooLarge && $("learn-size").value === "") {
      changed();
      return;
    }
    const stray = $("learn-size").querySelector("option[data-asked]");
    if (stray) stray.remove();
    state.tooLarge = null;
    state.notSize = false;
    state.pinned = null;
    // Another search: its questions start again (the score goes on).
    quiz.answered = 0;
    quiz.last = null;
    quiz.naming = null;
    loadTrace();
  };
  $("learn-size").addEventListener("change", reload);
  $("learn-algo").addEventListener("change", reload);
  $("learn-compare").addEventListener("change", reload);
  $("learn-all").addEventListener("change", () => {
    // The whole search begins with the first-solution trace: stay on the step shown.
    const at = state.at;
    state.afterLoad = (track) => Math.min(at, track.events.length - 1);
    loadTrace();
  });
  $("learn-first-diff").addEventListener("click", () => {
    pause();
    const diffAt = state.compared ? state.compared.firstDiff : null;
    if (diffAt !== null) (diffAt > state.at ? goForward : stepTo)(diffAt);
  });
  $("learn-attacks").addEventListener("change", showEvent);
  $("learn-retry").addEventListener("click", loadTrace);
  $("board").addEventListener("focus", onBoardFocus);
  $("board").addEventListener("blur", onBoardBlur);
  if (mine && url.params.get("tree") === "1") $("learn-tree-on").checked = true;
  $("learn-tree-on").addEventListener("change", showEvent);
  $("learn-tree").addEventListener("keydown", onTreeKey);
  $("learn-tree").addEventListener("click", (event) => {
    const li = event.target.closest && event.target.closest('[role="treeitem"]');
    if (li) jumpToNode(Number(li.dataset.node));
  });
  $("learn-quiz").addEventListener("change", () => setQuiz($("learn-quiz").value));
  $("learn-quiz-next").addEventListener("click", nextQuestion);
  $("learn-verdict-place").addEventListener("click", () => chooseVerdict("place"));
  $("learn-verdict-line").addEventListener("click", () => chooseVerdict("line"));
  $("learn-verdict-diagonal").addEventListener("click", () => chooseVerdict("diagonal"));
  $("learn-verdict-back").addEventListener("click", () => chooseVerdict("back"));
  $("learn-play").addEventListener("click", play);
  $("learn-step").addEventListener("click", () => { pause(); stepTo(state.at + 1); });
  $("learn-back").addEventListener("click", () => { pause(); stepTo(state.at - 1); });
  $("learn-start").addEventListener("click", () => { pause(); stepTo(-1); });
  for (const id of Object.keys(JUMPS)) $(id).addEventListener("click", () => jump(id));
  $("learn-end").addEventListener("click", () => { pause(); goForward(lastIndex()); });
  const showSpeed = () => {
    const s = speed();
    $("learn-speed-out").textContent = `${s} ${s === 1 ? "step" : "steps"}/s`;
    $("learn-speed").setAttribute("aria-valuetext", `${s} ${s === 1 ? "step" : "steps"} a second`);
  };
  $("learn-speed").addEventListener("input", showSpeed);
  showSpeed();
}

// A click on a square of the board: the answer to the quiz's question, or else shows (or hides
// again) what a queen there would attack.
export function clickSquare(r, c) {
  if (questionPending() && (quiz.kind === "where" || quiz.naming)) {
    quiz.cursor = [r, c];
    if (quiz.kind === "where") answerWhere(r, c);
    else answerVerdict({ verdict: "conflict", kind: quiz.naming, queen: [r, c] });
    return;
  }
  toggleSquare(r, c);
}

function toggleSquare(r, c) {
  const same = state.pinned && state.pinned[0] === r && state.pinned[1] === c;
  state.pinned = same ? null : [r, c];
  showEvent();
}

// Back to this view: the step it showed, and the trace the selects ask for.
export function show() {
  state.active = true;
  // The board is a tab stop in Learn: focused, it takes the keyboard's cursor.
  $("board").tabIndex = 0;
  if (state.tooLarge) {
    showTooLarge();
    changed();
    return;
  }
  showComparing(Boolean($("learn-compare").value));
  if (state.main) showEvent();
  loadTrace();
}

export function hide() {
  state.active = false;
  $("board").tabIndex = -1;
  showComparing(false);
}

export function toUrl(params) {
  params.set("n", state.tooLarge ? String(state.tooLarge) : $("learn-size").value);
  params.set("algo", $("learn-algo").value);
  if ($("learn-compare").value) params.set("compare", $("learn-compare").value);
  if ($("learn-all").checked) params.set("all", "1");
  if ($("learn-tree-on").checked) params.set("tree", "1");
  if (state.main && state.at >= 0) params.set("step", String(state.at + 1));
  if (quiz.kind) {
    params.set("quiz", quiz.kind);
    // q names the question to come: the one open, or the one after the last answered (as
    // readQuiz reads it), so a reload asks nothing twice and skips nothing.
    params.set("q", String(quiz.answered + 1));
    if (quiz.asked) {
      params.set("right", String(quiz.right));
      params.set("of", String(quiz.asked));
      params.set("streak", String(quiz.streak));
    }
  }
}

export function downloadSuffix() {
  return `-step-${state.at + 1}`;
}

// The view's keys; true when `event` was one of them.
export function onKey(event) {
  const key = event.key;
  if (state.tooLarge) return false;
  if (boardFocused() && !squareAsked() && boardKey(event)) return true;
  if (quiz.kind && quizKey(event)) return true;
  if (key === "ArrowRight" || key === "ArrowDown") { pause(); stepTo(state.at + 1); }
  else if (key === "ArrowLeft" || key === "ArrowUp") { pause(); stepTo(state.at - 1); }
  else if (key === "Home") { pause(); stepTo(-1); }
  else if (key === "End") { pause(); goForward(lastIndex()); }
  else if (key === " " || key === "Spacebar") play();
  else return false;
  return true;
}

// The quiz. A question is pending while the try it asks about (where: the next step; verdict:
// the step shown) has not been answered: the search does not go on (Step, Play and the arrow
// keys wait) until it is.

// How many steps before its try a question is asked: 1 for where, 0 for verdict.
function quizOffset() {
  return quiz.kind === "where" ? 1 : 0;
}

// The number of the question pending, or 0.
function questionPending() {
  const track = state.main;
  if (!quiz.kind || !track) return 0;
  const i = state.at + quizOffset();
  if (i < 0 || i >= track.events.length || track.events[i].event !== "try") return 0;
  if (quiz.kind === "verdict" && !verdictOf(track, i)) return 0;
  const k = track.counts[i].tries;
  return k > quiz.answered ? k : 0;
}

// The index of the next try not yet answered, from the step shown on (none: Infinity).
function nextQuestionAt() {
  const track = state.main;
  if (!quiz.kind || !track) return Infinity;
  const from = state.at + quizOffset();
  const i = track.tries.find((t) => t >= from && track.counts[t].tries > quiz.answered
    && (quiz.kind === "where" || verdictOf(track, t)));
  return i === undefined ? Infinity : i;
}

function nextQuestion() {
  pause();
  quiz.naming = null;
  const i = nextQuestionAt();
  if (i !== Infinity) stepTo(i - quizOffset());
}

// Counts an answer to question `k` and shows the step it leads to.
function score(k, result, landing, pick) {
  quiz.asked++;
  if (result.right) {
    quiz.right++;
    quiz.streak++;
  } else {
    quiz.streak = 0;
  }
  quiz.answered = k;
  quiz.naming = null;
  quiz.last = { index: landing, pick, right: result.right, text: result.text };
  stepTo(landing);
}

function answerWhere(r, c) {
  const k = questionPending();
  if (!k) return;
  const index = state.at + 1;
  score(k, whereFeedback(state.main, index, [r, c], size()), index, [r, c]);
}

// `answer`: { verdict: "place" | "conflict" | "back", kind, queen }.
function answerVerdict(answer) {
  const k = questionPending();
  if (!k) return;
  const index = state.at;
  const n = size();
  if (answer.verdict === "conflict") {
    const [r, c] = answer.queen;
    if (eventQueens(state.main.events[index], n)[r] !== c) {
      $("learn-quiz-feedback").textContent = `There is no queen at row ${r}, column ${c}: name a queen.`;
      return;
    }
  }
  const truth = verdictOf(state.main, index);
  score(k, verdictFeedback(state.main, index, answer, n), truth.after, answer.queen || null);
}

// The line a conflict of the main search is along, besides a diagonal: a row for the
// column-wise search, a column for the others.
function lineKind() {
  return state.main && state.main.byColumn ? "row" : "column";
}

function chooseVerdict(verdict) {
  if (!questionPending() || quiz.kind !== "verdict") return;
  if (verdict === "place" || verdict === "back") {
    answerVerdict({ verdict });
    return;
  }
  quiz.naming = verdict === "diagonal" ? "diagonal" : lineKind();
  showEvent();
}

function setQuiz(kind) {
  pause();
  quiz.kind = kind;
  quiz.last = null;
  quiz.naming = null;
  const track = state.main;
  if (kind && track) {
    // The tries already shown count as passed (for a verdict, all but the one shown); the quiz
    // starts at the next one.
    const at = Math.min(state.at, track.counts.length - 1);
    const shown = at >= 0 ? track.counts[at].tries : 0;
    const open = kind === "verdict" && at >= 0 && track.events[at].event === "try";
    quiz.answered = shown - (open ? 1 : 0);
    const i = nextQuestionAt();
    if (i !== Infinity) {
      stepTo(i - quizOffset());
      return;
    }
  }
  showEvent();
}

// quiz=where&q=12&right=10&of=11&streak=3: the quiz, its next question (open or to come:
// the questions before it count as answered) and the score.
function readQuiz(params) {
  const kind = params.get("quiz");
  if (!offers($("learn-quiz"), kind) || !kind) return;
  quiz.kind = kind;
  $("learn-quiz").value = kind;
  const whole = (name) => {
    const v = params.get(name);
    return v !== null && /^\d+$/.test(v) ? Number(v) : null;
  };
  const q = whole("q");
  if (q !== null && q >= 1) {
    state.askedQuestion = q;
    quiz.answered = q - 1;
  }
  const of = whole("of");
  if (of !== null) {
    quiz.asked = of;
    quiz.right = Math.min(whole("right") || 0, of);
    quiz.streak = Math.min(whole("streak") || 0, quiz.right);
  }
}

// The quiz's part of the page at the step shown: the question or the last answer, the score,
// the cursor, and the square a wrong answer chose.
function showQuiz() {
  const box = $("learn-quiz-box");
  box.hidden = !quiz.kind;
  // A smaller board leaves the question, its answers and the score on the screen.
  document.querySelector(".stage").classList.toggle("quizzing", Boolean(quiz.kind));
  if (!quiz.kind) return;
  const k = questionPending();
  const prompt = $("learn-quiz-prompt");
  const feedback = $("learn-quiz-feedback");
  const last = quiz.last && quiz.last.index === state.at ? quiz.last : null;
  const verdict = quiz.kind === "verdict";
  const keys = "move the cursor with the arrow keys and press Enter";
  if (k && !verdict) {
    prompt.textContent = `Question ${fmt(k)}: where does the search try next? Click the square, or ${keys}.`;
  } else if (k && quiz.naming) {
    const ev = state.main.events[state.at];
    prompt.textContent = `Question ${fmt(k)}: which queen attacks row ${ev.row}, column ${ev.col} along their ${quiz.naming}? Click it, or ${keys} (Esc: choose again).`;
  } else if (k) {
    const ev = state.main.events[state.at];
    prompt.textContent = `Question ${fmt(k)}: the search tries row ${ev.row}, column ${ev.col}. What happens next?`;
  } else if (nextQuestionAt() === Infinity) {
    prompt.textContent = "No more questions: the search asks nothing after this step.";
  } else {
    prompt.textContent = "Press Next question (or Enter) for the next one.";
  }
  const group = $("learn-quiz-verdict");
  group.hidden = !verdict;
  // No question pending, or the queen being named: on a phone the answers (disabled) make way
  // for the feedback or the longer question (style.css).
  box.classList.toggle("answered", !k);
  box.classList.toggle("naming", Boolean(k && quiz.naming));
  for (const button of group.querySelectorAll("button")) button.disabled = !k || Boolean(quiz.naming);
  $("learn-verdict-line").textContent = `Conflict: their ${lineKind()} (L)`;
  feedback.textContent = last ? last.text : "";
  feedback.className = last ? (last.right ? "quiz-feedback right" : "quiz-feedback wrong") : "quiz-feedback";
  if (last && !last.right && last.pick) board.outline(last.pick[0], last.pick[1], "quiz-wrong");
  $("learn-quiz-score").textContent = `Score: ${fmt(quiz.right)} of ${fmt(quiz.asked)} \u00b7 streak ${fmt(quiz.streak)}`;
  $("learn-quiz-next").disabled = Boolean(k) || nextQuestionAt() === Infinity;
}

// The keyboard's cursor on the board: the quiz's, while a question asks for a square, or the
// focused board's (Tab to it), whose Enter or Space pins the square under it. Each move is
// spoken (#learn-cursor, a live region).
const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function squareAsked() {
  return questionPending() > 0 && (quiz.kind === "where" || Boolean(quiz.naming));
}

function boardFocused() {
  return state.active && document.activeElement === $("board");
}

function showCursor(n) {
  const asked = squareAsked();
  if (!asked && !boardFocused()) return;
  const [r, c] = quiz.cursor;
  quiz.cursor = [Math.min(r, n - 1), Math.min(c, n - 1)];
  board.outline(quiz.cursor[0], quiz.cursor[1], asked ? "quiz-cursor" : "board-cursor");
}

function say(text) {
  $("learn-cursor").textContent = text;
}

// The square under the cursor in words: "Cursor on row 2, column 1: a queen."
function cursorWords() {
  const [r, c] = quiz.cursor;
  const track = state.main;
  const ev = track && state.at >= 0 ? track.events[Math.min(state.at, track.events.length - 1)] : null;
  let what = board.queens[r] === c ? "a queen" : "empty";
  if (what === "empty" && ev && ev.event === "try" && ev.row === r && ev.col === c) what = "the square tried";
  const pinned = state.pinned && state.pinned[0] === r && state.pinned[1] === c ? ", pinned" : "";
  return `Cursor on row ${r}, column ${c}: ${what}${pinned}.`;
}

function moveCursor([dr, dc]) {
  const n = size();
  const [r, c] = quiz.cursor;
  quiz.cursor = [Math.max(0, Math.min(n - 1, r + dr)), Math.max(0, Math.min(n - 1, c + dc))];
  showEvent();
  if (squareAsked() || boardFocused()) say(cursorWords());
}

// The focused board's keys, when no question asks for a square: the arrows move the cursor,
// Enter or Space shows (or hides) what a queen on its square would attack, Esc leaves the board.
function boardKey(event) {
  const key = event.key;
  if (MOVES[key]) {
    moveCursor(MOVES[key]);
    return true;
  }
  if (key === "Enter" || key === " ") {
    const [r, c] = quiz.cursor;
    toggleSquare(r, c);
    say(state.pinned
      ? `Row ${r}, column ${c} pinned: the squares a queen there would attack are shaded.`
      : `Row ${r}, column ${c} unpinned.`);
    return true;
  }
  if (key === "Escape") {
    $("board").blur();
    return true;
  }
  return false;
}

function onBoardFocus() {
  if (!state.active) return;
  showEvent();
  if (!squareAsked()) {
    say(`Board: the arrows move a cursor, Enter or Space shows (or hides) what a queen on its square would attack, Esc leaves the board. ${cursorWords()}`);
  }
}

function onBoardBlur() {
  if (state.active && state.main) showEvent();
}

// The quiz's keys: while a question is pending the arrows move the cursor and Enter answers
// (a verdict: P, L, D, B choose, Esc chooses again); otherwise Enter goes to the next question.
// True when `event` was one of them.
function quizKey(event) {
  const key = event.key;
  if (!questionPending()) {
    if (key !== "Enter") return false;
    nextQuestion();
    return true;
  }
  const [r, c] = quiz.cursor;
  const verdicts = { p: "place", l: "line", d: "diagonal", b: "back" };
  if (MOVES[key]) {
    moveCursor(MOVES[key]);
    return true;
  }
  if (quiz.kind === "where") {
    if (key !== "Enter") return false;
    answerWhere(r, c);
    return true;
  }
  if (quiz.naming) {
    if (key === "Enter") answerVerdict({ verdict: "conflict", kind: quiz.naming, queen: [r, c] });
    else if (key === "Escape") {
      quiz.naming = null;
      showEvent();
    } else return false;
    return true;
  }
  const chosen = verdicts[key.toLowerCase()];
  if (!chosen) return key === "Enter" || key === " ";
  chooseVerdict(chosen);
  return true;
}

// The search tree (tree=1): beside the code, the main search's partial boards as a tree, the
// path to the step shown open and marked; a node jumps to its step.
function showTreePanel() {
  const on = $("learn-tree-on").checked && Boolean(state.main);
  $("learn-tree-panel").hidden = !on;
  $("learn-searches").classList.toggle("with-tree", on);
  if (!on) return;
  const track = state.main;
  if (!state.tree) state.tree = buildTree(track);
  const list = $("learn-tree");
  const hadFocus = list.contains(document.activeElement);
  // A node closed with ← stays closed until the search stands on another node: then the path
  // to that node is open again.
  const at = Math.min(state.at, track.events.length - 1);
  const here = at >= 0 ? state.tree.current[at] : 0;
  if (here !== state.treeHere) state.treeClosed.clear();
  state.treeHere = here;
  $("learn-tree-line").textContent = track.byColumn ? "column" : "row";
  $("learn-tree-levels").textContent = levelText(track, state.tree, state.at);
  const { current } = showTree(list, track, state.tree, state.at, state.treeOpen, state.treeClosed, state.treeFocus);
  const focus = state.treeFocus !== null && list.querySelector(`[data-node="${state.treeFocus}"]`);
  if (hadFocus && focus) focus.focus({ preventScroll: true });
  // Keep the node the search stands on in sight inside the panel (not by scrolling the page).
  const target = (hadFocus && focus) || current;
  if (target && list.scrollHeight > list.clientHeight) {
    const top = target.offsetTop - list.offsetTop;
    const height = target.firstChild.offsetHeight;
    if (top < list.scrollTop || top + height > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 3);
    }
  }
}

function jumpToNode(id) {
  const node = state.tree && state.tree.nodes[id];
  if (!node) return;
  pause();
  state.treeFocus = id;
  stepTo(node.step);
}

// The tree's keys (the WAI-ARIA tree pattern): ↓ ↑ the next and previous node shown, → opens a
// closed node or goes to the first child of an open one, ← closes an open node (one open
// because it is on the search's path too) or goes to the parent of a closed one or a leaf, Home
// and End the first and last node, Enter or Space jumps to the node's step. The page's own keys
// stay out of it.
function onTreeKey(event) {
  const li = event.target.closest && event.target.closest('[role="treeitem"]');
  if (!li || event.altKey || event.ctrlKey || event.metaKey) return;
  const list = $("learn-tree");
  const items = [...list.querySelectorAll('[role="treeitem"]')];
  const at = items.indexOf(li);
  const id = Number(li.dataset.node);
  const expanded = li.getAttribute("aria-expanded");
  let to = null;
  switch (event.key) {
    case "ArrowDown": to = items[at + 1]; break;
    case "ArrowUp": to = items[at - 1]; break;
    case "Home": to = items[0]; break;
    case "End": to = items[items.length - 1]; break;
    case "ArrowRight":
      if (expanded === "false") {
        state.treeClosed.delete(id);
        state.treeOpen.add(id);
        state.treeFocus = id;
        showTreePanel();
      } else if (expanded === "true") {
        to = li.querySelector('[role="treeitem"]');
      }
      break;
    case "ArrowLeft":
      if (expanded === "true") {
        state.treeOpen.delete(id);
        state.treeClosed.add(id);
        state.treeFocus = id;
        showTreePanel();
      } else {
        to = li.parentElement.closest('[role="treeitem"]');
      }
      break;
    case "Enter":
    case " ":
      jumpToNode(id);
      break;
    default:
      return;
  }
  event.preventDefault();
  event.stopPropagation();
  if (to) {
    for (const item of items) item.tabIndex = -1;
    to.tabIndex = 0;
    state.treeFocus = Number(to.dataset.node);
    to.focus();
  }
}
