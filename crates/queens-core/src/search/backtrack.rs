//! Column-by-column backtracking with explicit state, as in the COMP 333 "Eight Queens" project
//! description, generalised to N.
//!
//! The state is a positions array indexed by column (`-1` while a column has no queen) and a
//! first-untried array (the next row to try in each column, `0` at first). The search tries the
//! first untried row of the current column and marks it tried at once (`setPositionTried`); a
//! conflict with an earlier column (`hasConflictCumulative`) takes the queen off again; a free
//! row keeps the queen and the search moves to the next column; a column whose rows are
//! exhausted is reset (`setAllPositionsUntried`) and the search backs up one column, whose queen
//! is taken off so that its next untried row is tried. Every check compares the new queen
//! against each earlier column, so a square tried costs O(N), a node (up to N rows tried)
//! O(N^2), and the whole search O(N * squares tried).
//!
//! The search is the row-wise search with rows and columns swapped, so its positions arrays come
//! out in the same lexicographic order as every other solver's. Each array is reported as it is;
//! read as a placement indexed by row, it is the transposed board, itself a solution.

use std::fmt;
use std::ops::ControlFlow;

use super::solver::{Job, Searched, SolverInfo, Visit, UNBOUNDED};
use super::tracer::{Axis, Board, ConflictLine, EventKind, Snapshot, Tracer};
use crate::board::Square;

/// This solver's facts, for the table in `search/mod.rs`.
pub(crate) const INFO: SolverInfo = SolverInfo {
    name: "backtrack",
    summary: "Column-by-column backtracking with explicit state (COMP 333)",
    label: "backtrack (column-wise, COMP 333)",
    source: "the COMP 333 \"Eight Queens\" project",
    what: "the backtrack algorithm",
    max_n: UNBOUNDED,
    axis: Axis::Column,
    // positions, untried, solution
    row_words: 3,
    row_bytes: 0,
    snapshot_words: 2,
    quick_max_n: 29,
    speed_rank: 40,
};

/// The search as the table in `search/mod.rs` calls it (its memory is known before it starts):
/// its arrays allocated by the job, so that memory the allocator refuses is an error.
pub(crate) fn search<T: Tracer>(job: Job, tracer: &mut T, visit: Visit<'_>) -> Searched {
    let state = Backtracker {
        positions: job.filled(job.n, -1)?,
        untried: job.filled(job.n, 0)?,
    };
    let solution = job.filled(job.n, 0)?;
    Ok(for_each_solution_traced(state, solution, tracer, visit))
}

/// The explicit state of the column-by-column search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backtracker {
    positions: Vec<isize>,
    untried: Vec<usize>,
}

impl Backtracker {
    /// A board of `n` columns, all empty, every row untried: 16 bytes a column, allocated at
    /// once (a size from a user is checked first with `Algorithm::Backtrack.check_request`,
    /// as the searches do).
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
    #[inline]
    pub fn get_position(&self, col: usize) -> Option<usize> {
        usize::try_from(self.positions[col]).ok()
    }

    /// Puts the queen of `col` on `row`, or clears the column with `None`.
    #[inline]
    pub fn set_position(&mut self, col: usize, row: Option<usize>) {
        self.positions[col] = row.map_or(-1, |r| r as isize);
    }

    /// The first row of `col` not tried yet.
    #[inline]
    pub fn get_untried(&self, col: usize) -> usize {
        self.untried[col]
    }

    /// Marks the first untried row of `col` as tried.
    #[inline]
    pub fn mark_tried(&mut self, col: usize) {
        self.untried[col] += 1;
    }

    /// Makes every row of `col` untried again.
    #[inline]
    pub fn reset_untried(&mut self, col: usize) {
        self.untried[col] = 0;
    }

    /// Whether the queens of columns `a` and `b` attack each other (same row or diagonal).
    /// Two empty-or-same columns never conflict.
    #[inline]
    pub fn conflict(&self, a: usize, b: usize) -> bool {
        match (self.get_position(a), self.get_position(b)) {
            (Some(ra), Some(rb)) if a != b => ra == rb || ra.abs_diff(rb) == a.abs_diff(b),
            _ => false,
        }
    }

    /// The first earlier column whose queen attacks the queen of `col`, if any: the cumulative
    /// conflict check.
    #[inline]
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

#[cfg(test)]
/// Visits every solution in lexicographic order.
pub fn for_each_solution(
    n: usize,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let solution = vec![0; n];
    for_each_solution_traced(Backtracker::new(n), solution, &mut super::NoTrace, visit)
}

/// Visits every solution in lexicographic order, reporting every step to `tracer`; stops when
/// `visit` or the tracer breaks.
///
/// The events name board squares: the queen of column `c` on row `r` is (`r`, `c`). A conflict
/// is along a row or a diagonal; a backtrack names the column it leaves; every snapshot is this
/// solver's positions array (indexed by column) with its first-untried array.
///
/// The caller allocates the arrays: `state`, the empty board of N columns, and `solution`, N
/// long, which each solution is copied into.
pub fn for_each_solution_traced<T: Tracer>(
    mut state: Backtracker,
    mut solution: Vec<usize>,
    tracer: &mut T,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = state.size();
    let mut col = 0usize;
    loop {
        if col == n {
            for (c, slot) in solution.iter_mut().enumerate() {
                *slot = state.get_position(c).unwrap_or_default();
            }
            state.report(tracer, EventKind::Solution, None, None)?;
            visit(&solution)?;
            // Back up into the last column to look for the next solution.
            col -= 1;
            state.take_back(tracer, col)?;
            continue;
        }
        let row = state.get_untried(col);
        if row == n {
            state.reset_untried(col);
            if col == 0 {
                return ControlFlow::Continue(());
            }
            state.report(tracer, EventKind::Backtrack, None, Some(col))?;
            col -= 1;
            state.take_back(tracer, col)?;
            continue;
        }
        // setPositionTried: the row counts as tried as soon as it is tried, so the first-untried
        // array of every snapshot from here on names the next row to try.
        state.mark_tried(col);
        state.report(tracer, EventKind::Try, Some(row), Some(col))?;
        state.set_position(col, Some(row));
        if let Some(earlier) = state.conflict_with_earlier(col) {
            state.set_position(col, None);
            // Only a tracer that looks needs to know who attacks.
            if T::ACTIVE {
                let their_row = state.get_position(earlier).unwrap_or_default();
                let line = if their_row == row {
                    ConflictLine::Row
                } else {
                    ConflictLine::Diagonal
                };
                let with = Square {
                    row: their_row,
                    col: earlier,
                };
                let conflict = EventKind::Conflict { with, line };
                state.report(tracer, conflict, Some(row), Some(col))?;
            }
        } else {
            state.report(tracer, EventKind::Place, Some(row), Some(col))?;
            col += 1;
        }
    }
}

impl Snapshot for Backtracker {
    #[inline(always)]
    fn snapshot(&self) -> (Board<'_>, Option<&[usize]>) {
        (Board::Signed(&self.positions), Some(&self.untried))
    }
}

impl Backtracker {
    /// Removes the queen of `col` (its row was marked tried when it was tried).
    #[inline(always)]
    fn take_back<T: Tracer>(&mut self, tracer: &mut T, col: usize) -> ControlFlow<()> {
        let row = self.get_position(col);
        self.set_position(col, None);
        self.report(tracer, EventKind::Remove, row, Some(col))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_state_is_empty_and_untried() {
        let s = Backtracker::new(4);
        assert_eq!(s.positions(), &[-1, -1, -1, -1]);
        assert_eq!(s.untried(), &[0, 0, 0, 0]);
        assert_eq!(
            s.to_string(),
            "positions [-1, -1, -1, -1] untried [0, 0, 0, 0]"
        );
    }

    #[test]
    fn conflicts_are_rows_and_diagonals_between_columns() {
        let mut s = Backtracker::new(4);
        s.set_position(0, Some(1));
        s.set_position(2, Some(3));
        assert!(s.conflict(0, 2));
        s.set_position(2, Some(1));
        assert!(s.conflict(0, 2));
        s.set_position(2, Some(0));
        assert!(!s.conflict(0, 2));
        assert_eq!(s.conflict_with_earlier(2), None);
        s.set_position(1, Some(2));
        assert_eq!(s.conflict_with_earlier(1), Some(0));
        assert!(!s.conflict(1, 1));
        assert!(!s.conflict(0, 3), "an empty column never conflicts");
    }

    #[test]
    fn untried_rows_are_marked_and_reset() {
        let mut s = Backtracker::new(3);
        s.mark_tried(1);
        s.mark_tried(1);
        assert_eq!(s.get_untried(1), 2);
        s.reset_untried(1);
        assert_eq!(s.get_untried(1), 0);
    }

    #[test]
    fn finds_both_solutions_of_four() {
        let mut all = Vec::new();
        let _ = for_each_solution(4, &mut |q| {
            all.push(q.to_vec());
            ControlFlow::Continue(())
        });
        assert_eq!(all, vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
    }
}
