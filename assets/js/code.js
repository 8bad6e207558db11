// The algorithms' own code, as short pseudo-code in the vocabulary of the sources each solver
// follows, with the line each trace event runs. The listings live in assets/code.json, shared
// with the terminal browser; the server serves them as the module code-data.js. `lines` are the
// panel's lines; `at` maps an event kind (and "nosolution", the end of a search that found none)
// to its line's index; `runs` (optional) lists every line a kind of step runs.

import { CODE } from "./code-data.js";

export { CODE };

// The line of `algo`'s code that `kind` runs, or -1.
export function lineOf(algo, kind, ev) {
  const code = CODE[algo];
  if (!code) return -1;
  // The empty board queued first is the queue's first line, every other board the loop's.
  if (algo === "bfs" && kind === "enqueue" && ev && ev.row === null) return 0;
  const line = code.at[kind];
  return line === undefined ? -1 : line;
}

// Every line of `algo`'s code that one step of `kind` runs: the listing's `runs` where it
// has one (a step of the column-wise loop runs several lines, each writing part of the state),
// else the one line of `at`.
export function linesOf(algo, kind, ev) {
  const code = CODE[algo];
  if (code && code.runs && code.runs[kind]) return code.runs[kind].slice();
  const line = lineOf(algo, kind, ev);
  return line < 0 ? [] : [line];
}
