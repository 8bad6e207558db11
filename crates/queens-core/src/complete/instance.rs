//! A completion problem and its answers: the board and its given queens ([`Instance`]), what
//! "complete this board" and "how many completions" answer ([`Completion`], [`Counted`], and
//! [`CountEnd`] for a count that may be stopped), the largest board and the default memory
//! budget, and the checks of the given queens (on the board, distinct, and the first two that
//! attack each other) that every search runs first.

use super::error::InstanceError;
use crate::board::{Flaw, Line, Square};
use crate::error::SizeError;

/// The largest board a completion is searched on: columns are kept as `u32` by the local search.
pub const MAX_N: usize = u32::MAX as usize;

/// The default memory budget of [`Instance::solve`] and [`Instance::count`]: 1 GiB.
pub const DEFAULT_BUDGET: u64 = 1 << 30;

/// A completion problem: a board size and the queens already on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The board size.
    pub n: usize,
    /// The given queens, in the order given.
    pub fixed: Vec<Square>,
}

/// The answer to "complete this board".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// A solution containing every given queen: the column of the queen in each row.
    Found(Vec<usize>),
    /// Two given queens attack each other, so nothing completes them.
    GivenQueensAttack(Flaw),
    /// The given queens are peaceful, but no solution contains them all.
    Impossible,
}

/// The answer to "how many completions".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Counted {
    /// The number of solutions containing every given queen.
    Completions(u64),
    /// Two given queens attack each other (so there are no completions).
    GivenQueensAttack(Flaw),
}

/// How a count that may be stopped ended ([`Instance::count_within_until`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CountEnd {
    /// The count ran to its end: the answer.
    Finished(Counted),
    /// It was told to stop first: the completions found by then, so the count is at least
    /// `found`.
    Stopped {
        /// The completions found before the stop.
        found: u64,
    },
}

impl Instance {
    /// Checks that the queens are on the board and distinct, then names the first two given
    /// queens that attack each other, if any: the first queen, in the order given, that shares
    /// a line with an earlier one, its lines tried in the order row, column, diagonal,
    /// anti-diagonal, and the first queen on that line. O(k log k) time for k given queens and
    /// 8 k bytes (their order, sorted by each line in turn), so that a file of millions of
    /// given queens is checked in memory proportional to it.
    pub(super) fn check(&self) -> Result<Option<Flaw>, InstanceError> {
        /// What orders the queens: their square, or the line of one kind they are on.
        type Key<'a> = &'a dyn Fn(Square) -> (usize, usize);
        let n = self.n;
        SizeError::check(n, "the completion search", MAX_N)?;
        let fixed = &self.fixed;
        if let Some(&square) = fixed.iter().find(|q| q.row >= n || q.col >= n) {
            return Err(InstanceError::OffBoard { square, n });
        }
        let mut order: Vec<usize> = (0..fixed.len()).collect();
        // Each queen after the first of its group of equal keys, with the first: the earliest
        // such queen of all.
        let mut earliest_repeat = |key: Key| {
            order.sort_unstable_by_key(|&i| (key(fixed[i]), i));
            order
                .windows(2)
                .filter(|pair| key(fixed[pair[0]]) == key(fixed[pair[1]]))
                .map(|pair| pair[1])
                .min()
                .map(|later| {
                    let k = key(fixed[later]);
                    let first = order[order.partition_point(|&i| key(fixed[i]) < k)];
                    (later, first)
                })
        };
        if let Some((later, _)) = earliest_repeat(&|q| (q.row, q.col)) {
            return Err(InstanceError::Duplicate(fixed[later]));
        }
        let lines: [(Line, Key); 4] = [
            (Line::Row, &|q| (q.row, 0)),
            (Line::Column, &|q| (q.col, 0)),
            (Line::Diagonal, &|q| (q.row + n - q.col, 0)),
            (Line::AntiDiagonal, &|q| (q.row + q.col, 0)),
        ];
        let mut attack: Option<(usize, usize, Line, usize)> = None;
        for (rank, (line, key)) in lines.into_iter().enumerate() {
            if let Some((later, first)) = earliest_repeat(key) {
                if attack.is_none_or(|(l, r, _, _)| (later, rank) < (l, r)) {
                    attack = Some((later, rank, line, first));
                }
            }
        }
        Ok(attack.map(|(later, _, line, first)| Flaw::Attack {
            first: fixed[first],
            second: fixed[later],
            line,
        }))
    }

    /// How many rows have no given queen: the size of the problem left to search (a given
    /// queen off the board, which solving refuses, takes no row).
    pub fn free_rows(&self) -> usize {
        let mut rows: Vec<usize> = self
            .fixed
            .iter()
            .map(|q| q.row)
            .filter(|&r| r < self.n)
            .collect();
        rows.sort_unstable();
        rows.dedup();
        self.n - rows.len()
    }
}
