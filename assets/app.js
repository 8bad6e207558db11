// The queens board viewer: browse every solution, watch a search step by step, solve one board.
// Plain JavaScript, no build step, no network beyond this server's /api.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const SQUARE = 40;
const LIGHT = "#f0d9b5";
const DARK = "#b58863";
const QUEEN_PATH = "M8 30 L32 30 L34 14 L26 22 L20 8 L14 22 L6 14 Z";
const BROWSE_MAX_N = 32;
const LEARN_MAX_N = 12;
// Solutions fetched per request: small boards in pages, big boards one at a time (on a 32x32
// board the 50th solution lies hundreds of millions of steps past the first).
const pageSize = (n) => (n <= 16 ? 50 : 1);
// Above this many squares the board is drawn with one patterned rectangle, not one per square.
const SQUARES_MAX_N = 200;

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------------
// The drawing (the project's SVG board spec: 40 units a square, class "queen" on each queen).

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function addQueen(svg, row, col, extraClass) {
  const g = el("g", {
    class: extraClass ? "queen " + extraClass : "queen",
    "data-row": row,
    "data-col": col,
    transform: `translate(${SQUARE * col},${SQUARE * row})`,
  }, svg);
  el("path", { d: QUEEN_PATH, fill: "#1d1d1d", stroke: "#ffffff", "stroke-width": "1.5" }, g);
  el("rect", { x: 8, y: 31, width: 24, height: 4, fill: "#1d1d1d" }, g);
  return g;
}

// queens[r] is the column of the queen in row r, or -1 / null for an empty row.
function drawBoard(n, queens, title) {
  const side = SQUARE * n;
  const px = Math.min(side, 800);
  const svg = el("svg", {
    xmlns: SVG_NS,
    viewBox: `0 0 ${side} ${side}`,
    width: px,
    height: px,
    role: "img",
  });
  el("title", {}, svg).textContent = title;
  if (n <= SQUARES_MAX_N) {
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const light = (r + c) % 2 === 0;
        el("rect", {
          class: light ? "square light" : "square dark",
          x: SQUARE * c,
          y: SQUARE * r,
          width: SQUARE,
          height: SQUARE,
          fill: light ? LIGHT : DARK,
          "data-row": r,
          "data-col": c,
        }, svg);
      }
    }
  } else {
    const defs = el("defs", {}, svg);
    const pattern = el("pattern", {
      id: "squares", width: 2 * SQUARE, height: 2 * SQUARE, patternUnits: "userSpaceOnUse",
    }, defs);
    el("rect", { width: 2 * SQUARE, height: 2 * SQUARE, fill: LIGHT }, pattern);
    el("rect", { x: SQUARE, width: SQUARE, height: SQUARE, fill: DARK }, pattern);
    el("rect", { y: SQUARE, width: SQUARE, height: SQUARE, fill: DARK }, pattern);
    el("rect", { width: side, height: side, fill: "url(#squares)" }, svg);
  }
  queens.forEach((col, row) => {
    if (col !== null && col !== undefined && col >= 0) addQueen(svg, row, col);
  });
  return svg;
}

function solutionTitle(n, queens) {
  return `${n}-queens solution: ${queens.join(" ")}`;
}

// The live board on the page: the drawing plus what the page adds (labels, highlights).
const board = {
  n: 0,
  queens: [],
  title: "",
  svg: null,

  show(n, queens, title, label) {
    this.n = n;
    this.queens = queens.slice();
    this.title = title;
    const svg = drawBoard(n, queens, title);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label || title);
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.classList.add("board-svg");
    if (n > 64) {
      // Past 64 squares a side a queen is under two pixels: mark each with a dot the eye can
      // see (on the page only; the download is the plain drawing).
      const r = (SQUARE * n) / 300;
      queens.forEach((col, row) => {
        if (col >= 0) {
          el("circle", {
            class: "marker",
            cx: SQUARE * col + SQUARE / 2,
            cy: SQUARE * row + SQUARE / 2,
            r,
            "aria-hidden": "true",
          }, svg);
        }
      });
    }
    const holder = $("board");
    holder.replaceChildren(svg);
    this.svg = svg;
    return svg;
  },

  square(r, c) {
    return this.svg && this.svg.querySelector(`rect.square[data-row="${r}"][data-col="${c}"]`);
  },

  clearMarks() {
    if (!this.svg) return;
    for (const node of this.svg.querySelectorAll(".attacked, .tried, .hovered, .conflict")) {
      node.classList.remove("attacked", "tried", "hovered", "conflict");
    }
    for (const node of this.svg.querySelectorAll(".ghost, .attack-line")) node.remove();
    for (const node of this.svg.querySelectorAll(".queen.attacker")) node.classList.remove("attacker");
  },

  markAttackedFrom(r, c, className) {
    for (const [ar, ac] of attackedSquares(this.n, r, c)) {
      const sq = this.square(ar, ac);
      if (sq) sq.classList.add(className || "attacked");
    }
  },

  ghost(r, c, conflict) {
    if (!this.svg) return;
    const g = el("g", {
      class: conflict ? "ghost conflict" : "ghost",
      transform: `translate(${SQUARE * c},${SQUARE * r})`,
      "aria-hidden": "true",
    }, this.svg);
    el("path", { d: QUEEN_PATH }, g);
    el("rect", { x: 8, y: 31, width: 24, height: 4 }, g);
  },

  line(r1, c1, r2, c2) {
    if (!this.svg) return;
    const half = SQUARE / 2;
    el("line", {
      class: "attack-line",
      x1: SQUARE * c1 + half, y1: SQUARE * r1 + half,
      x2: SQUARE * c2 + half, y2: SQUARE * r2 + half,
    }, this.svg);
  },
};

// Every square a queen on (r, c) attacks, on an n x n board.
function attackedSquares(n, r, c) {
  const out = [];
  for (let i = 0; i < n; i++) {
    if (i !== c) out.push([r, i]);
    if (i !== r) out.push([i, c]);
  }
  for (const [dr, dc] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) {
    for (let k = 1; ; k++) {
      const rr = r + k * dr;
      const cc = c + k * dc;
      if (rr < 0 || rr >= n || cc < 0 || cc >= n) break;
      out.push([rr, cc]);
    }
  }
  return out;
}

// Hovering (or touching) a square shows what a queen there would attack; only in Browse and
// Solve, where the board is not busy showing a search.
function onBoardPointer(event) {
  if (app.mode === "learn") return;
  const rect = event.target.closest && event.target.closest("rect.square");
  board.clearMarks();
  if (!rect || event.type === "pointerleave") return;
  const r = Number(rect.dataset.row);
  const c = Number(rect.dataset.col);
  rect.classList.add("hovered");
  board.markAttackedFrom(r, c);
}

// ---------------------------------------------------------------------------------------------
// Talking to the server.

async function api(path) {
  const response = await fetch(path, { headers: { accept: "application/json" } });
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = null;
  }
  if (!response.ok) {
    const error = new Error((body && body.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return body;
}

// ---------------------------------------------------------------------------------------------
// Browse.

const app = {
  mode: "browse",
  n: 8,
  i: 0, // 0-based index of the solution shown
  unique: false,
  total: null, // the number of solutions in the current listing, when known
  pages: new Map(), // "n|unique|pageStart" -> array of solutions
  request: 0,
};

function listingKey(pageStart) {
  return `${app.n}|${app.unique}|${pageStart}`;
}

async function solutionAt(index) {
  const size = pageSize(app.n);
  const start = Math.floor(index / size) * size;
  const key = listingKey(start);
  if (!app.pages.has(key)) {
    const body = await api(
      `/api/solutions?n=${app.n}&offset=${start}&limit=${size}&unique=${app.unique}`);
    app.pages.set(key, body.solutions.map((s) => s.queens));
    if (body.total !== null && body.total !== undefined) app.total = body.total;
  }
  const page = app.pages.get(key);
  const queens = page[index - start];
  if (!queens) {
    const error = new Error("past the last solution");
    error.status = 404;
    throw error;
  }
  return queens;
}

function setBrowseButtons(busy) {
  const known = app.total !== null;
  $("first").disabled = busy || app.i === 0;
  $("prev").disabled = busy || app.i === 0;
  $("next").disabled = busy || (known && app.i >= app.total - 1);
  $("last").disabled = busy || !known || app.i >= app.total - 1;
}

async function showSolution(index) {
  const ticket = ++app.request;
  if (index < 0) index = 0;
  if (app.total !== null && app.total > 0 && index > app.total - 1) index = app.total - 1;
  try {
    const queens = await solutionAt(index);
    if (ticket !== app.request) return;
    app.i = index;
    const of = app.total !== null ? `of ${app.total}` : "(total not counted for this size)";
    const kind = app.unique ? "Distinct solution" : "Solution";
    const label = `${kind} ${index + 1} ${of}`;
    $("label").textContent = label;
    $("positions").textContent = queens.join(" ");
    board.show(app.n, queens, solutionTitle(app.n, queens), `${label}: ${queens.join(" ")}`);
    $("board-caption").textContent = `${app.n}\u00d7${app.n} board, ${label.toLowerCase()}`;
  } catch (error) {
    if (ticket !== app.request) return;
    if (error.status === 404 && index > 0) {
      // Past the end of the listing (a shared link to a solution that is not there): learn the
      // total from the first page and show the last solution, or the first when it is unknown.
      if (app.total === null) await solutionAt(0).catch(() => null);
      if (ticket !== app.request) return;
      const lastIndex = app.total !== null && app.total > 0 ? app.total - 1 : 0;
      return showSolution(Math.min(index - 1, lastIndex));
    }
    if (error.status === 422 && board.n === app.n) {
      // Too deep to reach quickly: stay on the board shown and say why.
      $("label").textContent = `Solution ${index + 1} is out of reach: ${error.message}`;
      setBrowseButtons(false);
      return;
    }
    app.i = 0;
    board.show(app.n, [], `${app.n}x${app.n} board`, `Empty ${app.n} by ${app.n} board`);
    $("positions").textContent = "";
    $("label").textContent = error.status === 404
      ? `The ${app.n}\u00d7${app.n} board has no solution.`
      : `Could not load the solution: ${error.message}`;
    $("board-caption").textContent = "";
    if (error.status === 404) app.total = 0;
  }
  setBrowseButtons(false);
  saveUrl();
}

async function loadCounts() {
  const n = app.n;
  $("counts").textContent = "";
  try {
    const body = await api(`/api/count?n=${n}`);
    if (n !== app.n) return;
    const s = (k) => (k === 1 ? "" : "s");
    $("counts").textContent = `The ${n}\u00d7${n} board has ${body.total} solution${s(body.total)}, `
      + `${body.unique} distinct under rotation and reflection.`;
  } catch (_) {
    if (n === app.n) $("counts").textContent = `Counts of the ${n}\u00d7${n} board are not computed here (too large).`;
  }
}

// The largest board whose symmetry classes the server lists (/api/solutions?unique=true).
const UNIQUE_MAX_N = 15;

function changeListing() {
  app.total = null;
  app.pages.clear();
  setBrowseButtons(true);
  syncUniqueBox();
  $("label").textContent = "Loading\u2026";
  loadCounts();
  return showSolution(0);
}

function syncUniqueBox() {
  const box = $("unique");
  box.disabled = app.n > UNIQUE_MAX_N;
  if (box.disabled && app.unique) {
    app.unique = false;
    box.checked = false;
  }
  box.title = box.disabled ? `Only up to ${UNIQUE_MAX_N}\u00d7${UNIQUE_MAX_N}` : "";
}

function next() { return showSolution(app.i + 1); }
function prev() { return showSolution(app.i - 1); }
function first() { return showSolution(0); }
function last() {
  if (app.total !== null && app.total > 0) return showSolution(app.total - 1);
  return Promise.resolve();
}

// ---------------------------------------------------------------------------------------------
// Learn: play a trace of the search (the events of `queens trace --format json`, from
// /api/trace). Each event names a square (row, col), carries the board after the step as a
// positions array (-1 = empty), indexed by row, or by column for the column-wise `backtrack`
// solver ("positions_by"), and for that solver its first-untried array ("untried").

const learn = {
  events: [],
  at: -1, // index of the event shown; -1 = before the first
  timer: null,
  loaded: "",
  cut: false,
  summary: null,
};

// Speeds the slider offers, in steps a second.
const SPEEDS = [1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120, 200, 400];

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
  const total = learn.events.length;
  $("learn-step-label").textContent = `Step ${learn.at + 1} of ${total}${learn.cut ? " (trace cut short)" : ""}`;
  if (learn.at < 0 || total === 0) {
    board.show(n, [], `${n}-queens search, before the first step`, `Empty ${n} by ${n} board`);
    $("learn-explain").textContent = total ? "Press Play or Step to start the search." : "";
    $("learn-positions").textContent = `[${new Array(n).fill(-1).join(", ")}]`;
    $("learn-untried").textContent = "";
    setLearnButtons();
    return;
  }
  const ev = learn.events[learn.at];
  const queens = eventQueens(ev, n);
  const text = explain(ev);
  board.show(n, queens, `${n}-queens search, step ${ev.step}: ${queens.join(" ")}`,
    `Step ${learn.at + 1}: ${text}`);
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
  setLearnButtons();
}

function setLearnButtons() {
  const total = learn.events.length;
  $("learn-start").disabled = learn.at < 0;
  $("learn-back").disabled = learn.at < 0;
  $("learn-step").disabled = learn.at >= total - 1;
  $("learn-play").disabled = total === 0;
  $("learn-play").textContent = learn.timer ? "\u275A\u275A Pause" : "\u25B6 Play";
  $("learn-play").setAttribute("aria-pressed", learn.timer ? "true" : "false");
}

function stepTo(index) {
  learn.at = Math.max(-1, Math.min(index, learn.events.length - 1));
  showEvent();
}

function speed() {
  return SPEEDS[Number($("learn-speed").value)] || 8;
}

function play() {
  if (learn.timer) return pause();
  if (learn.at >= learn.events.length - 1) learn.at = -1;
  // Screen readers would be flooded while playing: only speak when stepping.
  $("learn-explain").setAttribute("aria-live", "off");
  const tick = () => {
    if (learn.at >= learn.events.length - 1) return pause();
    // Fast speeds move several steps per frame.
    const perTick = Math.max(1, Math.round(speed() / 60));
    stepTo(learn.at + perTick);
    learn.timer = setTimeout(tick, Math.max(1000 / speed(), 16));
    setLearnButtons();
  };
  learn.timer = setTimeout(tick, 0);
  setLearnButtons();
}

function pause() {
  if (learn.timer) clearTimeout(learn.timer);
  learn.timer = null;
  $("learn-explain").setAttribute("aria-live", "polite");
  setLearnButtons();
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
  saveUrl();
  if (learn.loaded === key) return;
  pause();
  learn.events = [];
  learn.at = -1;
  learn.loaded = key;
  $("learn-note").textContent = "Loading the trace\u2026";
  showEvent();
  try {
    const body = await api(`/api/trace?n=${n}&algo=${algo}&limit=20000`);
    if (learn.loaded !== key) return;
    learn.events = body.events;
    learn.cut = Boolean(body.cut);
    $("learn-positions-term").textContent = body.positions_by === "column"
      ? "positions[column] = row"
      : "positions[row] = column";
    $("learn-note").textContent = describeSummary(body.summary, algo, n)
      + (learn.cut ? ` Only its first ${learn.events.length} steps are shown.` : "");
  } catch (error) {
    if (learn.loaded !== key) return;
    learn.loaded = "";
    $("learn-note").textContent = `Could not load the trace: ${error.message}`;
  }
  showEvent();
}

// ---------------------------------------------------------------------------------------------
// Solve: one solution of a possibly large board.

const solveAlgos = [
  ["", "automatic (bitboard up to 29, construct above)"],
  ["construct", "construct (explicit formula, any N)"],
  ["min-conflicts", "min-conflicts (local search)"],
  ["bitboard", "bitboard (bitmasks)"],
  ["wirth", "wirth"],
  ["recursive", "recursive"],
  ["backtrack", "backtrack"],
  ["iterative", "iterative"],
  ["bfs", "bfs"],
];

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
      $("solve-positions").textContent = n <= 2000 ? body.queens.join(" ") : `${body.queens.slice(0, 200).join(" ")} \u2026`;
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
  saveUrl();
}

// ---------------------------------------------------------------------------------------------
// Modes, URL state, keys, download.

function setMode(mode) {
  pause();
  app.mode = mode;
  for (const name of ["browse", "learn", "solve"]) {
    const tab = $(`tab-${name}`);
    const on = name === mode;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
    $(`panel-${name}`).hidden = !on;
  }
  $("board-caption").textContent = "";
  if (mode === "browse") showSolution(app.i);
  if (mode === "learn") {
    if (learn.loaded) showEvent();
    loadTrace();
  }
  if (mode === "solve") {
    if (solved.queens) board.show(solved.n, solved.queens, solutionTitle(solved.n, solved.queens));
    else solve();
  }
  saveUrl();
}

function saveUrl() {
  const params = new URLSearchParams();
  if (app.mode === "learn") {
    params.set("mode", "learn");
    params.set("n", $("learn-size").value);
    params.set("algo", $("learn-algo").value);
  } else if (app.mode === "solve") {
    params.set("mode", "solve");
    params.set("n", $("solve-n").value);
    params.set("algo", $("solve-algo").value);
  } else {
    params.set("n", String(app.n));
    params.set("i", String(app.i + 1));
    if (app.unique) params.set("unique", "1");
  }
  const url = `/?${params}`;
  if (url !== location.pathname + location.search) history.replaceState(null, "", url);
}

// The state a shared address asks for: /?n=8&i=5, /?n=8&i=2&unique=1, /?mode=learn&n=6&algo=wirth,
// /?mode=solve&n=24&algo=bitboard.
function readUrl() {
  const params = new URLSearchParams(location.search);
  const mode = ["learn", "solve"].includes(params.get("mode")) ? params.get("mode") : "browse";
  const n = Number(params.get("n"));
  const valid = Number.isInteger(n) && n >= 1;
  const algo = params.get("algo");
  if (mode === "browse") {
    if (valid && n <= BROWSE_MAX_N) app.n = n;
    const i = Number(params.get("i"));
    if (Number.isInteger(i) && i >= 1) app.i = i - 1;
    app.unique = ["1", "true"].includes(params.get("unique") || "");
  }
  return { mode, n: valid ? n : null, algo };
}

function typingIn(target) {
  if (!target || !target.tagName) return false;
  const tag = target.tagName.toLowerCase();
  return tag === "select" || tag === "textarea" || (tag === "input" && target.type !== "checkbox")
    || target.getAttribute("role") === "tab";
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || typingIn(event.target)) return;
  const key = event.key;
  let handled = true;
  if (app.mode === "browse") {
    if (key === "ArrowDown" || key === "ArrowRight") next();
    else if (key === "ArrowUp" || key === "ArrowLeft") prev();
    else if (key === "Home") first();
    else if (key === "End") last();
    else handled = false;
  } else if (app.mode === "learn") {
    if (key === "ArrowRight" || key === "ArrowDown") { pause(); stepTo(learn.at + 1); }
    else if (key === "ArrowLeft" || key === "ArrowUp") { pause(); stepTo(learn.at - 1); }
    else if (key === "Home") { pause(); stepTo(-1); }
    else if (key === "End") { pause(); stepTo(learn.events.length - 1); }
    else if (key === " " && !(event.target && event.target.tagName === "BUTTON")) play();
    else handled = false;
  } else {
    handled = false;
  }
  if (handled) event.preventDefault();
}

function onTabKey(event) {
  const order = ["browse", "learn", "solve"];
  const at = order.indexOf(app.mode);
  let to = null;
  if (event.key === "ArrowRight") to = order[(at + 1) % 3];
  else if (event.key === "ArrowLeft") to = order[(at + 2) % 3];
  else if (event.key === "Home") to = order[0];
  else if (event.key === "End") to = order[2];
  if (to) {
    event.preventDefault();
    setMode(to);
    $(`tab-${to}`).focus();
  }
}

function download() {
  if (!board.n) return;
  const svg = drawBoard(board.n, board.queens, board.title);
  // The squares' coordinates serve the page's hovering only: the file is the plain drawing.
  for (const rect of svg.querySelectorAll("rect.square")) {
    rect.removeAttribute("data-row");
    rect.removeAttribute("data-col");
  }
  const text = '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(svg) + "\n";
  const blob = new Blob([text], { type: "image/svg+xml" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  const which = app.mode === "browse" ? `-solution-${app.i + 1}` : app.mode === "learn" ? `-step-${learn.at + 1}` : "";
  a.download = `queens-${board.n}${which}.svg`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function fillSizes(select, max, value) {
  for (let n = 1; n <= max; n++) {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = `${n} \u00d7 ${n}`;
    select.appendChild(option);
  }
  select.value = String(value);
}

function init() {
  const asked = readUrl();
  const mode = asked.mode;
  fillSizes($("size"), BROWSE_MAX_N, app.n);
  const learnN = mode === "learn" && asked.n && asked.n <= LEARN_MAX_N ? asked.n : 6;
  fillSizes($("learn-size"), LEARN_MAX_N, learnN);
  for (const [value, text] of solveAlgos) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    $("solve-algo").appendChild(option);
  }
  if (mode === "learn" && [...$("learn-algo").options].some((o) => o.value === asked.algo)) {
    $("learn-algo").value = asked.algo;
  }
  if (mode === "solve") {
    if (asked.n) $("solve-n").value = String(asked.n);
    if ([...$("solve-algo").options].some((o) => o.value === asked.algo)) $("solve-algo").value = asked.algo;
  }
  $("unique").checked = app.unique;
  syncUniqueBox();

  $("size").addEventListener("change", () => { app.n = Number($("size").value); app.i = 0; changeListing(); });
  $("unique").addEventListener("change", () => { app.unique = $("unique").checked; app.i = 0; changeListing(); });
  $("first").addEventListener("click", first);
  $("prev").addEventListener("click", prev);
  $("next").addEventListener("click", next);
  $("last").addEventListener("click", last);

  $("learn-size").addEventListener("change", loadTrace);
  $("learn-algo").addEventListener("change", loadTrace);
  $("learn-play").addEventListener("click", play);
  $("learn-step").addEventListener("click", () => { pause(); stepTo(learn.at + 1); });
  $("learn-back").addEventListener("click", () => { pause(); stepTo(learn.at - 1); });
  $("learn-start").addEventListener("click", () => { pause(); stepTo(-1); });
  const showSpeed = () => {
    const s = speed();
    $("learn-speed-out").textContent = `${s} steps/s`;
    $("learn-speed").setAttribute("aria-valuetext", `${s} steps a second`);
  };
  $("learn-speed").addEventListener("input", showSpeed);
  showSpeed();

  $("solve-form").addEventListener("submit", solve);
  $("download").addEventListener("click", download);
  for (const name of ["browse", "learn", "solve"]) {
    $(`tab-${name}`).addEventListener("click", () => setMode(name));
    $(`tab-${name}`).addEventListener("keydown", onTabKey);
  }
  document.addEventListener("keydown", onKey);
  const holder = $("board");
  holder.addEventListener("pointerover", onBoardPointer);
  holder.addEventListener("pointerleave", onBoardPointer);

  loadCounts();
  const start = app.i;
  app.i = 0;
  showSolution(start).then(() => {
    if (mode !== "browse") setMode(mode);
    document.body.dataset.ready = "true";
  });
}

init();
