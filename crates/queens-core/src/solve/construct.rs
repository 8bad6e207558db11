//! One solution of any board from 4 up, written in O(N) by an explicit formula.
//!
//! The construction is the classic one of Hoffman, Loessi and Moore (Mathematics Magazine, 1969),
//! going back to Pauls (1874) and restated by Bernhardsson (SIGART Bulletin, 1991). With 1-based
//! columns, list the even columns 2, 4, ... then the odd columns 1, 3, ...; that list is a
//! solution unless N leaves a remainder of 2 or 3 when divided by 6. For remainder 2 the odd
//! part becomes 3, 1, 7, 9, ..., N-1, 5; for remainder 3 the even part becomes 4, 6, ..., N-1, 2
//! and the odd part 5, 7, ..., N, 1, 3.
//!
//! Every column is a closed-form function of its row and N ([`column()`]), so a solution is an
//! iterator ([`columns`]) that holds nothing: a board of 10^8 queens is streamed in O(N) time
//! and O(1) memory. N = 1 gives the single queen; N = 2 and 3 have no solution.

use crate::error::SizeError;

/// The column (0-based) of the queen in `row` of the constructed solution of the `n` x `n`
/// board, or `None` when `n` is 2 or 3 (no solution) or `row` is not below `n`.
///
/// # Example
/// ```
/// use queens_core::solve::construct::column;
/// let eight: Vec<usize> = (0..8).map(|r| column(8, r).unwrap()).collect();
/// assert_eq!(eight, [1, 3, 5, 7, 2, 0, 6, 4]);
/// assert_eq!(column(3, 0), None);
/// ```
pub fn column(n: usize, row: usize) -> Option<usize> {
    if row >= n || n == 2 || n == 3 {
        return None;
    }
    if n == 1 {
        return Some(0);
    }
    // Work with 1-based columns as in the published statement, then subtract one.
    let evens = n / 2;
    let odds = n - evens;
    let one_based = match n % 6 {
        2 => {
            if row < evens {
                2 * (row + 1)
            } else {
                match row - evens {
                    0 => 3,
                    1 => 1,
                    k if k == odds - 1 => 5,
                    k => 2 * k + 3,
                }
            }
        }
        3 => {
            if row < evens {
                if row == evens - 1 {
                    2
                } else {
                    2 * (row + 2)
                }
            } else {
                match row - evens {
                    k if k == odds - 2 => 1,
                    k if k == odds - 1 => 3,
                    k => 2 * k + 5,
                }
            }
        }
        _ => {
            if row < evens {
                2 * (row + 1)
            } else {
                2 * (row - evens) + 1
            }
        }
    };
    Some(one_based - 1)
}

/// The constructed solution of the `n` x `n` board as a stream of columns, row 0 first, or
/// `None` when `n` is 0, 2 or 3. Holds no memory beyond its two counters.
///
/// # Example
/// ```
/// use queens_core::solve::construct::columns;
/// assert_eq!(columns(4).unwrap().unwrap().collect::<Vec<_>>(), [1, 3, 0, 2]);
/// assert_eq!(columns(100_000_000).unwrap().unwrap().len(), 100_000_000);
/// assert!(columns(2).unwrap().is_none());
/// assert!(columns(0).is_err());
/// ```
pub fn columns(n: usize) -> Result<Option<Columns>, SizeError> {
    SizeError::check(n, "the construction", MAX_N)?;
    Ok(if n == 2 || n == 3 {
        None
    } else {
        Some(Columns { n, row: 0 })
    })
}

/// The largest board the construction writes: any size the machine can index.
pub const MAX_N: usize = usize::MAX;

/// The largest board whose constructed solution [`solution`] collects: a `Vec<usize>` holds at
/// most `isize::MAX` bytes.
pub const MAX_COLLECTED: usize = isize::MAX as usize / size_of::<usize>();

/// What [`solution`] is called in its size errors.
const COLLECTED: &str = "the construction, collected";

/// What [`solution`] is called when the memory for the solution could not be allocated.
const NO_MEMORY: &str = "the construction, collected in the memory there is";

/// The constructed solution, collected: convenient for small boards (8 bytes a row; stream a
/// huge board with [`columns`] instead).
///
/// Refuses with a [`SizeError`], before writing anything, a board whose solution cannot be
/// held: past [`MAX_COLLECTED`], or when the allocator refuses its `8 n` bytes; the error's
/// `max` is then `n - 1`, since no more could be said than that `n` did not fit.
///
/// # Example
/// ```
/// use queens_core::solve::construct::{solution, MAX_COLLECTED};
/// assert_eq!(solution(4), Ok(Some(vec![1, 3, 0, 2])));
/// assert_eq!(solution(usize::MAX).unwrap_err().max, MAX_COLLECTED);
/// ```
pub fn solution(n: usize) -> Result<Option<Vec<usize>>, SizeError> {
    SizeError::check(n, COLLECTED, MAX_COLLECTED)?;
    let Some(columns) = columns(n)? else {
        return Ok(None);
    };
    let mut queens = crate::alloc::room(n).ok_or(SizeError {
        n,
        what: NO_MEMORY,
        max: n - 1,
    })?;
    queens.extend(columns);
    Ok(Some(queens))
}

/// An iterator over the columns of the constructed solution; see [`columns`].
#[derive(Debug, Clone)]
pub struct Columns {
    n: usize,
    row: usize,
}

impl Columns {
    /// The board size.
    pub fn size(&self) -> usize {
        self.n
    }
}

impl Iterator for Columns {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let col = column(self.n, self.row)?;
        self.row += 1;
        Some(col)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.n - self.row;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Columns {}

#[cfg(test)]
mod tests {
    use super::*;

    /// An independent check: every pair of queens, no shared column or diagonal.
    fn pairwise_ok(q: &[usize]) -> bool {
        let n = q.len();
        q.iter().all(|&c| c < n)
            && (0..n).all(|i| (i + 1..n).all(|j| q[i] != q[j] && q[i].abs_diff(q[j]) != j - i))
    }

    /// An independent O(N) check with its own arrays (the library's checker is not used).
    fn linear_ok(n: usize, cols: impl Iterator<Item = usize>) -> bool {
        let mut col = vec![false; n];
        let mut d = vec![false; 2 * n];
        let mut a = vec![false; 2 * n];
        let mut rows = 0;
        for (r, c) in cols.enumerate() {
            if c >= n || col[c] || d[r + n - c] || a[r + c] {
                return false;
            }
            col[c] = true;
            d[r + n - c] = true;
            a[r + c] = true;
            rows += 1;
        }
        rows == n
    }

    #[test]
    fn small_boards_follow_the_known_answers() {
        assert_eq!(solution(1), Ok(Some(vec![0])));
        assert_eq!(solution(2), Ok(None));
        assert_eq!(solution(3), Ok(None));
        assert!(solution(0).is_err());
        // 1-based 2,4,6,8,3,1,7,5 and 4,6,8,2,5,7,9,1,3 from the published rule.
        assert_eq!(solution(8), Ok(Some(vec![1, 3, 5, 7, 2, 0, 6, 4])));
        assert_eq!(solution(9), Ok(Some(vec![3, 5, 7, 1, 4, 6, 8, 0, 2])));
    }

    #[test]
    fn a_solution_that_cannot_be_held_is_refused_with_a_size_error() {
        let err = solution(usize::MAX).unwrap_err();
        assert_eq!((err.max, err.what), (MAX_COLLECTED, COLLECTED));
        assert_eq!(solution(MAX_COLLECTED + 1).unwrap_err().max, MAX_COLLECTED);
        // 2^40 rows, 8 TiB: more than the allocator gives (else the test says it skipped).
        let n = 1 << 40;
        if crate::alloc::refuses(n * size_of::<usize>()) {
            let err = solution(n).unwrap_err();
            assert_eq!((err.n, err.what, err.max), (n, NO_MEMORY, n - 1));
            assert!(err.to_string().contains("the memory there is"), "{err}");
        }
    }

    #[test]
    fn every_board_from_4_to_300_is_solved_by_pairwise_check() {
        for n in 4..=300 {
            let q = solution(n).unwrap().unwrap();
            assert!(pairwise_ok(&q), "N = {n}: {q:?}");
        }
    }

    #[test]
    fn every_board_from_4_to_2000_is_solved_by_linear_check() {
        for n in 4..=2000 {
            assert!(linear_ok(n, columns(n).unwrap().unwrap()), "N = {n}");
        }
    }

    #[test]
    fn large_boards_of_every_residue_mod_6_are_solved() {
        for base in [100_002usize, 1_000_002] {
            for n in base..base + 6 {
                assert!(linear_ok(n, columns(n).unwrap().unwrap()), "N = {n}");
            }
        }
    }

    #[test]
    fn the_iterator_knows_its_length_and_stops() {
        let mut it = columns(5).unwrap().unwrap();
        assert_eq!(it.len(), 5);
        assert_eq!(it.size(), 5);
        assert_eq!(it.by_ref().count(), 5);
        assert_eq!(it.next(), None);
        assert_eq!(column(5, 5), None);
    }
}
