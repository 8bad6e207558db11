// Browse: every solution of a board, in lexicographic order (/api/solutions), or one per
// symmetry class, with the board's counts (/api/count, or for boards too large to count within
// a request, /api/total, which counts in the background and reports its progress).
//
// Moves never get lost: every press moves a target index, and the page fetches whatever the
// target is once the request before has come back (presses during a slow request add up). A
// request slower than WORKING_MS shows "Working…" and disables the buttons.

import { api } from "./api.js";
import { board, solutionTitle } from "./board.js";
import { $, fillSizes } from "./dom.js";

// Solutions fetched per request: small boards in pages, big boards one at a time (on a 32x32
// board the 50th solution lies hundreds of millions of steps past the first).
const PAGED_MAX_N = 16;
const PAGE = 50;
// A request slower than this shows the working state.
const WORKING_MS = 200;
// How often the page asks how far a background count has come.
const POLL_MS = 700;

// The server's limits for this view (config.browse): max_n, page_max, unique_max_n, count_max_n.
let limits = null;
let changed = () => {};

const state = {
  n: 8,
  i: 0, // 0-based index of the solution shown
  target: 0, // the index the presses so far ask for
  queens: null, // the solution shown
  unique: false,
  total: null, // the number of solutions in the current listing, when known
  totals: new Map(), // "n|unique" -> total, as learnt
  pages: new Map(), // "n|unique|pageStart" -> array of solutions
  busy: false,
  generation: 0, // bumped when the listing changes, so stale answers are dropped
  poll: null,
};

const pageSize = (n) => (n <= PAGED_MAX_N ? Math.min(PAGE, limits.page_max) : 1);

function listingKey(pageStart) {
  return `${state.n}|${state.unique}|${pageStart}`;
}

function learnTotal(total) {
  if (total === null || total === undefined) return;
  state.total = total;
  state.totals.set(`${state.n}|${state.unique}`, total);
}

const mirror = (queens, n) => queens.map((c) => n - 1 - c);

async function solutionAt(index) {
  // Every solution's mirror image (column c to N-1-c) is a solution, and mirroring reverses
  // the order: solution i is the mirror of solution total-1-i, so the second half of the list
  // is read from the first, and Last is as quick as First.
  if (!state.unique && state.total !== null && index > state.total - 1 - index) {
    return mirror(await solutionAt(state.total - 1 - index), state.n);
  }
  const size = pageSize(state.n);
  const start = Math.floor(index / size) * size;
  const key = listingKey(start);
  if (!state.pages.has(key)) {
    const body = await api(
      `/api/solutions?n=${state.n}&offset=${start}&limit=${size}&unique=${state.unique}`);
    state.pages.set(key, body.solutions.map((s) => s.queens));
    learnTotal(body.total);
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

function setButtons() {
  const busy = state.busy;
  const known = state.total !== null;
  $("first").disabled = busy || state.i === 0;
  $("prev").disabled = busy || state.i === 0;
  $("next").disabled = busy || (known && state.i >= state.total - 1);
  $("last").disabled = busy || !known || state.i >= state.total - 1;
  $("goto-go").disabled = busy;
}

// Shows or hides the working state (after WORKING_MS of one request).
function working(on) {
  $("browse-working").hidden = !on;
  const stage = document.querySelector(".stage");
  if (on) stage.setAttribute("aria-busy", "true");
  else stage.removeAttribute("aria-busy");
  document.body.dataset.working = on ? "true" : "false";
}

function render(index, queens) {
  state.i = index;
  state.queens = queens;
  let of = state.total !== null ? `of ${state.total}` : "(total being counted: see below)";
  if (state.total === null && state.uncounted === state.n) of = "(total too large to count here: see below)";
  const kind = state.unique ? "Distinct solution" : "Solution";
  const label = `${kind} ${index + 1} ${of}`;
  $("label").textContent = label;
  $("positions").textContent = queens.join(" ");
  board.show(state.n, queens, solutionTitle(state.n, queens), `${label}: ${queens.join(" ")}`);
  $("board-caption").textContent = `${state.n}\u00d7${state.n} board, ${label.toLowerCase()}`;
}

// Fetches and shows state.target, then again while presses moved it meanwhile.
async function pump() {
  if (state.busy) return;
  state.busy = true;
  const generation = state.generation;
  const timer = setTimeout(() => {
    if (state.busy) working(true);
    setButtons();
  }, WORKING_MS);
  try {
    while (generation === state.generation && state.target !== state.i) {
      await load(state.target, generation);
    }
    if (generation === state.generation && !state.queens) await load(state.target, generation);
  } finally {
    clearTimeout(timer);
    state.busy = false;
    working(false);
    setButtons();
  }
  if (generation !== state.generation) pump();
  else changed();
}

async function load(index, generation) {
  try {
    const queens = await solutionAt(index);
    if (generation !== state.generation) return;
    render(index, queens);
  } catch (error) {
    if (generation !== state.generation) return;
    if (error.status === 404 && index > 0) {
      // Past the end of the listing (a shared link to a solution that is not there): learn the
      // total from the first page and show the last solution, or the first when it is unknown.
      if (state.total === null) await solutionAt(0).catch(() => null);
      const lastIndex = state.total !== null && state.total > 0 ? state.total - 1 : 0;
      state.target = Math.min(index - 1, lastIndex);
      if (state.target === state.i && state.queens) return;
      return load(state.target, generation);
    }
    if (error.status === 422 && state.queens) {
      // Too deep to reach quickly: stay on the board shown (label and caption agree with it)
      // and say in words what can be reached, and how to get the one asked for.
      state.target = state.i;
      render(state.i, state.queens);
      $("goto-note").textContent = outOfReach(index);
      return;
    }
    state.i = 0;
    state.target = 0;
    state.queens = [];
    board.show(state.n, [], `${state.n}x${state.n} board`, `Empty ${state.n} by ${state.n} board`);
    $("positions").textContent = "";
    $("label").textContent = error.status === 404
      ? `The ${state.n}\u00d7${state.n} board has no solution.`
      : `Could not load the solution: ${error.message}`;
    $("board-caption").textContent = "";
    if (error.status === 404) state.total = 0;
  }
}

// Why solution `index` (0-based) cannot be shown, and how to get it.
function outOfReach(index) {
  const n = state.n;
  const number = (index + 1).toLocaleString("en");
  const unique = state.unique ? " --unique" : "";
  const last = state.total !== null
    ? " and the last ones (Last: the mirror images of the first)"
    : "";
  return `Solution ${number} is too far into the list to show here: the server finds it by searching`
    + ` the ${n}\u00d7${n} board in order, and getting that far takes longer than it may spend on one`
    + ` answer. The first solutions${last} come quickly. On the command line,`
    + ` queens list ${n}${unique} --limit ${index + 1} | tail -n 1 prints solution ${number}.`;
}

function go(index) {
  let to = Math.max(0, index);
  if (state.total !== null && state.total > 0) to = Math.min(to, state.total - 1);
  state.target = to;
  return pump();
}

const s = (k) => (k === 1 ? "" : "s");

function showCounts(n, total, unique) {
  $("counts").textContent = `The ${n}\u00d7${n} board has ${total} solution${s(total)}, `
    + `${unique} distinct under rotation and reflection.`;
}

async function loadCounts() {
  const n = state.n;
  if (state.poll) clearTimeout(state.poll);
  state.poll = null;
  $("counts").textContent = "";
  if (n > limits.count_max_n) return backgroundCount(n);
  try {
    const body = await api(`/api/count?n=${n}`);
    if (n !== state.n) return;
    showCounts(n, body.total, body.unique);
    if (state.total === null) {
      learnTotal(state.unique ? body.unique : body.total);
      refreshLabel();
    }
  } catch (_) {
    if (n === state.n) $("counts").textContent = `Counts of the ${n}\u00d7${n} board are not computed here.`;
  }
}

// Boards the API does not count within a request: the server counts them on a thread of its
// own; the page shows how far it has come, then the total (and Last works).
async function backgroundCount(n) {
  try {
    const body = await api(`/api/total?n=${n}`);
    if (n !== state.n) return;
    if (body.counting === false) {
      state.uncounted = n;
      const known = n <= 27
        ? `it has been counted (the largest board ever counted is 27\u00d727), but it takes far longer than a page can wait`
        : `nobody knows it: the largest board ever counted is 27\u00d727`;
      $("counts").textContent = `The total of the ${n}\u00d7${n} board is not counted here: ${body.why}, and ${known}.`
        + ` On the command line, queens count ${n} would count it (queens count ${n} --estimate first says how long`
        + " that takes; --shard splits the count over many machines).";
      refreshLabel();
      return;
    }
    if (body.done) {
      showCounts(n, body.total, body.unique);
      if (!state.unique) {
        learnTotal(body.total);
        refreshLabel();
      }
      return;
    }
    const percent = Math.floor(100 * body.progress);
    $("counts").textContent = `Counting the solutions of the ${n}\u00d7${n} board in the background: ${percent}% done\u2026`;
    state.poll = setTimeout(() => backgroundCount(n), POLL_MS);
  } catch (error) {
    if (n === state.n) {
      $("counts").textContent = `The ${n}\u00d7${n} board is too large to count here (${error.message}).`;
    }
  }
}

function refreshLabel() {
  if (state.queens && state.queens.length) render(state.i, state.queens);
  setButtons();
  changed();
}

function changeListing(index) {
  state.generation++;
  state.total = state.totals.get(`${state.n}|${state.unique}`) ?? null;
  state.pages.clear();
  state.queens = null;
  state.i = -1;
  state.target = index || 0;
  syncUniqueBox();
  $("label").textContent = "Loading\u2026";
  $("goto-note").textContent = "";
  loadCounts();
  return pump();
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

// The representative of a board's class: the lexicographically smallest of its 8 images.
export function representative(queens) {
  const n = queens.length;
  const images = [];
  const maps = [
    (r, c) => [r, c], (r, c) => [r, n - 1 - c], (r, c) => [n - 1 - r, c], (r, c) => [n - 1 - r, n - 1 - c],
    (r, c) => [c, r], (r, c) => [c, n - 1 - r], (r, c) => [n - 1 - c, r], (r, c) => [n - 1 - c, n - 1 - r],
  ];
  for (const map of maps) {
    const image = new Array(n).fill(-1);
    queens.forEach((c, r) => {
      const [r2, c2] = map(r, c);
      image[r2] = c2;
    });
    images.push(image);
  }
  const less = (a, b) => {
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i];
    return false;
  };
  return images.reduce((best, im) => (less(im, best) ? im : best));
}

// The unique box: keeps the board's class in view (its representative among the classes, and
// back again that representative among every solution), as the terminal browser does.
async function toggleUnique() {
  const wanted = $("unique").checked;
  const shown = state.queens && state.queens.length === state.n ? state.queens : null;
  state.unique = wanted;
  let index = 0;
  if (shown) {
    const board = wanted ? representative(shown) : shown;
    $("label").textContent = wanted ? "Finding this board\u2019s class\u2026" : "Finding this board among every solution\u2026";
    const timer = setTimeout(() => working(true), WORKING_MS);
    try {
      const body = await api(`/api/index?n=${state.n}&queens=${board.join(",")}&unique=${wanted}`);
      index = body.index;
    } catch (_) {
      index = 0;
    }
    clearTimeout(timer);
    working(false);
  }
  return changeListing(index);
}

function next() { return go(state.target + 1); }
function prev() { return go(state.target - 1); }
function first() { return go(0); }
function last() {
  if (state.total !== null && state.total > 0) return go(state.total - 1);
  return Promise.resolve();
}

// The "go to solution #" field: 1-based, checked against the total when it is known.
function goTo(event) {
  if (event) event.preventDefault();
  const text = $("goto").value.trim();
  const note = $("goto-note");
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    note.textContent = "Type a solution number, 1 or more.";
    return;
  }
  const k = Number(text);
  if (state.total !== null && k > state.total) {
    note.textContent = `There ${state.total === 1 ? "is" : "are"} only ${state.total} ${state.unique ? "distinct solution" : "solution"}${s(state.total)}: showing the last.`;
  } else {
    note.textContent = "";
  }
  $("goto").blur();
  go(k - 1);
}

// Sets up the view: `config` is config.browse, `url` what the address asks for (its `mode`, and
// `params`), `onChange` is called whenever the state the address keeps has changed.
export function init(config, url, onChange) {
  limits = config;
  changed = onChange;
  if (url.mode === "browse") {
    if (url.n && url.n <= limits.max_n) state.n = url.n;
    const i = Number(url.params.get("i"));
    if (Number.isInteger(i) && i >= 1) state.target = i - 1;
    state.unique = ["1", "true"].includes(url.params.get("unique") || "");
  }
  fillSizes($("size"), limits.max_n, state.n);
  $("unique").checked = state.unique;
  syncUniqueBox();
  $("size").addEventListener("change", () => { state.n = Number($("size").value); changeListing(0); });
  $("unique").addEventListener("change", toggleUnique);
  $("first").addEventListener("click", first);
  $("prev").addEventListener("click", prev);
  $("next").addEventListener("click", next);
  $("last").addEventListener("click", last);
  $("goto-form").addEventListener("submit", goTo);
}

// The first load: the counts and the solution the address asked for.
export function start() {
  const at = state.target;
  return changeListing(at);
}

// Back to this view: the solution it showed.
export function show() {
  if (state.queens && state.queens.length) render(state.i, state.queens);
  else pump();
}

export function toUrl(params) {
  params.set("n", String(state.n));
  params.set("i", String(Math.max(0, state.i) + 1));
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
