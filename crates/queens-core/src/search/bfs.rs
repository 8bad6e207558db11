//! Breadth-first search over partial boards, level by level, as in the classic article that
//! lists all solutions with a queue of partial boards.
//!
//! Level `k` holds every placement of the first `k` rows in which no two queens attack each
//! other; level `k + 1` is made by appending each free column of row `k` to each state of level
//! `k`, in order, so the last level holds all solutions in lexicographic order. The queue is two
//! flat byte arenas (the current level and the next), `k` bytes per state, instead of a cloned
//! integer array per state.
//!
//! Cost: time is the size of the whole tree times O(N); memory is the two widest adjacent levels,
//! which grows exponentially: about 0.9 GB for N = 15, 6.4 GB for N = 16 and 48 GB for N = 17
//! (levels 13 and 14, 1.8 and 1.7 billion boards). Before building a level the search counts it,
//! and refuses with [`Error::MemoryBudget`] if the two levels would exceed the budget.

use std::ops::ControlFlow;

use super::solver::{Job, Searched, SolverInfo, Visit};
use super::tracer::{emit, Axis, Board, EventKind, Tracer};
use crate::error::Error;

/// The widest board: a state's free columns are computed as a `u64` mask.
pub const MAX_N: usize = 64;

/// This solver's facts, for the table in `search/mod.rs`.
pub(crate) const INFO: SolverInfo = SolverInfo {
    name: "bfs",
    summary: "Breadth-first search over partial boards (bounded by the memory budget)",
    label: "bfs (breadth-first)",
    source: "the classic article that lists all solutions with a queue of partial boards",
    what: "the bfs algorithm",
    max_n: MAX_N,
    axis: Axis::Row,
    // the solution handed out (its levels are checked against the budget as they are built)
    row_words: 1,
    row_bytes: 0,
    snapshot_words: 1,
    quick_max_n: 12,
    speed_rank: 60,
};

/// The search as the table in `search/mod.rs` calls it, within the job's budget.
pub(crate) fn search<T: Tracer>(job: Job, tracer: &mut T, visit: Visit<'_>) -> Searched {
    for_each_solution_traced(job.n, job.budget, tracer, visit)
}

/// The columns of row `state.len()` that no queen of `state` attacks, as a bit mask.
fn free_columns(n: usize, state: &[u8]) -> u64 {
    let full = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let row = state.len();
    let mut taken = 0u64;
    for (r, &c) in state.iter().enumerate() {
        let c = c as usize;
        let d = row - r;
        taken |= 1 << c;
        if c + d < n {
            taken |= 1 << (c + d);
        }
        if c >= d {
            taken |= 1 << (c - d);
        }
    }
    full & !taken
}

#[cfg(test)]
/// Visits every solution in lexicographic order, after building every level of the search
/// within `budget` bytes.
pub fn for_each_solution(
    n: usize,
    budget: u64,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, Error> {
    for_each_solution_traced(n, budget, &mut super::NoTrace, visit)
}

/// Visits every solution in lexicographic order, after building every level of the search
/// within `budget` bytes, reporting every step to `tracer`; stops when `visit` or the tracer
/// breaks.
///
/// The two levels are one first-in first-out queue: the boards left in the current level, then
/// those already made for the next. The trace enqueues the empty board, then dequeues each board
/// in turn, tries each free square of its next row (only free ones: they come from one mask) and
/// enqueues the board extended by a queen there; a full board dequeued is a solution.
pub fn for_each_solution_traced<T: Tracer>(
    n: usize,
    budget: u64,
    tracer: &mut T,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, Error> {
    debug_assert!((1..=MAX_N).contains(&n));
    macro_rules! report {
        ($kind:expr, $row:expr, $col:expr, $state:expr) => {
            let board = Board::Bytes { state: $state, n };
            if emit(tracer, $kind, $row, $col, board).is_break() {
                return Ok(ControlFlow::Break(()));
            }
        };
    }
    let mut level: Vec<u8> = Vec::new();
    let mut states: u64 = 1; // level 0: the empty board
    report!(EventKind::Enqueue { queue: 1 }, None, None, &[]);
    for k in 0..n {
        let next_states: u64 = level_states(&level, k, states)
            .map(|s| u64::from(free_columns(n, s).count_ones()))
            .sum();
        let needed = states * k as u64 + next_states * (k as u64 + 1);
        let refuse = || Error::MemoryBudget {
            n,
            level: k + 1,
            states: next_states,
            needed,
            budget,
        };
        if needed > budget {
            return Err(refuse());
        }
        let mut next = Vec::new();
        next.try_reserve_exact((next_states * (k as u64 + 1)) as usize)
            .map_err(|_| refuse())?;
        let mut waiting = states as usize;
        for state in level_states(&level, k, states) {
            waiting -= 1;
            report!(EventKind::Dequeue { queue: waiting }, Some(k), None, state);
            let mut free = free_columns(n, state);
            while free != 0 {
                let col = free.trailing_zeros() as u8;
                free &= free - 1;
                report!(EventKind::Try, Some(k), Some(col.into()), state);
                next.extend_from_slice(state);
                next.push(col);
                waiting += 1;
                if T::ACTIVE {
                    // Slicing out the new board costs a bounds check: only when traced.
                    let made = &next[next.len() - (k + 1)..];
                    let enqueue = EventKind::Enqueue { queue: waiting };
                    report!(enqueue, Some(k), Some(col.into()), made);
                }
            }
        }
        level = next;
        states = next_states;
    }
    let mut solution = vec![0usize; n];
    let mut waiting = states as usize;
    for state in level_states(&level, n, states) {
        waiting -= 1;
        report!(EventKind::Dequeue { queue: waiting }, None, None, state);
        report!(EventKind::Solution, None, None, state);
        for (slot, &c) in solution.iter_mut().zip(state) {
            *slot = c as usize;
        }
        if visit(&solution).is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// The states of a level of width `width`; level 0 holds one empty state.
fn level_states(level: &[u8], width: usize, states: u64) -> impl Iterator<Item = &[u8]> {
    (0..states as usize).map(move |i| &level[i * width..(i + 1) * width])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_columns_excludes_columns_and_diagonals() {
        assert_eq!(free_columns(4, &[]), 0b1111);
        assert_eq!(free_columns(4, &[1]), 0b1000);
        assert_eq!(free_columns(4, &[1, 3]), 0b0001);
    }

    #[test]
    fn refuses_before_exceeding_the_budget() {
        let err = for_each_solution(10, 10_000, &mut |_| ControlFlow::Continue(())).unwrap_err();
        match err {
            Error::MemoryBudget { needed, budget, .. } => {
                assert!(needed > budget);
                assert_eq!(budget, 10_000);
            }
            other => panic!("unexpected error {other:?}"),
        }
    }

    #[test]
    fn a_budget_large_enough_lists_everything() {
        let mut count = 0;
        let _ = for_each_solution(8, 100_000, &mut |_| {
            count += 1;
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(count, 92);
    }
}
