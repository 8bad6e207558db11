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
    /// A column written with more digits than any board has columns.
    #[error(
        "line {line}: the column of row {row} is a number of {digits} digits, off the board \
         (columns are 0 to {max})"
    )]
    ColumnTooLarge {
        /// The 1-based line number.
        line: usize,
        /// The row whose column is bad.
        row: usize,
        /// How many digits the column has.
        digits: u64,
        /// The largest valid column.
        max: usize,
    },
    /// An entry larger than the memory budget lets the reader hold and check.
    #[error(
        "line {line}: {what} is longer than the {max} {unit} that the memory budget of {budget} \
         bytes lets the reader hold"
    )]
    TooLong {
        /// The 1-based line number.
        line: usize,
        /// What is too long: "the positions line", "the board row".
        what: &'static str,
        /// The most the budget allows.
        max: u64,
        /// What `max` counts: "columns", "squares".
        unit: &'static str,
        /// The budget in bytes.
        budget: u64,
    },
    /// A board block is not square, or its rows differ in length.
    #[error("line {line}: {message}")]
    BadBoard {
        /// The 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A carriage return that does not end its line (`\r\n`): old Mac line endings, which
    /// would otherwise run two lines into one.
    #[error(
        "line {line}: a carriage return (\\r) inside the line: lines end with \\n or \\r\\n \
         (convert old Mac line endings first, for example with tr '\\r' '\\n')"
    )]
    CarriageReturn {
        /// The 1-based line number.
        line: usize,
    },
}

fn shorten(text: &str) -> String {
    crate::text::shorten(text, 40)
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

/// Blanks inside a line (the line end `\n` is not one, nor a carriage return, which may only
/// come right before it).
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0b | 0x0c)
}

/// The UTF-8 byte-order mark, which some editors write at the start of a text file.
const BOM: &[u8] = b"\xef\xbb\xbf";

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
    /// The memory budget in bytes for one entry and its check.
    budget: u64,
    /// Whether the start of the input was looked at for a byte-order mark.
    started: bool,
}

/// The bytes the reader and the check take per queen of a positions line: its `u32` and the
/// checker's bits (5 per queen, counted as 8).
pub const BYTES_PER_COLUMN: u64 = 5;

/// The bytes the reader and the check take per column of a drawn board: up to two queens kept
/// per row (16 bytes each; the check stops at a row's second queen, so later ones cannot
/// matter) and the checker's four arrays of words over rows, columns and diagonals.
pub const BYTES_PER_BOARD_COLUMN: u64 = 2 * 16 + 6 * 8;

/// The default memory budget of a reader: 1 GiB, as the command line's.
pub const DEFAULT_BUDGET: u64 = 1 << 30;

/// `input`'s buffered bytes, read first when there are none, as [`BufRead::fill_buf`] gives
/// them but retried on [`io::ErrorKind::Interrupted`], as std's own `BufRead` helpers do: a
/// read cut short by a signal is no error of the input.
fn fill_buf<R: BufRead>(input: &mut R) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            // The end: a reader asked again after it (a terminal's Ctrl-D) would wait for more.
            Ok([]) => return Ok(&[]),
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    // Bytes are buffered: this hands them out without reading.
    input.fill_buf()
}

impl<R: BufRead> EntryReader<R> {
    /// A reader of `input` with the default budget, [`DEFAULT_BUDGET`].
    pub fn new(input: R) -> EntryReader<R> {
        EntryReader::with_budget(input, DEFAULT_BUDGET)
    }

    /// A reader of `input` that refuses an entry whose reading and check would take more than
    /// `budget` bytes ([`BYTES_PER_COLUMN`] per queen of a positions line,
    /// [`BYTES_PER_BOARD_COLUMN`] per column of a board), with [`ParseError::TooLong`] at its
    /// line, before holding it.
    pub fn with_budget(input: R, budget: u64) -> EntryReader<R> {
        EntryReader {
            input,
            line: 1,
            peeked: None,
            done: false,
            budget,
            started: false,
        }
    }

    /// Skips the blanks at the start of the current line and says what follows. A
    /// byte-order mark at the start of the input is skipped; a carriage return there ends the
    /// line only right before `\n`.
    fn start(&mut self) -> Result<Start, ReadError> {
        if !self.started {
            self.started = true;
            if fill_buf(&mut self.input)?.starts_with(BOM) {
                self.input.consume(BOM.len());
            }
        }
        loop {
            let buf = fill_buf(&mut self.input)?;
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
                    if b == b'\r' {
                        self.input.consume(1);
                        return match fill_buf(&mut self.input)?.first() {
                            None => Ok(Start::Eof),
                            Some(b'\n') => Ok(Start::Blank),
                            Some(_) => Err(ParseError::CarriageReturn { line: self.line }.into()),
                        };
                    }
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

    /// Skips blank lines (and the blanks that start the next line) a buffer at a time, counting
    /// them, up to the first byte that is neither: a run of empty lines costs about a byte's
    /// comparison each, not a call per line.
    fn skip_blank_lines(&mut self) -> io::Result<()> {
        loop {
            let buf = fill_buf(&mut self.input)?;
            if buf.is_empty() {
                return Ok(());
            }
            let end = buf
                .iter()
                .position(|&b| b != b'\n' && !is_blank(b))
                .unwrap_or(buf.len());
            let lines = buf[..end].iter().filter(|&&b| b == b'\n').count();
            let more = end == buf.len();
            self.line += lines;
            self.input.consume(end);
            if !more {
                return Ok(());
            }
        }
    }

    /// Skips the rest of the current line (a comment) and its line end.
    fn skip_line(&mut self) -> io::Result<()> {
        loop {
            let buf = fill_buf(&mut self.input)?;
            if buf.is_empty() {
                break;
            }
            let (len, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            self.input.consume(len);
            if end {
                break;
            }
        }
        self.line += 1;
        Ok(())
    }

    /// Up to `most` more bytes of the current line, for a message: the reading stops there,
    /// so an endless line (`/dev/zero`) is named at once.
    fn more_of_line(&mut self, most: usize) -> io::Result<Vec<u8>> {
        let mut kept = Vec::new();
        while kept.len() < most {
            let buf = fill_buf(&mut self.input)?;
            let take = buf.len().min(most - kept.len());
            let (len, end) = match buf[..take].iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (take, false),
            };
            if len == 0 && !end {
                break;
            }
            kept.extend_from_slice(&buf[..len]);
            self.input.consume(len);
            if end {
                break;
            }
        }
        while kept.last().is_some_and(|&b| is_blank(b) || b == b'\r') {
            kept.pop();
        }
        Ok(kept)
    }

    /// The error for a line that is neither form, given the part of it already consumed.
    fn unrecognised(&mut self, mut head: Vec<u8>) -> ReadError {
        let line = self.line;
        match self.more_of_line(64) {
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
        let max_cols = self.budget / BYTES_PER_COLUMN;
        let too_long = |line, budget| ParseError::TooLong {
            line,
            what: "the positions line",
            max: max_cols,
            unit: "columns",
            budget,
        };
        let mut cols: Vec<u32> = Vec::new();
        // The first column too large for a u32, with its row and its value (`None` beyond
        // u64, with its number of digits then).
        let mut first_huge: Option<(usize, Option<u64>, u64)> = None;
        // The number being read: its value (`None` once past u64) and its significant digits.
        let mut number: Option<(Option<u64>, u64)> = None;
        let mut head: Vec<u8> = Vec::new();
        // A carriage return was the last byte: the next must end the line.
        let mut cr = false;
        let mut push = |cols: &mut Vec<u32>, (value, digits): (Option<u64>, u64)| {
            let col = value
                .and_then(|v| u32::try_from(v).ok())
                .unwrap_or_else(|| {
                    first_huge.get_or_insert((cols.len(), value, digits));
                    u32::MAX
                });
            cols.push(col);
        };
        'read: loop {
            let buf = fill_buf(&mut self.input)?;
            if buf.is_empty() {
                break;
            }
            for (i, &b) in buf.iter().enumerate() {
                if head.len() < 48 {
                    head.push(b);
                }
                if cr && b != b'\n' {
                    self.input.consume(i);
                    return Err(ParseError::CarriageReturn { line }.into());
                }
                match b {
                    b'\r' => {
                        cr = true;
                        if let Some(v) = number.take() {
                            push(&mut cols, v);
                        }
                    }
                    b'0'..=b'9' => {
                        let digit = u64::from(b - b'0');
                        let (value, digits) = number.unwrap_or((Some(0), 0));
                        let value = value.and_then(|v| v.checked_mul(10)?.checked_add(digit));
                        let digits = digits + u64::from(digits > 0 || digit > 0);
                        number = Some((value, digits));
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
                            if cols.len() as u64 > max_cols {
                                self.input.consume(i + 1);
                                return Err(too_long(line, self.budget).into());
                            }
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
        if n as u64 > max_cols {
            return Err(too_long(line, self.budget).into());
        }
        if let Some(row) = cols.iter().position(|&c| c as usize >= n) {
            return Err(match first_huge {
                Some((r, None, digits)) if r == row => ParseError::ColumnTooLarge {
                    line,
                    row,
                    digits,
                    max: n - 1,
                },
                Some((r, Some(v), _)) if r == row => ParseError::ColumnOutOfRange {
                    line,
                    row,
                    col: usize::try_from(v).unwrap_or(usize::MAX),
                    max: n - 1,
                },
                _ => ParseError::ColumnOutOfRange {
                    line,
                    row,
                    col: cols[row] as usize,
                    max: n - 1,
                },
            }
            .into());
        }
        Ok(cols)
    }

    /// Reads one board row from the current line, at most `max` squares of it: its length
    /// (`None` when it is longer than `max`, the rest of the line then left unread), and the
    /// first two queens' columns. Fails on any other character than `Q` and `.`.
    fn board_row(&mut self, max: usize) -> Result<(Option<usize>, [Option<usize>; 2]), ReadError> {
        let mut len = 0usize;
        let mut queens = [None, None];
        let mut trailing = false;
        let mut head: Vec<u8> = Vec::new();
        // A carriage return was the last byte: the next must end the line.
        let mut cr = false;
        loop {
            let buf = fill_buf(&mut self.input)?;
            if buf.is_empty() {
                break;
            }
            let mut used = 0;
            let mut end = false;
            for &b in buf {
                used += 1;
                if head.len() < 48 {
                    head.push(b);
                }
                if cr && b != b'\n' {
                    self.input.consume(used - 1);
                    return Err(ParseError::CarriageReturn { line: self.line }.into());
                }
                match b {
                    b'\n' => {
                        end = true;
                        break;
                    }
                    b'\r' => {
                        cr = true;
                        trailing = true;
                    }
                    b'Q' | b'.' if !trailing => {
                        if len == max {
                            self.input.consume(used);
                            return Ok((None, queens));
                        }
                        if b == b'Q' {
                            if let Some(slot) = queens.iter_mut().find(|q| q.is_none()) {
                                *slot = Some(len);
                            }
                        }
                        len += 1;
                    }
                    _ if is_blank(b) => trailing = true,
                    _ => {
                        self.input.consume(used);
                        return Err(self.unrecognised(head));
                    }
                }
            }
            self.input.consume(used);
            if end {
                break;
            }
        }
        self.line += 1;
        Ok((Some(len), queens))
    }

    /// Reads a board block whose first row starts the current line. The first row gives N;
    /// the block is the N rows from there, each of N squares, and ends there: a row of another
    /// length, a block cut short, or a board row right after the N-th is an error at its line.
    /// Only the first two queens of each row are kept (the check stops at a row's second
    /// queen), so a block takes O(N) memory whatever its text.
    fn board(&mut self) -> Result<CompactEntry, ReadError> {
        let first_line = self.line;
        let max_n = usize::try_from(self.budget / BYTES_PER_BOARD_COLUMN).unwrap_or(usize::MAX);
        let too_long = |line, budget| ParseError::TooLong {
            line,
            what: "the board row",
            max: max_n as u64,
            unit: "squares",
            budget,
        };
        let (len, first) = self.board_row(max_n)?;
        let n = len.ok_or_else(|| too_long(first_line, self.budget))?;
        let mut queens: Vec<Square> = Vec::new();
        let keep = |queens: &mut Vec<Square>, row: usize, cols: [Option<usize>; 2]| {
            queens.extend(cols.into_iter().flatten().map(|col| Square { row, col }));
        };
        keep(&mut queens, 0, first);
        for row in 1..n {
            let start = self.start()?;
            if start != Start::Board {
                // The line that is no board row, or at the end of the input its last line.
                let line = if start == Start::Eof {
                    self.line - 1
                } else {
                    self.line
                };
                self.peeked = Some(start);
                return Err(ParseError::BadBoard {
                    line,
                    message: format!(
                        "the board that starts on line {first_line} has {n} columns but \
                         {row} row{}; a board is N rows of N squares",
                        if row == 1 { "" } else { "s" }
                    ),
                }
                .into());
            }
            let line = self.line;
            let (len, cols) = self.board_row(n)?;
            match len {
                Some(len) if len == n => keep(&mut queens, row, cols),
                _ => {
                    return Err(ParseError::BadBoard {
                        line,
                        message: format!(
                            "row {row} of the board that starts on line {first_line} has {} \
                             squares, not {n} as its first row; a board is N rows of N squares",
                            len.map_or_else(|| format!("more than {n}"), |l| l.to_string())
                        ),
                    }
                    .into())
                }
            }
        }
        let next = self.start()?;
        if next == Start::Board {
            return Err(ParseError::BadBoard {
                line: self.line,
                message: format!(
                    "the board that starts on line {first_line} is {n}x{n} and ends on line {}; \
                     separate boards with a blank line",
                    self.line - 1
                ),
            }
            .into());
        }
        self.peeked = Some(next);
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
                Start::Blank => self.skip_blank_lines()?,
                Start::Comment => self.skip_line()?,
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

    /// A reader interrupted by a signal before every read it answers.
    struct Interrupted<'a> {
        data: &'a [u8],
        hiccup: bool,
    }

    impl io::Read for Interrupted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.hiccup = !self.hiccup;
            if self.hiccup {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let k = buf.len().min(self.data.len());
            buf[..k].copy_from_slice(&self.data[..k]);
            self.data = &self.data[k..];
            Ok(k)
        }
    }

    #[test]
    fn a_read_interrupted_by_a_signal_is_retried() {
        let text = "1 3 0 2\n\n# note\n.Q..\n...Q\nQ...\n..Q.\n\n0\n";
        let plain: Vec<_> = EntryReader::new(text.as_bytes())
            .map(Result::unwrap)
            .collect();
        assert_eq!(plain.len(), 3);
        for cap in [1, 2, 3, 64] {
            let data = text.as_bytes();
            let input = io::BufReader::with_capacity(
                cap,
                Interrupted {
                    data,
                    hiccup: false,
                },
            );
            let got: Vec<_> = EntryReader::new(input).map(Result::unwrap).collect();
            assert_eq!(got, plain, "capacity {cap}");
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
    fn runs_of_blank_lines_keep_the_line_numbers_whatever_the_buffer_size() {
        let text = format!(
            "\n \t\n\n1 3 0 2\n{}  .Q..\n...Q\nQ...\n..Q.\n\r\n\n# end\n\n",
            "\n".repeat(1000)
        );
        for cap in [1, 2, 3, 7, 64, 1 << 16] {
            let reader = EntryReader::new(io::BufReader::with_capacity(cap, text.as_bytes()));
            let got: Vec<_> = reader.map(|e| e.unwrap().0).collect();
            assert_eq!(got, [4, 1005], "capacity {cap}");
        }
    }

    #[test]
    fn rejects_boards_that_are_not_square() {
        let err = parse_entries("Q..\n..Q\n").unwrap_err();
        assert!(matches!(err, ParseError::BadBoard { line: 2, .. }), "{err}");
        assert!(
            err.to_string().contains("has 3 columns but 2 rows"),
            "{err}"
        );
        let err = parse_entries("Q.\n...\n").unwrap_err();
        assert!(matches!(err, ParseError::BadBoard { line: 2, .. }), "{err}");
        assert!(err.to_string().contains("more than 2"), "{err}");
        let err = parse_entries(".Q.\nQ\n").unwrap_err();
        assert!(err.to_string().contains("has 1 squares"), "{err}");
    }

    #[test]
    fn a_board_block_ends_after_n_rows() {
        let err = parse_entries(".\n.\n.\n").unwrap_err();
        assert!(matches!(err, ParseError::BadBoard { line: 2, .. }), "{err}");
        assert!(err.to_string().contains("blank line"), "{err}");
        // Separated by a blank line, the same rows are three boards.
        assert_eq!(parse_entries("Q\n\nQ\n\n.\n").unwrap().len(), 3);
    }

    /// Checks that reading `text` within `budget` gives `entries` entries, then an error that
    /// starts with `start`.
    fn assert_refused_within(text: &str, budget: u64, entries: usize, start: &str) {
        let mut reader = EntryReader::with_budget(text.as_bytes(), budget);
        for _ in 0..entries {
            assert!(reader.next().unwrap().is_ok());
        }
        let err = reader.next().unwrap().unwrap_err().to_string();
        assert!(err.starts_with(start), "{err}");
    }

    #[test]
    fn a_long_input_of_rows_fails_at_once_in_little_memory() {
        // 10 MB of one-square rows: the old reader held them all and listed every length.
        let text = ".\n".repeat(5_000_000);
        let err = parse_entries(&text).unwrap_err().to_string();
        assert!(err.starts_with("line 2:"), "{err}");
        assert!(err.len() < 200, "{err}");
        // One 10 MB row: a board of 10^7 columns would need the rows below it; the budget
        // refuses it at its line.
        let row = ".".repeat(10_000_000);
        let start = "line 1: the board row is longer than";
        assert_refused_within(&row, 1 << 20, 0, start);
    }

    #[test]
    fn only_the_first_two_queens_of_a_row_are_kept_and_the_flaw_is_the_same() {
        let text = "QQQQ\n....\n....\n....\n";
        let Entry::Board { n, queens } = parse_entries(text).unwrap().remove(0).entry else {
            panic!("a board")
        };
        assert_eq!(queens.len(), 2);
        let all = (0..4).map(|col| Square { row: 0, col });
        assert_eq!(
            crate::board::find_flaw_in_squares(n, queens),
            crate::board::find_flaw_in_squares(4, all)
        );
    }

    #[test]
    fn positions_lines_beyond_the_budget_are_refused_at_their_line() {
        let line = "0 ".repeat(1000);
        let text = format!("1 3 0 2\n{line}\n");
        let start = "line 2: the positions line is longer than the 500 columns";
        assert_refused_within(&text, 500 * BYTES_PER_COLUMN, 1, start);
    }

    /// A carriage return ends a line only before `\n` (or the end of the input): a lone one
    /// (old Mac line endings) would run two placements into one, so it is an error at its line
    /// wherever it stands.
    #[test]
    fn a_carriage_return_ends_a_line_only_before_a_line_feed() {
        let crlf = parse_entries("1 3 0 2\r\n\r\n.Q..\r\n...Q\r\nQ...\r\n..Q.\r\n# c\r\n2 0 3 1\r")
            .unwrap();
        assert_eq!(crlf.iter().map(|e| e.line).collect::<Vec<_>>(), [1, 3, 8]);
        for (text, line) in [
            ("1 3 0 2\r2 0 3 1\r", 1),
            ("1 3\r0 2\n", 1),
            ("\n\r1 3 0 2\n", 2),
            (".Q\rQ.\n", 1),
            ("1 3 0 2\n.Q..\n...Q\r\nQ...\r..Q.\n", 4),
        ] {
            assert_eq!(
                parse_entries(text).unwrap_err(),
                ParseError::CarriageReturn { line },
                "{text:?}"
            );
        }
    }

    /// A UTF-8 byte-order mark at the start of the input is skipped; elsewhere it is text like
    /// any other, shown escaped in the message.
    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped() {
        let entries = parse_entries("\u{feff}1 3 0 2\n").unwrap();
        assert_eq!(entries[0].entry, Entry::Positions(vec![1, 3, 0, 2]));
        let err = parse_entries("1 3 0 2\n\u{feff}2 0 3 1\n").unwrap_err();
        assert!(
            err.to_string().contains("line 2: '\\u{feff}2 0 3 1'"),
            "{err}"
        );
    }

    /// An endless line that is neither form (`/dev/zero`) is named at once, from its first
    /// bytes, instead of being read to an end that never comes.
    #[test]
    fn an_endless_unrecognised_line_is_an_error_at_once() {
        let zeros = std::io::BufReader::new(std::io::repeat(0));
        let err = EntryReader::new(zeros).next().unwrap().unwrap_err();
        assert!(err.to_string().starts_with("line 1: '\\0\\0"), "{err}");
        let xs = std::io::BufReader::new(std::io::repeat(b'x'));
        assert!(EntryReader::new(xs).next().unwrap().is_err());
    }

    /// A board cut short by the end of the input is an error at its last line.
    #[test]
    fn a_board_cut_short_at_the_end_is_named_at_its_last_line() {
        for text in [".Q..\n...Q\nQ...\n", ".Q..\n...Q\nQ..."] {
            match parse_entries(text).unwrap_err() {
                ParseError::BadBoard { line, message } => {
                    assert_eq!(line, 3, "{text:?}");
                    assert!(message.contains("4 columns but 3 rows"), "{message}");
                }
                err => panic!("{err}"),
            }
        }
    }

    #[test]
    fn a_column_of_many_digits_says_how_many() {
        let text = format!("0 {} 1\n", "9".repeat(100_000));
        assert_eq!(
            parse_entries(&text).unwrap_err(),
            ParseError::ColumnTooLarge {
                line: 1,
                row: 1,
                digits: 100_000,
                max: 2
            }
        );
        // Leading zeros are not significant.
        assert!(parse_entries(&format!("{}1 3 0 2\n", "0".repeat(50))).is_ok());
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_give_entries_or_a_typed_error(
            bytes in proptest::collection::vec(proptest::prop_oneof![
                proptest::prelude::any::<u8>(),
                proptest::sample::select(b"Q.0123 \n\n#".to_vec()),
            ], 0..400),
            cap in 1usize..16,
        ) {
            let reader = EntryReader::with_budget(io::BufReader::with_capacity(cap, &bytes[..]), 1 << 16);
            for item in reader {
                match item {
                    Ok((_, entry)) => proptest::prop_assert!(entry.size() > 0),
                    Err(ReadError::Parse(e)) => proptest::prop_assert!(e.to_string().len() < 400),
                    Err(ReadError::Io(e)) => proptest::prop_assert!(false, "{e}"),
                }
            }
        }
    }
}
