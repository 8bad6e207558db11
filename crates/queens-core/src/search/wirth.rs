//! Recursive backtracking with boolean arrays, after Niklaus Wirth (*Algorithms + Data
//! Structures = Programs*, 1976, section 3.5, and "Program Development by Stepwise Refinement",
//! 1971).
//!
//! Three arrays record which columns, which down-right diagonals (`row - col` constant) and which
//! down-left diagonals (`row + col` constant) hold a queen, so testing a square is O(1) and
//! placing or removing a queen flips three entries. The tree is the plain backtracking tree, at
//! O(1) per node plus O(N) per row scanned. The test reads them in Wirth's order, `a[j] and
//! b[i+j] and c[i-j]`: the column, then the down-left diagonal, then the down-right one, and a
//! traced conflict names the queen of the first entry it finds false.

use std::ops::ControlFlow;

use super::solver::{Job, Searched, SolverInfo, Visit, MAX_RECURSION_DEPTH};
use super::tracer::{self, leave_row, Axis, ConflictLine, EventKind, Tracer};
use crate::board::Square;

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
            && self.down_left_free[row + col]
            && self.down_right_free[row + n - 1 - col]
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
/// whom, so a traced conflict finds the attacking queen by scanning the rows above
/// ([`attacker`]); untraced searches skip that scan.
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
            if let Some((with, line)) = attacker(&board.x[..row], row, col) {
                let conflict = EventKind::Conflict { with, line };
                board.report(tracer, row, conflict, Some(row), Some(col))?;
            }
        }
    }
    leave_row(tracer, &board.x, row)
}

/// The queen that makes Wirth's test of (`row`, `col`) false, given the columns of the queens of
/// rows `0..row`: the test reads the column's entry first, then the down-left diagonal's, then
/// the down-right one's, and stops at the first false one. So a queen in the column is named
/// even below one of an earlier row on a diagonal (on 4x4, (2, 2) meets the queen at (1, 2)
/// in its column, not the one at (0, 0) on its diagonal), unlike the row-wise solvers, whose
/// checks go through the queens in row order.
fn attacker(columns: &[usize], row: usize, col: usize) -> Option<(Square, ConflictLine)> {
    let on = |holds: &dyn Fn(usize, usize) -> bool, line| {
        columns
            .iter()
            .enumerate()
            .find(|&(r, &c)| holds(r, c))
            .map(|(r, &c)| (Square { row: r, col: c }, line))
    };
    on(&|_, c| c == col, ConflictLine::Column)
        .or_else(|| on(&|r, c| r + c == row + col, ConflictLine::Diagonal))
        .or_else(|| on(&|r, c| r + col == row + c, ConflictLine::Diagonal))
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

    /// The queen named is the one of the first entry Wirth's test reads false: the column's,
    /// then the down-left diagonal's (row + col), then the down-right one's (row - col),
    /// whatever their rows.
    #[test]
    fn a_conflict_names_the_queen_of_the_first_entry_the_test_reads_false() {
        let at = |row, col| Square { row, col };
        // (2, 2) under queens at (0, 0) and (1, 2): its column, though (0, 0) is on its diagonal.
        assert_eq!(
            attacker(&[0, 2], 2, 2),
            Some((at(1, 2), ConflictLine::Column))
        );
        // (3, 1) under (0, 4) on its down-left diagonal and (2, 0) on its down-right one, on 5x5.
        assert_eq!(
            attacker(&[4, 3, 0], 3, 1),
            Some((at(0, 4), ConflictLine::Diagonal))
        );
        // Only a down-right diagonal, on 5x5.
        assert_eq!(
            attacker(&[0, 4], 2, 2),
            Some((at(0, 0), ConflictLine::Diagonal))
        );
        assert_eq!(attacker(&[1, 3], 2, 0).map(|(q, _)| q), None);
    }
}
