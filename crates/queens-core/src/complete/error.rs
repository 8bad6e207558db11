//! Why a completion instance cannot be searched ([`InstanceError`]), as opposed to having no
//! completion, which is an answer ([`Completion::Impossible`](super::Completion::Impossible)).

use thiserror::Error;

use crate::board::Square;
use crate::error::SizeError;

/// Why an instance cannot be searched (as opposed to having no completion).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InstanceError {
    /// The board size was zero.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// A given queen is not on the board.
    #[error("the queen at {square} is off the {n}x{n} board (rows and columns are 0 to {max})", max = n - 1)]
    OffBoard {
        /// The queen.
        square: Square,
        /// The board size.
        n: usize,
    },
    /// The same square is given twice.
    #[error("the queen at {0} is given twice")]
    Duplicate(Square),
    /// The search would need more memory than the budget allows.
    #[error(transparent)]
    Budget(#[from] crate::Error),
    /// Too many rows are free for the exact search.
    #[error("{free} rows are free; the exact completion search handles up to {max}")]
    TooManyFree {
        /// The free rows.
        free: usize,
        /// The limit, [`MAX_FREE`](super::MAX_FREE).
        max: usize,
    },
}
