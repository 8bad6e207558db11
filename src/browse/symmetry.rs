//! The eight symmetries of the square board, to pick one representative per symmetry class.
//!
//! A solution's class holds its images under the four rotations and four reflections; the
//! representative is the lexicographically smallest image. Checking one placement costs 7
//! transformations of N entries. (The counting engine of issue 3 brings the library's own
//! version; this small one serves the browser until then.)

/// The image of `queens` (`[row] = column`) under symmetry `k` (0..8; 0 is the identity),
/// written into `image`.
fn transform(queens: &[usize], k: usize, image: &mut [usize]) {
    let n = queens.len();
    let last = n - 1;
    for (r, &c) in queens.iter().enumerate() {
        let (row, col) = match k {
            0 => (r, c),
            1 => (c, last - r),        // a quarter turn clockwise
            2 => (last - r, last - c), // a half turn
            3 => (last - c, r),        // three quarter turns
            4 => (r, last - c),        // mirrored left-right
            5 => (last - r, c),        // mirrored top-bottom
            6 => (c, r),               // across the main diagonal
            _ => (last - c, last - r), // across the other diagonal
        };
        image[row] = col;
    }
}

/// Whether `queens` is the lexicographically smallest of its eight images: the representative
/// of its symmetry class.
pub fn is_representative(queens: &[usize]) -> bool {
    let mut image = vec![0; queens.len()];
    (1..8).all(|k| {
        transform(queens, k, &mut image);
        image.as_slice() >= queens
    })
}

/// The representative of the class of `queens`.
pub fn representative(queens: &[usize]) -> Vec<usize> {
    let mut best = queens.to_vec();
    let mut image = vec![0; queens.len()];
    for k in 1..8 {
        transform(queens, k, &mut image);
        if image < best {
            best.copy_from_slice(&image);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::ops::ControlFlow;

    fn all_solutions(n: usize) -> Vec<Vec<usize>> {
        let mut all = Vec::new();
        let _ = queens_core::bitboard::for_each_solution(n, &mut |q| {
            all.push(q.to_vec());
            ControlFlow::Continue(())
        });
        all
    }

    #[test]
    fn every_image_of_a_solution_is_a_solution_and_the_identity_is_first() {
        let q = [0, 4, 7, 5, 2, 6, 1, 3];
        let mut image = [0; 8];
        let mut images = BTreeSet::new();
        for k in 0..8 {
            transform(&q, k, &mut image);
            assert!(queens_core::find_flaw(&image).is_none(), "image {k}");
            images.insert(image);
        }
        transform(&q, 0, &mut image);
        assert_eq!(image, q);
        assert_eq!(images.len(), 8, "this solution has no symmetry");
    }

    #[test]
    fn representatives_are_one_per_class() {
        for n in 1..=9 {
            let all = all_solutions(n);
            let classes: BTreeSet<Vec<usize>> = all.iter().map(|q| representative(q)).collect();
            let marked: Vec<&Vec<usize>> = all.iter().filter(|q| is_representative(q)).collect();
            assert_eq!(marked.len(), classes.len(), "n = {n}");
            assert!(marked.iter().all(|q| classes.contains(*q)));
        }
    }

    #[test]
    fn eight_has_twelve_classes_headed_by_the_first_solution() {
        let all = all_solutions(8);
        let unique: Vec<&Vec<usize>> = all.iter().filter(|q| is_representative(q)).collect();
        assert_eq!(unique.len(), 12);
        assert_eq!(unique[0], &[0, 4, 7, 5, 2, 6, 1, 3]);
    }
}
