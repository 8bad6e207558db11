//! The cost of tracing: every solver's untraced search (the traced search with the no-op
//! tracer) side by side with the same solver as it was before tracing existed, and with a tracer
//! that counts events, for N = 8 to 12. Each run visits every solution.
//!
//! The modules under `original` are the solvers exactly as they were before the tracing hooks
//! were added (commit 03517c1), kept here as the baseline. Being a local copy, the baseline can
//! be inlined more freely than the library's code, which may tilt the comparison slightly.
//! On a busy machine wall-clock times swing by tens of percent; for a comparison that does not
//! depend on load, count instructions with `valgrind --tool=cachegrind` (see docs/tracing-cost.md).
//!
//! A deliberate frozen baseline: the `original` modules duplicate the solvers of `src/search/`
//! on purpose, and the `duplicates` report's pairs between this file and `src/search/` are
//! expected. Do not merge them into the library, nor update them when the solvers change.

use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use queens_core::search::{Step, Tracer};
use queens_core::{Algorithm, SearchOptions};

#[allow(dead_code, clippy::all)]
mod original {
    pub mod backtrack {
        use std::fmt;
        use std::ops::ControlFlow;

        /// The explicit state of the column-by-column search.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct Backtracker {
            positions: Vec<isize>,
            untried: Vec<usize>,
        }

        impl Backtracker {
            /// A board of `n` columns, all empty, every row untried.
            pub fn new(n: usize) -> Self {
                Backtracker {
                    positions: vec![-1; n],
                    untried: vec![0; n],
                }
            }

            /// The board size.
            pub fn size(&self) -> usize {
                self.positions.len()
            }

            /// The row of the queen in `col`, or `None` when the column is empty.
            pub fn get_position(&self, col: usize) -> Option<usize> {
                usize::try_from(self.positions[col]).ok()
            }

            /// Puts the queen of `col` on `row`, or clears the column with `None`.
            pub fn set_position(&mut self, col: usize, row: Option<usize>) {
                self.positions[col] = row.map_or(-1, |r| r as isize);
            }

            /// The first row of `col` not tried yet.
            pub fn get_untried(&self, col: usize) -> usize {
                self.untried[col]
            }

            /// Marks the first untried row of `col` as tried.
            pub fn mark_tried(&mut self, col: usize) {
                self.untried[col] += 1;
            }

            /// Makes every row of `col` untried again.
            pub fn reset_untried(&mut self, col: usize) {
                self.untried[col] = 0;
            }

            /// Whether the queens of columns `a` and `b` attack each other (same row or diagonal).
            /// Two empty-or-same columns never conflict.
            pub fn conflict(&self, a: usize, b: usize) -> bool {
                match (self.get_position(a), self.get_position(b)) {
                    (Some(ra), Some(rb)) if a != b => ra == rb || ra.abs_diff(rb) == a.abs_diff(b),
                    _ => false,
                }
            }

            /// The first earlier column whose queen attacks the queen of `col`, if any: the cumulative
            /// conflict check.
            pub fn conflict_with_earlier(&self, col: usize) -> Option<usize> {
                (0..col).find(|&c| self.conflict(c, col))
            }

            /// The positions array, `-1` for an empty column.
            pub fn positions(&self) -> &[isize] {
                &self.positions
            }

            /// The first-untried array.
            pub fn untried(&self) -> &[usize] {
                &self.untried
            }
        }

        /// A printable snapshot: `positions [0, 4, -1, ...] untried [1, 5, 0, ...]`.
        impl fmt::Display for Backtracker {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(
                    f,
                    "positions {:?} untried {:?}",
                    self.positions, self.untried
                )
            }
        }

        /// Visits every solution in lexicographic order.
        pub fn for_each_solution(
            n: usize,
            visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            let mut state = Backtracker::new(n);
            let mut solution = vec![0usize; n];
            let mut col = 0usize;
            loop {
                if col == n {
                    for (c, slot) in solution.iter_mut().enumerate() {
                        *slot = state.get_position(c).unwrap_or_default();
                    }
                    visit(&solution)?;
                    // Back up into the last column to look for the next solution.
                    col -= 1;
                    state.set_position(col, None);
                    state.mark_tried(col);
                    continue;
                }
                let row = state.get_untried(col);
                if row == n {
                    state.reset_untried(col);
                    if col == 0 {
                        return ControlFlow::Continue(());
                    }
                    col -= 1;
                    state.set_position(col, None);
                    state.mark_tried(col);
                    continue;
                }
                state.set_position(col, Some(row));
                if state.conflict_with_earlier(col).is_some() {
                    state.set_position(col, None);
                    state.mark_tried(col);
                } else {
                    col += 1;
                }
            }
        }
    }

    pub mod iterative {
        use std::ops::ControlFlow;

        /// The state of the textbook loop.
        struct Search {
            queens: Vec<isize>,
        }

        impl Search {
            /// Whether a queen on (`row`, `column`) is attacked by a queen of an earlier row.
            fn is_valid(&self, row: usize, column: usize) -> bool {
                (0..row).all(|i| {
                    let c = self.queens[i] as usize;
                    c != column && c.abs_diff(column) != row - i
                })
            }

            /// The first valid column of row `k` after its current one, or `-1`.
            fn find_position(&self, k: usize) -> isize {
                let n = self.queens.len();
                let start = (self.queens[k] + 1) as usize;
                (start..n)
                    .find(|&j| self.is_valid(k, j))
                    .map_or(-1, |j| j as isize)
            }
        }

        /// Visits every solution in lexicographic order.
        pub fn for_each_solution(
            n: usize,
            visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            let mut search = Search {
                queens: vec![-1; n],
            };
            let mut solution = vec![0usize; n];
            let mut k = 0usize;
            loop {
                let j = search.find_position(k);
                search.queens[k] = j;
                if j < 0 {
                    if k == 0 {
                        return ControlFlow::Continue(());
                    }
                    k -= 1;
                } else if k == n - 1 {
                    for (slot, &c) in solution.iter_mut().zip(&search.queens) {
                        *slot = c as usize;
                    }
                    visit(&solution)?;
                } else {
                    k += 1;
                }
            }
        }
    }

    pub mod recursive {
        use std::ops::ControlFlow;

        /// Whether row `k` may hold a queen in column `i`, given the columns `x[..k]` of earlier rows.
        pub fn place(x: &[usize], k: usize, i: usize) -> bool {
            x[..k]
                .iter()
                .enumerate()
                .all(|(j, &xj)| xj != i && xj.abs_diff(i) != k - j)
        }

        /// Visits every solution in lexicographic order.
        pub fn for_each_solution(
            n: usize,
            visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            let mut x = vec![0usize; n];
            nqueens(&mut x, 0, visit)
        }

        fn nqueens(
            x: &mut [usize],
            k: usize,
            visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            let n = x.len();
            for i in 0..n {
                if place(x, k, i) {
                    x[k] = i;
                    if k + 1 == n {
                        visit(x)?;
                    } else {
                        nqueens(x, k + 1, visit)?;
                    }
                }
            }
            ControlFlow::Continue(())
        }
    }

    pub mod wirth {
        use std::ops::ControlFlow;

        struct Board {
            x: Vec<usize>,
            column_free: Vec<bool>,
            down_right_free: Vec<bool>,
            down_left_free: Vec<bool>,
        }

        impl Board {
            fn new(n: usize) -> Self {
                Board {
                    x: vec![0; n],
                    column_free: vec![true; n],
                    down_right_free: vec![true; 2 * n - 1],
                    down_left_free: vec![true; 2 * n - 1],
                }
            }

            fn is_free(&self, row: usize, col: usize) -> bool {
                let n = self.x.len();
                self.column_free[col]
                    && self.down_right_free[row + n - 1 - col]
                    && self.down_left_free[row + col]
            }

            fn set(&mut self, row: usize, col: usize, free: bool) {
                let n = self.x.len();
                self.column_free[col] = free;
                self.down_right_free[row + n - 1 - col] = free;
                self.down_left_free[row + col] = free;
            }
        }

        /// Visits every solution in lexicographic order.
        pub fn for_each_solution(
            n: usize,
            visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            let mut board = Board::new(n);
            try_row(&mut board, 0, visit)
        }

        fn try_row(
            board: &mut Board,
            row: usize,
            visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            let n = board.x.len();
            for col in 0..n {
                if board.is_free(row, col) {
                    board.x[row] = col;
                    board.set(row, col, false);
                    let flow = if row + 1 == n {
                        visit(&board.x)
                    } else {
                        try_row(board, row + 1, visit)
                    };
                    board.set(row, col, true);
                    flow?;
                }
            }
            ControlFlow::Continue(())
        }
    }

    pub mod bfs {
        use std::ops::ControlFlow;

        use queens_core::Error;

        /// The widest board: a state's free columns are computed as a `u64` mask.
        pub const MAX_N: usize = 64;

        /// The columns of row `state.len()` that no queen of `state` attacks, as a bit mask.
        fn free_columns(n: usize, state: &[u8]) -> u64 {
            let full = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
            let row = state.len();
            let mut taken = 0u64;
            for (r, &c) in state.iter().enumerate() {
                let c = c as usize;
                let d = row - r;
                taken |= 1 << c;
                if c + d < n {
                    taken |= 1 << (c + d);
                }
                if c >= d {
                    taken |= 1 << (c - d);
                }
            }
            full & !taken
        }

        /// Visits every solution in lexicographic order, after building every level of the search
        /// within `budget` bytes.
        pub fn for_each_solution(
            n: usize,
            budget: u64,
            visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
        ) -> Result<ControlFlow<()>, Error> {
            debug_assert!((1..=MAX_N).contains(&n));
            let mut level: Vec<u8> = Vec::new();
            let mut states: u64 = 1; // level 0: the empty board
            for k in 0..n {
                let next_states: u64 = level_states(&level, k, states)
                    .map(|s| u64::from(free_columns(n, s).count_ones()))
                    .sum();
                let needed = states * k as u64 + next_states * (k as u64 + 1);
                let refuse = || Error::MemoryBudget {
                    n,
                    level: k + 1,
                    states: next_states,
                    needed,
                    budget,
                };
                if needed > budget {
                    return Err(refuse());
                }
                let mut next = Vec::new();
                next.try_reserve_exact((next_states * (k as u64 + 1)) as usize)
                    .map_err(|_| refuse())?;
                for state in level_states(&level, k, states) {
                    let mut free = free_columns(n, state);
                    while free != 0 {
                        let col = free.trailing_zeros() as u8;
                        free &= free - 1;
                        next.extend_from_slice(state);
                        next.push(col);
                    }
                }
                level = next;
                states = next_states;
            }
            let mut solution = vec![0usize; n];
            for state in level_states(&level, n, states) {
                for (slot, &c) in solution.iter_mut().zip(state) {
                    *slot = c as usize;
                }
                if visit(&solution).is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            Ok(ControlFlow::Continue(()))
        }

        /// The states of a level of width `width`; level 0 holds one empty state.
        fn level_states(level: &[u8], width: usize, states: u64) -> impl Iterator<Item = &[u8]> {
            (0..states as usize).map(move |i| &level[i * width..(i + 1) * width])
        }
    }

    pub mod bitboard {
        use std::ops::ControlFlow;

        /// The widest board: one bit of a `u64` per column.
        pub const MAX_N: usize = 64;

        fn full_mask(n: usize) -> u64 {
            if n >= 64 {
                u64::MAX
            } else {
                (1u64 << n) - 1
            }
        }

        /// Visits every solution in lexicographic order; `n` must be 1..=64.
        pub fn for_each_solution(
            n: usize,
            visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            debug_assert!((1..=MAX_N).contains(&n));
            let mut queens = vec![0usize; n];
            descend(full_mask(n), 0, 0, 0, 0, &mut queens, visit)
        }

        fn descend(
            full: u64,
            row: usize,
            cols: u64,
            down_right: u64,
            down_left: u64,
            queens: &mut [usize],
            visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            if row == queens.len() {
                return visit(queens);
            }
            let mut free = full & !(cols | down_right | down_left);
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                queens[row] = bit.trailing_zeros() as usize;
                descend(
                    full,
                    row + 1,
                    cols | bit,
                    (down_right | bit) << 1,
                    (down_left | bit) >> 1,
                    queens,
                    visit,
                )?;
            }
            ControlFlow::Continue(())
        }

        /// Counts every solution with the plain bitmask search, one thread, no symmetry: the baseline
        /// the counting engine is measured against.
        pub fn count(n: usize) -> u64 {
            debug_assert!((1..=MAX_N).contains(&n));
            count_from(full_mask(n), 0, 0, 0)
        }

        fn count_from(full: u64, cols: u64, down_right: u64, down_left: u64) -> u64 {
            if cols == full {
                return 1;
            }
            let mut free = full & !(cols | down_right | down_left);
            let mut total = 0;
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                total += count_from(
                    full,
                    cols | bit,
                    (down_right | bit) << 1,
                    (down_left | bit) >> 1,
                );
            }
            total
        }
    }
}

/// A tracer that only counts the steps: the cheapest real tracing.
struct Counter(u64);

impl Tracer for Counter {
    fn step(&mut self, _step: &Step<'_>) -> ControlFlow<()> {
        self.0 += 1;
        ControlFlow::Continue(())
    }
}

type Visit<'a> = &'a mut dyn FnMut(&[usize]) -> ControlFlow<()>;

/// Runs the frozen copy of `algorithm`, by name; `false` for a solver that has none (one added
/// after tracing was: it has no untraced original to compare with).
fn run_original(algorithm: Algorithm, n: usize, visit: Visit<'_>) -> bool {
    let _ = match algorithm.name() {
        "backtrack" => original::backtrack::for_each_solution(n, visit),
        "iterative" => original::iterative::for_each_solution(n, visit),
        "recursive" => original::recursive::for_each_solution(n, visit),
        "wirth" => original::wirth::for_each_solution(n, visit),
        "bfs" => original::bfs::for_each_solution(n, 1 << 30, visit).unwrap(),
        "bitboard" => original::bitboard::for_each_solution(n, visit),
        _ => return false,
    };
    true
}

fn count_solutions(run: impl FnOnce(Visit<'_>)) -> u64 {
    let mut count = 0u64;
    run(&mut |q| {
        count += black_box(q[0]) as u64 & 1 | 1;
        ControlFlow::Continue(())
    });
    count
}

fn trace_overhead(c: &mut Criterion) {
    let options = SearchOptions::default();
    for algorithm in Algorithm::ALL {
        let mut group = c.benchmark_group(format!("trace_overhead/{algorithm}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1));
        let has_original = run_original(algorithm, 1, &mut |_| ControlFlow::Continue(()));
        for n in 8..=12 {
            if has_original {
                group.bench_with_input(BenchmarkId::new("original", n), &n, |b, &n| {
                    b.iter(|| {
                        count_solutions(|visit| {
                            run_original(algorithm, black_box(n), visit);
                        })
                    })
                });
            }
            group.bench_with_input(BenchmarkId::new("untraced", n), &n, |b, &n| {
                b.iter(|| {
                    count_solutions(|visit| {
                        let _ = algorithm.for_each_solution(black_box(n), &options, visit);
                    })
                })
            });
            group.bench_with_input(BenchmarkId::new("counting tracer", n), &n, |b, &n| {
                b.iter(|| {
                    let mut counter = Counter(0);
                    count_solutions(|visit| {
                        let _ = algorithm.for_each_solution_traced(
                            black_box(n),
                            &options,
                            &mut counter,
                            visit,
                        );
                    });
                    counter.0
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, trace_overhead);
criterion_main!(benches);
