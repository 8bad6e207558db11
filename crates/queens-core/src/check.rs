//! Checks whether a set of queens is a solution, and if not, names two queens that attack each
//! other.
//!
//! The check keeps one slot per row, column and diagonal holding the first queen seen on that
//! line, so it runs in O(N) time and O(N) memory instead of comparing every pair of queens.

use std::fmt;

/// A square of the board: its row (0 = top) and column (0 = left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// The row, 0-based from the top.
    pub row: usize,
    /// The column, 0-based from the left.
    pub col: usize,
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row, self.col)
    }
}

/// A line of the board along which queens attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Line {
    /// The same row.
    Row,
    /// The same column.
    Column,
    /// The same diagonal running down and to the right (`row - col` is constant).
    Diagonal,
    /// The same diagonal running down and to the left (`row + col` is constant).
    AntiDiagonal,
}

impl Line {
    /// A short name: `row`, `column`, `diagonal` or `anti-diagonal`.
    pub fn name(self) -> &'static str {
        match self {
            Line::Row => "row",
            Line::Column => "column",
            Line::Diagonal => "diagonal",
            Line::AntiDiagonal => "anti-diagonal",
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a set of queens is not a solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flaw {
    /// Two queens attack each other along a line; `first` comes before `second` in reading order
    /// of the input.
    Attack {
        /// The queen seen first on the line.
        first: Square,
        /// The queen that found the line taken.
        second: Square,
        /// The line the two share.
        line: Line,
    },
    /// No two queens attack each other, but a row has no queen, so there are fewer than N.
    EmptyRow(usize),
}

impl fmt::Display for Flaw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Flaw::Attack {
                first,
                second,
                line,
            } => {
                let article = if *line == Line::AntiDiagonal {
                    "an"
                } else {
                    "a"
                };
                write!(
                    f,
                    "the queens at {first} and {second} share {article} {line}"
                )
            }
            Flaw::EmptyRow(row) => write!(f, "row {row} has no queen"),
        }
    }
}

/// Checks a placement (the column of the queen in each row) and returns the first flaw, or
/// `None` when it is a solution. Every column must be smaller than `queens.len()`.
///
/// # Example
/// ```
/// use queens_core::{find_flaw, Flaw, Line, Square};
/// assert_eq!(find_flaw(&[1, 3, 0, 2]), None);
/// assert_eq!(
///     find_flaw(&[0, 1, 3, 2]),
///     Some(Flaw::Attack {
///         first: Square { row: 0, col: 0 },
///         second: Square { row: 1, col: 1 },
///         line: Line::Diagonal,
///     })
/// );
/// ```
pub fn find_flaw(queens: &[usize]) -> Option<Flaw> {
    let n = queens.len();
    find_flaw_in_squares(
        n,
        queens
            .iter()
            .enumerate()
            .map(|(row, &col)| Square { row, col }),
    )
}

/// Checks any set of squares on an `n` x `n` board (for example read from a drawn board, where
/// a row may hold several queens or none) and returns the first flaw, or `None` when the
/// squares are exactly a solution. Squares must lie on the board.
pub fn find_flaw_in_squares(n: usize, squares: impl IntoIterator<Item = Square>) -> Option<Flaw> {
    const EMPTY: usize = usize::MAX;
    let mut rows = vec![EMPTY; n];
    let mut cols = vec![EMPTY; n];
    let mut diag = vec![EMPTY; 2 * n];
    let mut anti = vec![EMPTY; 2 * n];
    let mut seen: Vec<Square> = Vec::new();
    for sq in squares {
        debug_assert!(sq.row < n && sq.col < n, "square off the board");
        let idx = seen.len();
        let slots = [
            (&mut rows[sq.row], Line::Row),
            (&mut cols[sq.col], Line::Column),
            (&mut diag[sq.row + n - sq.col], Line::Diagonal),
            (&mut anti[sq.row + sq.col], Line::AntiDiagonal),
        ];
        for (slot, line) in slots {
            if *slot != EMPTY {
                return Some(Flaw::Attack {
                    first: seen[*slot],
                    second: sq,
                    line,
                });
            }
            *slot = idx;
        }
        seen.push(sq);
    }
    rows.iter().position(|&r| r == EMPTY).map(Flaw::EmptyRow)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(row: usize, col: usize) -> Square {
        Square { row, col }
    }

    #[test]
    fn accepts_the_first_solution_of_eight() {
        assert_eq!(find_flaw(&[0, 4, 7, 5, 2, 6, 1, 3]), None);
    }

    #[test]
    fn names_a_shared_column() {
        assert_eq!(
            find_flaw(&[0, 4, 7, 5, 2, 6, 1, 0]),
            Some(Flaw::Attack {
                first: sq(0, 0),
                second: sq(7, 0),
                line: Line::Column
            })
        );
    }

    #[test]
    fn names_a_shared_anti_diagonal() {
        assert_eq!(
            find_flaw(&[2, 1, 3]),
            Some(Flaw::Attack {
                first: sq(0, 2),
                second: sq(1, 1),
                line: Line::AntiDiagonal
            })
        );
    }

    #[test]
    fn names_a_shared_row_and_an_empty_row_on_boards() {
        assert_eq!(
            find_flaw_in_squares(4, [sq(0, 1), sq(0, 3)]),
            Some(Flaw::Attack {
                first: sq(0, 1),
                second: sq(0, 3),
                line: Line::Row
            })
        );
        assert_eq!(
            find_flaw_in_squares(4, [sq(0, 1), sq(1, 3), sq(3, 2)]),
            Some(Flaw::EmptyRow(2))
        );
    }

    #[test]
    fn the_single_queen_is_a_solution() {
        assert_eq!(find_flaw(&[0]), None);
    }
}
