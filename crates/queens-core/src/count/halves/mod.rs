//! The half-board engine: count by joining the upper and the lower halves of the board instead
//! of searching every solution to its last row.
//!
//! The idea: rows `0..h` (`h = N / 2`) are the *upper* half, rows `h..N` the *lower* one. A
//! solution is one filling of each half (one queen per row) such that the two use complementary
//! sets of columns and no diagonal holds a queen of each. Seen from the split row `h`, the
//! upper queens attack a set of its squares along each diagonal direction, and the lower queens'
//! diagonals cross it at a set of squares; the two halves fit iff those `2N`-bit masks (one
//! `N`-bit word per direction) share no bit — a diagonal that leaves the board before row `h`
//! meets no queen of the other half, so it is rightly dropped.
//!
//! Both halves are listed (a depth-first search each: the queens of the pattern's columns
//! first, then the other rows), each stored straight into the group of its column set, and
//! every group of lower halves is matched against the group of upper halves
//! with the complementary columns. The match is *bit-sliced*: the larger of the two groups is
//! turned, 512 halves at a time, into a table that gives, for each 4-bit piece of a mask, the set
//! of halves having a bit in common with it (`16` words per piece, one bit per half). A half of
//! the other group is then matched against 512 at once by ORing one table row per piece (nine
//! for N = 18) and counting the zero bits, instead of 512 separate tests. Groups of 512 halves
//! or more are first sorted, on both sides, by their value in the piece where the halves of the
//! subproblem meet most; a tile of one value is matched only with the halves of the other side
//! whose value shares no bit with it (about a third).
//!
//! # Subproblems and symmetry
//!
//! Listing every half of N = 18 at once would take gigabytes, so the board is cut by the
//! *pattern* of the upper half on a fixed set `K` of `k` columns (the `k / 2` leftmost and
//! rightmost ones): which of those columns the upper half uses. The lower half of a solution
//! uses exactly the others, so each pattern is an independent subproblem with about `2^-k` of
//! the halves on each side. The left-right mirror maps the solutions of pattern `P` to those of
//! the mirrored pattern; on even boards the up-down flip maps them to those of `K \ P` (the lower
//! half, flipped, is an upper one). On odd boards the lower half has one row more, the middle
//! one, which the flip maps to itself: there a subproblem is a pattern with the class of the
//! middle queen's column (one of the lower half's pattern columns `m`, or none), which the flip
//! maps to `(K \ P \ m, m)`; the lower half's first row is restricted to the columns of the
//! classes counted. So only one subproblem per orbit of those symmetries is counted, times the
//! orbit's size: about a quarter of the work. On even boards a pattern the mirror keeps
//! holds its solutions in mirror pairs (none is its own image), whose queens of row 0 stand
//! on columns `c` and `n - 1 - c`: its upper halves are listed with that queen in the left
//! half only, and its count doubled (`pattern.rs`).
//! Not used: the transposition and the quarter turns, which map rows to columns and so cannot
//! shorten a list of row halves; classes of the pair (middle row's queen's column, middle
//! column's queen's row) under all 8 symmetries, as the quadrant counters place their centre
//! queens, would cut the join's pairs by about half but not the listing (docs/performance.md,
//! "Odd boards").
//! The number of classes comes from Burnside's lemma, `unique = (total + S180 + 2 S90) / 8`,
//! with the solutions fixed by the half and quarter turns counted by their own searches
//! (`count::fixed`) as one more subproblem of the plan (the first). Because that division
//! only holds for the whole board, the tally of this engine keeps *eighths* of classes:
//! each subproblem adds `8 x` its share, and [`Plan::classes`] divides the sum of a complete
//! run by 8.
//!
//! Source: the meet-in-the-middle idea of the counters that list partial boards and join them
//! on their diagonals (for example the quadrant-joining counter of E. Kluev and the
//! "deepgreen" pages); the patterns, the bit-sliced match and the rest are this file's own.
//!
//! Cost: listing the halves is linear in their number (3.2 x 10^8 per side for N = 18, times a
//! small overhead for restricting the search to a pattern), and the match does one table row OR
//! per 4 mask bits per 64 pairs (a third of the pairs in large groups). Memory: the halves of
//! one pattern per thread (8 bytes each, in lists that grow by doubling); see [`bytes_per_thread`].
//!
//! # Files
//! Each file does one job; the arrows point down this list.
//! - `sample.rs`: the forecast of a run (`--estimate`): probes of every subproblem's walks,
//!   a few subproblems drawn by their predicted cost and counted whole.
//! - `run.rs`: the threads that take the subproblems of a plan from a shared queue.
//! - `plan.rs`: the pattern columns, the subproblems (one per symmetry orbit), their weights
//!   and their costs; the fitting of a plan into a memory budget.
//! - `memory.rs`: the model of the memory one thread needs for a split.
//! - `pattern.rs`: the count of one subproblem: list both halves, group them, join the groups.
//! - `plain.rs`: the plain search of one subproblem, to recount it without the join.
//! - `list.rs`: the depth-first listing of the upper and the lower halves of a pattern.
//! - `bitslice.rs`: the bit-sliced join of two groups of halves (portable, AVX2, AVX-512).
//! - `group.rs`: a half's group key and the groups of one side, one list per key.
//! - `alloc.rs`: the fallible growth of the buffers (an error naming the bytes, not an abort).

mod alloc;
mod bitslice;
mod group;
pub(crate) mod list;
mod memory;
mod pattern;
mod plain;
mod plan;
mod run;
mod sample;

pub use alloc::AllocError;
pub use memory::bytes_per_thread;
pub use pattern::{buffers_ceiling, count_pattern, list_pattern, Listed, MAX_N};
pub use plan::{default_pattern_columns, ColumnSets, Part, Plan, MAX_PATTERN_COLUMNS};
pub(crate) use run::dearest_first;
pub use run::run;
pub use sample::{forecast, Forecast, PROCESS_BYTES};

#[cfg(test)]
mod tests;
