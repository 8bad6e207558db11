// Solve: one solution of a possibly large board (/api/solve).
//
// Seeds are 64-bit: above 2^53 a JavaScript number cannot hold them, so the page never makes
// one a number. It reads the answer's text and takes the seed's digits from it as a string, and
// sends back exactly the digits typed in the seed field.

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
const SEED_MAX = (1n << 64n) - 1n;

let changed = () => {};
let config = null;

const solved = { n: 0, queens: null, seed: null };
let ticket = 0;

// The largest board the chosen algorithm takes (automatic: config.max_n).
function limitOf(algo) {
  const entry = config.algorithms.find((a) => a.name === algo);
  return entry ? entry.max_n : config.max_n;
}

function showLimit() {
  const algo = $("solve-algo").value;
  const max = limitOf(algo);
  $("solve-n").max = String(max);
  const name = algo || "automatic";
  $("solve-limit").textContent = `${name} takes boards up to ${max.toLocaleString("en")}\u00d7${max.toLocaleString("en")}.`;
  const seeded = algo === "min-conflicts";
  $("solve-seed-row").hidden = !seeded;
}

// The seed of an answer, as the digits the server wrote.
export function seedOf(text) {
  const match = /"seed"\s*:\s*"?(\d+)"?/.exec(text);
  return match ? match[1] : null;
}

function fail(message) {
  solved.queens = null;
  $("solve-label").textContent = message;
  $("solve-positions").textContent = "";
  board.clear(`No board: ${message}`);
}

async function solve(event) {
  if (event) event.preventDefault();
  const mine = ++ticket;
  const text = $("solve-n").value.trim();
  const algo = $("solve-algo").value;
  const max = limitOf(algo);
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    fail("Type the board size N, a whole number from 1.");
    changed();
    return;
  }
  const n = Number(text);
  if (n > max) {
    fail(`${algo || "automatic"} solves boards up to ${max}\u00d7${max}: ${n}\u00d7${n} is too large for it.`);
    changed();
    return;
  }
  let query = `/api/solve?n=${n}`;
  if (algo) query += `&algo=${encodeURIComponent(algo)}`;
  const seedText = $("solve-seed").value.trim();
  if (algo === "min-conflicts" && seedText) {
    if (!/^\d+$/.test(seedText) || BigInt(seedText) > SEED_MAX) {
      fail("A seed is a whole number from 0 to 18446744073709551615.");
      changed();
      return;
    }
    query += `&seed=${seedText}`;
  }
  $("solve-label").textContent = "Solving\u2026";
  $("solve-submit").disabled = true;
  try {
    const response = await fetch(query, { headers: { accept: "application/json" } });
    const raw = await response.text();
    if (mine !== ticket) return;
    let body = null;
    try {
      body = JSON.parse(raw);
    } catch (_) {
      body = null;
    }
    if (!response.ok) {
      fail(`Could not solve the ${n}\u00d7${n} board: ${(body && body.error) || `${response.status} ${response.statusText}`}.`);
    } else if (body.queens) {
      solved.n = n;
      solved.queens = body.queens;
      const seed = seedOf(raw);
      solved.seed = seed;
      const how = seed !== null ? ` (seed ${seed}: the same seed gives the same board)` : "";
      $("solve-label").textContent = `A solution of the ${n}\u00d7${n} board, found by ${body.algo}${how}.`;
      $("solve-positions").textContent = n <= POSITIONS_MAX_N
        ? body.queens.join(" ")
        : `${body.queens.slice(0, POSITIONS_SHOWN).join(" ")} \u2026`;
      board.show(n, body.queens, solutionTitle(n, body.queens));
    } else {
      solved.queens = null;
      $("solve-label").textContent = `The ${n}\u00d7${n} board has no solution.`;
      $("solve-positions").textContent = "";
      board.show(n, [], `${n}x${n} board`, `Empty ${n} by ${n} board`);
    }
  } catch (error) {
    if (mine === ticket) fail(`Could not reach the server: ${error.message}.`);
  }
  $("solve-submit").disabled = false;
  $("board-caption").textContent = "";
  changed();
}

// Sets up the view: `cfg` is config.solve (max_n, automatic, algorithms), `url` what the
// address asks for (its `mode`, `n`, `algo` and `params`: seed), `onChange` is called whenever
// the state the address keeps has changed.
export function init(cfg, url, onChange) {
  config = cfg;
  changed = onChange;
  const auto = config.automatic;
  fillOptions($("solve-algo"), [
    ["", `automatic (${auto.small} up to ${auto.up_to}, ${auto.large} above)`],
    ...config.algorithms.map((a) => [a.name, DESCRIPTIONS[a.name] || a.name]),
  ]);
  if (url.mode === "solve") {
    if (url.n) $("solve-n").value = String(url.n);
    if (offers($("solve-algo"), url.algo)) $("solve-algo").value = url.algo;
    const seed = url.params.get("seed");
    if (seed && /^\d+$/.test(seed)) $("solve-seed").value = seed;
  }
  showLimit();
  $("solve-algo").addEventListener("change", () => {
    if ($("solve-algo").value !== "min-conflicts") $("solve-seed").value = "";
    showLimit();
  });
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
  const seed = $("solve-seed").value.trim() || (solved.queens && solved.seed);
  if ($("solve-algo").value === "min-conflicts" && seed) params.set("seed", seed);
}

export function downloadSuffix() {
  return "";
}
