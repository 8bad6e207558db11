// What Learn shows beside a board for one search at one step: the algorithm's code with the
// lines the step runs, the loop variables, the arrays as a teacher draws them (each a row of
// indexed cells, the entries just changed marked), and the conflict test in the algorithm's own
// arithmetic. Each function fills the elements it is given; js/learn.js says which.

import { CODE, linesOf } from "./code.js";
import { eventQueens, plural } from "./learn-track.js";
import { wirthReads } from "./learn-why.js";

// One array as a row of indexed cells; `changed` holds the indexes that just changed.
// `marks` (optional) maps an index to a class for its cell ("read", "read-false").
function arrayTable(name, values, changed, note, marks) {
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
    if (marks && marks.has(i)) d.classList.add(marks.get(i));
    body.appendChild(d);
  });
  table.append(head, body);
  return table;
}

// Several arrays as one table, a row each under one row of indexes (Wirth's a, b and c):
// `rows` holds { name, values, changed, marks } as arrayTable takes them.
function arraysTable(name, rows) {
  const table = document.createElement("table");
  table.className = "array arrays-joined";
  const caption = document.createElement("caption");
  caption.textContent = name;
  table.appendChild(caption);
  const width = Math.max(...rows.map((r) => r.values.length));
  const head = document.createElement("tr");
  const th0 = document.createElement("th");
  th0.textContent = "i";
  th0.scope = "row";
  head.appendChild(th0);
  for (let i = 0; i < width; i++) {
    const h = document.createElement("th");
    h.scope = "col";
    h.textContent = String(i);
    head.appendChild(h);
  }
  table.appendChild(head);
  for (const row of rows) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = row.name;
    tr.appendChild(th);
    row.values.forEach((v, i) => {
      const d = document.createElement("td");
      d.textContent = String(v);
      if (row.changed.has(i)) d.className = "changed";
      if (v === "F") d.classList.add("taken");
      if (row.marks && row.marks.has(i)) d.classList.add(row.marks.get(i));
      tr.appendChild(d);
    });
    table.appendChild(tr);
  }
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

const fmtInt = (k) => k.toLocaleString("en");

// The board's array in each algorithm's own name (the column-wise search's is positions[col]).
const POSITIONS = {
  iterative: "queens[k] = column of row k",
  recursive: "x[k] = column of row k",
  wirth: "x[i] = column of row i",
  bfs: "board (positions[row] = column)",
  bitboard: "queen[k] = column of row k",
};

function eventAt(track, index) {
  return index >= 0 ? track.events[Math.min(index, track.events.length - 1)] : null;
}

// BFS's board as of step `index` (-1: before the first): the last one taken off the queue, or
// the empty board.
function boardTakenOut(track, index, n) {
  for (let i = Math.min(index, track.events.length - 1); i >= 0; i--) {
    if (track.events[i].event === "dequeue") return track.events[i].positions;
  }
  return new Array(n).fill(-1);
}

// The arrays of `track` at step `index` into the element `holder`.
export function showArrays(holder, track, index, n) {
  holder.replaceChildren();
  const ev = eventAt(track, index);
  const prev = index > 0 ? eventAt(track, index - 1) : null;
  const empty = new Array(n).fill(-1);
  const positions = ev ? ev.positions : empty;
  const before = prev ? prev.positions : (ev ? empty : null);
  if (track.algo === "backtrack") {
    // The column-wise loop's two arrays share their index, the column: one table.
    const untried = ev && Array.isArray(ev.untried) ? ev.untried : new Array(n).fill(0);
    const was = prev && Array.isArray(prev.untried) ? prev.untried : (ev ? new Array(n).fill(0) : null);
    holder.appendChild(arraysTable("positions[col] = row; untried[col] = first row not tried yet", [
      { name: "positions", values: positions, changed: diff(positions, before) },
      { name: "untried", values: untried, changed: diff(untried, was) },
    ]));
  } else if (track.algo === "bfs") {
    // BFS's `board` is the one taken off the queue: a dequeue writes it (line 2), and a board
    // queued is it and one queen more (line 7), so each step is compared with the board before
    // it, not with the board the step before showed (a try after an enqueue writes nothing).
    const board = ev ? boardTakenOut(track, index - 1, n) : null;
    const queued = ev && ev.event === "enqueue" && ev.row !== null;
    const name = queued ? `queued: board + queen at (${ev.row}, ${ev.col}) (positions[row] = column)` : POSITIONS.bfs;
    holder.appendChild(arrayTable(name, positions, diff(positions, board)));
  } else {
    holder.appendChild(arrayTable(POSITIONS[track.algo] || "positions[row] = column", positions, diff(positions, before)));
  }
  const queens = ev ? eventQueens(ev, n) : empty;
  const prevQueens = prev ? eventQueens(prev, n) : (ev ? empty : null);
  if (track.algo === "wirth") {
    const now = wirthArrays(queens, n);
    const was = prevQueens ? wirthArrays(prevQueens, n) : null;
    // A conflict marks the entries its test read, the false one last (the test stops there); a
    // placement the three it read true, which it has just set false.
    const read = { a: new Map(), b: new Map(), c: new Map() };
    if (ev && (ev.event === "conflict" || ev.event === "place")) {
      for (const r of wirthReads(ev, n)) read[r.name].set(r.index, r.value ? "read" : "read-false");
    }
    holder.appendChild(arraysTable("a[j]: column j free; b[i+j]: diagonal \u2199 free; c[i\u2212j+N\u22121]: diagonal \u2198 free", [
      { name: "a", values: now.a, changed: diff(now.a, was && was.a), marks: read.a },
      { name: "b", values: now.b, changed: diff(now.b, was && was.b), marks: read.b },
      { name: "c", values: now.c, changed: diff(now.c, was && was.c), marks: read.c },
    ]));
  }
  if (track.algo === "bitboard") {
    const m = bitMasks(queens, n);
    if (m.row < n) {
      const none = new Set();
      holder.appendChild(arraysTable(`The masks on row ${m.row} (bit j = column j)`, [
        { name: "cols", values: m.cols, changed: none },
        { name: "left", values: m.left, changed: none },
        { name: "right", values: m.right, changed: none },
        { name: "free", values: m.free, changed: none },
      ]));
    }
  }
  if (track.algo === "bfs") showQueue(holder, track, index, n);
}

// The queue's length and the board last taken out of it, as of step `index`.
function showQueue(holder, track, index, n) {
  const ev = eventAt(track, index);
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
  const doing = level < n ? `filling row ${level} of the board taken out` : "the board taken out is full: a solution";
  p.textContent = taken
    ? `Queue: ${plural(queue, "board")} waiting; ${doing}:`
    : `Queue: ${plural(queue, "board")} waiting.`;
  holder.appendChild(p);
  if (taken) holder.appendChild(arrayTable("board taken out (positions[row] = column)", taken, new Set()));
  // The boards queued at each level (k rows filled), up to this step: a level is complete once
  // its first board comes off the queue; the level after the board taken out is being filled.
  const queued = new Array(n + 1).fill(0);
  const out = new Array(n + 1).fill(0);
  for (let i = 0; i <= Math.min(index, track.events.length - 1); i++) {
    const e = track.events[i];
    if (e.event === "enqueue") queued[e.row === null ? 0 : e.row + 1]++;
    if (e.event === "dequeue") out[e.row === null ? n : e.row]++;
  }
  if (taken && level < n) {
    // The queue holds the rest of the level being taken out, then the level being filled.
    const rest = queued[level] - out[level];
    p.textContent = `Queue: ${plural(queue, "board")} waiting: ${fmtInt(rest)} with ${plural(level, "row")} filled, `
      + `${fmtInt(queued[level + 1])} with ${level + 1} (being filled); filling row ${level} of the board taken out:`;
  }
  if (index >= 0) {
    const filling = taken ? level + 1 : null;
    const marks = new Map();
    if (filling !== null && filling <= n) marks.set(filling, "filling");
    holder.appendChild(arrayTable("boards queued at level k (k rows filled)", queued, new Set(),
      filling !== null && filling <= n ? `(level ${filling} being filled: so far)` : undefined, marks));
  }
}

// The code of `track` into `list` (an <ol>) and its title into `title`, the lines step `ev`
// runs marked "current" (the first also aria-current); the panel scrolls to them.
export function showCode(title, list, track, ev, index) {
  const code = CODE[track.algo];
  title.textContent = code ? code.title : track.algo;
  list.replaceChildren();
  if (!code) return;
  // The column-wise loop goes on after a solution by backing up into the last column: that
  // remove runs `col ← col − 1` as well ("resume").
  const prev = index > 0 ? eventAt(track, index - 1) : null;
  const kind = ev && ev.event === "remove" && prev && prev.event === "solution" && code.runs && code.runs.resume
    ? "resume" : ev && ev.event;
  const running = ev ? linesOf(track.algo, kind, ev) : [];
  let first = null;
  code.lines.forEach((text, i) => {
    const li = document.createElement("li");
    li.textContent = text || "\u00a0";
    if (running.includes(i)) {
      li.className = "current";
      if (!first) {
        first = li;
        li.setAttribute("aria-current", "step");
      }
    }
    list.appendChild(li);
  });
  // Keep the running lines in sight inside the panel (not by scrolling the page).
  const panel = list.parentElement;
  if (first && panel && panel.scrollHeight > panel.clientHeight) {
    const top = first.offsetTop - panel.offsetTop;
    if (top < panel.scrollTop || top > panel.scrollTop + panel.clientHeight - 3 * first.offsetHeight) {
      panel.scrollTop = Math.max(0, top - panel.clientHeight / 3);
    }
  }
}

// The loop variables after step `index`, as text: `col = 3, row = 4`, `k = 2, j = 5`.
export function varsText(track, index) {
  if (!track.vars) return "";
  const vars = index < 0 ? track.startVars : track.vars[Math.min(index, track.vars.length - 1)];
  return vars.map(([name, value]) => `${name} = ${value}`).join(", ");
}

// The conflict test of step `ev`, in the algorithm's own arithmetic.
export function checkText(track, ev) {
  if (!ev) return "";
  if (track.byColumn) return columnCheck(ev);
  if (ev.event === "place" && track.algo === "wirth") {
    const reads = wirthReads(ev, ev.positions.length);
    return `At i = ${ev.row}, j = ${ev.col} the test reads ${reads.map((r) => `${r.name}[${r.index}] = ${r.value ? "T" : "F"}`).join(", ")}: all true, so x[i] \u2190 j and the three become F.`;
  }
  if (ev.event === "conflict" && ev.with) {
    const k = ev.row;
    const j = ev.col;
    const i = ev.with.row;
    const qi = ev.with.col;
    if (track.algo === "wirth") {
      const n = ev.positions.length;
      const reads = wirthReads(ev, n);
      return `At i = ${k}, j = ${j} the test reads ${reads.map((r) => `${r.name}[${r.index}] = ${r.value ? "T" : "F"}`).join(", ")} and stops at the first F.`;
    }
    if (track.algo === "recursive") {
      if (ev.kind === "column") return `place(${k}, ${j}) at j = ${i}: x[j] = ${qi} = i: the same column.`;
      return `place(${k}, ${j}) at j = ${i}: |x[j] \u2212 i| = |${qi} \u2212 ${j}| = ${Math.abs(qi - j)} and |j \u2212 k| = |${i} \u2212 ${k}| = ${Math.abs(i - k)}: `
        + "equal, so the two queens are as many rows apart as columns apart: one diagonal.";
    }
    if (track.algo === "bfs") {
      return `The queen of the board at row ${i}, column ${qi} attacks (${k}, ${j}) along their ${ev.kind}.`;
    }
    if (ev.kind === "column") return `The test at i = ${i}: queens[${i}] = ${qi} = j: the same column.`;
    return `The test at i = ${i}: k \u2212 i = ${k} \u2212 ${i} = ${k - i} and |queens[i] \u2212 j| = |${qi} \u2212 ${j}| = ${Math.abs(qi - j)}: `
      + "equal, so the two queens are as many rows apart as columns apart: one diagonal.";
  }
  return "";
}

// hasConflictCumulative(b) compares column b with each earlier column a: diff = b - a,
// pdiff = qp[b] - qp[a]; pdiff = 0 is the same row, pdiff = +-diff a shared diagonal.
function columnCheck(ev) {
  if (ev.event === "conflict" && ev.with) {
    const a = ev.with.col;
    const b = ev.col;
    const d = b - a;
    const p = ev.row - ev.with.row;
    const head = `hasConflictCumulative(${b}) at a = ${a}: diff = b \u2212 a = ${b} \u2212 ${a} = ${d}, `
      + `pdiff = qp[b] \u2212 qp[a] = ${ev.row} \u2212 ${ev.with.row} = ${p}. `;
    if (p === 0) return `${head}pdiff = 0: the same row.`;
    const sign = p === d ? "+diff" : "\u2212diff";
    return `${head}pdiff = ${sign}: going from column a to column b the row moves as many squares as the column, so the queens share a diagonal (${p === d ? "down" : "up"} to the right).`;
  }
  if (ev.event === "place") {
    const b = ev.col;
    const parts = [];
    for (let a = 0; a < b; a++) {
      const qa = ev.positions[a];
      parts.push(`a = ${a}: diff ${b - a}, pdiff ${ev.row - qa}`);
    }
    return b === 0
      ? "hasConflictCumulative(0): no earlier column to compare with."
      : `hasConflictCumulative(${b}): no earlier column gives pdiff = 0 or \u00b1diff (${parts.join("; ")}).`;
  }
  return "";
}

// The search tree (js/learn-track.js's buildTree) at step `index`, into `list` (a role="tree"
// list): the nodes made up to that step, the path from the empty board to the node the search
// stands on expanded and marked, every other node collapsed (the Right arrow opens it: its id is
// then in `open`), a node in `closed` collapsed even on the path (the Left arrow closed it),
// pruned leaves drawn as such. Each treeitem carries its node's step in data-step; `focusId` is
// the node that takes the tree's tab stop.
// Returns the id of the node the search stands on.
export function showTree(list, track, tree, index, open, closed, focusId) {
  const at = Math.min(index, track.events.length - 1);
  const here = at >= 0 ? tree.current[at] : 0;
  const path = new Set();
  for (let id = here; id >= 0; id = tree.nodes[id].parent) path.add(id);
  const shown = (id) => tree.nodes[id].step <= at;
  const byColumn = track.byColumn;
  const lineName = byColumn ? "column" : "row";
  const otherName = byColumn ? "row" : "column";
  const n = track.n;
  let stop = null;
  const boardText = (node) => {
    const cells = new Array(n).fill("\u00b7");
    for (let id = node.id; id > 0; id = tree.nodes[id].parent) {
      const s = tree.nodes[id].square;
      if (tree.nodes[id].kind === "placed" && s) cells[byColumn ? s[1] : s[0]] = String(byColumn ? s[0] : s[1]);
    }
    return cells.join(" ");
  };
  const count = (id) => tree.nodes[id].children.filter(shown).reduce((k, c) => k + 1 + count(c), 0);
  const item = (id) => {
    const node = tree.nodes[id];
    const li = document.createElement("li");
    li.setAttribute("role", "treeitem");
    li.setAttribute("aria-level", String(node.depth + 1));
    li.dataset.node = String(id);
    li.dataset.step = String(node.step + 1);
    li.tabIndex = -1;
    const label = document.createElement("span");
    label.className = "tree-label";
    const kids = node.children.filter(shown);
    const expanded = !closed.has(id) && (path.has(id) || open.has(id));
    let text;
    if (node.kind === "root") {
      text = "empty board";
    } else {
      const [r, c] = node.square;
      const line = byColumn ? c : r;
      const other = byColumn ? r : c;
      text = `${lineName} ${line}: ${otherName} ${other}`;
    }
    const dead = node.kind === "placed" && node.end <= at;
    if (node.kind === "pruned") {
      label.textContent = `\u2717 ${otherName} ${node.square[byColumn ? 0 : 1]}: ${node.line} of (${node.with.row}, ${node.with.col})`;
      li.classList.add("pruned");
    } else {
      const mark = kids.length ? (expanded ? "\u25be " : "\u25b8 ") : "\u2022 ";
      const more = kids.length && !expanded ? ` (+${count(id)})` : "";
      const end = node.solution ? " \u2605 solution" : dead ? " \u21a9 given up" : "";
      label.textContent = `${mark}${text}`;
      const board = document.createElement("code");
      board.textContent = boardText(node);
      label.append(" ", board, `${end}${more}`);
      if (kids.length) li.setAttribute("aria-expanded", expanded ? "true" : "false");
      if (dead) li.classList.add("dead");
    }
    const where = node.kind === "root" ? "the start" : `step ${node.step + 1}`;
    li.setAttribute("aria-label", `${label.textContent}, ${where}`);
    if (path.has(id)) li.classList.add("on-path");
    if (id === here) {
      li.classList.add("current");
      li.setAttribute("aria-current", "step");
    }
    if (id === focusId) stop = li;
    li.appendChild(label);
    if (kids.length && expanded) {
      const group = document.createElement("ul");
      group.setAttribute("role", "group");
      for (const k of kids) group.appendChild(item(k));
      li.appendChild(group);
    }
    return li;
  };
  list.replaceChildren(item(0));
  const current = list.querySelector('[aria-current="step"]');
  (stop || current || list.firstChild).tabIndex = 0;
  return { here, current };
}

// The tries made on each level up to step `index`, as text: "tries per column: 8, 22, ...".
export function levelText(track, tree, index) {
  const counts = [];
  for (const i of track.tries) {
    if (i > index) break;
    const level = tree.levels[i];
    counts[level] = (counts[level] || 0) + 1;
  }
  const line = track.byColumn ? "column" : "row";
  const parts = [...counts].map((k, level) => `${line} ${level}: ${(k || 0).toLocaleString("en")}`);
  return parts.length ? `Tries per ${line}: ${parts.join(", ")}.` : `No try yet.`;
}
