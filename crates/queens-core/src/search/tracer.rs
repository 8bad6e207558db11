//! The tracer interface: every step of a search, reported by the solver as it takes it.
//!
//! Each solver has a `for_each_solution_traced` variant, generic over a [`Tracer`] that it calls
//! at every step, in the order it performs them: it examines a square ([`EventKind::Try`]),
//! finds it attacked ([`EventKind::Conflict`]) or puts a queen on it ([`EventKind::Place`]),
//! takes a queen back ([`EventKind::Remove`]), moves back a row or column after exhausting one
//! ([`EventKind::Backtrack`]) and reaches a full board ([`EventKind::Solution`]); the
//! breadth-first search also reports its queue ([`EventKind::Enqueue`], [`EventKind::Dequeue`]).
//! The plain `for_each_solution` of every solver is the traced one with [`NoTrace`], whose empty
//! method is inlined, so the untraced search compiles to the same loop as before tracing existed
//! (the `trace_overhead` benchmark compares them).
//!
//! What the events mean, for every solver:
//! - `row` and `col` name the square on the board (row 0 at the top, column 0 at the left). The
//!   column-wise `backtrack` solver places the queen of column `c` in a row `r`, so its events
//!   name the square (`r`, `c`) too; its `backtrack` event names the column it leaves, the
//!   others name the row.
//! - The snapshot is the solver's board *after* the event: a `try` changes nothing, a `place`
//!   shows the new queen, a `remove` or `conflict` shows the square empty. Row-wise solvers give
//!   `positions[row] = column` ([`Axis::Row`]); the `backtrack` solver gives its own array
//!   `positions[column] = row` ([`Axis::Column`]), plus its first-untried array.
//! - A `try` is a square examined, so the depth-first solvers that scan a row square by square
//!   (`backtrack`, `iterative`, `recursive`, `wirth`) report the textbook counts: 876 tries and
//!   113 placements to the first 8x8 solution, 2056 placements for the whole search. `bitboard`
//!   and `bfs` compute a row's free squares with one mask operation and never examine an
//!   attacked square: their tries equal their placements and they report no conflicts.
//! - `bfs` puts a queen on a board by enqueueing the extended board; it never removes one and
//!   never backtracks.

use std::ops::ControlFlow;

use super::Algorithm;
use crate::board::Square;

/// The line along which an earlier queen attacks the square tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConflictLine {
    /// The same row (only the column-wise `backtrack` solver, which puts one queen per column).
    Row,
    /// The same column (the row-wise solvers, which put one queen per row).
    Column,
    /// The same diagonal, in either direction.
    Diagonal,
}

impl ConflictLine {
    /// `row`, `column` or `diagonal`.
    pub fn name(self) -> &'static str {
        match self {
            ConflictLine::Row => "row",
            ConflictLine::Column => "column",
            ConflictLine::Diagonal => "diagonal",
        }
    }
}

/// What happened at one step of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// A square is examined.
    Try,
    /// The square just tried is attacked by the queen on `with`, along `line`.
    Conflict {
        /// The attacking queen: the first one the solver's check finds.
        with: Square,
        /// The line the two squares share.
        line: ConflictLine,
    },
    /// A queen is put on the square.
    Place,
    /// The queen on the square is taken back (the undo of a placement).
    Remove,
    /// Every square of a row (or column) has been tried: the search moves back one.
    Backtrack,
    /// The board is full: a solution.
    Solution,
    /// A board joins the queue; `queue` is the queue's length afterwards.
    Enqueue {
        /// Boards waiting in the queue after this one joined.
        queue: usize,
    },
    /// A board leaves the queue; `queue` is the queue's length afterwards.
    Dequeue {
        /// Boards still waiting in the queue.
        queue: usize,
    },
}

impl EventKind {
    /// The event's name: `try`, `conflict`, `place`, `remove`, `backtrack`, `solution`,
    /// `enqueue` or `dequeue`.
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::Try => "try",
            EventKind::Conflict { .. } => "conflict",
            EventKind::Place => "place",
            EventKind::Remove => "remove",
            EventKind::Backtrack => "backtrack",
            EventKind::Solution => "solution",
            EventKind::Enqueue { .. } => "enqueue",
            EventKind::Dequeue { .. } => "dequeue",
        }
    }
}

/// How a positions array is indexed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Axis {
    /// `positions[row]` is the column of the queen in that row.
    Row,
    /// `positions[column]` is the row of the queen in that column (the `backtrack` solver).
    Column,
}

impl Axis {
    /// How `algorithm` indexes its positions array.
    pub fn of(algorithm: Algorithm) -> Axis {
        algorithm.info().axis
    }

    /// `row` or `column`.
    pub fn name(self) -> &'static str {
        match self {
            Axis::Row => "row",
            Axis::Column => "column",
        }
    }
}

/// A solver's board, borrowed as the solver holds it.
#[derive(Debug, Clone, Copy)]
pub enum Board<'a> {
    /// One entry per line, `-1` for an empty line.
    Signed(&'a [isize]),
    /// The first `filled` entries are queens; the rest of the `lines.len()` lines are empty
    /// whatever they hold.
    Prefix {
        /// One entry per line.
        lines: &'a [usize],
        /// How many leading entries hold queens.
        filled: usize,
    },
    /// A breadth-first state: the columns of the first `state.len()` rows of a board of `n`.
    Bytes {
        /// The columns of the filled rows.
        state: &'a [u8],
        /// The board size.
        n: usize,
    },
}

impl<'a> Board<'a> {
    /// The first `filled` of `lines` hold queens.
    #[inline(always)]
    pub fn prefix(lines: &'a [usize], filled: usize) -> Self {
        Board::Prefix { lines, filled }
    }

    /// The board size.
    pub fn size(&self) -> usize {
        match *self {
            Board::Signed(p) => p.len(),
            Board::Prefix { lines, .. } => lines.len(),
            Board::Bytes { n, .. } => n,
        }
    }

    /// Writes the positions array, `-1` for an empty line, into `out` (replacing its contents).
    pub fn write_positions(&self, out: &mut Vec<isize>) {
        out.clear();
        match *self {
            Board::Signed(p) => out.extend_from_slice(p),
            Board::Prefix { lines, filled } => {
                out.extend(lines[..filled].iter().map(|&c| c as isize));
                out.resize(lines.len(), -1);
            }
            Board::Bytes { state, n } => {
                out.extend(state.iter().map(|&c| isize::from(c)));
                out.resize(n, -1);
            }
        }
    }
}

/// One step as a solver reports it: borrowed from the solver's state, not yet numbered.
#[derive(Debug, Clone, Copy)]
pub struct Step<'a> {
    /// What happened.
    pub kind: EventKind,
    /// The row concerned, if any.
    pub row: Option<usize>,
    /// The column concerned, if any.
    pub col: Option<usize>,
    /// The board after the step.
    pub board: Board<'a>,
    /// The first-untried array after the step (the `backtrack` solver only).
    pub untried: Option<&'a [usize]>,
}

/// Watches a search step by step; returning `Break` stops the search.
pub trait Tracer {
    /// Whether the tracer looks at the steps at all. A solver may skip work that only serves to
    /// describe a step (such as finding which queen attacks a square) when this is `false`.
    const ACTIVE: bool = true;

    /// Called at every step, in the order the solver performs them.
    fn step(&mut self, step: &Step<'_>) -> ControlFlow<()>;
}

/// The tracer of untraced searches: it ignores every step, and compiles away.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTrace;

impl Tracer for NoTrace {
    const ACTIVE: bool = false;

    #[inline(always)]
    fn step(&mut self, _step: &Step<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// A solver's state that is its own snapshot: the board (and the first-untried array, if any)
/// every step it reports shows.
pub(crate) trait Snapshot {
    /// The board and the first-untried array as they stand.
    fn snapshot(&self) -> (Board<'_>, Option<&[usize]>);

    /// Reports a step with a snapshot of the state.
    #[inline(always)]
    fn report<T: Tracer>(
        &self,
        tracer: &mut T,
        kind: EventKind,
        row: Option<usize>,
        col: Option<usize>,
    ) -> ControlFlow<()> {
        let (board, untried) = self.snapshot();
        tracer.step(&Step {
            kind,
            row,
            col,
            board,
            untried,
        })
    }
}

/// Reports one step: the solvers' shorthand for building a [`Step`].
#[inline(always)]
pub(crate) fn emit<T: Tracer>(
    tracer: &mut T,
    kind: EventKind,
    row: Option<usize>,
    col: Option<usize>,
    board: Board<'_>,
) -> ControlFlow<()> {
    tracer.step(&Step {
        kind,
        row,
        col,
        board,
        untried: None,
    })
}

/// Reports that the search leaves row `row` of a row-wise solver, all its squares tried, the
/// queens of the rows above in `lines`: a backtrack, except from row 0, which has no row above.
#[inline(always)]
pub(crate) fn leave_row<T: Tracer>(tracer: &mut T, lines: &[usize], row: usize) -> ControlFlow<()> {
    if row > 0 {
        emit(
            tracer,
            EventKind::Backtrack,
            Some(row),
            None,
            Board::prefix(lines, row),
        )?;
    }
    ControlFlow::Continue(())
}

/// The first queen, in row order, that attacks (`row`, `col`), given the columns of the queens
/// of rows `0..row`, with the line they share: what a row-wise solver reports as a conflict.
pub(crate) fn first_attacker(
    columns: impl IntoIterator<Item = usize>,
    row: usize,
    col: usize,
) -> Option<(Square, ConflictLine)> {
    columns.into_iter().enumerate().find_map(|(r, c)| {
        let line = if c == col {
            ConflictLine::Column
        } else if c.abs_diff(col) == row - r {
            ConflictLine::Diagonal
        } else {
            return None;
        };
        Some((Square { row: r, col: c }, line))
    })
}
