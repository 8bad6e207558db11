// Why a search does what it does, read off the board of a step: which queen attacks a square
// (in the order the algorithm's test looks), the squares the seed's conflict test checks, what
// an exhausted line shows (each square attacked, or safe with every way on from it tried), and
// which of Wirth's arrays a test reads. Pure functions of an event (`queens trace --format
// json`): js/learn-track.js puts them into words and js/learn.js draws them.

// The line a queen on (qr, qc) shares with (r, c): "row", "column", "diagonal", or null.
export function attackKind(qr, qc, r, c) {
  if (qr === r && qc === c) return null;
  if (qr === r) return "row";
  if (qc === c) return "column";
  return Math.abs(qr - r) === Math.abs(qc - c) ? "diagonal" : null;
}

// The queens of an event as { row, col }, in the order a test meets them: column by column for
// the column-wise search, row by row otherwise.
export function queensOf(ev) {
  const out = [];
  (Array.isArray(ev.positions) ? ev.positions : []).forEach((p, i) => {
    if (p < 0) return;
    out.push(ev.positions_by === "column" ? { row: p, col: i } : { row: i, col: p });
  });
  return out;
}

// The first queen of the lines before the square's own (earlier columns for the column-wise
// search, earlier rows otherwise) that attacks (r, c): { row, col, kind }, or null.
export function firstAttacker(ev, r, c) {
  const byColumn = ev.positions_by === "column";
  for (const q of queensOf(ev)) {
    if (byColumn ? q.col >= c : q.row >= r) continue;
    const kind = attackKind(q.row, q.col, r, c);
    if (kind) return { row: q.row, col: q.col, kind };
  }
  return null;
}

// The line a backtrack step gives up on: { byColumn, index, squares: [{ row, col, attacker }] }
// with each square's first attacker among the queens of the earlier lines (null: the square is
// safe with them, so it was placed and every way on from it has been tried). Null when the
// step names no line.
export function exhaustedLine(ev, n) {
  const byColumn = ev.positions_by === "column";
  const index = byColumn ? ev.col : ev.row;
  if (index === null || index === undefined || index < 0 || index >= n) return null;
  const squares = [];
  for (let i = 0; i < n; i++) {
    const [r, c] = byColumn ? [i, index] : [index, i];
    squares.push({ row: r, col: c, attacker: firstAttacker(ev, r, c) });
  }
  return { byColumn, index, squares };
}

// The seed's figure for a try, conflict or placement of the column-wise search (as `queens
// trace --format board` draws it): the candidate, and in each earlier column the squares the
// conflict test compares with (the candidate's row, "R", and its two diagonals, "D"), each
// with `queen` true where a queen stands (an attacker). A conflict has only the columns the
// test looked at: up to the first attacker's, where it stopped. Null for other steps.
export function seedFigure(ev, n) {
  if (ev.positions_by !== "column" || !["try", "conflict", "place"].includes(ev.event)) return null;
  const { row, col } = ev;
  if (row === null || col === null) return null;
  const last = ev.event === "conflict" && ev.with ? ev.with.col : col - 1;
  const checks = [];
  for (let a = 0; a <= last; a++) {
    const d = col - a;
    const q = ev.positions[a];
    checks.push({ row, col: a, kind: "R", queen: q === row });
    for (const r of [row - d, row + d]) {
      if (r >= 0 && r < n) checks.push({ row: r, col: a, kind: "D", queen: q === r });
    }
  }
  return { row, col, checks };
}

// Wirth's test `a[j] and b[i+j] and c[i−j+N−1]` at (i, j) on the board of `ev` (the queens of
// rows 0..i-1): the entries it reads, in order, until the first false one (the test stops
// there). Each: { name: "a" | "b" | "c", index, value, queen } with the queen that makes a false
// entry false ({ row, col }).
export function wirthReads(ev, n) {
  const i = ev.row;
  const j = ev.col;
  const queens = queensOf(ev).filter((q) => q.row < i);
  const entries = [
    { name: "a", index: j, holds: (q) => q.col === j },
    { name: "b", index: i + j, holds: (q) => q.row + q.col === i + j },
    { name: "c", index: i - j + n - 1, holds: (q) => q.row - q.col === i - j },
  ];
  const reads = [];
  for (const e of entries) {
    const queen = queens.find(e.holds) || null;
    reads.push({ name: e.name, index: e.index, value: !queen, queen });
    if (queen) break;
  }
  return reads;
}
