// What Learn shows beside a board for one search at one step: the algorithm's code with the
// lines the step runs, the loop variables, the arrays as a teacher draws them (each a row of
// indexed cells, the entries just changed marked), and the conflict test in the algorithm's own
// arithmetic. Each function fills the elements it is given; js/learn.js says which.

import { CODE, linesOf } from "./code.js";
import { eventQueens, plural } from "./learn-track.js";

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

function eventAt(track, index) {
  return index >= 0 ? track.events[Math.min(index, track.events.length - 1)] : null;
}

// The arrays of `track` at step `index` into the element `holder`.
export function showArrays(holder, track, index, n) {
  holder.replaceChildren();
  const ev = eventAt(track, index);
  const prev = index > 0 ? eventAt(track, index - 1) : null;
  const empty = new Array(n).fill(-1);
  const positions = ev ? ev.positions : empty;
  const before = prev ? prev.positions : (ev ? empty : null);
  holder.appendChild(arrayTable(track.byColumn ? "positions[col] = row" : "positions[row] = column",
    positions, diff(positions, before)));
  if (track.algo === "backtrack") {
    const untried = ev && Array.isArray(ev.untried) ? ev.untried : new Array(n).fill(0);
    const was = prev && Array.isArray(prev.untried) ? prev.untried : (ev ? new Array(n).fill(0) : null);
    holder.appendChild(arrayTable("untried[col] = first row not tried yet", untried, diff(untried, was)));
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

// The code of `track` into `list` (an <ol>) and its title into `title`, the lines step `ev`
// runs marked "current" (the first also aria-current); the panel scrolls to them.
export function showCode(title, list, track, ev) {
  const code = CODE[track.algo];
  title.textContent = code ? code.title : track.algo;
  list.replaceChildren();
  if (!code) return;
  const running = ev ? linesOf(track.algo, ev.event, ev) : [];
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

// The loop variables after step `index`, as text: `col = 3, row = 4`.
export function varsText(track, index) {
  if (!track.vars) return "";
  const v = index >= 0 ? track.vars[Math.min(index, track.vars.length - 1)] : { col: 0, row: null };
  return `col = ${v.col}, row = ${v.row === null ? "\u2013" : v.row}`;
}

// The conflict test of step `ev`, in the algorithm's own arithmetic.
export function checkText(track, ev) {
  if (!ev) return "";
  if (track.byColumn) return columnCheck(ev);
  if (ev.event === "conflict" && ev.with) {
    const k = ev.row;
    const j = ev.col;
    const i = ev.with.row;
    const qi = ev.with.col;
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
// stands on expanded and marked, every other node collapsed (Right arrow or a click on its
// triangle opens it: its id is then in `open`), pruned leaves drawn as such. Each treeitem
// carries its node's step in data-step; `focusId` is the node that takes the tree's tab stop.
// Returns the id of the node the search stands on.
export function showTree(list, track, tree, index, open, focusId) {
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
    const expanded = path.has(id) || open.has(id);
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
