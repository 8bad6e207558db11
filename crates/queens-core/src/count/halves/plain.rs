//! The plain search of one subproblem of the half-board engine, to recount it independently of
//! the listing and the join (`queens count --recount`, `queens merge --recount`): a row-by-row
//! backtracking over the whole board whose rows are restricted to the subproblem's columns.
//!
//! The idea: the upper half of a solution uses exactly the pattern columns `upper` iff its rows
//! avoid the other pattern columns and the lower half's rows avoid `upper` (every column holds
//! one queen), and row `N/2` is restricted to `first`. So the subproblem is the plain count of
//! the board with those per-row column masks: no halves listed, no groups, no table. Cost: the
//! search tree of the subproblem's solutions (several times the join's time); memory: a stack
//! of `N` words. It calls nothing; `plan.rs` weighs its count.

use std::sync::atomic::{AtomicBool, Ordering};

/// How many nodes between two looks at the cancel flag.
const CANCEL_EVERY: u64 = 1 << 16;

/// The number of solutions of the `n` x `n` board whose upper half (rows `0..n/2`) uses
/// exactly the columns `upper` among the pattern columns `cols`, and whose row `n/2` has its
/// queen on a column of `first`, by the plain search; `None` when `cancel` was raised.
pub fn plain_count_pattern(
    n: usize,
    cols: u32,
    upper: u32,
    first: u32,
    cancel: &AtomicBool,
) -> Option<u64> {
    assert!((1..=32).contains(&n));
    let full = u32::MAX >> (32 - n);
    let h = n / 2;
    // The columns each row may use.
    let allowed: Vec<u32> = (0..n)
        .map(|r| match r {
            r if r < h => full & !(cols & !upper),
            r if r == h => full & !upper & first,
            _ => full & !upper,
        })
        .collect();
    // The free squares left at each depth, and the diagonals.
    let mut free = vec![0u32; n];
    let (mut used, mut left, mut right) = (vec![0u32; n], vec![0u32; n], vec![0u32; n]);
    let mut found = 0u64;
    let mut nodes = 0u64;
    let mut row = 0usize;
    free[0] = allowed[0];
    loop {
        if free[row] == 0 {
            if row == 0 {
                return Some(found);
            }
            row -= 1;
            continue;
        }
        nodes += 1;
        if nodes.is_multiple_of(CANCEL_EVERY) && cancel.load(Ordering::Relaxed) {
            return None;
        }
        let bit = free[row] & free[row].wrapping_neg();
        free[row] &= !bit;
        if row + 1 == n {
            found += 1;
            continue;
        }
        let (u, l, r) = (
            used[row] | bit,
            (left[row] | bit) << 1,
            (right[row] | bit) >> 1,
        );
        row += 1;
        used[row] = u;
        left[row] = l;
        right[row] = r;
        free[row] = allowed[row] & !(u | l | r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_board_unrestricted_gives_the_known_totals() {
        let never = AtomicBool::new(false);
        for (n, total) in [(1, 1), (4, 2), (6, 4), (8, 92), (10, 724)] {
            let full = u32::MAX >> (32 - n);
            assert_eq!(plain_count_pattern(n, 0, 0, full, &never), Some(total));
        }
    }

    #[test]
    fn a_raised_flag_stops_the_search() {
        let cancel = AtomicBool::new(true);
        assert_eq!(plain_count_pattern(14, 0, 0, (1 << 14) - 1, &cancel), None);
    }
}
