//! The eight symmetries of the square board, to tell whether a solution is the representative of
//! its class: the one that comes first in lexicographic order among its images.

/// Whether `queens` is lexicographically no greater than each of its seven rotated and mirrored
/// images, i.e. the first of its symmetry class in the list of solutions.
pub fn is_canonical(queens: &[usize]) -> bool {
    let n = queens.len();
    let mut image = queens.to_vec();
    let mut turned = vec![0; n];
    for turn in 0..4 {
        if turn > 0 {
            // A quarter turn clockwise moves square (r, c) to (c, n - 1 - r).
            for (r, &c) in image.iter().enumerate() {
                turned[c] = n - 1 - r;
            }
            std::mem::swap(&mut image, &mut turned);
            if image.as_slice() < queens {
                return false;
            }
        }
        // The mirror image, left to right.
        let mirrored = image.iter().map(|&c| n - 1 - c);
        if mirrored.lt(queens.iter().copied()) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::Algorithm;
    use std::ops::ControlFlow;

    fn unique(n: usize) -> u64 {
        let mut count = 0;
        let _ = Algorithm::Bitboard.for_each_solution(n, &Default::default(), &mut |q| {
            count += u64::from(is_canonical(q));
            ControlFlow::Continue(())
        });
        count
    }

    #[test]
    fn counts_the_classes_of_small_boards() {
        // OEIS A002562, as in ../shared/data/queens-counts.tsv.
        let expected = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92];
        for (i, &want) in expected.iter().enumerate() {
            assert_eq!(unique(i + 1), want, "n = {}", i + 1);
        }
    }

    #[test]
    fn the_first_solution_of_eight_is_canonical_and_its_mirror_is_not() {
        assert!(is_canonical(&[0, 4, 7, 5, 2, 6, 1, 3]));
        assert!(!is_canonical(&[7, 3, 0, 2, 5, 1, 6, 4]));
    }
}
