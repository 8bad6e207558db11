//! The eight symmetries of the square board: four rotations and four reflections.
//!
//! The dihedral group of the square maps every solution to a solution; a symmetry *class* is an
//! orbit of that group, and its representative here is the lexicographically smallest of the
//! eight images of any member. Mapping a square is O(1), a placement O(N), a representative
//! O(8N). The counting of classes (Burnside's lemma) is built on this in `count`.

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
    ///
    /// # Panics
    /// When `n` is 0, or (in a debug build) the square is off the board.
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
    ///
    /// # Panics
    /// When `image` is shorter than `queens`, or, for most symmetries, when a column is not
    /// below `queens.len()` (check with [`find_flaw`](crate::find_flaw)).
    pub fn apply(self, queens: &[usize], image: &mut [usize]) {
        let n = queens.len();
        for (r, &c) in queens.iter().enumerate() {
            let (r2, c2) = self.map(n, (r, c));
            image[r2] = c2;
        }
    }
}

/// Whether `queens` is the lexicographically smallest of its eight images.
///
/// # Panics
/// When a column is not below `queens.len()` (check with [`find_flaw`](crate::find_flaw)).
pub fn is_canonical(queens: &[usize]) -> bool {
    let mut image = vec![0; queens.len()];
    Symmetry::ALL[1..].iter().all(|g| {
        g.apply(queens, &mut image);
        queens <= &image[..]
    })
}

/// How many of the eight symmetries map the placement `queens` to itself (1, 2, 4 or 8).
///
/// # Panics
/// When a column is not below `queens.len()` (check with [`find_flaw`](crate::find_flaw)).
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

/// The lexicographically smallest of the eight images of `queens`: the representative of its
/// symmetry class.
///
/// # Panics
/// When a column is not below `queens.len()` (check with [`find_flaw`](crate::find_flaw)).
pub fn representative(queens: &[usize]) -> Vec<usize> {
    let mut best = queens.to_vec();
    let mut image = vec![0; queens.len()];
    for g in Symmetry::ALL {
        g.apply(queens, &mut image);
        if image < best {
            best.copy_from_slice(&image);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/rust-api.md promises that the symmetries of `board` say in a `# Panics` section
    /// what they assume: every public function of this file has one.
    #[test]
    fn every_public_function_documents_its_panics() {
        let mut doc = String::new();
        let mut checked = 0;
        for line in include_str!("symmetry.rs").lines().map(str::trim) {
            if let Some(text) = line.strip_prefix("///") {
                doc.push_str(text);
                doc.push('\n');
            } else if line.starts_with("pub fn") {
                assert!(doc.contains("# Panics"), "no `# Panics` before `{line}`");
                checked += 1;
            } else if !line.starts_with("#[") {
                doc.clear();
            }
        }
        assert_eq!(checked, 5);
    }

    #[test]
    #[should_panic]
    fn the_stabilizer_of_a_queen_off_the_board_panics_as_documented() {
        stabilizer_size(&[5]);
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
    fn the_representative_is_canonical_and_shared_by_the_class() {
        let q = [1, 3, 0, 2];
        let r = representative(&q);
        assert_eq!(r, [1, 3, 0, 2]);
        assert!(is_canonical(&r));
        let mut image = [0; 4];
        Symmetry::FlipColumns.apply(&q, &mut image);
        assert_eq!(representative(&image), r);
        assert!(!is_canonical(&[2, 0, 3, 1]));
    }
}
