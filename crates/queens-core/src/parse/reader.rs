//! [`EntryReader`]: the streaming reader of placements the module's `//!` describes. It reads
//! any `BufRead` a chunk at a time, skips blanks, comments and a byte-order mark, and parses a
//! positions line's numbers as their digits arrive and a board's rows as they come, so that an
//! entry is held in its compact form only ([`BYTES_PER_COLUMN`] or [`BYTES_PER_BOARD_COLUMN`]
//! a column), refused by its budget before it is held; an error names its line.
//!
//! May call: the module's entry and error types (and its `shorten`) and `crate::board::Square`.

use std::io::{self, BufRead};

use super::{shorten, CompactEntry, ParseError, ReadError};
use crate::board::Square;

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
/// matter), twice that while their list grows, and the checker's 6 bits
/// ([`find_flaw_on_board`](crate::board::find_flaw_on_board)), with room to spare.
pub const BYTES_PER_BOARD_COLUMN: u64 = 80;

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
            // A byte at a time: a pipe or a small buffer may hand the mark out in pieces.
            let mut matched = 0;
            while matched < BOM.len() {
                match fill_buf(&mut self.input)?.first() {
                    Some(&b) if b == BOM[matched] => {
                        self.input.consume(1);
                        matched += 1;
                    }
                    _ => break,
                }
            }
            if matched > 0 && matched < BOM.len() {
                // The start of a mark and then something else: no entry starts so.
                return Err(self.unrecognised(BOM[..matched].to_vec()));
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
