//! Recursive backtracking with boolean arrays, after Niklaus Wirth (*Algorithms + Data
//! Structures = Programs*, 1976, section 3.5, and "Program Development by Stepwise Refinement",
//! 1971).
//!
//! Three arrays record which columns, which down-right diagonals (`row - col` constant) and which
//! down-left diagonals (`row + col` constant) hold a queen, so testing a square is O(1) and
//! placing or removing a queen flips three entries. The tree is the plain backtracking tree, at
//! O(1) per node plus O(N) per row scanned.

use std::ops::ControlFlow;

use super::solver::{Job, Searched, SolverInfo, Visit, MAX_RECURSION_DEPTH};
use super::tracer::{self, first_attacker, leave_row, Axis, EventKind, Tracer};

/// This solver's facts, for the table in `search/mod.rs`.
pub(crate) const INFO: SolverInfo = SolverInfo {
    name: "wirth",
    summary: "Recursive backtracking with O(1) boolean-array tests (Wirth)",
    label: "wirth (boolean arrays)",
    source: "Wirth, Algorithms + Data Structures = Programs (1976)",
    what: "the wirth algorithm (one stack frame per row)",
    max_n: MAX_RECURSION_DEPTH,
    axis: Axis::Row,
    // x, then three boolean arrays (n + 2 (2n - 1) bytes, under 5n)
    row_words: 1,
    row_bytes: 5,
    snapshot_words: 1,
    quick_max_n: 29,
    speed_rank: 20,
};

/// The search as the table in `search/mod.rs` calls it (its memory is known before it starts).
pub(crate) fn search<T: Tracer>(job: Job, tracer: &mut T, visit: Visit<'_>) -> Searched {
    Ok(for_each_solution_traced(job.n, tracer, visit))
}

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

    /// Reports a step with the queens of the first `filled` rows.
    #[inline(always)]
    fn report<T: Tracer>(
        &self,
        tracer: &mut T,
        filled: usize,
        kind: EventKind,
        row: Option<usize>,
        col: Option<usize>,
    ) -> ControlFlow<()> {
        let lines = &self.x;
        tracer::emit(
            tracer,
            kind,
            row,
            col,
            tracer::Board::Prefix { lines, filled },
        )
    }

    fn set(&mut self, row: usize, col: usize, free: bool) {
        let n = self.x.len();
        self.column_free[col] = free;
        self.down_right_free[row + n - 1 - col] = free;
        self.down_left_free[row + col] = free;
    }
}

/// Visits every solution in lexicographic order, reporting every step to `tracer`; stops when
/// `visit` or the tracer breaks. The boolean arrays say that a square is attacked but not by
/// whom, so a traced conflict finds the attacking queen by scanning the rows above; untraced
/// searches skip that scan.
pub fn for_each_solution_traced<T: Tracer>(
    n: usize,
    tracer: &mut T,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut board = Board::new(n);
    try_row(&mut board, 0, tracer, visit)
}

fn try_row<T: Tracer>(
    board: &mut Board,
    row: usize,
    tracer: &mut T,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = board.x.len();
    for col in 0..n {
        board.report(tracer, row, EventKind::Try, Some(row), Some(col))?;
        if board.is_free(row, col) {
            board.x[row] = col;
            board.set(row, col, false);
            let flow = descend(board, row, col, tracer, visit);
            board.set(row, col, true);
            flow?;
            board.report(tracer, row, EventKind::Remove, Some(row), Some(col))?;
        } else if T::ACTIVE {
            if let Some((with, line)) = first_attacker(board.x[..row].iter().copied(), row, col) {
                let conflict = EventKind::Conflict { with, line };
                board.report(tracer, row, conflict, Some(row), Some(col))?;
            }
        }
    }
    leave_row(tracer, &board.x, row)
}

/// What follows the queen just put on (`row`, `col`): its report, then the solution or the
/// rows below.
#[inline(always)]
fn descend<T: Tracer>(
    board: &mut Board,
    row: usize,
    col: usize,
    tracer: &mut T,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = board.x.len();
    board.report(tracer, row + 1, EventKind::Place, Some(row), Some(col))?;
    if row + 1 == n {
        board.report(tracer, n, EventKind::Solution, None, None)?;
        visit(&board.x)
    } else {
        try_row(board, row + 1, tracer, visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placing_blocks_the_column_and_both_diagonals_and_removing_frees_them() {
        let mut b = Board::new(4);
        b.set(1, 1, false);
        assert!(!b.is_free(3, 1));
        assert!(!b.is_free(2, 2));
        assert!(!b.is_free(2, 0));
        assert!(b.is_free(2, 3));
        b.set(1, 1, true);
        assert!(b.is_free(2, 2));
    }
}
