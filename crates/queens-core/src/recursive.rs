//! Recursive backtracking, after Horowitz and Sahni (*Fundamentals of Computer Algorithms*,
//! 1978, algorithm NQUEENS with PLACE).
//!
//! `place(k, i)` tells whether row `k` may take column `i` by comparing it with each of rows
//! `0..k` (same column, or `|x[j] - i| == |j - k|`); the recursion tries every column of row `k`
//! and descends on each that fits. A test costs O(k), so a node costs O(N^2) in the worst case;
//! the tree is the plain backtracking tree.

use std::ops::ControlFlow;

/// Whether row `k` may hold a queen in column `i`, given the columns `x[..k]` of earlier rows.
pub fn place(x: &[usize], k: usize, i: usize) -> bool {
    x[..k]
        .iter()
        .enumerate()
        .all(|(j, &xj)| xj != i && xj.abs_diff(i) != k - j)
}

/// Visits every solution in lexicographic order.
pub fn for_each_solution(
    n: usize,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut x = vec![0usize; n];
    nqueens(&mut x, 0, visit)
}

fn nqueens(
    x: &mut [usize],
    k: usize,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = x.len();
    for i in 0..n {
        if place(x, k, i) {
            x[k] = i;
            if k + 1 == n {
                visit(x)?;
            } else {
                nqueens(x, k + 1, visit)?;
            }
        }
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn place_rejects_columns_and_diagonals() {
        let x = [1, 3, 0, 0];
        assert!(place(&x, 2, 0));
        assert!(!place(&x, 2, 2), "diagonal with row 1");
        assert!(!place(&x, 2, 1), "column of row 0");
        assert!(!place(&x, 2, 3), "column of row 1");
    }
}
