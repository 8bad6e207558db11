//! The eight symmetries of the square board, and the symmetry classes of solutions.
//!
//! The idea: the dihedral group of the square (four rotations, four reflections) maps every
//! solution to a solution. A class is an orbit of that group; its representative here is the
//! lexicographically smallest of the eight images of any member. Burnside's lemma counts the
//! classes from the solutions each symmetry fixes: no solution of N > 1 is fixed by a
//! reflection (two queens on mirror squares would share a line), so
//! `unique = (total + S180 + 2 * S90) / 8`, where S180 and S90 count the solutions fixed by the
//! half and the quarter turn. Source: W. Burnside, *Theory of Groups of Finite Order* (1897);
//! the fact about reflections is folklore of the problem (see OEIS A002562). Cost: mapping a
//! square is O(1), a placement O(N); [`for_each_canonical`] enumerates every solution and keeps
//! the smallest image of each class, O(8N) per solution on top of the enumeration.

use std::ops::ControlFlow;

use crate::bitboard;

/// One of the eight symmetries of the N x N board, acting on squares `(row, column)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every square in place.
    Identity,
    /// Quarter turn clockwise: `(r, c) -> (c, N-1-r)`.
    Rotate90,
    /// Half turn: `(r, c) -> (N-1-r, N-1-c)`.
    Rotate180,
    /// Quarter turn anticlockwise: `(r, c) -> (N-1-c, r)`.
    Rotate270,
    /// Mirror left-right: `(r, c) -> (r, N-1-c)`.
    FlipColumns,
    /// Mirror top-bottom: `(r, c) -> (N-1-r, c)`.
    FlipRows,
    /// Mirror in the main diagonal: `(r, c) -> (c, r)`.
    Transpose,
    /// Mirror in the other diagonal: `(r, c) -> (N-1-c, N-1-r)`.
    AntiTranspose,
}

impl Symmetry {
    /// The whole group, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipColumns,
        Symmetry::FlipRows,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The image of square `(r, c)` on the `n` x `n` board.
    #[inline]
    pub fn map(self, n: usize, (r, c): (usize, usize)) -> (usize, usize) {
        let m = n - 1;
        match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rotate90 => (c, m - r),
            Symmetry::Rotate180 => (m - r, m - c),
            Symmetry::Rotate270 => (m - c, r),
            Symmetry::FlipColumns => (r, m - c),
            Symmetry::FlipRows => (m - r, c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (m - c, m - r),
        }
    }

    /// Writes the image of the placement `queens` (`queens[row] = column`) into `image`.
    pub fn apply(self, queens: &[usize], image: &mut [usize]) {
        let n = queens.len();
        for (r, &c) in queens.iter().enumerate() {
            let (r2, c2) = self.map(n, (r, c));
            image[r2] = c2;
        }
    }
}

/// Whether `queens` is the lexicographically smallest of its eight images.
pub fn is_canonical(queens: &[usize]) -> bool {
    let mut image = vec![0; queens.len()];
    Symmetry::ALL[1..].iter().all(|g| {
        g.apply(queens, &mut image);
        queens <= &image[..]
    })
}

/// How many of the eight symmetries map the placement `queens` to itself (1, 2, 4 or 8).
pub fn stabilizer_size(queens: &[usize]) -> usize {
    let mut image = vec![0; queens.len()];
    Symmetry::ALL
        .iter()
        .filter(|g| {
            g.apply(queens, &mut image);
            queens == &image[..]
        })
        .count()
}

/// Visits one representative of every symmetry class of solutions of the `n` x `n` board — the
/// lexicographically smallest of its eight images — in lexicographic order, until `visit`
/// breaks. `n` must be 1..=64.
///
/// # Example
/// ```
/// use queens_core::count::symmetry::for_each_canonical;
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
) -> ControlFlow<()> {
    let mut image = vec![0; n];
    bitboard::for_each_solution(n, &mut |queens| {
        let smallest = Symmetry::ALL[1..].iter().all(|g| {
            g.apply(queens, &mut image);
            queens <= &image[..]
        });
        if smallest {
            visit(queens)
        } else {
            ControlFlow::Continue(())
        }
    })
}

/// Counts the solutions of the `n` x `n` board fixed by the half turn, by a search that places
/// each queen together with its image: row `r` and row `N-1-r` are filled at once, so only
/// `N/2` levels are searched. `n` must be 1..=64.
pub fn count_fixed_by_half_turn(n: usize) -> u64 {
    let mut board = Board::new(n);
    half_turn_from(&mut board, 0)
}

/// Counts the solutions of the `n` x `n` board fixed by the quarter turn, by a search that
/// places the four images of a queen at once (N must be 4k or 4k+1 for any to exist).
/// `n` must be 1..=64.
pub fn count_fixed_by_quarter_turn(n: usize) -> u64 {
    if n % 4 == 2 || n % 4 == 3 {
        return 0;
    }
    let mut board = Board::new(n);
    if n % 2 == 1 {
        // The centre square is its own image: a queen must stand there.
        let m = n / 2;
        board.place(m, m);
    }
    quarter_turn_from(&mut board, 0)
}

/// Burnside's lemma over the eight symmetries, given the total and the fixed counts.
pub fn classes_from_fixed(n: usize, total: u128, half: u128, quarter: u128) -> u128 {
    if n == 1 {
        return 1;
    }
    (total + half + 2 * quarter) / 8
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

fn half_turn_from(board: &mut Board, r: usize) -> u64 {
    let n = board.n;
    if 2 * r >= n {
        return 1;
    }
    let m = n - 1;
    let mut found = 0;
    for c in 0..n {
        let squares: &[(usize, usize)] = if r == m - r {
            // The middle row of an odd board: the queen must be its own image, the centre.
            if c != m - c {
                continue;
            }
            &[(r, c)]
        } else {
            &[(r, c), (m - r, m - c)]
        };
        if board.place_all(squares) {
            found += half_turn_from(board, r + 1);
            board.remove_all(squares);
        }
    }
    found
}

fn quarter_turn_from(board: &mut Board, r: usize) -> u64 {
    let n = board.n;
    if 2 * r + 1 >= n {
        // Every row above the middle is filled, so (by the turn) every row is.
        return 1;
    }
    if board.rows >> r & 1 == 1 {
        return quarter_turn_from(board, r + 1);
    }
    let m = n - 1;
    let mut found = 0;
    for c in 0..n {
        let orbit = [(r, c), (c, m - r), (m - r, m - c), (m - c, r)];
        if board.place_all(&orbit) {
            found += quarter_turn_from(board, r + 1);
            board.remove_all(&orbit);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solutions(n: usize) -> Vec<Vec<usize>> {
        let mut all = Vec::new();
        let _ = bitboard::for_each_solution(n, &mut |q| {
            all.push(q.to_vec());
            ControlFlow::Continue(())
        });
        all
    }

    #[test]
    fn the_group_is_closed_and_each_element_is_a_bijection() {
        let n = 5;
        for g in Symmetry::ALL {
            let mut seen = std::collections::HashSet::new();
            for r in 0..n {
                for c in 0..n {
                    assert!(seen.insert(g.map(n, (r, c))));
                }
            }
        }
        // Four quarter turns are the identity.
        let sq = (1, 3);
        let mut s = sq;
        for _ in 0..4 {
            s = Symmetry::Rotate90.map(n, s);
        }
        assert_eq!(s, sq);
    }

    #[test]
    fn fixed_counts_match_a_brute_force_check_of_every_solution() {
        for n in 1..=10 {
            let all = solutions(n);
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
                count_fixed_by_half_turn(n),
                fixed(Symmetry::Rotate180),
                "n={n}"
            );
            assert_eq!(
                count_fixed_by_quarter_turn(n),
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
            for q in solutions(n) {
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
            let total = solutions(n).len() as u128;
            let half = count_fixed_by_half_turn(n) as u128;
            let quarter = count_fixed_by_quarter_turn(n) as u128;
            assert_eq!(
                reps.len() as u128,
                classes_from_fixed(n, total, half, quarter)
            );
        }
    }
}
