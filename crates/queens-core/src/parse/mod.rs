//! Reads placements written as `positions` lines or drawn as `board` blocks.
//!
//! A positions line is the 0-based columns of the queens of rows 0, 1, ... separated by white
//! space: `0 4 7 5 2 6 1 3`. A board block is N consecutive lines of N characters, `Q` for a
//! queen and `.` for an empty square, row 0 first. Blank lines separate entries and lines
//! starting with `#` are comments; the two forms may be mixed in one input.
//!
//! [`EntryReader`] reads any `BufRead` a chunk at a time and parses numbers as their digits
//! arrive, so a positions line of 10^8 columns (about 900 MB of text) is never held as text:
//! it becomes one `u32` per queen. [`parse_entries`] is the same parser over a string.

use std::io::{self, BufRead};

use thiserror::Error;

use crate::board::Square;

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

/// An entry as [`EntryReader`] yields it: positions are kept as `u32`, 4 bytes per queen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompactEntry {
    /// A positions line: the column of the queen in each row.
    Positions(Vec<u32>),
    /// A drawn board: its size and the squares that hold a queen, in reading order.
    Board {
        /// The board size.
        n: usize,
        /// The queens, row by row, left to right.
        queens: Vec<Square>,
    },
}

impl CompactEntry {
    /// The board size.
    pub fn size(&self) -> usize {
        match self {
            CompactEntry::Positions(p) => p.len(),
            CompactEntry::Board { n, .. } => *n,
        }
    }
}

impl From<CompactEntry> for Entry {
    fn from(entry: CompactEntry) -> Entry {
        match entry {
            CompactEntry::Positions(p) => {
                Entry::Positions(p.into_iter().map(|c| c as usize).collect())
            }
            CompactEntry::Board { n, queens } => Entry::Board { n, queens },
        }
    }
}

/// Why a stream could not be read: malformed text, or the reading itself failed.
#[derive(Debug, Error)]
pub enum ReadError {
    /// The text is malformed.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The input could not be read.
    #[error("cannot read the input")]
    Io(#[from] io::Error),
}

/// How a line starts, once its leading blanks are skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Start {
    Eof,
    Blank,
    Comment,
    Number,
    Board,
    Other,
}

/// Blanks inside a line (the line end `\n` is not one).
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

fn is_board_row(line: &[u8]) -> bool {
    !line.is_empty() && line.iter().all(|&c| c == b'Q' || c == b'.')
}

/// Reads entries one at a time from a buffered input, in bounded memory beyond the entry
/// itself; an iterator of `Result`s that ends after the first error.
///
/// # Example
/// ```
/// use queens_core::parse::{CompactEntry, EntryReader};
/// let mut reader = EntryReader::new("# first\n1 3 0 2\n".as_bytes());
/// let first = reader.next().unwrap().unwrap();
/// assert_eq!((first.0, first.1), (2, CompactEntry::Positions(vec![1, 3, 0, 2])));
/// assert!(reader.next().is_none());
/// ```
#[derive(Debug)]
pub struct EntryReader<R> {
    input: R,
    /// The 1-based number of the line being read.
    line: usize,
    /// The start of the current line, when it was looked at and its blanks skipped already.
    peeked: Option<Start>,
    done: bool,
}

impl<R: BufRead> EntryReader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> EntryReader<R> {
        EntryReader {
            input,
            line: 1,
            peeked: None,
            done: false,
        }
    }

    /// Skips the blanks at the start of the current line and says what follows.
    fn start(&mut self) -> io::Result<Start> {
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Ok(Start::Eof);
            }
            match buf.iter().position(|&b| !is_blank(b)) {
                None => {
                    let len = buf.len();
                    self.input.consume(len);
                }
                Some(i) => {
                    let b = buf[i];
                    self.input.consume(i);
                    return Ok(match b {
                        b'\n' => Start::Blank,
                        b'#' => Start::Comment,
                        b'0'..=b'9' => Start::Number,
                        b'Q' | b'.' => Start::Board,
                        _ => Start::Other,
                    });
                }
            }
        }
    }

    /// Reads the rest of the current line and the line end. Keeps at most `keep` bytes of it.
    fn rest_of_line(&mut self, keep: usize) -> io::Result<Vec<u8>> {
        let mut kept = Vec::new();
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let (len, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (buf.len(), false),
            };
            let room = keep.saturating_sub(kept.len()).min(len);
            kept.extend_from_slice(&buf[..room]);
            self.input.consume(len + usize::from(end));
            if end {
                break;
            }
        }
        self.line += 1;
        while kept.last().is_some_and(|&b| is_blank(b)) {
            kept.pop();
        }
        Ok(kept)
    }

    /// The error for a line that is neither form, given the part of it already consumed.
    fn unrecognised(&mut self, mut head: Vec<u8>) -> ReadError {
        let line = self.line;
        match self.rest_of_line(64) {
            Ok(rest) => {
                head.extend_from_slice(&rest);
                let text = String::from_utf8_lossy(&head);
                ParseError::Unrecognised {
                    line,
                    text: shorten(text.trim()),
                }
                .into()
            }
            Err(e) => e.into(),
        }
    }

    /// Reads a positions line, digit by digit.
    fn positions(&mut self) -> Result<Vec<u32>, ReadError> {
        let line = self.line;
        let mut cols: Vec<u32> = Vec::new();
        // The first column too large for a u32, with its row (it is stored as u32::MAX).
        let mut first_huge: Option<(usize, u64)> = None;
        let mut number: Option<u64> = None;
        let mut head: Vec<u8> = Vec::new();
        let mut push = |cols: &mut Vec<u32>, value: u64| {
            let col = u32::try_from(value).unwrap_or_else(|_| {
                first_huge.get_or_insert((cols.len(), value));
                u32::MAX
            });
            cols.push(col);
        };
        'read: loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            for (i, &b) in buf.iter().enumerate() {
                if head.len() < 48 {
                    head.push(b);
                }
                match b {
                    b'0'..=b'9' => {
                        let digit = u64::from(b - b'0');
                        number = Some(number.unwrap_or(0).saturating_mul(10).saturating_add(digit));
                    }
                    b'\n' => {
                        if let Some(v) = number.take() {
                            push(&mut cols, v);
                        }
                        self.input.consume(i + 1);
                        break 'read;
                    }
                    _ if is_blank(b) => {
                        if let Some(v) = number.take() {
                            push(&mut cols, v);
                        }
                    }
                    _ => {
                        self.input.consume(i + 1);
                        return Err(self.unrecognised(head));
                    }
                }
            }
            let len = buf.len();
            self.input.consume(len);
        }
        if let Some(v) = number.take() {
            push(&mut cols, v);
        }
        self.line += 1;
        let n = cols.len();
        if let Some(row) = cols.iter().position(|&c| c as usize >= n) {
            let col = match first_huge {
                Some((r, v)) if r == row => usize::try_from(v).unwrap_or(usize::MAX),
                _ => cols[row] as usize,
            };
            return Err(ParseError::ColumnOutOfRange {
                line,
                row,
                col,
                max: n - 1,
            }
            .into());
        }
        Ok(cols)
    }

    /// Reads a board block whose first row starts the current line.
    fn board(&mut self) -> Result<CompactEntry, ReadError> {
        let first_line = self.line;
        let first = self.rest_of_line(usize::MAX)?;
        if !is_board_row(&first) {
            let text = String::from_utf8_lossy(&first);
            return Err(ParseError::Unrecognised {
                line: first_line,
                text: shorten(&text),
            }
            .into());
        }
        let n = first.len();
        let mut rows = vec![first];
        loop {
            let start = self.start()?;
            if start != Start::Board {
                self.peeked = Some(start);
                break;
            }
            let line = self.line;
            let row = self.rest_of_line(usize::MAX)?;
            if !is_board_row(&row) {
                let text = String::from_utf8_lossy(&row);
                return Err(ParseError::Unrecognised {
                    line,
                    text: shorten(&text),
                }
                .into());
            }
            rows.push(row);
        }
        if rows.len() != n || rows.iter().any(|r| r.len() != n) {
            return Err(ParseError::BadBoard {
                line: first_line,
                message: format!(
                    "a board must be N rows of N squares; this one has {} rows of lengths {}",
                    rows.len(),
                    rows.iter()
                        .map(|r| r.len().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
            .into());
        }
        let queens = rows
            .iter()
            .enumerate()
            .flat_map(|(row, r)| {
                r.iter()
                    .enumerate()
                    .filter(|&(_, &ch)| ch == b'Q')
                    .map(move |(col, _)| Square { row, col })
            })
            .collect();
        Ok(CompactEntry::Board { n, queens })
    }

    fn read_entry(&mut self) -> Result<Option<(usize, CompactEntry)>, ReadError> {
        loop {
            let start = match self.peeked.take() {
                Some(start) => start,
                None => self.start()?,
            };
            let line = self.line;
            match start {
                Start::Eof => return Ok(None),
                Start::Blank | Start::Comment => {
                    self.rest_of_line(0)?;
                }
                Start::Number => {
                    return Ok(Some((line, CompactEntry::Positions(self.positions()?))))
                }
                Start::Board => return Ok(Some((line, self.board()?))),
                Start::Other => return Err(self.unrecognised(Vec::new())),
            }
        }
    }
}

impl<R: BufRead> Iterator for EntryReader<R> {
    /// The 1-based line the entry starts on, and the entry.
    type Item = Result<(usize, CompactEntry), ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = self.read_entry().transpose();
        if !matches!(item, Some(Ok(_))) {
            self.done = true;
        }
        item
    }
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
    EntryReader::new(text.as_bytes())
        .map(|item| match item {
            Ok((line, entry)) => Ok(Located {
                line,
                entry: entry.into(),
            }),
            Err(ReadError::Parse(e)) => Err(e),
            Err(ReadError::Io(e)) => unreachable!("reading a string cannot fail: {e}"),
        })
        .collect()
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
    fn reads_numbers_split_across_buffer_boundaries() {
        let text = "12 0 7 5 3 11 9 1 10 8 6 4 2\n\n# note\n.Q..\n...Q\nQ...\n..Q.";
        for cap in [1, 2, 3, 5, 64] {
            let reader = EntryReader::new(io::BufReader::with_capacity(cap, text.as_bytes()));
            let got: Vec<_> = reader.map(Result::unwrap).collect();
            assert_eq!(got.len(), 2, "capacity {cap}");
            assert_eq!(
                got[0],
                (
                    1,
                    CompactEntry::Positions(vec![12, 0, 7, 5, 3, 11, 9, 1, 10, 8, 6, 4, 2])
                )
            );
            assert_eq!(got[1].0, 4);
            assert_eq!(got[1].1.size(), 4);
        }
    }

    #[test]
    fn names_the_real_value_of_a_column_too_large_for_32_bits() {
        assert_eq!(
            parse_entries("0 99999999999 1\n").unwrap_err(),
            ParseError::ColumnOutOfRange {
                line: 1,
                row: 1,
                col: 99_999_999_999,
                max: 2
            }
        );
    }

    #[test]
    fn shows_the_offending_text_and_stops_after_an_error() {
        let mut reader = EntryReader::new("1 3 0 2\n  0 1 x 3  \n1 3 0 2\n".as_bytes());
        assert!(reader.next().unwrap().is_ok());
        match reader.next().unwrap() {
            Err(ReadError::Parse(ParseError::Unrecognised { line, text })) => {
                assert_eq!((line, text.as_str()), (2, "0 1 x 3"));
            }
            other => panic!("{other:?}"),
        }
        assert!(reader.next().is_none());
        let err = parse_entries("Q.x\n").unwrap_err();
        assert_eq!(
            err,
            ParseError::Unrecognised {
                line: 1,
                text: "Q.x".into()
            }
        );
    }

    proptest::proptest! {
        #[test]
        fn positions_lines_read_back_whatever_the_buffer_size_and_spacing(
            raw in proptest::collection::vec(0u32..1000, 1..60),
            cap in 1usize..9,
            pad in 0usize..3,
        ) {
            let n = raw.len() as u32;
            let q: Vec<u32> = raw.into_iter().map(|c| c % n).collect();
            let sep = " ".repeat(pad + 1);
            let body = q.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(&sep);
            let text = format!("{}{body}{}\r\n", "\t".repeat(pad), " ".repeat(pad));
            let reader = EntryReader::new(io::BufReader::with_capacity(cap, text.as_bytes()));
            let got: Vec<_> = reader.map(Result::unwrap).collect();
            proptest::prop_assert_eq!(got, vec![(1, CompactEntry::Positions(q))]);
        }
    }

    #[test]
    fn rejects_boards_that_are_not_square() {
        let err = parse_entries("Q..\n..Q\n").unwrap_err();
        assert!(matches!(err, ParseError::BadBoard { line: 1, .. }), "{err}");
    }
}
