// The drawing (the project's SVG board spec: 40 units a square, class "queen" on each queen),
// the live board on the page, and its download.

import { $ } from "./dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const SQUARE = 40;
const LIGHT = "#f0d9b5";
const DARK = "#b58863";
const QUEEN_PATH = "M8 30 L32 30 L34 14 L26 22 L20 8 L14 22 L6 14 Z";
// Above this many squares the board is drawn with one patterned rectangle, not one per square.
const SQUARES_MAX_N = 200;

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
export function drawBoard(n, queens, title) {
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

export function solutionTitle(n, queens) {
  return `${n}-queens solution: ${queens.join(" ")}`;
}

// Every square a queen on (r, c) attacks, on an n x n board.
export function attackedSquares(n, r, c) {
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

// Row and column numbers beside the live board, in a margin of this many units (the download
// is the plain drawing, without them). Above COORDS_MAX_N squares a side they would be specks.
const MARGIN = 26;
const COORDS_MAX_N = 40;

// A live board on the page: the drawing plus what the page adds (numbers, labels, highlights),
// shown in the element `holderId`.
export class Board {
  constructor(holderId) {
    this.holderId = holderId;
    this.n = 0;
    this.queens = [];
    this.title = "";
    this.svg = null;
  }

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
    if (n <= COORDS_MAX_N) {
      const side = SQUARE * n;
      svg.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${side + MARGIN} ${side + MARGIN}`);
      const coords = el("g", { class: "coords", "aria-hidden": "true" });
      svg.insertBefore(coords, svg.firstChild.nextSibling);
      el("rect", { x: -MARGIN, y: -MARGIN, width: side + MARGIN, height: MARGIN, class: "coords-bg" }, coords);
      el("rect", { x: -MARGIN, y: 0, width: MARGIN, height: side, class: "coords-bg" }, coords);
      const size = n <= 12 ? 12 : n <= 20 ? 15 : 20;
      for (let i = 0; i < n; i++) {
        if (n > 20 && i % 2 === 1) continue;
        const colText = el("text", { x: SQUARE * i + SQUARE / 2, y: -6, "font-size": size, class: "coord col-number" }, coords);
        colText.textContent = String(i);
        const rowText = el("text", { x: -MARGIN / 2, y: SQUARE * i + SQUARE / 2 + size / 3, "font-size": size, class: "coord row-number" }, coords);
        rowText.textContent = String(i);
      }
      svg.classList.add("with-coords");
    }
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
    const holder = $(this.holderId);
    holder.replaceChildren(svg);
    this.svg = svg;
    return svg;
  }

  // Leaves the holder empty, with `text` in place of the board.
  clear(text) {
    this.n = 0;
    this.queens = [];
    this.svg = null;
    const p = document.createElement("p");
    p.className = "no-board";
    p.textContent = text;
    $(this.holderId).replaceChildren(p);
  }

  square(r, c) {
    return this.svg && this.svg.querySelector(`rect.square[data-row="${r}"][data-col="${c}"]`);
  }

  queen(r, c) {
    return this.svg && this.svg.querySelector(`.queen[data-row="${r}"][data-col="${c}"]`);
  }

  clearMarks() {
    if (!this.svg) return;
    for (const node of this.svg.querySelectorAll(".attacked, .tried, .hovered, .conflict")) {
      node.classList.remove("attacked", "tried", "hovered", "conflict");
    }
    for (const node of this.svg.querySelectorAll(".ghost, .attack-line")) node.remove();
    for (const node of this.svg.querySelectorAll(".queen.attacker")) node.classList.remove("attacker");
  }

  markAttackedFrom(r, c, className) {
    for (const [ar, ac] of attackedSquares(this.n, r, c)) {
      const sq = this.square(ar, ac);
      if (sq) sq.classList.add(className || "attacked");
    }
  }

  // Adds `className` to square (r, c).
  mark(r, c, className) {
    const sq = this.square(r, c);
    if (sq) sq.classList.add(className);
  }

  // A band over row r (or column c when `byColumn`), for a line the search gives up on.
  band(index, byColumn, className) {
    if (!this.svg || index === null || index < 0 || index >= this.n) return;
    const side = SQUARE * this.n;
    el("rect", byColumn
      ? { x: SQUARE * index, y: 0, width: SQUARE, height: side, class: className, "aria-hidden": "true" }
      : { x: 0, y: SQUARE * index, width: side, height: SQUARE, class: className, "aria-hidden": "true" },
    this.svg);
  }

  // A frame round the whole board (the solution).
  frame(className) {
    if (!this.svg) return;
    const side = SQUARE * this.n;
    el("rect", { x: 2, y: 2, width: side - 4, height: side - 4, class: className, "aria-hidden": "true" }, this.svg);
  }

  // An outline inside square (r, c): the quiz's cursor, or the square a wrong answer chose.
  outline(r, c, className) {
    if (!this.svg || r < 0 || c < 0 || r >= this.n || c >= this.n) return;
    const g = el("g", { class: className, "data-row": r, "data-col": c, "aria-hidden": "true" }, this.svg);
    el("rect", { x: SQUARE * c + 3, y: SQUARE * r + 3, width: SQUARE - 6, height: SQUARE - 6 }, g);
    if (className.includes("wrong")) {
      el("path", { d: `M${SQUARE * c + 10} ${SQUARE * r + 10} l20 20 m0 -20 l-20 20` }, g);
    }
  }

  // A short text on square (r, c) (the seed's "Q?", "R?", "D!", a backtrack's attacker), with
  // its words as the square's hover title (the tag lets the pointer through to the square).
  tag(r, c, text, className, title) {
    if (!this.svg || r < 0 || c < 0 || r >= this.n || c >= this.n) return;
    const g = el("g", { class: `tag ${className || ""}`.trim(), "data-row": r, "data-col": c }, this.svg);
    el("rect", { x: SQUARE * c + 2, y: SQUARE * r + 2, width: 22, height: 14, rx: 3 }, g);
    el("text", { x: SQUARE * c + 13, y: SQUARE * r + 13, "text-anchor": "middle", "font-size": 11 }, g)
      .textContent = text;
    const sq = this.square(r, c);
    if (title && sq) el("title", {}, sq).textContent = title;
  }

  // The seed's `CC` over column c: the column's number in the margin reads "CC c", and a frame
  // outlines the column.
  currentColumn(c) {
    if (!this.svg || c < 0 || c >= this.n) return;
    const number = this.svg.querySelectorAll(".col-number")[c];
    if (number && this.n <= 20) {
      number.textContent = `CC ${c}`;
      number.classList.add("current-col");
    }
    el("rect", {
      x: SQUARE * c + 1, y: 1, width: SQUARE - 2, height: SQUARE * this.n - 2,
      class: "current-column", "aria-hidden": "true",
    }, this.svg);
  }

  ghost(r, c, kind) {
    if (!this.svg) return;
    const g = el("g", {
      class: `ghost ${kind || ""}`.trim(),
      transform: `translate(${SQUARE * c},${SQUARE * r})`,
      "aria-hidden": "true",
    }, this.svg);
    el("path", { d: QUEEN_PATH }, g);
    el("rect", { x: 8, y: 31, width: 24, height: 4 }, g);
  }

  line(r1, c1, r2, c2) {
    if (!this.svg) return;
    const half = SQUARE / 2;
    el("line", {
      class: "attack-line",
      x1: SQUARE * c1 + half, y1: SQUARE * r1 + half,
      x2: SQUARE * c2 + half, y2: SQUARE * r2 + half,
    }, this.svg);
  }
}

// The page's main board.
export const board = new Board("board");

// The SVG file of a board, character for character what `queens solve N --format svg` writes
// (src/svg.rs): one checkerboard pattern, one <use> per queen (a crown, or when a square is
// under 6 pixels a small square inside its square with an outline of 1.5 screen pixels), row
// and column numbers up to 64 x 64, axes in a margin beyond. Empty rows (-1 or null) are left
// empty and named "." in the title.
const CROWN_MIN_PIXELS = 6;
const OUTLINE_PIXELS = "1.5";
const DOT_INSET = 10;
const COORDINATES_MAX_N = 64;

// Numbers on an axis every 1, 2 or 5 times a power of ten, about ten of them (src/svg.rs).
function axisStep(n) {
  for (let step = 1; ; step *= 10) {
    for (const k of [1, 2, 5]) if (k * step * 10 >= n) return k * step;
  }
}

export function svgText(n, queens) {
  const side = SQUARE * n;
  const pixels = Math.min(side, 800);
  const two = 2 * SQUARE;
  const cols = queens.map((c) => (c === null || c === undefined || c < 0 ? "." : String(c)));
  const margin = n <= COORDINATES_MAX_N ? 0 : Math.ceil(side / 12);
  const box = margin ? `-${margin} -${margin} ${side + margin} ${side + margin}` : `0 0 ${side} ${side}`;
  let s = `<svg xmlns="${SVG_NS}" viewBox="${box}" width="${pixels}" height="${pixels}" role="img">\n`;
  s += `<title>${n}-queens solution:${cols.map((c) => " " + c).join("")}</title>\n`;
  s += `<defs><pattern id="squares" width="${two}" height="${two}" patternUnits="userSpaceOnUse">` +
    `<rect width="${two}" height="${two}" fill="${LIGHT}"/>` +
    `<rect x="${SQUARE}" width="${SQUARE}" height="${SQUARE}" fill="${DARK}"/>` +
    `<rect y="${SQUARE}" width="${SQUARE}" height="${SQUARE}" fill="${DARK}"/></pattern>\n`;
  // A square's pixels, the whole picture (board and margin) scaled to `pixels` (src/svg.rs).
  if (pixels * SQUARE < CROWN_MIN_PIXELS * (side + margin)) {
    const w = SQUARE - 2 * DOT_INSET;
    s += `<rect id="queen" x="${DOT_INSET}" y="${DOT_INSET}" width="${w}" height="${w}" fill="#1d1d1d" stroke="#1d1d1d" stroke-width="${OUTLINE_PIXELS}" vector-effect="non-scaling-stroke"/></defs>\n`;
  } else {
    s += `<g id="queen"><path d="${QUEEN_PATH}" fill="#1d1d1d" stroke="#ffffff" stroke-width="1.5"/>` +
      `<rect x="8" y="31" width="24" height="4" fill="#1d1d1d"/></g></defs>\n`;
  }
  s += `<rect class="board" width="${side}" height="${side}" fill="url(#squares)"/>\n`;
  if (n <= COORDINATES_MAX_N) {
    s += `<g class="coordinates" font-family="sans-serif" font-size="9" fill="#1d1d1d">`;
    for (let c = 0; c < n; c++) {
      s += `<text class="col" x="${SQUARE * c + SQUARE - 2}" y="9" text-anchor="end">${c}</text>`;
    }
    for (let r = 0; r < n; r++) s += `<text class="row" x="2" y="${SQUARE * r + SQUARE - 2}">${r}</text>`;
    s += "</g>\n";
  } else {
    const font = Math.floor(margin / 4);
    const tick = Math.floor(margin / 5);
    s += `<g class="axes" font-family="sans-serif" font-size="${font}" fill="#5b5349" stroke="#5b5349" stroke-width="${OUTLINE_PIXELS}" vector-effect="non-scaling-stroke">`;
    for (let i = 0; i < n; i += axisStep(n)) {
      const mid = SQUARE * i + SQUARE / 2;
      s += `<line x1="${mid}" y1="-${tick}" x2="${mid}" y2="0"/><text class="col" x="${mid}" y="-${tick + Math.floor(font / 4)}" text-anchor="middle" stroke="none">${i}</text>`;
      s += `<line x1="-${tick}" y1="${mid}" x2="0" y2="${mid}"/><text class="row" x="-${tick + Math.floor(font / 4)}" y="${mid + Math.floor(font / 3)}" text-anchor="end" stroke="none">${i}</text>`;
    }
    s += "</g>\n";
  }
  queens.forEach((col, row) => {
    if (col === null || col === undefined || col < 0) return;
    s += `<g class="queen" data-row="${row}" data-col="${col}" transform="translate(${SQUARE * col},${SQUARE * row})"><use href="#queen"/></g>\n`;
  });
  return s + "</svg>\n";
}

// Saves the board shown as queens-<n><suffix>.svg: the drawing of `--format svg`, without the
// page's marks.
export function download(suffix) {
  if (!board.n) return;
  const text = svgText(board.n, board.queens);
  const blob = new Blob([text], { type: "image/svg+xml" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `queens-${board.n}${suffix}.svg`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
