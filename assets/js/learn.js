// Learn: play a trace of the search (the events of `queens trace --format json`, from
// /api/trace). Each event names a square (row, col), carries the board after the step as a
// positions array (-1 = empty), indexed by row, or by column for the column-wise `backtrack`
// solver ("positions_by"), and for that solver its first-untried array ("untried").

import { api } from "./api.js";
import { board } from "./board.js";
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

const state = {
  events: [],
  at: -1, // index of the event shown; -1 = before the first
  timer: null,
  loaded: "",
  cut: false,
  summary: null,
};

// The queens of an event's board as columns by row (-1 for an empty row).
function eventQueens(ev, n) {
  const positions = Array.isArray(ev.positions) ? ev.positions : [];
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

function explain(ev) {
  const at = ev.row !== null && ev.col !== null ? square(ev.row, ev.col) : "";
  const byColumn = ev.positions_by === "column";
  switch (ev.event) {
    case "try":
      return `Try the square at ${at}.`;
    case "conflict":
      return `The square at ${at} is attacked by the queen at ${square(ev.with.row, ev.with.col)}`
        + ` along their ${ev.kind}: skip it.`;
    case "place":
      return `No queen attacks ${at}: place a queen there.`;
    case "remove":
      return `Take the queen off ${at} and look further${byColumn ? " down its column" : " along its row"}.`;
    case "backtrack":
      if (byColumn && ev.col !== null) {
        return `Every row of column ${ev.col} has been tried: back up to column ${ev.col - 1}.`;
      }
      return ev.row !== null
        ? `Every square of row ${ev.row} has been tried: back up to row ${ev.row - 1}.`
        : "Nothing left to try here: back up.";
    case "solution":
      return "A queen on every row and none attacks another: a solution!";
    case "enqueue":
      return at
        ? `Queue the board with a new queen at ${at} (${ev.queue} boards waiting).`
        : `Queue the empty board (${ev.queue} waiting).`;
    case "dequeue":
      return `Take the next board off the queue to fill row ${ev.row} (${ev.queue} left waiting).`;
    default:
      return `${ev.event} ${at}`;
  }
}

function showEvent() {
  const n = Number($("learn-size").value);
  const total = state.events.length;
  $("learn-step-label").textContent = `Step ${state.at + 1} of ${total}${state.cut ? " (trace cut short)" : ""}`;
  if (state.at < 0 || total === 0) {
    board.show(n, [], `${n}-queens search, before the first step`, `Empty ${n} by ${n} board`);
    $("learn-explain").textContent = total ? "Press Play or Step to start the search." : "";
    $("learn-positions").textContent = `[${new Array(n).fill(-1).join(", ")}]`;
    $("learn-untried").textContent = "";
    setButtons();
    return;
  }
  const ev = state.events[state.at];
  const queens = eventQueens(ev, n);
  const text = explain(ev);
  board.show(n, queens, `${n}-queens search, step ${ev.step}: ${queens.join(" ")}`,
    `Step ${state.at + 1}: ${text}`);
  // Attacked squares: everything the queens on the board attack.
  queens.forEach((col, row) => {
    if (col >= 0) board.markAttackedFrom(row, col);
  });
  const r = ev.row;
  const c = ev.col;
  if (r !== null && c !== null && r >= 0 && c >= 0 && r < n && c < n) {
    const sq = board.square(r, c);
    if (sq) {
      sq.classList.remove("attacked");
      sq.classList.add(ev.event === "conflict" ? "conflict" : "tried");
    }
    if ((ev.event === "try" || ev.event === "conflict") && queens[r] !== c) {
      board.ghost(r, c, ev.event === "conflict");
    }
  }
  if (ev.event === "conflict" && ev.with) {
    const q = board.svg.querySelector(`.queen[data-row="${ev.with.row}"][data-col="${ev.with.col}"]`);
    if (q) q.classList.add("attacker");
    board.line(ev.with.row, ev.with.col, r, c);
  }
  $("learn-explain").textContent = text;
  $("learn-positions").textContent = `[${ev.positions.join(", ")}]`;
  $("learn-untried").textContent = Array.isArray(ev.untried)
    ? `[${ev.untried.join(", ")}]`
    : "(this algorithm keeps none)";
  setButtons();
}

function setButtons() {
  const total = state.events.length;
  $("learn-start").disabled = state.at < 0;
  $("learn-back").disabled = state.at < 0;
  $("learn-step").disabled = state.at >= total - 1;
  $("learn-play").disabled = total === 0;
  $("learn-play").textContent = state.timer ? "\u275A\u275A Pause" : "\u25B6 Play";
  $("learn-play").setAttribute("aria-pressed", state.timer ? "true" : "false");
}

function stepTo(index) {
  state.at = Math.max(-1, Math.min(index, state.events.length - 1));
  showEvent();
}

function speed() {
  return SPEEDS[Number($("learn-speed").value)] || 8;
}

function play() {
  if (state.timer) return pause();
  if (state.at >= state.events.length - 1) state.at = -1;
  // Screen readers would be flooded while playing: only speak when stepping.
  $("learn-explain").setAttribute("aria-live", "off");
  const tick = () => {
    if (state.at >= state.events.length - 1) return pause();
    // Fast speeds move several steps per frame.
    const perTick = Math.max(1, Math.round(speed() / 60));
    stepTo(state.at + perTick);
    state.timer = setTimeout(tick, Math.max(1000 / speed(), 16));
    setButtons();
  };
  state.timer = setTimeout(tick, 0);
  setButtons();
}

export function pause() {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  $("learn-explain").setAttribute("aria-live", "polite");
  setButtons();
}

function describeSummary(s, algo, n) {
  const parts = [`${s.tries} squares tried`];
  if (s.conflicts) parts.push(`${s.conflicts} conflicts`);
  parts.push(`${s.placements} queens placed`);
  if (s.removals) parts.push(`${s.removals} removed`);
  if (s.backtracks) parts.push(`${s.backtracks} backtracks`);
  if (s.enqueues) parts.push(`${s.enqueues} boards queued`);
  return `The ${algo} search of the ${n}\u00d7${n} board up to its first solution: ${parts.join(", ")}.`;
}

async function loadTrace() {
  const n = Number($("learn-size").value);
  const algo = $("learn-algo").value;
  const key = `${n}|${algo}`;
  changed();
  if (state.loaded === key) return;
  pause();
  state.events = [];
  state.at = -1;
  state.loaded = key;
  $("learn-note").textContent = "Loading the trace\u2026";
  showEvent();
  try {
    const body = await api(`/api/trace?n=${n}&algo=${algo}&limit=${limits.events_default}`);
    if (state.loaded !== key) return;
    state.events = body.events;
    state.cut = Boolean(body.cut);
    $("learn-positions-term").textContent = body.positions_by === "column"
      ? "positions[column] = row"
      : "positions[row] = column";
    $("learn-note").textContent = describeSummary(body.summary, algo, n)
      + (state.cut ? ` Only its first ${state.events.length} steps are shown.` : "");
  } catch (error) {
    if (state.loaded !== key) return;
    state.loaded = "";
    $("learn-note").textContent = `Could not load the trace: ${error.message}`;
  }
  showEvent();
}

// Sets up the view: `config` is config.learn, `url` what the address asks for (its `mode`, `n`
// and `algo`), `onChange` is called whenever the state the address keeps has changed.
export function init(config, url, onChange) {
  limits = config;
  changed = onChange;
  const asked = url.mode === "learn" && url.n && url.n <= limits.max_n;
  fillSizes($("learn-size"), limits.max_n, asked ? url.n : Math.min(DEFAULT_N, limits.max_n));
  fillOptions($("learn-algo"), limits.algorithms.map((name) => [name, DESCRIPTIONS[name] || name]));
  if (url.mode === "learn" && offers($("learn-algo"), url.algo)) $("learn-algo").value = url.algo;

  $("learn-size").addEventListener("change", loadTrace);
  $("learn-algo").addEventListener("change", loadTrace);
  $("learn-play").addEventListener("click", play);
  $("learn-step").addEventListener("click", () => { pause(); stepTo(state.at + 1); });
  $("learn-back").addEventListener("click", () => { pause(); stepTo(state.at - 1); });
  $("learn-start").addEventListener("click", () => { pause(); stepTo(-1); });
  const showSpeed = () => {
    const s = speed();
    $("learn-speed-out").textContent = `${s} steps/s`;
    $("learn-speed").setAttribute("aria-valuetext", `${s} steps a second`);
  };
  $("learn-speed").addEventListener("input", showSpeed);
  showSpeed();
}

// Back to this view: the step it showed, and the trace the selects ask for.
export function show() {
  if (state.loaded) showEvent();
  loadTrace();
}

export function toUrl(params) {
  params.set("n", $("learn-size").value);
  params.set("algo", $("learn-algo").value);
}

export function downloadSuffix() {
  return `-step-${state.at + 1}`;
}

// The view's keys; true when `event` was one of them.
export function onKey(event) {
  const key = event.key;
  if (key === "ArrowRight" || key === "ArrowDown") { pause(); stepTo(state.at + 1); }
  else if (key === "ArrowLeft" || key === "ArrowUp") { pause(); stepTo(state.at - 1); }
  else if (key === "Home") { pause(); stepTo(-1); }
  else if (key === "End") { pause(); stepTo(state.events.length - 1); }
  else if (key === " " && !(event.target && event.target.tagName === "BUTTON")) play();
  else return false;
  return true;
}
