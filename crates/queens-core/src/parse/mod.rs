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

mod reader;

use std::io;

use thiserror::Error;

#[cfg(doc)]
use crate::board::find_flaw_in_squares;
use crate::board::{find_flaw_in_columns, find_flaw_on_board, Flaw, Square};

pub use reader::{EntryReader, BYTES_PER_BOARD_COLUMN, BYTES_PER_COLUMN, DEFAULT_BUDGET};

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
    /// A column is not smaller than the board size. On a line of one number (`max` 0), the
    /// message says how a positions line is read: `8` alone is a 1x1 board, not the 8x8 one.
    #[error(
        "line {line}: column {col} of row {row} is off the board (columns are 0 to {max}){}",
        one_number_hint(*max)
    )]
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
    /// A column written with more digits than any board has columns (with the hint of
    /// [`ParseError::ColumnOutOfRange`] on a line of one number).
    #[error(
        "line {line}: the column of row {row} is a number of {digits} digits, off the board \
         (columns are 0 to {max}){}",
        one_number_hint(*max)
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
        "line {line}: {what} is longer than the {max} {unit} that the memory budget of {} lets \
         the reader hold", crate::error::bytes(*budget)
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

/// What a column off the board means when it is the only number of its line (the largest
/// valid column `max` is 0): whoever wrote `8` alone most likely meant the 8x8 board.
fn one_number_hint(max: usize) -> &'static str {
    if max == 0 {
        ": a positions line gives the column of each row's queen, so one number is a 1x1 board; \
         a placement of N queens has N numbers"
    } else {
        ""
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

    /// The first flaw of the placement, or `None` when it is a solution: the check `queens
    /// verify` runs on each entry read, in memory the reader's budget leaves it
    /// ([`find_flaw_in_columns`] on a positions line, 5 bits a row; [`find_flaw_on_board`] on a
    /// drawn board, 6 bits a row), never the maps of [`find_flaw_in_squares`], about 200 bytes
    /// a row (`tests/board_check_memory.rs` counts it).
    ///
    /// # Example
    /// ```
    /// use queens_core::parse::{CompactEntry, EntryReader};
    /// let mut entries = EntryReader::new(&b"1 3 0 2\n\n.Q\nQ.\n"[..]);
    /// let (_, positions) = entries.next().unwrap().unwrap();
    /// assert_eq!(positions.find_flaw(), None);
    /// let (_, board) = entries.next().unwrap().unwrap();
    /// assert!(matches!(board, CompactEntry::Board { n: 2, .. }));
    /// assert!(board.find_flaw().is_some());
    /// ```
    pub fn find_flaw(&self) -> Option<Flaw> {
        match self {
            CompactEntry::Positions(queens) => find_flaw_in_columns(queens),
            CompactEntry::Board { n, queens } => find_flaw_on_board(*n, queens),
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

    /// The mark is skipped however the input hands it out (a pipe may give a byte at a time),
    /// and the start of a mark followed by something else is the same error whatever the
    /// buffer's size.
    #[test]
    fn a_byte_order_mark_split_across_reads_is_still_skipped() {
        let read = |bytes: &[u8], capacity: usize| {
            let input = std::io::BufReader::with_capacity(capacity, bytes);
            EntryReader::new(input)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())
        };
        let marked = "\u{feff}1 3 0 2\n\n.Q..\n...Q\nQ...\n..Q.\n".as_bytes();
        let whole = read(marked, 8192).unwrap();
        assert_eq!(whole.len(), 2);
        let broken = b"\xef\xbb1 3 0 2\n";
        let refused = read(broken, 8192).unwrap_err();
        assert!(
            refused.starts_with("line 1: '\u{fffd}1 3 0 2'"),
            "{refused}"
        );
        for capacity in 1..=4 {
            assert_eq!(
                read(marked, capacity).unwrap(),
                whole,
                "capacity {capacity}"
            );
            assert_eq!(
                read(broken, capacity).unwrap_err(),
                refused,
                "capacity {capacity}"
            );
        }
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

    /// `echo 8 | queens verify` said only that column 8 of row 0 is off the board (columns 0
    /// to 0): whoever meant the 8x8 board is told how a positions line is read.
    #[test]
    fn a_line_of_one_number_off_the_board_says_how_positions_are_read() {
        let hint = ": a positions line gives the column of each row's queen, so one number is a \
                    1x1 board; a placement of N queens has N numbers";
        for (text, start) in [
            (
                "8\n",
                "line 1: column 8 of row 0 is off the board (columns are 0 to 0)",
            ),
            (
                "# eight\n1\n",
                "line 2: column 1 of row 0 is off the board (columns are 0 to 0)",
            ),
            (
                "99999999999999999999999\n",
                "line 1: the column of row 0 is a number of 23 digits, off the board (columns \
                 are 0 to 0)",
            ),
        ] {
            let err = parse_entries(text).unwrap_err().to_string();
            assert_eq!(err, format!("{start}{hint}"), "{text:?}");
        }
        // One number on the board (0) is the 1x1 solution; two numbers get no hint.
        assert!(parse_entries("0\n").is_ok());
        let two = parse_entries("0 8\n").unwrap_err().to_string();
        assert_eq!(
            two,
            "line 1: column 8 of row 1 is off the board (columns are 0 to 1)"
        );
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
