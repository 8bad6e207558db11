//! Depth-first search on bitmasks: the fast default solver.
//!
//! The columns and the two diagonal directions taken by the queens of the rows above are kept as
//! bits of three machine words; shifting the diagonal words by one per row moves each attack to
//! the squares it covers in the next row, so the free squares of a row are one `!(a | b | c)`.
//! The idea is folklore of the 1970s chess-programming community, popularised by Martin
//! Richards' bit-pattern programs (in BCPL, and in his report "Backtracking Algorithms in MCPL
//! using Bit Patterns and Recursion", 1997). Each node costs a handful of instructions; the tree
//! is the same as plain backtracking, so the cost is still exponential in N (about N!/c^N
//! nodes).

use std::convert::Infallible;
use std::ops::ControlFlow;

use super::solver::{Job, Searched, SolverInfo, Visit};
use super::tracer::{emit, leave_row, Axis, Board, EventKind, NoTrace, Tracer};

/// The widest board: one bit of a `u64` per column.
pub const MAX_N: usize = 64;

/// This solver's facts, for the table in `search/mod.rs`.
pub(crate) const INFO: SolverInfo = SolverInfo {
    name: "bitboard",
    summary: "Depth-first search on bitmasks (fast; N up to 64)",
    label: "bitboard (bitmasks)",
    source: "Martin Richards' bitwise method (BCPL; MCPL report, 1997)",
    what: "the bitboard algorithm",
    max_n: MAX_N,
    axis: Axis::Row,
    // queens
    row_words: 1,
    row_bytes: 0,
    snapshot_words: 1,
    quick_max_n: 32,
    speed_rank: 10,
};

/// The search as the table in `search/mod.rs` calls it (its memory is known before it starts).
pub(crate) fn search<T: Tracer>(job: Job, tracer: &mut T, visit: Visit<'_>) -> Searched {
    Ok(for_each_solution_traced(job.n, tracer, visit))
}

/// The bits of the `n` columns of a board.
pub(crate) fn full_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Visits every solution in lexicographic order; `n` must be 1..=64.
pub fn for_each_solution(
    n: usize,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for_each_solution_traced(n, &mut NoTrace, visit)
}

/// Visits every solution in lexicographic order, reporting every step to `tracer`; stops when
/// `visit` or the tracer breaks; `n` must be 1..=64. A row's free squares come out of one mask,
/// so the search tries only free squares: it reports no conflicts.
pub fn for_each_solution_traced<T: Tracer>(
    n: usize,
    tracer: &mut T,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    debug_assert!((1..=MAX_N).contains(&n));
    let mut queens = vec![0usize; n];
    descend(full_mask(n), 0, 0, 0, 0, &mut queens, tracer, visit)
}

#[allow(clippy::too_many_arguments)]
fn descend<T: Tracer>(
    full: u64,
    row: usize,
    cols: u64,
    down_right: u64,
    down_left: u64,
    queens: &mut [usize],
    tracer: &mut T,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if row == queens.len() {
        emit(
            tracer,
            EventKind::Solution,
            None,
            None,
            Board::prefix(queens, row),
        )?;
        return visit(queens);
    }
    let mut free = full & !(cols | down_right | down_left);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let col = bit.trailing_zeros() as usize;
        emit(
            tracer,
            EventKind::Try,
            Some(row),
            Some(col),
            Board::prefix(queens, row),
        )?;
        queens[row] = col;
        emit(
            tracer,
            EventKind::Place,
            Some(row),
            Some(col),
            Board::prefix(queens, row + 1),
        )?;
        descend(
            full,
            row + 1,
            cols | bit,
            (down_right | bit) << 1,
            (down_left | bit) >> 1,
            queens,
            tracer,
            visit,
        )?;
        emit(
            tracer,
            EventKind::Remove,
            Some(row),
            Some(col),
            Board::prefix(queens, row),
        )?;
    }
    leave_row(tracer, queens, row)
}

/// Counts every solution with the plain bitmask search, one thread, no symmetry: the baseline
/// the counting engine is measured against.
pub fn count(n: usize) -> u64 {
    debug_assert!((1..=MAX_N).contains(&n));
    count_below(full_mask(n), 0, 0, 0)
}

/// The solutions below a node of the bitmask search: `full` has a bit per column of the board,
/// `cols`, `down_right` and `down_left` the squares of the node's row that the queens above take.
pub fn count_below(full: u64, cols: u64, down_right: u64, down_left: u64) -> u64 {
    let Ok(total) = count_nodes(full, cols, down_right, down_left, &mut || {
        Ok::<(), Infallible>(())
    });
    total
}

/// [`count_below`], calling `on_node` first at every node it visits: an error of `on_node` (a
/// budget run out) ends the count with that error.
pub(crate) fn count_nodes<E>(
    full: u64,
    cols: u64,
    down_right: u64,
    down_left: u64,
    on_node: &mut impl FnMut() -> Result<(), E>,
) -> Result<u64, E> {
    on_node()?;
    if cols == full {
        return Ok(1);
    }
    let mut free = full & !(cols | down_right | down_left);
    let mut total = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        total += count_nodes(
            full,
            cols | bit,
            (down_right | bit) << 1,
            (down_left | bit) >> 1,
            on_node,
        )?;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mask_covers_exactly_n_columns_up_to_sixty_four() {
        assert_eq!(full_mask(64), u64::MAX);
        assert_eq!(full_mask(63), u64::MAX >> 1);
        assert_eq!(full_mask(5), 0b11111);
    }

    #[test]
    fn counts_match_enumeration() {
        for n in 1..=9 {
            let mut listed = 0;
            let _ = for_each_solution(n, &mut |_| {
                listed += 1;
                ControlFlow::Continue(())
            });
            assert_eq!(count(n), listed, "n = {n}");
        }
    }
}
