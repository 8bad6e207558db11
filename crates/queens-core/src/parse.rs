//! Reads placements written as `positions` lines or drawn as `board` blocks.
//!
//! A positions line is the 0-based columns of the queens of rows 0, 1, ... separated by white
//! space: `0 4 7 5 2 6 1 3`. A board block is N consecutive lines of N characters, `Q` for a
//! queen and `.` for an empty square, row 0 first. Blank lines separate entries and lines
//! starting with `#` are comments; the two forms may be mixed in one input.

use thiserror::Error;

use crate::check::Square;

/// One placement read from the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A positions line: the column of the queen in each row.
    Positions(Vec<usize>),
    /// A drawn board: its size and the squares that hold a queen, in reading order.
    Board {
        /// The board size.
        n: usize,
        /// The queens, row by row, left to right.
        queens: Vec<Square>,
    },
}

impl Entry {
    /// The board size.
    pub fn size(&self) -> usize {
        match self {
            Entry::Positions(p) => p.len(),
            Entry::Board { n, .. } => *n,
        }
    }
}

/// An entry with the line it starts on (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The 1-based line number of the entry's first line.
    pub line: usize,
    /// The entry.
    pub entry: Entry,
}

/// Why the input could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// A line is neither a positions line nor a board row.
    #[error("line {line}: '{text}' is neither a positions line (columns separated by spaces) nor a board row (Q and .)")]
    Unrecognised {
        /// The 1-based line number.
        line: usize,
        /// The offending text, shortened.
        text: String,
    },
    /// A column is not smaller than the board size.
    #[error("line {line}: column {col} of row {row} is off the board (columns are 0 to {max})")]
    ColumnOutOfRange {
        /// The 1-based line number.
        line: usize,
        /// The row whose column is bad.
        row: usize,
        /// The column given.
        col: usize,
        /// The largest valid column.
        max: usize,
    },
    /// A board block is not square, or its rows differ in length.
    #[error("line {line}: {message}")]
    BadBoard {
        /// The 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(MAX).collect::<String>())
    }
}

fn is_board_row(line: &str) -> bool {
    !line.is_empty() && line.chars().all(|c| c == 'Q' || c == '.')
}

fn parse_positions(line_no: usize, line: &str) -> Result<Vec<usize>, ParseError> {
    let cols = line
        .split_whitespace()
        .map(|w| w.parse::<usize>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| ParseError::Unrecognised {
            line: line_no,
            text: shorten(line),
        })?;
    let n = cols.len();
    if let Some((row, &col)) = cols.iter().enumerate().find(|(_, &c)| c >= n) {
        return Err(ParseError::ColumnOutOfRange {
            line: line_no,
            row,
            col,
            max: n - 1,
        });
    }
    Ok(cols)
}

/// Reads every entry of `text`. Reading stops at the first malformed line.
///
/// # Example
/// ```
/// use queens_core::parse::{parse_entries, Entry};
/// let entries = parse_entries("1 3 0 2\n\n.Q\nQ.\n").unwrap();
/// assert_eq!(entries[0].entry, Entry::Positions(vec![1, 3, 0, 2]));
/// assert_eq!(entries[1].line, 3);
/// assert_eq!(entries[1].entry.size(), 2);
/// ```
pub fn parse_entries(text: &str) -> Result<Vec<Located>, ParseError> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((idx, raw)) = lines.next() {
        let line_no = idx + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if is_board_row(line) {
            let n = line.chars().count();
            let mut rows = vec![line.to_string()];
            while let Some((_, next)) = lines.peek() {
                let next = next.trim();
                if !is_board_row(next) {
                    break;
                }
                rows.push(next.to_string());
                lines.next();
            }
            if rows.len() != n || rows.iter().any(|r| r.chars().count() != n) {
                return Err(ParseError::BadBoard {
                    line: line_no,
                    message: format!(
                        "a board must be N rows of N squares; this one has {} rows of lengths {}",
                        rows.len(),
                        rows.iter()
                            .map(|r| r.chars().count().to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
            }
            let queens = rows
                .iter()
                .enumerate()
                .flat_map(|(row, r)| {
                    r.chars()
                        .enumerate()
                        .filter(|&(_, ch)| ch == 'Q')
                        .map(move |(col, _)| Square { row, col })
                })
                .collect();
            out.push(Located {
                line: line_no,
                entry: Entry::Board { n, queens },
            });
        } else {
            out.push(Located {
                line: line_no,
                entry: Entry::Positions(parse_positions(line_no, line)?),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mixed_positions_and_boards_with_line_numbers() {
        let text = "# two boards\n0 4 7 5 2 6 1 3\n\n.Q..\n...Q\nQ...\n..Q.\n";
        let e = parse_entries(text).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].line, 2);
        assert_eq!(e[1].line, 4);
        assert_eq!(
            e[1].entry,
            Entry::Board {
                n: 4,
                queens: vec![
                    Square { row: 0, col: 1 },
                    Square { row: 1, col: 3 },
                    Square { row: 2, col: 0 },
                    Square { row: 3, col: 2 }
                ]
            }
        );
    }

    #[test]
    fn rejects_columns_off_the_board() {
        assert_eq!(
            parse_entries("0 1\n1 2\n").unwrap_err(),
            ParseError::ColumnOutOfRange {
                line: 2,
                row: 1,
                col: 2,
                max: 1
            }
        );
    }

    #[test]
    fn rejects_text_that_is_neither_form() {
        let err = parse_entries("0 1 2\nhello\n").unwrap_err();
        assert!(
            matches!(err, ParseError::Unrecognised { line: 2, .. }),
            "{err}"
        );
        assert!(matches!(
            parse_entries("1 -2").unwrap_err(),
            ParseError::Unrecognised { line: 1, .. }
        ));
    }

    #[test]
    fn rejects_boards_that_are_not_square() {
        let err = parse_entries("Q..\n..Q\n").unwrap_err();
        assert!(matches!(err, ParseError::BadBoard { line: 1, .. }), "{err}");
    }
}
