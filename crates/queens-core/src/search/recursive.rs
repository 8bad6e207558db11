//! Recursive backtracking, after Horowitz and Sahni (*Fundamentals of Computer Algorithms*,
//! 1978, algorithm NQUEENS with PLACE).
//!
//! `place(k, i)` tells whether row `k` may take column `i` by comparing it with each of rows
//! `0..k` (same column, or `|x[j] - i| == |j - k|`); the recursion tries every column of row `k`
//! and descends on each that fits. A test costs O(k), so a node costs O(N^2) in the worst case;
//! the tree is the plain backtracking tree.

use std::ops::ControlFlow;

use super::solver::{Job, Searched, SolverInfo, Visit, MAX_RECURSION_DEPTH};
use super::tracer::{emit, first_attacker, leave_row, Axis, Board, EventKind, Tracer};

/// This solver's facts, for the table in `search/mod.rs`.
pub(crate) const INFO: SolverInfo = SolverInfo {
    name: "recursive",
    summary: "Recursive backtracking (Horowitz-Sahni)",
    label: "recursive (Horowitz-Sahni)",
    source: "Horowitz and Sahni, Fundamentals of Computer Algorithms (1978)",
    what: "the recursive algorithm (one stack frame per row)",
    max_n: MAX_RECURSION_DEPTH,
    axis: Axis::Row,
    // x
    row_words: 1,
    row_bytes: 0,
    snapshot_words: 1,
    quick_max_n: 29,
    speed_rank: 30,
};

/// The search as the table in `search/mod.rs` calls it (its memory is known before it starts).
pub(crate) fn search<T: Tracer>(job: Job, tracer: &mut T, visit: Visit<'_>) -> Searched {
    Ok(for_each_solution_traced(job.n, tracer, visit))
}

/// Whether row `k` may hold a queen in column `i`, given the columns `x[..k]` of earlier rows.
pub fn place(x: &[usize], k: usize, i: usize) -> bool {
    x[..k]
        .iter()
        .enumerate()
        .all(|(j, &xj)| xj != i && xj.abs_diff(i) != k - j)
}

/// Visits every solution in lexicographic order, reporting every step to `tracer`; stops when
/// `visit` or the tracer breaks. The queen of row `k` is removed when the search returns from
/// the rows below it, before the next column of row `k` is tried.
pub fn for_each_solution_traced<T: Tracer>(
    n: usize,
    tracer: &mut T,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut x = vec![0usize; n];
    nqueens(&mut x, 0, tracer, visit)
}

fn nqueens<T: Tracer>(
    x: &mut [usize],
    k: usize,
    tracer: &mut T,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = x.len();
    for i in 0..n {
        emit(
            tracer,
            EventKind::Try,
            Some(k),
            Some(i),
            Board::prefix(x, k),
        )?;
        if place(x, k, i) {
            x[k] = i;
            emit(
                tracer,
                EventKind::Place,
                Some(k),
                Some(i),
                Board::prefix(x, k + 1),
            )?;
            if k + 1 == n {
                emit(tracer, EventKind::Solution, None, None, Board::prefix(x, n))?;
                visit(x)?;
            } else {
                nqueens(x, k + 1, tracer, visit)?;
            }
            emit(
                tracer,
                EventKind::Remove,
                Some(k),
                Some(i),
                Board::prefix(x, k),
            )?;
        } else if T::ACTIVE {
            if let Some((with, line)) = first_attacker(x[..k].iter().copied(), k, i) {
                let conflict = EventKind::Conflict { with, line };
                emit(tracer, conflict, Some(k), Some(i), Board::prefix(x, k))?;
            }
        }
    }
    leave_row(tracer, x, k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn place_rejects_columns_and_diagonals() {
        let x = [1, 3, 0, 0];
        assert!(place(&x, 2, 0));
        assert!(!place(&x, 2, 2), "diagonal with row 1");
        assert!(!place(&x, 2, 1), "column of row 0");
        assert!(!place(&x, 2, 3), "column of row 1");
    }
}
