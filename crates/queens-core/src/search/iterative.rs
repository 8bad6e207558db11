//! The textbook iterative search: row by row with `find_position` and `is_valid`.
//!
//! This is the loop of the classic introductory-programming solution (Liang, *Introduction to
//! Java Programming*, "Eight Queens"): `queens[k]` holds the column of row `k` or `-1`;
//! `find_position(k)` scans the columns of row `k` from `queens[k] + 1` and returns the first one
//! that `is_valid` accepts; when none is left the row is cleared and the search backs up to row
//! `k - 1`. `is_valid(row, column)` compares the square with every earlier row (same column or
//! same diagonal), so each test costs O(N).

use std::ops::ControlFlow;

use super::solver::{Job, Searched, SolverInfo, Visit, UNBOUNDED};
use super::tracer::{first_attacker, Axis, Board, EventKind, Snapshot, Tracer};

/// This solver's facts, for the table in `search/mod.rs`.
pub(crate) const INFO: SolverInfo = SolverInfo {
    name: "iterative",
    summary: "The textbook loop with find_position / is_valid",
    label: "iterative (textbook loop)",
    source: "Liang, Introduction to Java Programming",
    what: "the iterative algorithm",
    max_n: UNBOUNDED,
    axis: Axis::Row,
    // queens, solution
    row_words: 2,
    row_bytes: 0,
    snapshot_words: 1,
    quick_max_n: 29,
    speed_rank: 50,
};

/// The search as the table in `search/mod.rs` calls it (its memory is known before it starts):
/// its arrays allocated by the job, so that memory the allocator refuses is an error.
pub(crate) fn search<T: Tracer>(job: Job, tracer: &mut T, visit: Visit<'_>) -> Searched {
    let search = Search {
        queens: job.filled(job.n, -1)?,
    };
    let solution = job.filled(job.n, 0)?;
    Ok(for_each_solution_traced(search, solution, tracer, visit))
}

/// The state of the textbook loop.
struct Search {
    queens: Vec<isize>,
}

impl Search {
    /// Whether a queen on (`row`, `column`) is safe from every queen of an earlier row.
    fn is_valid(&self, row: usize, column: usize) -> bool {
        (0..row).all(|i| {
            let c = self.queens[i] as usize;
            c != column && c.abs_diff(column) != row - i
        })
    }

    /// The first valid column of row `k` after its current one, or `-1`. The queen of row `k`,
    /// if any, is taken off first.
    fn find_position<T: Tracer>(&mut self, k: usize, tracer: &mut T) -> ControlFlow<(), isize> {
        let n = self.queens.len();
        let start = self.queens[k] + 1;
        if start > 0 {
            self.queens[k] = -1;
            self.report(tracer, EventKind::Remove, Some(k), Some(start as usize - 1))?;
        }
        for j in start as usize..n {
            self.report(tracer, EventKind::Try, Some(k), Some(j))?;
            if self.is_valid(k, j) {
                return ControlFlow::Continue(j as isize);
            }
            if T::ACTIVE {
                let earlier = self.queens[..k].iter().map(|&c| c as usize);
                if let Some((with, line)) = first_attacker(earlier, k, j) {
                    self.report(tracer, EventKind::Conflict { with, line }, Some(k), Some(j))?;
                }
            }
        }
        ControlFlow::Continue(-1)
    }
}

impl Snapshot for Search {
    #[inline(always)]
    fn snapshot(&self) -> (Board<'_>, Option<&[usize]>) {
        (Board::Signed(&self.queens), None)
    }
}

/// Visits every solution in lexicographic order, reporting every step to `tracer`; stops when
/// `visit` or the tracer breaks. A queen is removed when the search comes back to its row to
/// scan further (after a solution or a backtrack). The caller allocates the arrays: `search`'s
/// queens, N of them, all `-1`, and `solution`, N long, which each solution is copied into.
fn for_each_solution_traced<T: Tracer>(
    mut search: Search,
    mut solution: Vec<usize>,
    tracer: &mut T,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = search.queens.len();
    let mut k = 0usize;
    loop {
        let j = search.find_position(k, tracer)?;
        search.queens[k] = j;
        if j < 0 {
            if k == 0 {
                return ControlFlow::Continue(());
            }
            search.report(tracer, EventKind::Backtrack, Some(k), None)?;
            k -= 1;
        } else {
            search.report(tracer, EventKind::Place, Some(k), Some(j as usize))?;
            if k == n - 1 {
                for (slot, &c) in solution.iter_mut().zip(&search.queens) {
                    *slot = c as usize;
                }
                search.report(tracer, EventKind::Solution, None, None)?;
                visit(&solution)?;
            } else {
                k += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NoTrace;

    #[test]
    fn is_valid_checks_column_and_both_diagonals() {
        let s = Search {
            queens: vec![1, -1, -1, -1],
        };
        assert!(!s.is_valid(1, 1), "same column");
        assert!(!s.is_valid(1, 0), "diagonal");
        assert!(!s.is_valid(1, 2), "anti-diagonal");
        assert!(s.is_valid(1, 3));
    }

    #[test]
    fn find_position_starts_after_the_current_column() {
        let mut s = Search {
            queens: vec![0, 2, -1, -1],
        };
        assert_eq!(s.find_position(2, &mut NoTrace), ControlFlow::Continue(-1));
        assert_eq!(s.find_position(1, &mut NoTrace), ControlFlow::Continue(3));
        assert_eq!(
            s.queens,
            [0, -1, -1, -1],
            "the old queen of row 1 is taken off"
        );
    }
}
