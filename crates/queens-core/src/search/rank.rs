//! Solutions by rank: solutions K..K+L-1 in lexicographic order, without holding the K before
//! them.
//!
//! The lexicographic order of the solutions is the depth-first order of the search tree whose
//! children are tried by increasing column. The walk goes down that tree with the bitmask
//! search (as in the `bitboard` solver), counting solutions off instead of visiting them until
//! K are skipped, then collects the next L. At the root it skips whole subtrees by counting:
//! the subtree under a first queen in column c is the mirror image of the one under column
//! N-1-c, so once the left half of the board is counted, every right-half subtree that lies
//! before solution K is skipped without a step. (Counting a subtree costs as much as walking it,
//! so nothing is gained by counting a subtree the walk has not yet seen.) Solutions are never
//! held, so memory is O(N + L); the time is that of the nodes before solution K, at most half
//! the tree for K in the second half of the list, plus the nodes up to solution K+L-1.
//! "Unranking by counting" is the classic method of combinatorial generation (Kreher and
//! Stinson, *Combinatorial Algorithms*, 1999, ch. 2). A step budget bounds the work, so that a
//! caller (a web server) can refuse offsets that would take too long.

use super::bitboard::{count_nodes, full_mask};
use crate::error::SizeError;

/// The widest board: one bit of a `u64` per column.
pub const MAX_N: usize = 64;

/// Why a ranked walk stopped without an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RankError {
    /// The board size is 0 or above [`MAX_N`].
    #[error(transparent)]
    Size(#[from] SizeError),
    /// The walk needed more search steps (nodes of the tree) than its budget.
    #[error("reaching that solution needs more than {0} search steps")]
    OverBudget(u64),
    /// The walk reached the solution at the offset, but filling the page needed more search
    /// steps than its budget: `found` of its solutions (one at least) were listed.
    #[error(
        "listing the page needs more than {budget} search steps (the solution at the offset was \
         reached, and {found} of the page found)"
    )]
    PageOverBudget {
        /// The budget.
        budget: u64,
        /// The solutions of the page listed when the budget ran out.
        found: usize,
    },
}

/// What a ranked walk found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// Solutions `offset`, `offset + 1`, ... in lexicographic order: at most `limit` of them,
    /// fewer at the end of the list, none when `offset` is past the last solution.
    pub solutions: Vec<Vec<usize>>,
    /// The number of solutions of the board, when the walk happened to learn it: when it ran
    /// past the last solution before the page was full (`offset` past the last solution, or
    /// fewer than `limit` solutions from it on). A page that ends exactly at the last solution
    /// stops there, not knowing it is the last: `None`, as for any full page.
    pub total: Option<u64>,
}

/// The step budget ran out (a zero-sized error, so results stay in registers).
struct Exhausted;

/// Takes one step from the budget.
#[inline(always)]
fn step(steps: &mut u64) -> Result<(), Exhausted> {
    if *steps == 0 {
        return Err(Exhausted);
    }
    *steps -= 1;
    Ok(())
}

struct Walk {
    full: u64,
    queens: Vec<usize>,
    skip: u64,
    limit: usize,
    found: Vec<Vec<usize>>,
    steps: u64,
}

impl Walk {
    /// The root: its subtrees are walked in order, except that a subtree whose mirror image
    /// (first queen in column N-1-c instead of c) has already been counted is skipped whole.
    /// Returns `true` once the page is full.
    fn root(&mut self) -> Result<bool, Exhausted> {
        let n = self.queens.len();
        let mut counted: Vec<Option<u64>> = vec![None; n];
        for c in 0..n {
            if self.skip > 0 {
                if let Some(below) = counted[n - 1 - c] {
                    if self.skip >= below {
                        self.skip -= below;
                        continue;
                    }
                }
            }
            let before = self.skip;
            let bit = 1u64 << c;
            self.queens[0] = c;
            if self.descend(1, bit, bit << 1, bit >> 1)? {
                return Ok(true);
            }
            if self.found.is_empty() {
                // The whole subtree was skipped: its solutions are what it took off the skip.
                counted[c] = Some(before - self.skip);
            }
        }
        Ok(false)
    }

    /// Walks the subtree of a node in depth-first order, counting off the solutions still to
    /// skip and collecting the rest. Returns `true` once the page is full.
    fn descend(
        &mut self,
        row: usize,
        cols: u64,
        down_right: u64,
        down_left: u64,
    ) -> Result<bool, Exhausted> {
        step(&mut self.steps)?;
        if row == self.queens.len() {
            if self.skip > 0 {
                self.skip -= 1;
                return Ok(false);
            }
            self.found.push(self.queens.clone());
            return Ok(self.found.len() == self.limit);
        }
        let mut free = self.full & !(cols | down_right | down_left);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.queens[row] = bit.trailing_zeros() as usize;
            if self.descend(
                row + 1,
                cols | bit,
                (down_right | bit) << 1,
                (down_left | bit) >> 1,
            )? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Solutions `offset .. offset + limit` (0-based, lexicographic order) of the `n` x `n` board,
/// using at most `budget` search steps.
///
/// # Example
/// ```
/// use queens_core::search::rank::solutions_from;
/// let page = solutions_from(8, 1, 2, u64::MAX).unwrap();
/// assert_eq!(page.solutions, [[0, 5, 7, 2, 6, 3, 1, 4], [0, 6, 3, 5, 7, 1, 4, 2]]);
/// let past = solutions_from(8, 92, 1, u64::MAX).unwrap();
/// assert!(past.solutions.is_empty());
/// assert_eq!(past.total, Some(92));
/// ```
pub fn solutions_from(n: usize, offset: u64, limit: usize, budget: u64) -> Result<Page, RankError> {
    SizeError::check(n, "ranking", MAX_N)?;
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
        steps: budget,
    };
    let full_page = walk.root().map_err(|Exhausted| match walk.found.len() {
        0 => RankError::OverBudget(budget),
        found => RankError::PageOverBudget { budget, found },
    })?;
    // A walk that ran to the end without filling the page has seen every solution: the skipped
    // ones, minus what was left to skip, plus the ones it found.
    let total = (!full_page).then(|| offset - walk.skip + walk.found.len() as u64);
    Ok(Page {
        solutions: walk.found,
        total,
    })
}

/// The number of solutions of the `n` x `n` board, counted with at most `budget` search steps.
pub fn count(n: usize, budget: u64) -> Result<u64, RankError> {
    SizeError::check(n, "ranking", MAX_N)?;
    let mut steps = budget;
    // One step per node: the bitmask counter of `bitboard::count` with a budget.
    count_nodes(full_mask(n), 0, 0, 0, &mut || step(&mut steps))
        .map_err(|Exhausted| RankError::OverBudget(budget))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{bitboard, every_solution};
    use proptest::prelude::*;
    use std::ops::ControlFlow;

    #[test]
    fn every_offset_of_small_boards_matches_the_enumeration() {
        for n in 1..=9 {
            let every = every_solution(n);
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
        // The last two, on a page of two and on a page of three.
        assert_eq!(solutions_from(8, 90, 2, u64::MAX).unwrap().total, None);
        assert_eq!(solutions_from(8, 90, 3, u64::MAX).unwrap().total, Some(92));
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
            assert!(crate::board::find_flaw(q).is_none());
        }
    }

    #[test]
    fn a_small_offset_of_a_big_board_costs_about_as_much_as_listing() {
        // Counting every solution below the first queen of 29x29 is far out of reach; listing
        // the first few is not, and the walk must not pay more than that.
        let page = solutions_from(29, 3, 2, 20_000_000).unwrap();
        let mut expected = Vec::new();
        let mut seen = 0;
        let _ = bitboard::for_each_solution(29, &mut |q| {
            seen += 1;
            if seen > 3 {
                expected.push(q.to_vec());
            }
            if seen == 5 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(page.solutions, expected);
    }

    #[test]
    fn the_second_half_of_the_list_costs_at_most_about_half_the_tree() {
        // The whole 12x12 tree has 856,189 nodes (`count` takes one step per node); the last
        // solution is reached by counting the left half and skipping its mirror image, in
        // 488,923 steps.
        assert!(count(12, 856_188).is_err() && count(12, 856_189).is_ok());
        let last = solutions_from(12, 14_199, 2, 520_000).unwrap();
        assert_eq!(last.solutions.len(), 1);
        assert_eq!(last.total, Some(14_200));
        assert!(solutions_from(12, 14_199, 1, 400_000).is_err());
    }

    #[test]
    fn refuses_walks_over_budget_and_bad_sizes() {
        assert_eq!(
            solutions_from(14, 300_000, 1, 1000),
            Err(RankError::OverBudget(1000))
        );
        assert_eq!(count(12, 10), Err(RankError::OverBudget(10)));
        // The offset reached, the page not filled: which of the two ran out is told apart.
        let budget = (10..40)
            .map(|k| 1u64 << k)
            .find(|&b| solutions_from(32, 0, 2, b).is_ok())
            .unwrap();
        assert_eq!(
            solutions_from(32, 0, 1, budget / 4),
            Err(RankError::OverBudget(budget / 4))
        );
        match solutions_from(32, 0, 1000, budget) {
            Err(RankError::PageOverBudget { budget: b, found }) => {
                assert_eq!(b, budget);
                assert!((2..1000).contains(&found), "{found}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            solutions_from(0, 0, 1, 10),
            Err(RankError::Size(SizeError {
                n: 0,
                what: "ranking",
                max: 64
            }))
        );
        assert_eq!(
            count(65, 10),
            Err(RankError::Size(SizeError {
                n: 65,
                what: "ranking",
                max: 64
            }))
        );
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
            let every = every_solution(n);
            let page = solutions_from(n, offset, limit, u64::MAX).unwrap();
            let start = (offset as usize).min(every.len());
            let end = (start + limit).min(every.len());
            prop_assert_eq!(&page.solutions[..], &every[start..end]);
        }
    }
}
