//! The facts every complete count of a board obeys, which no checksum can fake: checked when
//! shard results are merged and when a complete checkpoint is resumed, so that a part whose
//! numbers were edited and re-signed is refused unless the edit keeps them possible.
//!
//! The idea: no solution of N >= 2 is fixed by a reflection (two queens on mirror squares
//! would share a line, see `fixed.rs`), so the stabilizer of a solution is a group of
//! rotations: the identity alone, the half turn, or all four; a symmetry class holds 8, 4 or
//! 2 solutions. With `a`, `b`, `c` classes of each size, `total = 8a + 4b + 2c` and
//! `classes = a + b + c`, hence: the total is even (the mirror pairs), and
//! `2 classes <= total <= 8 classes`. The engines that count classes in eighths (the
//! half-board engine, pieces) sum `8 classes` exactly (Burnside's lemma), so their sum is a
//! multiple of 8. And every solution is a permutation (one queen in each row and column), so
//! no total passes N! (32! < 2^128: every board the engine counts has its bound). Cost: a few
//! integer operations. It calls only the shared types.

use thiserror::Error;

use super::types::Counts;

/// A complete count that no board can have.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Impossible {
    /// The total of N >= 2 is odd.
    #[error(
        "the total {total} is odd, but the solutions of N = {n} come in mirror pairs (no \
         solution of N >= 2 is its own mirror image), so every total is even"
    )]
    OddTotal {
        /// The board size.
        n: usize,
        /// The total.
        total: u128,
    },
    /// The sum of eighths of classes is not a multiple of 8.
    #[error(
        "the eighths of classes add up to {eighths}, not a multiple of 8 (each class adds \
         exactly 8 eighths by Burnside's lemma)"
    )]
    Eighths {
        /// The sum of eighths.
        eighths: u128,
    },
    /// Fewer classes than a total of classes of at most 8 solutions allows.
    #[error(
        "{classes} classes cannot hold {total} solutions: a class holds at most 8, so there are \
         at least total / 8 = {} classes",
        total.div_ceil(8)
    )]
    TooFewClasses {
        /// The total.
        total: u128,
        /// The classes.
        classes: u128,
    },
    /// More classes than a total of classes of at least 2 solutions allows.
    #[error(
        "{classes} classes cannot hold only {total} solutions: on N = {n} a class holds at least \
         2 (a solution and its mirror image), so there are at most total / 2 = {} classes",
        total / 2
    )]
    TooManyClasses {
        /// The board size.
        n: usize,
        /// The total.
        total: u128,
        /// The classes.
        classes: u128,
    },
    /// More solutions than the board has permutations.
    #[error(
        "the total {total} is more than N! = {most}, the number of ways to place {n} queens \
         one in each row and each column, which every solution of N = {n} is"
    )]
    MoreThanPermutations {
        /// The board size.
        n: usize,
        /// The total.
        total: u128,
        /// N!, the most solutions the board can have.
        most: u128,
    },
}

/// N!, or `None` past `u128` (N > 34).
fn permutations(n: usize) -> Option<u128> {
    (2..=n as u128).try_fold(1u128, |product, k| product.checked_mul(k))
}

/// Refuses a total above N! ([`Impossible::MoreThanPermutations`]): of a complete count, and
/// of any part of one (a shard, the subproblems a checkpoint saved), which is no larger.
pub(crate) fn within_permutations(n: usize, total: u128) -> Result<(), Impossible> {
    match permutations(n) {
        Some(most) if total > most => Err(Impossible::MoreThanPermutations { n, total, most }),
        _ => Ok(()),
    }
}

/// Checks the complete count `counts` (total and classes) of the `n` x `n` board against the
/// facts of the module's introduction.
///
/// # Example
/// ```
/// use queens_core::count::{check_complete, Counts};
/// assert!(check_complete(16, Counts { total: 14772512, unique: 1846955 }).is_ok());
/// let forged = Counts { total: 14772513, unique: 1846955 };
/// assert!(check_complete(16, forged).unwrap_err().to_string().contains("odd"));
/// ```
pub fn check_complete(n: usize, counts: Counts) -> Result<(), Impossible> {
    let Counts { total, unique } = counts;
    if n < 2 {
        // N = 1: one solution, its own class (the only board where a class has 1 solution).
        return if unique > total || total > unique.saturating_mul(8) {
            Err(Impossible::TooFewClasses {
                total,
                classes: unique,
            })
        } else {
            within_permutations(n, total)
        };
    }
    if total % 2 == 1 {
        return Err(Impossible::OddTotal { n, total });
    }
    if unique.saturating_mul(8) < total {
        return Err(Impossible::TooFewClasses {
            total,
            classes: unique,
        });
    }
    if unique > total / 2 {
        return Err(Impossible::TooManyClasses {
            n,
            total,
            classes: unique,
        });
    }
    within_permutations(n, total)
}

/// The classes of a complete count summed in eighths: `eighths / 8`, once the sum is checked
/// to be a multiple of 8 and the count to be possible ([`check_complete`]).
pub fn classes_of_eighths(n: usize, total: u128, eighths: u128) -> Result<u128, Impossible> {
    if !eighths.is_multiple_of(8) {
        return Err(Impossible::Eighths { eighths });
    }
    let classes = eighths / 8;
    check_complete(
        n,
        Counts {
            total,
            unique: classes,
        },
    )?;
    Ok(classes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;

    #[test]
    fn every_known_count_is_possible() {
        for reference::Known { n, total, unique } in reference::known() {
            let counts = Counts { total, unique };
            assert_eq!(check_complete(n, counts), Ok(()), "N = {n}");
            assert_eq!(classes_of_eighths(n, total, 8 * unique), Ok(unique));
        }
    }

    #[test]
    fn an_odd_total_too_few_or_too_many_classes_and_stray_eighths_are_impossible() {
        let c = |total, unique| Counts { total, unique };
        assert!(matches!(
            check_complete(16, c(14772513, 1846955)),
            Err(Impossible::OddTotal { .. })
        ));
        assert!(matches!(
            check_complete(8, c(92, 11)),
            Err(Impossible::TooFewClasses { .. })
        ));
        assert!(matches!(
            check_complete(8, c(92, 47)),
            Err(Impossible::TooManyClasses { .. })
        ));
        // The bounds themselves are possible: all classes of 8, all of 2.
        assert_eq!(check_complete(8, c(96, 12)), Ok(()));
        assert_eq!(check_complete(8, c(92, 46)), Ok(()));
        assert!(matches!(
            classes_of_eighths(8, 92, 97),
            Err(Impossible::Eighths { eighths: 97 })
        ));
        assert!(check_complete(1, c(1, 1)).is_ok());
        assert!(check_complete(1, c(1, 2)).is_err());
        // N = 1: solutions and no class to hold them.
        assert_eq!(
            check_complete(1, c(1, 0)),
            Err(Impossible::TooFewClasses {
                total: 1,
                classes: 0
            })
        );
        // N = 2 is past the exception of N = 1: its solutions come in mirror pairs too, so
        // an odd total is refused even where it is within 2! = 2 and one class could hold it.
        assert_eq!(
            check_complete(2, c(1, 1)),
            Err(Impossible::OddTotal { n: 2, total: 1 })
        );
    }

    /// Three shards of N = 12 each re-signed with a total of 2^64 summed to
    /// 55340232221128654848, even and with classes between an eighth and a half of it, and
    /// were merged: more solutions than 12! = 479001600 permutations.
    #[test]
    fn a_total_above_n_factorial_is_impossible() {
        let c = |total, unique| Counts { total, unique };
        let total = 3u128 << 64;
        let err = check_complete(12, c(total, total / 8)).unwrap_err();
        assert_eq!(
            err,
            Impossible::MoreThanPermutations {
                n: 12,
                total,
                most: 479_001_600
            }
        );
        assert!(
            err.to_string()
                .contains("more than N! = 479001600, the number of ways to place 12 queens one in"),
            "{err}"
        );
        // N! itself is not refused by this fact (a bound, not the count), nor anything at
        // N = 32, whose 32! still fits in u128.
        assert_eq!(check_complete(4, c(24, 3)), Ok(()));
        assert!(check_complete(4, c(26, 4)).is_err());
        assert_eq!(permutations(32), Some((2..=32u128).product()));
        assert_eq!(permutations(35), None);
        assert_eq!(check_complete(35, c(u128::MAX - 1, u128::MAX / 4)), Ok(()));
        // N = 1: one permutation.
        assert!(matches!(
            check_complete(1, c(4, 1)),
            Err(Impossible::MoreThanPermutations { most: 1, .. })
        ));
        assert_eq!(classes_of_eighths(12, total, total), Err(err));
    }
}
