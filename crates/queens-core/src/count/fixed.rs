//! Counting symmetry classes: the solutions fixed by the half and quarter turns, Burnside's
//! lemma, and the class representatives in order.
//!
//! No solution of N > 1 is fixed by a reflection (two queens on mirror squares would share a
//! line), so Burnside's lemma gives `unique = (total + S180 + 2 * S90) / 8`, where S180 and S90
//! count the solutions fixed by the half and the quarter turn. Source: W. Burnside, *Theory of
//! Groups of Finite Order* (1897); the fact about reflections is folklore of the problem (see
//! OEIS A002562). Cost: the fixed-point searches place two or four queens at a time, so they
//! search N/2 or N/4 levels (the half turn's on bitmasks: 7 ms became under 1 ms at N = 16); [`for_each_canonical`] enumerates every solution and keeps the
//! smallest image of each class, O(8N) per solution on top of the enumeration.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::symmetry::Symmetry;
use crate::error::SizeError;
use crate::search::bitboard;

/// Visits one representative of every symmetry class of solutions of the `n` x `n` board — the
/// lexicographically smallest of its eight images — in lexicographic order, until `visit`
/// breaks. `n` must be 1..=64 (else a [`SizeError`] before any search).
///
/// # Example
/// ```
/// use queens_core::count::for_each_canonical;
/// use std::ops::ControlFlow;
/// let mut classes = 0;
/// let _ = for_each_canonical(8, &mut |_| {
///     classes += 1;
///     ControlFlow::Continue(())
/// });
/// assert_eq!(classes, 12);
/// ```
pub fn for_each_canonical(
    n: usize,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, SizeError> {
    SizeError::check(n, "the canonical listing", bitboard::MAX_N)?;
    let mut image = vec![0; n];
    Ok(bitboard::for_each_solution(n, &mut |queens| {
        let smallest = Symmetry::ALL[1..].iter().all(|g| {
            g.apply(queens, &mut image);
            queens <= &image[..]
        });
        if smallest {
            visit(queens)
        } else {
            ControlFlow::Continue(())
        }
    }))
}

/// Counts the solutions of the `n` x `n` board fixed by the half turn, by a search that places
/// each queen together with its image: row `r` and row `N-1-r` are filled at once, so only
/// `N/2` levels are searched. `n` must be 1..=64.
pub fn count_fixed_by_half_turn(n: usize) -> Result<u64, SizeError> {
    let never = AtomicBool::new(false);
    Ok(half_turn_until(n, &never)?.unwrap_or(0))
}

/// [`count_fixed_by_half_turn`], stopping soon (`Ok(None)`) once `cancel` is raised: the
/// flag is looked at in every node of the search, a load that costs nothing next to the
/// node's own tests.
pub(crate) fn half_turn_until(n: usize, cancel: &AtomicBool) -> Result<Option<u64>, SizeError> {
    SizeError::check(n, "the half-turn count", bitboard::MAX_N)?;
    Ok(half_turn_from(n, 0, (0, 0, 0), cancel))
}

/// Counts the solutions of the `n` x `n` board fixed by the quarter turn, by a search that
/// places the four images of a queen at once (N must be 4k or 4k+1 for any to exist).
/// `n` must be 1..=64.
pub fn count_fixed_by_quarter_turn(n: usize) -> Result<u64, SizeError> {
    let never = AtomicBool::new(false);
    Ok(quarter_turn_until(n, &never)?.unwrap_or(0))
}

/// [`count_fixed_by_quarter_turn`], stopping soon (`Ok(None)`) once `cancel` is raised.
pub(crate) fn quarter_turn_until(n: usize, cancel: &AtomicBool) -> Result<Option<u64>, SizeError> {
    SizeError::check(n, "the quarter-turn count", bitboard::MAX_N)?;
    if n % 4 == 2 || n % 4 == 3 {
        return Ok(Some(0));
    }
    let mut board = Board::new(n);
    if n % 2 == 1 {
        // The centre square is its own image: a queen must stand there.
        let m = n / 2;
        board.place(m, m);
    }
    Ok(quarter_turn_from(&mut board, 0, cancel))
}

/// Burnside's lemma over the eight symmetries, given the total and the fixed counts (a board's
/// own: counts no board has may give any answer, never a panic).
pub fn classes_from_fixed(n: usize, total: u128, half: u128, quarter: u128) -> u128 {
    if n == 1 {
        return 1;
    }
    // Each term divided first, the remainders summed: no sum can pass u128.
    let (t, h, q) = (total % 8, half % 8, (2 * (quarter % 4)) % 8);
    total / 8 + half / 8 + quarter / 4 + (t + h + q) / 8
}

/// A partial placement with row, column and diagonal occupancy, for the symmetric searches.
struct Board {
    n: usize,
    rows: u64,
    cols: u64,
    /// Diagonals `r + c`, 0..2N-1 (up to 127 bits).
    sums: u128,
    /// Diagonals `r - c + N - 1`, 0..2N-1.
    diffs: u128,
}

impl Board {
    fn new(n: usize) -> Self {
        Board {
            n,
            rows: 0,
            cols: 0,
            sums: 0,
            diffs: 0,
        }
    }

    fn free(&self, r: usize, c: usize) -> bool {
        self.rows >> r & 1 == 0
            && self.cols >> c & 1 == 0
            && self.sums >> (r + c) & 1 == 0
            && self.diffs >> (r + self.n - 1 - c) & 1 == 0
    }

    fn toggle(&mut self, r: usize, c: usize) {
        self.rows ^= 1 << r;
        self.cols ^= 1 << c;
        self.sums ^= 1 << (r + c);
        self.diffs ^= 1 << (r + self.n - 1 - c);
    }

    fn place(&mut self, r: usize, c: usize) {
        self.toggle(r, c);
    }

    /// Places every square of `squares` if all are free and distinct in lines; returns
    /// whether it did. Undo with [`Board::remove_all`].
    fn place_all(&mut self, squares: &[(usize, usize)]) -> bool {
        for (i, &(r, c)) in squares.iter().enumerate() {
            if !self.free(r, c) {
                self.remove_all(&squares[..i]);
                return false;
            }
            self.toggle(r, c);
        }
        true
    }

    fn remove_all(&mut self, squares: &[(usize, usize)]) {
        for &(r, c) in squares {
            self.toggle(r, c);
        }
    }
}

/// The solutions fixed by the half turn that extend the queens of rows `0..r` (and their
/// images): `cols`, and the diagonals `d1` (`r + c`) and `d2` (`c - r + n - 1`) they hold. The
/// queens placed so far are their own image under the turn, so a square is free exactly when
/// its image is; a queen and its image attack each other only on the same column, the same
/// `r + c` diagonal or the same `c - r` one (`c = n - 1 - c`, `r + c = n - 1`, `c = r`).
fn half_turn_from(
    n: usize,
    r: usize,
    (cols, d1, d2): (u64, u128, u128),
    cancel: &AtomicBool,
) -> Option<u64> {
    if 2 * r >= n {
        return Some(1);
    }
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let m = n - 1;
    let seen = cols | (d1 >> r) as u64 | (d2 >> (m - r)) as u64;
    if 2 * r == m {
        // The middle row of an odd board: the queen must be its own image, the centre.
        return Some(u64::from(seen >> r & 1 == 0));
    }
    let full = u64::MAX >> (64 - n);
    // A queen beside its image: on the same column (the middle one of an odd board), or on the
    // same diagonal (column n - 1 - r or column r).
    let centre = if n % 2 == 1 { 1 << (m / 2) } else { 0 };
    let mut free = full & !seen & !(1 << r) & !(1 << (m - r)) & !centre;
    let mut found = 0;
    while free != 0 {
        let c = free.trailing_zeros() as usize;
        free &= free - 1;
        let (r2, c2) = (m - r, m - c);
        let next = (
            cols | 1 << c | 1 << c2,
            d1 | 1 << (r + c) | 1 << (r2 + c2),
            d2 | 1 << (c + m - r) | 1 << (c2 + m - r2),
        );
        found += half_turn_from(n, r + 1, next, cancel)?;
    }
    Some(found)
}

fn quarter_turn_from(board: &mut Board, r: usize, cancel: &AtomicBool) -> Option<u64> {
    let n = board.n;
    if 2 * r + 1 >= n {
        // Every row above the middle is filled, so (by the turn) every row is.
        return Some(1);
    }
    if board.rows >> r & 1 == 1 {
        return quarter_turn_from(board, r + 1, cancel);
    }
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let m = n - 1;
    let mut found = 0;
    for c in 0..n {
        let orbit = [(r, c), (c, m - r), (m - r, m - c), (m - c, r)];
        if board.place_all(&orbit) {
            let below = quarter_turn_from(board, r + 1, cancel);
            board.remove_all(&orbit);
            found += below?;
        }
    }
    Some(found)
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::is_canonical;
    use crate::search::every_solution;

    #[test]
    fn burnside_gives_the_known_classes_and_never_overflows() {
        // (N, total, fixed by the half turn, fixed by the quarter turn, classes).
        for (n, total, half, quarter, classes) in [
            (1, 1, 1, 1, 1),
            (4, 2, 2, 2, 1),
            (8, 92, 4, 0, 12),
            (10, 724, 12, 0, 92),
        ] {
            assert_eq!(
                classes_from_fixed(n, total, half, quarter),
                classes,
                "N = {n}"
            );
        }
        for (t, h, q) in [(13u128, 7u128, 3u128), (1000, 999, 17), (7, 7, 3)] {
            assert_eq!(classes_from_fixed(9, t, h, q), (t + h + 2 * q) / 8);
        }
        let _ = classes_from_fixed(8, u128::MAX, u128::MAX, u128::MAX);
    }

    #[test]
    fn a_raised_flag_stops_the_fixed_point_searches_at_once() {
        // N = 24's half-turn search takes about a minute: a raised flag must end it at its
        // first node (the half-board engine counts it as its first subproblem).
        let raised = AtomicBool::new(true);
        assert_eq!(half_turn_until(24, &raised).unwrap(), None);
        assert_eq!(quarter_turn_until(24, &raised).unwrap(), None);
        let never = AtomicBool::new(false);
        assert_eq!(
            half_turn_until(12, &never).unwrap(),
            Some(count_fixed_by_half_turn(12).unwrap())
        );
        assert_eq!(
            quarter_turn_until(13, &never).unwrap(),
            Some(count_fixed_by_quarter_turn(13).unwrap())
        );
    }

    #[test]
    fn fixed_counts_match_a_brute_force_check_of_every_solution() {
        for n in 1..=10 {
            let all = every_solution(n);
            let mut image = vec![0; n];
            let mut fixed = |g: Symmetry| {
                all.iter()
                    .filter(|q| {
                        g.apply(q, &mut image);
                        q[..] == image[..]
                    })
                    .count() as u64
            };
            assert_eq!(
                count_fixed_by_half_turn(n).unwrap(),
                fixed(Symmetry::Rotate180),
                "n={n}"
            );
            assert_eq!(
                count_fixed_by_quarter_turn(n).unwrap(),
                fixed(Symmetry::Rotate90),
                "n={n}"
            );
            if n > 1 {
                for g in &Symmetry::ALL[4..] {
                    assert_eq!(fixed(*g), 0, "n={n} {g:?}");
                }
            }
        }
    }

    #[test]
    fn canonical_representatives_are_one_per_class_and_in_order() {
        for n in 1..=9 {
            let mut reps = Vec::new();
            let _ = for_each_canonical(n, &mut |q| {
                reps.push(q.to_vec());
                ControlFlow::Continue(())
            });
            assert!(reps.windows(2).all(|w| w[0] < w[1]));
            // Every solution's smallest image is one of the representatives.
            let mut image = vec![0; n];
            for q in every_solution(n) {
                let smallest = Symmetry::ALL
                    .iter()
                    .map(|g| {
                        g.apply(&q, &mut image);
                        image.clone()
                    })
                    .min()
                    .unwrap();
                assert!(reps.binary_search(&smallest).is_ok());
                assert!(is_canonical(&smallest));
            }
            let total = every_solution(n).len() as u128;
            let half = count_fixed_by_half_turn(n).unwrap() as u128;
            let quarter = count_fixed_by_quarter_turn(n).unwrap() as u128;
            assert_eq!(
                reps.len() as u128,
                classes_from_fixed(n, total, half, quarter)
            );
        }
    }
}
