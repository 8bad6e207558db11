//! The textbook iterative search: row by row with `find_position` and `is_valid`.
//!
//! This is the loop of the classic introductory-programming solution (Liang, *Introduction to
//! Java Programming*, "Eight Queens"): `queens[k]` holds the column of row `k` or `-1`;
//! `find_position(k)` scans the columns of row `k` from `queens[k] + 1` and returns the first one
//! that `is_valid` accepts; when none is left the row is cleared and the search backs up to row
//! `k - 1`. `is_valid(row, column)` compares the square with every earlier row (same column or
//! same diagonal), so each test costs O(N).

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

#[cfg(test)]
mod tests {
    use super::*;

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
        let s = Search {
            queens: vec![0, 2, -1, -1],
        };
        assert_eq!(s.find_position(1), 3);
        assert_eq!(s.find_position(2), -1);
    }
}
