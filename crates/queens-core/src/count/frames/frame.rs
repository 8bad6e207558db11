//! The subproblems of a count: canonical pre-placements of the board's outer frame.
//!
//! The idea: every solution has exactly one queen in the top row, the bottom row, the left
//! column and the right column — three or four queens, since a corner queen stands on two of
//! those lines and no solution has two (any two corners share a row, a column or a diagonal).
//! Call that set of queens the solution's *frame*. The eight symmetries of the
//! board map frames to frames, so the solutions whose frame lies in one orbit of frames are
//! the images of the solutions with one chosen frame of that orbit. Only one frame per orbit —
//! the one whose `(top, bottom, left, right)` positions are smallest — is searched, and its
//! count is multiplied by the orbit's size (8 divided by the number of symmetries fixing the
//! frame). That leaves one eighth of the solutions to find (and about a fifth of the plain
//! search's nodes, since a frame prunes less than a full board does). Each frame is one
//! independent subproblem, about N^4/16 of them, far more than there are threads. Source: the
//! pre-placement of outer rows and columns is the method of the Q27 project (T. B. Preußer and
//! M. R. Engelhardt, "Putting Queens in Carry Chains, No 27", 2017), here with a frame of width
//! one. Cost: building the plan is O(N^4) and negligible; the searches are in `kernel`.

use crate::board::Symmetry;

/// A square `(row, column)` as small integers.
pub type Square = (u8, u8);

/// One subproblem: a canonical frame and how many frames its orbit holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subproblem {
    /// The distinct queens of the frame, in `(top, bottom, left, right)` order, duplicates
    /// (corner queens) removed.
    pub queens: Vec<Square>,
    /// The column of the top row's queen, the column of the bottom row's queen, the row of the
    /// left column's queen and the row of the right column's queen.
    pub key: [u8; 4],
    /// The symmetries (other than the identity) that map the frame to itself.
    pub fixed_by: Vec<Symmetry>,
    /// The image of the frame that is cheapest to search (any image has as many completions);
    /// the frame itself when some symmetry fixes it.
    pub oriented: Vec<Square>,
}

impl Subproblem {
    /// How many distinct frames the orbit of this frame holds: 8, 4, 2 or 1.
    pub fn orbit_size(&self) -> u64 {
        8 / (1 + self.fixed_by.len() as u64)
    }
}

/// Every subproblem of the `n` x `n` board, in a fixed order (by key). The order and the
/// number of subproblems are what shards and checkpoints refer to.
///
/// # Panics
/// When `n` is not from 1 to [`MAX_N`](crate::count::MAX_N) (check it with
/// [`check_size`](crate::count::check_size) first).
pub fn subproblems(n: usize) -> Vec<Subproblem> {
    assert!(
        (1..=crate::count::MAX_N).contains(&n),
        "subproblems: N = {n} is not from 1 to {}",
        crate::count::MAX_N
    );
    let mut out = Vec::new();
    let size = n as u8;
    let last = size.wrapping_sub(1);
    for a in 0..size {
        for b in 0..size {
            if !compatible((0, a), (last, b)) {
                continue;
            }
            for c in 0..size {
                if !compatible((0, a), (c, 0)) || !compatible((last, b), (c, 0)) {
                    continue;
                }
                for d in 0..size {
                    let key = [a, b, c, d];
                    let Some(queens) = frame_queens(n, key) else {
                        continue;
                    };
                    let mut canonical = true;
                    let mut fixed_by = Vec::new();
                    for g in &Symmetry::ALL[1..] {
                        let image = key_of(n, queens.iter().map(|&q| map(*g, n, q)));
                        if image < key {
                            canonical = false;
                            break;
                        }
                        if image == key {
                            fixed_by.push(*g);
                        }
                    }
                    if canonical {
                        let oriented = if fixed_by.is_empty() {
                            cheapest_image(n, &queens)
                        } else {
                            queens.clone()
                        };
                        out.push(Subproblem {
                            queens,
                            key,
                            fixed_by,
                            oriented,
                        });
                    }
                }
            }
        }
    }
    out
}

/// Whether two frame queens can stand together: the same square, or not attacking.
fn compatible((r1, c1): Square, (r2, c2): Square) -> bool {
    (r1, c1) == (r2, c2) || (r1 != r2 && c1 != c2 && r1.abs_diff(r2) != c1.abs_diff(c2))
}

/// The image of a frame whose search is expected to visit the fewest nodes. The search fills
/// the free rows top to bottom, and its tree is small when its upper rows have few squares
/// left: each image is scored by the product of the numbers of squares its frame leaves open
/// in the upper half of the free rows and two more (an empty row counting as one), ties
/// broken by an older rule (search along the axis where the two side queens' rows are
/// closest, and in the direction where the top queen is nearest the middle and the bottom
/// queen nearest an edge). Measured on N = 12..15, the score visits about 8 % fewer nodes
/// (7.4 to 8.5 %) than the older rule alone, which itself visits about 1.55 times fewer nodes
/// than searching the canonical frame as it stands.
fn cheapest_image(n: usize, queens: &[Square]) -> Vec<Square> {
    let middle = |x: u8| (2 * i32::from(x) - (n as i32 - 1)).abs();
    Symmetry::ALL
        .iter()
        .map(|&g| {
            let image: Vec<Square> = queens.iter().map(|&q| map(g, n, q)).collect();
            let [a, b, c, d] = key_of(n, image.iter().copied());
            let score = 100 * i32::from(c.abs_diff(d)) + middle(a) - middle(b);
            ((upper_half_openness(n, &image), score), image)
        })
        .min_by_key(|(score, _)| *score)
        .map(|(_, image)| image)
        .unwrap_or_default()
}

/// The product, over the upper half (and two more) of the rows a frame leaves free, of the
/// number of squares of the row that no frame queen attacks (at least one per row).
fn upper_half_openness(n: usize, frame: &[Square]) -> u128 {
    let full = (1u64 << n) - 1;
    let (mut rows, mut cols) = (0u64, 0u64);
    for &(r, c) in frame {
        rows |= 1 << r;
        cols |= 1 << c;
    }
    let free_rows = n - rows.count_ones() as usize;
    let mut product = 1u128;
    for r in (0..n)
        .filter(|r| rows >> r & 1 == 0)
        .take(free_rows / 2 + 2)
    {
        let mut attacked = cols;
        for &(qr, qc) in frame {
            let dist = r.abs_diff(usize::from(qr));
            attacked |= (1u64 << qc << dist) | (1u64 << qc >> dist);
        }
        product *= u128::from((full & !attacked).count_ones().max(1));
    }
    product
}

fn map(g: Symmetry, n: usize, (r, c): Square) -> Square {
    let (r, c) = g.map(n, (r as usize, c as usize));
    (r as u8, c as u8)
}

/// The frame queens for a key, or `None` when they attack each other.
fn frame_queens(n: usize, [a, b, c, d]: [u8; 4]) -> Option<Vec<Square>> {
    let last = (n - 1) as u8;
    let mut queens: Vec<Square> = Vec::with_capacity(4);
    for q in [(0, a), (last, b), (c, 0), (d, last)] {
        if !queens.contains(&q) {
            queens.push(q);
        }
    }
    for (i, &(r1, c1)) in queens.iter().enumerate() {
        for &(r2, c2) in &queens[i + 1..] {
            if r1 == r2 || c1 == c2 || r1.abs_diff(r2) == c1.abs_diff(c2) {
                return None;
            }
        }
    }
    Some(queens)
}

/// The key of a valid frame given as its queens.
fn key_of(n: usize, queens: impl Iterator<Item = Square>) -> [u8; 4] {
    let last = (n - 1) as u8;
    let mut key = [0; 4];
    for (r, c) in queens {
        if r == 0 {
            key[0] = c;
        }
        if r == last {
            key[1] = c;
        }
        if c == 0 {
            key[2] = r;
        }
        if c == last {
            key[3] = r;
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_orbits_of_canonical_frames_cover_every_valid_frame_exactly_once() {
        for n in 1..=9usize {
            let mut valid = 0u64;
            let s = n as u8;
            for a in 0..s {
                for b in 0..s {
                    for c in 0..s {
                        for d in 0..s {
                            if frame_queens(n, [a, b, c, d]).is_some() {
                                valid += 1;
                            }
                        }
                    }
                }
            }
            let covered: u64 = subproblems(n).iter().map(Subproblem::orbit_size).sum();
            assert_eq!(covered, valid, "n = {n}");
        }
    }

    #[test]
    fn a_frame_is_its_own_key() {
        for sub in subproblems(7) {
            assert_eq!(key_of(7, sub.queens.iter().copied()), sub.key);
            assert_eq!(frame_queens(7, sub.key), Some(sub.queens.clone()));
        }
    }
}
