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
    #[error("the queen at {square} is off the {n}x{n} board ({})", lines_of(*n))]
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

/// The rows and columns of the `n` x `n` board, in words: none when `n` is 0.
fn lines_of(n: usize) -> String {
    match n.checked_sub(1) {
        Some(max) => format!("rows and columns are 0 to {max}"),
        None => "it has no rows or columns".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queen_off_any_board_is_named_even_on_the_empty_one() {
        let square = Square { row: 0, col: 0 };
        assert_eq!(
            InstanceError::OffBoard { square, n: 0 }.to_string(),
            "the queen at row 0, column 0 is off the 0x0 board (it has no rows or columns)"
        );
        let square = Square { row: 8, col: 1 };
        assert_eq!(
            InstanceError::OffBoard { square, n: 8 }.to_string(),
            "the queen at row 8, column 1 is off the 8x8 board (rows and columns are 0 to 7)"
        );
    }
}
