//! Solutions by rank: solutions K..K+L-1 in lexicographic order, without visiting the K before
//! them.
//!
//! The lexicographic order of the solutions is the depth-first order of the search tree whose
//! children are tried by increasing column. To reach solution K, walk down from the root: for
//! each child in turn, count the solutions below it with the bitmask counter of
//! [`bitboard`](crate::bitboard); if K is at least that count, skip the whole subtree and lower K
//! by it, otherwise descend into it. At the leaf K is zero: that is solution K. From there the
//! walk goes on depth-first to collect the next L - 1. The idea is the classic
//! "unranking by counting" of combinatorial generation (Kreher and Stinson, *Combinatorial
//! Algorithms*, 1999, ch. 2). Solutions are never held, only counted, so memory is O(N + L);
//! time is at most that of counting the subtrees left of the path, less than counting every
//! solution of the board, plus the nodes between solution K and K+L-1. A step budget bounds the
//! work so a caller (a web server) can refuse offsets that would take too long.

use std::ops::ControlFlow;

/// The widest board: one bit of a `u64` per column.
pub const MAX_N: usize = 64;

/// Why a ranked walk stopped without an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RankError {
    /// The board size is 0 or above [`MAX_N`].
    #[error("N must be between 1 and {MAX_N} (got {0})")]
    BadSize(usize),
    /// The walk needed more search steps (nodes of the tree) than its budget.
    #[error("reaching that solution needs more than {0} search steps")]
    OverBudget(u64),
}

/// What a ranked walk found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// Solutions `offset`, `offset + 1`, ... in lexicographic order: at most `limit` of them,
    /// fewer at the end of the list, none when `offset` is past the last solution.
    pub solutions: Vec<Vec<usize>>,
    /// The number of solutions of the board, when the walk happened to learn it: when `offset`
    /// is past the last solution, or when the page reaches the last solution.
    pub total: Option<u64>,
}

struct Walk {
    full: u64,
    queens: Vec<usize>,
    skip: u64,
    limit: usize,
    found: Vec<Vec<usize>>,
    steps_left: u64,
    budget: u64,
}

impl Walk {
    fn step(&mut self) -> Result<(), RankError> {
        if self.steps_left == 0 {
            return Err(RankError::OverBudget(self.budget));
        }
        self.steps_left -= 1;
        Ok(())
    }

    /// Counts the solutions below a node, one step per node.
    fn count(&mut self, cols: u64, down_right: u64, down_left: u64) -> Result<u64, RankError> {
        self.step()?;
        if cols == self.full {
            return Ok(1);
        }
        let mut free = self.full & !(cols | down_right | down_left);
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            total += self.count(cols | bit, (down_right | bit) << 1, (down_left | bit) >> 1)?;
        }
        Ok(total)
    }

    fn descend(
        &mut self,
        row: usize,
        cols: u64,
        down_right: u64,
        down_left: u64,
    ) -> Result<ControlFlow<()>, RankError> {
        self.step()?;
        if row == self.queens.len() {
            self.found.push(self.queens.clone());
            return Ok(if self.found.len() == self.limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            });
        }
        let mut free = self.full & !(cols | down_right | down_left);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let (c, dr, dl) = (cols | bit, (down_right | bit) << 1, (down_left | bit) >> 1);
            if self.skip > 0 {
                let below = self.count(c, dr, dl)?;
                if self.skip >= below {
                    self.skip -= below;
                    continue;
                }
            }
            self.queens[row] = bit.trailing_zeros() as usize;
            if self.descend(row + 1, c, dr, dl)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

fn full_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Solutions `offset .. offset + limit` (0-based, lexicographic order) of the `n` x `n` board,
/// using at most `budget` search steps.
///
/// # Example
/// ```
/// use queens_core::rank::solutions_from;
/// let page = solutions_from(8, 1, 2, u64::MAX).unwrap();
/// assert_eq!(page.solutions, [[0, 5, 7, 2, 6, 3, 1, 4], [0, 6, 3, 5, 7, 1, 4, 2]]);
/// let past = solutions_from(8, 92, 1, u64::MAX).unwrap();
/// assert!(past.solutions.is_empty());
/// assert_eq!(past.total, Some(92));
/// ```
pub fn solutions_from(n: usize, offset: u64, limit: usize, budget: u64) -> Result<Page, RankError> {
    if n == 0 || n > MAX_N {
        return Err(RankError::BadSize(n));
    }
    if limit == 0 {
        return Ok(Page {
            solutions: Vec::new(),
            total: None,
        });
    }
    let mut walk = Walk {
        full: full_mask(n),
        queens: vec![0; n],
        skip: offset,
        limit,
        found: Vec::with_capacity(limit.min(1 << 12)),
        steps_left: budget,
        budget,
    };
    let flow = walk.descend(0, 0, 0, 0)?;
    // A walk that ran to the end without filling the page has seen every solution: the skipped
    // ones, minus what was left to skip, plus the ones it found.
    let total = flow
        .is_continue()
        .then(|| offset - walk.skip + walk.found.len() as u64);
    Ok(Page {
        solutions: walk.found,
        total,
    })
}

/// The number of solutions of the `n` x `n` board, counted with at most `budget` search steps.
pub fn count(n: usize, budget: u64) -> Result<u64, RankError> {
    if n == 0 || n > MAX_N {
        return Err(RankError::BadSize(n));
    }
    let mut walk = Walk {
        full: full_mask(n),
        queens: Vec::new(),
        skip: 0,
        limit: 0,
        found: Vec::new(),
        steps_left: budget,
        budget,
    };
    walk.count(0, 0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard;
    use proptest::prelude::*;

    fn all(n: usize) -> Vec<Vec<usize>> {
        let mut v = Vec::new();
        let _ = bitboard::for_each_solution(n, &mut |q| {
            v.push(q.to_vec());
            ControlFlow::Continue(())
        });
        v
    }

    #[test]
    fn every_offset_of_small_boards_matches_the_enumeration() {
        for n in 1..=9 {
            let every = all(n);
            for offset in 0..=every.len() + 1 {
                let page = solutions_from(n, offset as u64, 1, u64::MAX).unwrap();
                assert_eq!(
                    page.solutions,
                    every.get(offset).into_iter().cloned().collect::<Vec<_>>(),
                    "n = {n}, offset = {offset}"
                );
            }
        }
    }

    #[test]
    fn pages_past_the_end_know_the_total() {
        let page = solutions_from(10, 720, 10, u64::MAX).unwrap();
        assert_eq!(page.solutions.len(), 4);
        assert_eq!(page.total, Some(724));
        let page = solutions_from(10, 10_000, 10, u64::MAX).unwrap();
        assert!(page.solutions.is_empty());
        assert_eq!(page.total, Some(724));
        assert_eq!(solutions_from(2, 0, 5, u64::MAX).unwrap().total, Some(0));
        assert_eq!(solutions_from(8, 0, 5, u64::MAX).unwrap().total, None);
    }

    #[test]
    fn reaches_solution_fourteen_thousand_of_twelve_by_skipping() {
        let page = solutions_from(12, 14_000, 3, 10_000_000).unwrap();
        let mut seen = 0u64;
        let mut expected = Vec::new();
        let _ = bitboard::for_each_solution(12, &mut |q| {
            if (14_000..14_003).contains(&seen) {
                expected.push(q.to_vec());
            }
            seen += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(page.solutions, expected);
        for q in &page.solutions {
            assert!(crate::check::find_flaw(q).is_none());
        }
    }

    #[test]
    fn refuses_walks_over_budget_and_bad_sizes() {
        assert_eq!(
            solutions_from(14, 300_000, 1, 1000),
            Err(RankError::OverBudget(1000))
        );
        assert_eq!(count(12, 10), Err(RankError::OverBudget(10)));
        assert_eq!(solutions_from(0, 0, 1, 10), Err(RankError::BadSize(0)));
        assert_eq!(count(65, 10), Err(RankError::BadSize(65)));
    }

    #[test]
    fn counts_agree_with_the_bitboard_counter() {
        for n in 1..=10 {
            assert_eq!(count(n, u64::MAX), Ok(bitboard::count(n)), "n = {n}");
        }
    }

    proptest! {
        #[test]
        fn a_page_is_the_matching_slice_of_the_full_list(n in 4usize..=9, offset in 0u64..400, limit in 1usize..20) {
            let every = all(n);
            let page = solutions_from(n, offset, limit, u64::MAX).unwrap();
            let start = (offset as usize).min(every.len());
            let end = (start + limit).min(every.len());
            prop_assert_eq!(&page.solutions[..], &every[start..end]);
        }
    }
}
