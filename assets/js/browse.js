// Browse: every solution of a board, in lexicographic order (/api/solutions), or one per
// symmetry class, with the board's counts (/api/count).

import { api } from "./api.js";
import { board, solutionTitle } from "./board.js";
import { $, fillSizes } from "./dom.js";

// Solutions fetched per request: small boards in pages, big boards one at a time (on a 32x32
// board the 50th solution lies hundreds of millions of steps past the first).
const PAGED_MAX_N = 16;
const PAGE = 50;

// The server's limits for this view (config.browse): max_n, page_max, unique_max_n, count_max_n.
let limits = null;
let changed = () => {};

const state = {
  n: 8,
  i: 0, // 0-based index of the solution shown
  unique: false,
  total: null, // the number of solutions in the current listing, when known
  pages: new Map(), // "n|unique|pageStart" -> array of solutions
  request: 0,
};

const pageSize = (n) => (n <= PAGED_MAX_N ? Math.min(PAGE, limits.page_max) : 1);

function listingKey(pageStart) {
  return `${state.n}|${state.unique}|${pageStart}`;
}

async function solutionAt(index) {
  const size = pageSize(state.n);
  const start = Math.floor(index / size) * size;
  const key = listingKey(start);
  if (!state.pages.has(key)) {
    const body = await api(
      `/api/solutions?n=${state.n}&offset=${start}&limit=${size}&unique=${state.unique}`);
    state.pages.set(key, body.solutions.map((s) => s.queens));
    if (body.total !== null && body.total !== undefined) state.total = body.total;
  }
  const page = state.pages.get(key);
  const queens = page[index - start];
  if (!queens) {
    const error = new Error("past the last solution");
    error.status = 404;
    throw error;
  }
  return queens;
}

function setButtons(busy) {
  const known = state.total !== null;
  $("first").disabled = busy || state.i === 0;
  $("prev").disabled = busy || state.i === 0;
  $("next").disabled = busy || (known && state.i >= state.total - 1);
  $("last").disabled = busy || !known || state.i >= state.total - 1;
}

async function showSolution(index) {
  const ticket = ++state.request;
  if (index < 0) index = 0;
  if (state.total !== null && state.total > 0 && index > state.total - 1) index = state.total - 1;
  try {
    const queens = await solutionAt(index);
    if (ticket !== state.request) return;
    state.i = index;
    const of = state.total !== null ? `of ${state.total}` : "(total not counted for this size)";
    const kind = state.unique ? "Distinct solution" : "Solution";
    const label = `${kind} ${index + 1} ${of}`;
    $("label").textContent = label;
    $("positions").textContent = queens.join(" ");
    board.show(state.n, queens, solutionTitle(state.n, queens), `${label}: ${queens.join(" ")}`);
    $("board-caption").textContent = `${state.n}\u00d7${state.n} board, ${label.toLowerCase()}`;
  } catch (error) {
    if (ticket !== state.request) return;
    if (error.status === 404 && index > 0) {
      // Past the end of the listing (a shared link to a solution that is not there): learn the
      // total from the first page and show the last solution, or the first when it is unknown.
      if (state.total === null) await solutionAt(0).catch(() => null);
      if (ticket !== state.request) return;
      const lastIndex = state.total !== null && state.total > 0 ? state.total - 1 : 0;
      return showSolution(Math.min(index - 1, lastIndex));
    }
    if (error.status === 422 && board.n === state.n) {
      // Too deep to reach quickly: stay on the board shown and say why.
      $("label").textContent = `Solution ${index + 1} is out of reach: ${error.message}`;
      setButtons(false);
      return;
    }
    state.i = 0;
    board.show(state.n, [], `${state.n}x${state.n} board`, `Empty ${state.n} by ${state.n} board`);
    $("positions").textContent = "";
    $("label").textContent = error.status === 404
      ? `The ${state.n}\u00d7${state.n} board has no solution.`
      : `Could not load the solution: ${error.message}`;
    $("board-caption").textContent = "";
    if (error.status === 404) state.total = 0;
  }
  setButtons(false);
  changed();
}

async function loadCounts() {
  const n = state.n;
  const tooLarge = `Counts of the ${n}\u00d7${n} board are not computed here (too large).`;
  $("counts").textContent = "";
  if (n > limits.count_max_n) {
    $("counts").textContent = tooLarge;
    return;
  }
  try {
    const body = await api(`/api/count?n=${n}`);
    if (n !== state.n) return;
    const s = (k) => (k === 1 ? "" : "s");
    $("counts").textContent = `The ${n}\u00d7${n} board has ${body.total} solution${s(body.total)}, `
      + `${body.unique} distinct under rotation and reflection.`;
  } catch (_) {
    if (n === state.n) $("counts").textContent = tooLarge;
  }
}

function changeListing() {
  state.total = null;
  state.pages.clear();
  setButtons(true);
  syncUniqueBox();
  $("label").textContent = "Loading\u2026";
  loadCounts();
  return showSolution(0);
}

// The symmetry classes are listed only up to the server's unique_max_n.
function syncUniqueBox() {
  const box = $("unique");
  const max = limits.unique_max_n;
  box.disabled = state.n > max;
  if (box.disabled && state.unique) {
    state.unique = false;
    box.checked = false;
  }
  box.title = box.disabled ? `Only up to ${max}\u00d7${max}` : "";
}

function next() { return showSolution(state.i + 1); }
function prev() { return showSolution(state.i - 1); }
function first() { return showSolution(0); }
function last() {
  if (state.total !== null && state.total > 0) return showSolution(state.total - 1);
  return Promise.resolve();
}

// Sets up the view: `config` is config.browse, `url` what the address asks for (its `mode`, and
// `params`), `onChange` is called whenever the state the address keeps has changed.
export function init(config, url, onChange) {
  limits = config;
  changed = onChange;
  if (url.mode === "browse") {
    const n = Number(url.params.get("n"));
    if (Number.isInteger(n) && n >= 1 && n <= limits.max_n) state.n = n;
    const i = Number(url.params.get("i"));
    if (Number.isInteger(i) && i >= 1) state.i = i - 1;
    state.unique = ["1", "true"].includes(url.params.get("unique") || "");
  }
  fillSizes($("size"), limits.max_n, state.n);
  $("unique").checked = state.unique;
  syncUniqueBox();
  $("size").addEventListener("change", () => { state.n = Number($("size").value); state.i = 0; changeListing(); });
  $("unique").addEventListener("change", () => { state.unique = $("unique").checked; state.i = 0; changeListing(); });
  $("first").addEventListener("click", first);
  $("prev").addEventListener("click", prev);
  $("next").addEventListener("click", next);
  $("last").addEventListener("click", last);
}

// The first load: the counts and the solution the address asked for.
export function start() {
  loadCounts();
  const at = state.i;
  state.i = 0;
  return showSolution(at);
}

// Back to this view: the solution it showed.
export function show() {
  return showSolution(state.i);
}

export function toUrl(params) {
  params.set("n", String(state.n));
  params.set("i", String(state.i + 1));
  if (state.unique) params.set("unique", "1");
}

export function downloadSuffix() {
  return `-solution-${state.i + 1}`;
}

// The view's keys; true when `event` was one of them.
export function onKey(event) {
  const key = event.key;
  if (key === "ArrowDown" || key === "ArrowRight") next();
  else if (key === "ArrowUp" || key === "ArrowLeft") prev();
  else if (key === "Home") first();
  else if (key === "End") last();
  else return false;
  return true;
}
