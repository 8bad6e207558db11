// Solve: one solution of a possibly large board (/api/solve).

import { api } from "./api.js";
import { board, solutionTitle } from "./board.js";
import { $, fillOptions, offers } from "./dom.js";

// What the algorithm select says of the solvers (any other: its name).
const DESCRIPTIONS = {
  construct: "construct (explicit formula, any N)",
  "min-conflicts": "min-conflicts (local search)",
  bitboard: "bitboard (bitmasks)",
};

// Boards above this size show only the first queens' columns in the text.
const POSITIONS_MAX_N = 2000;
const POSITIONS_SHOWN = 200;

let changed = () => {};

const solved = { n: 0, queens: null };

async function solve(event) {
  if (event) event.preventDefault();
  const n = Number($("solve-n").value);
  const algo = $("solve-algo").value;
  $("solve-label").textContent = "Solving\u2026";
  try {
    const body = await api(`/api/solve?n=${encodeURIComponent($("solve-n").value)}&algo=${algo}`);
    if (body.queens) {
      solved.n = n;
      solved.queens = body.queens;
      const seed = body.seed !== undefined ? ` (seed ${body.seed})` : "";
      $("solve-label").textContent = `A solution of the ${n}\u00d7${n} board, found by ${body.algo}${seed}.`;
      $("solve-positions").textContent = n <= POSITIONS_MAX_N
        ? body.queens.join(" ")
        : `${body.queens.slice(0, POSITIONS_SHOWN).join(" ")} \u2026`;
      board.show(n, body.queens, solutionTitle(n, body.queens));
    } else {
      $("solve-label").textContent = `The ${n}\u00d7${n} board has no solution.`;
      $("solve-positions").textContent = "";
      board.show(n, [], `${n}x${n} board`, `Empty ${n} by ${n} board`);
    }
  } catch (error) {
    $("solve-label").textContent = error.message;
  }
  $("board-caption").textContent = "";
  changed();
}

// Sets up the view: `config` is config.solve (max_n, automatic, algorithms), `url` what the
// address asks for (its `mode`, `n` and `algo`), `onChange` is called whenever the state the
// address keeps has changed.
export function init(config, url, onChange) {
  changed = onChange;
  const auto = config.automatic;
  fillOptions($("solve-algo"), [
    ["", `automatic (${auto.small} up to ${auto.up_to}, ${auto.large} above)`],
    ...config.algorithms.map((a) => [a.name, DESCRIPTIONS[a.name] || a.name]),
  ]);
  // The largest board any choice takes; the server says when the one chosen takes less.
  $("solve-n").max = String(Math.max(config.max_n, ...config.algorithms.map((a) => a.max_n)));
  if (url.mode === "solve") {
    if (url.n) $("solve-n").value = String(url.n);
    if (offers($("solve-algo"), url.algo)) $("solve-algo").value = url.algo;
  }
  $("solve-form").addEventListener("submit", solve);
}

// Back to this view: the solution it found, or a first one.
export function show() {
  if (solved.queens) board.show(solved.n, solved.queens, solutionTitle(solved.n, solved.queens));
  else solve();
}

export function toUrl(params) {
  params.set("n", $("solve-n").value);
  params.set("algo", $("solve-algo").value);
}

export function downloadSuffix() {
  return "";
}
