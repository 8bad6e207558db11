// The algorithms' own code, as short pseudo-code in the vocabulary of the sources each solver
// follows, with the line each trace event runs. `lines` are the panel's lines; `at` maps an
// event kind (and "nosolution", the end of a search that found none) to its line's index.

export const CODE = {
  backtrack: {
    title: "COMP 333 solve loop (column by column)",
    lines: [
      "solve():",
      "  col \u2190 0",
      "  while col < N:",
      "    if getUntried(col) = N:",
      "      setAllPositionsUntried(col)",
      "      col \u2190 col \u2212 1",
      "      if col < 0: return \"no solution\"",
      "      setPosition(col, \u22121)",
      "    else:",
      "      row \u2190 getUntried(col)",
      "      setPositionTried(col)",
      "      setPosition(col, row)",
      "      if hasConflictCumulative(col):",
      "        setPosition(col, \u22121)",
      "      else:",
      "        col \u2190 col + 1",
      "  return positions",
    ],
    at: { backtrack: 4, nosolution: 6, remove: 7, try: 10, conflict: 12, place: 15, solution: 16 },
  },
  iterative: {
    title: "Textbook loop: search, findPosition, isValid",
    lines: [
      "search():",
      "  k \u2190 0",
      "  while k < N:",
      "    j \u2190 findPosition(k)",
      "    if j = \u22121:",
      "      k \u2190 k \u2212 1",
      "      if k < 0: return \"no solution\"",
      "    else:",
      "      queens[k] \u2190 j",
      "      k \u2190 k + 1",
      "  return queens",
      "",
      "findPosition(k):",
      "  start \u2190 queens[k] + 1",
      "  queens[k] \u2190 \u22121",
      "  for j \u2190 start to N \u2212 1:",
      "    if isValid(k, j): return j",
      "  return \u22121",
      "",
      "isValid(k, j):",
      "  for i \u2190 0 to k \u2212 1:",
      "    if queens[i] = j or |queens[i] \u2212 j| = k \u2212 i:",
      "      return false",
      "  return true",
    ],
    at: { backtrack: 5, nosolution: 6, place: 8, solution: 10, remove: 14, try: 15, conflict: 22 },
  },
  recursive: {
    title: "Recursive nQueens with place (Horowitz and Sahni)",
    lines: [
      "nQueens(k):",
      "  for i \u2190 0 to N \u2212 1:",
      "    if place(k, i):",
      "      x[k] \u2190 i",
      "      if k = N \u2212 1: print x",
      "      else: nQueens(k + 1)",
      "      x[k] \u2190 \u22121",
      "  return",
      "",
      "place(k, i):",
      "  for j \u2190 0 to k \u2212 1:",
      "    if x[j] = i or |x[j] \u2212 i| = |j \u2212 k|:",
      "      return false",
      "  return true",
    ],
    at: { try: 1, place: 3, solution: 4, remove: 6, backtrack: 7, nosolution: 7, conflict: 12 },
  },
  wirth: {
    title: "Wirth's try(i) with the arrays a, b, c",
    lines: [
      "try(i):",
      "  for j \u2190 0 to N \u2212 1:",
      "    if a[j] and b[i+j] and c[i\u2212j+N\u22121]:",
      "      x[i] \u2190 j",
      "      a[j] \u2190 b[i+j] \u2190 c[i\u2212j+N\u22121] \u2190 false",
      "      if i = N \u2212 1: print x",
      "      else: try(i + 1)",
      "      a[j] \u2190 b[i+j] \u2190 c[i\u2212j+N\u22121] \u2190 true",
      "  return",
    ],
    at: { try: 1, conflict: 2, place: 4, solution: 5, remove: 7, backtrack: 8, nosolution: 8 },
  },
  bfs: {
    title: "Breadth-first search with a queue of partial boards",
    lines: [
      "queue \u2190 [ the empty board ]",
      "while queue is not empty:",
      "  board \u2190 dequeue()",
      "  k \u2190 rows filled in board",
      "  if k = N: report board",
      "  for each column j of row k:",
      "    if no queen of board attacks (k, j):",
      "      enqueue(board + queen at (k, j))",
      "return \"no solution\"",
    ],
    at: { dequeue: 2, solution: 4, try: 6, conflict: 6, enqueue: 7, nosolution: 8 },
  },
  bitboard: {
    title: "Bitmask search: columns and diagonals as bits",
    lines: [
      "solve(k, cols, left, right):",
      "  if k = N: report; return",
      "  free \u2190 \u00ac(cols | left | right) & (2^N \u2212 1)",
      "  while free \u2260 0:",
      "    bit \u2190 free & \u2212free",
      "    free \u2190 free \u2212 bit",
      "    queen[k] \u2190 log2(bit)",
      "    solve(k + 1, cols | bit, (left | bit) << 1, (right | bit) >> 1)",
      "    queen[k] \u2190 none",
      "  return",
    ],
    at: { solution: 1, try: 4, place: 6, remove: 8, backtrack: 9, nosolution: 9 },
  },
};

// The line of `algo`'s code that `kind` runs, or -1.
export function lineOf(algo, kind, ev) {
  const code = CODE[algo];
  if (!code) return -1;
  // The empty board queued first is the queue's first line, every other board the loop's.
  if (algo === "bfs" && kind === "enqueue" && ev && ev.row === null) return 0;
  const line = code.at[kind];
  return line === undefined ? -1 : line;
}
