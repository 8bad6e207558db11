//! Reading a completion instance: a CSPLib problem 79 parameter file, or one drawn board.
//!
//! The CSPLib format is Essence' parameter syntax, tokenised by hand (no parser generator): the
//! reader makes one pass over the text, taking one token at a time, so it is O(length of the
//! input) in time and holds nothing but the given queens: 20 bytes per `[row, column]` pair (its
//! square and its line), which the memory budget bounds ([`BYTES_PER_GIVEN_QUEEN`]). Lists
//! nested deeper than [`MAX_NESTING`] are refused at the bracket that goes too deep, and the
//! values of other `letting`s are checked and skipped, never kept.

use thiserror::Error;

use super::instance::{Instance, DEFAULT_BUDGET, MAX_N};
use crate::board::Square;
use crate::parse::{CompactEntry, EntryReader, ParseError, ReadError};

/// The bytes the reader takes per given queen: its square (16) and its line (4), twice over
/// while the list grows.
pub const BYTES_PER_GIVEN_QUEEN: u64 = 40;

/// Why an instance file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InstanceParseError {
    /// The text is not a CSPLib parameter file or a board.
    #[error("line {line}: {message}")]
    Malformed {
        /// The 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A CSPLib parameter file without `letting n`.
    #[error("the instance does not give the board size (expected `letting n = ...`)")]
    MissingSize,
    /// A board-format instance that is not exactly one board.
    #[error(
        "expected one board (N rows of N squares, Q and .) or a CSPLib parameter file \
         (letting n = ... / letting init = [[r, c], ...])"
    )]
    NotOneBoard,
    /// The board could not be read.
    #[error(transparent)]
    Board(#[from] crate::parse::ParseError),
    /// More given queens than the memory budget lets the reader hold.
    #[error(
        "line {line}: the instance gives more than {max} queens, the most that the memory \
         budget of {} lets the reader hold", crate::error::bytes(*budget)
    )]
    TooManyQueens {
        /// The 1-based line of the first queen past the bound.
        line: usize,
        /// The most queens the budget allows.
        max: u64,
        /// The budget in bytes.
        budget: u64,
    },
    /// A square given twice in a CSPLib file: what the search refuses as
    /// [`InstanceError::Duplicate`](super::InstanceError::Duplicate), named by the lines that
    /// gave it ([`InstanceFile::locate_duplicate`](super::InstanceFile::locate_duplicate)).
    #[error("line {line}: the queen at {square} is given twice{}", first_on(*line, *first))]
    Duplicate {
        /// The 1-based line that gives it again.
        line: usize,
        /// The square.
        square: Square,
        /// The 1-based line that gave it first.
        first: usize,
    },
}

/// Reads an instance: a CSPLib problem 79 parameter file when the text has a `letting`,
/// otherwise one drawn board (`Q` for the given queens, `.` elsewhere), within the default
/// memory budget ([`DEFAULT_BUDGET`]; see [`parse_instance_within`]).
///
/// The CSPLib format is Essence' parameter syntax: `letting n = 8` (or `be`), and
/// `letting init = [[r, c], ...]`, a list of row, column pairs, 0-based as written by the
/// CSPLib generators (`queens-gen-fast.py`, `queens-diag-transform.py`). `$` starts a comment,
/// a `language ESSENCE' 1.0` line is skipped, white space and line breaks are free, other
/// `letting`s are ignored, and a UTF-8 byte-order mark at the start of the text is skipped.
///
/// # Example
/// ```
/// use queens_core::complete::parse_instance;
/// let i = parse_instance("letting n = 8\nletting init = [[0, 3], [5, 2]]\n").unwrap();
/// assert_eq!((i.n, i.fixed.len(), i.fixed[1].row, i.fixed[1].col), (8, 2, 5, 2));
/// let b = parse_instance("...Q\n....\n....\n....\n").unwrap();
/// assert_eq!((b.n, b.fixed[0].col), (4, 3));
/// ```
pub fn parse_instance(text: &str) -> Result<Instance, InstanceParseError> {
    parse_instance_within(text, DEFAULT_BUDGET)
}

/// [`parse_instance`] within a memory budget of `budget` bytes: beyond the text itself, the
/// reader holds [`BYTES_PER_GIVEN_QUEEN`] bytes per given queen and refuses the queen that
/// would take it past the budget ([`InstanceParseError::TooManyQueens`]); a drawn board is
/// read within the budget of [`EntryReader::with_budget`].
///
/// # Example
/// ```
/// use queens_core::complete::{parse_instance_within, InstanceParseError};
/// let text = "letting n = 8\nletting init = [[0, 3], [5, 2], [7, 7]]\n";
/// assert_eq!(parse_instance_within(text, 120).unwrap().fixed.len(), 3);
/// assert!(matches!(
///     parse_instance_within(text, 100),
///     Err(InstanceParseError::TooManyQueens { line: 2, max: 2, budget: 100 })
/// ));
/// ```
pub fn parse_instance_within(text: &str, budget: u64) -> Result<Instance, InstanceParseError> {
    read_with_lines(text, budget).map(|(instance, _)| instance)
}

/// [`parse_instance_within`] that keeps the 1-based line of each given queen of a CSPLib file,
/// in the order of the instance's `fixed` (none for a drawn board): what
/// [`read_instance_within`](super::read_instance_within) keeps, 4 bytes a given queen, counted
/// in [`BYTES_PER_GIVEN_QUEEN`].
pub(super) fn read_with_lines(
    text: &str,
    budget: u64,
) -> Result<(Instance, Vec<u32>), InstanceParseError> {
    // A UTF-8 byte-order mark (some Windows editors write one) is no part of either form, as
    // for the placement reader.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let is_csplib = text
        .lines()
        .any(|l| l.split('$').next().unwrap_or("").contains("letting"));
    if is_csplib {
        return parse_csplib(text, budget);
    }
    let mut entries = EntryReader::with_budget(text.as_bytes(), budget);
    let first = entries.next().transpose().map_err(board_error)?;
    let second = entries.next().transpose().map_err(board_error)?;
    match (first, second) {
        (Some((_, CompactEntry::Board { n, queens })), None) => {
            Ok((Instance { n, fixed: queens }, Vec::new()))
        }
        _ => Err(InstanceParseError::NotOneBoard),
    }
}

/// The reader's error in the words of an instance: a line that is neither form is named
/// against the two forms an instance has (the reader's own words name positions lines, which
/// an instance is not).
fn board_error(err: ReadError) -> InstanceParseError {
    match err {
        ReadError::Parse(ParseError::Unrecognised { line, text }) => {
            InstanceParseError::Malformed {
                line,
                message: format!(
                "'{text}' is neither a board row (Q and .) nor part of a CSPLib parameter file \
                 (letting n = ... / letting init = [[r, c], ...])"
            ),
            }
        }
        // A positions line is no instance, its columns on the board (`1 3 0 2`) or off it
        // (`8`): the same answer for both, not the reader's words, which explain how a
        // positions line is read ("a placement of N queens has N numbers"), a placement that
        // `complete` would refuse in turn.
        ReadError::Parse(
            ParseError::ColumnOutOfRange { .. } | ParseError::ColumnTooLarge { .. },
        ) => InstanceParseError::NotOneBoard,
        ReadError::Parse(e) => InstanceParseError::Board(e),
        ReadError::Io(e) => unreachable!("reading a string cannot fail: {e}"),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    Word(&'a str),
    Int(i128),
    Punct(char),
}

/// The tokens of a CSPLib file, one at a time, each with its line.
struct Lexer<'a> {
    text: &'a str,
    lines: std::str::Lines<'a>,
    /// The current line up to its comment, and where the lexer is in it.
    body: &'a str,
    at: usize,
    line: usize,
    /// The line of the last token taken, for an error at the end of the file.
    last_line: usize,
    peeked: Option<Option<(usize, Token<'a>)>>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            lines: text.lines(),
            body: &text[..0],
            at: 0,
            line: 0,
            last_line: 1,
            peeked: None,
        }
    }

    /// The byte offset of the lexer in the whole text.
    fn offset(&self) -> usize {
        self.body.as_ptr() as usize - self.text.as_ptr() as usize + self.at
    }

    fn peek(&mut self) -> Result<Option<(usize, Token<'a>)>, InstanceParseError> {
        if self.peeked.is_none() {
            self.peeked = Some(self.scan()?);
        }
        Ok(self.peeked.expect("just peeked"))
    }

    fn next(&mut self) -> Result<Option<(usize, Token<'a>)>, InstanceParseError> {
        let token = match self.peeked.take() {
            Some(token) => token,
            None => self.scan()?,
        };
        if let Some((line, _)) = token {
            self.last_line = line;
        }
        Ok(token)
    }

    /// The line of the next token, or of the last one at the end of the file.
    fn line_ahead(&mut self) -> Result<usize, InstanceParseError> {
        Ok(self.peek()?.map_or(self.last_line, |(line, _)| line))
    }

    fn scan(&mut self) -> Result<Option<(usize, Token<'a>)>, InstanceParseError> {
        loop {
            let rest = &self.body[self.at..];
            let trimmed = rest.trim_start();
            self.at += rest.len() - trimmed.len();
            let Some(ch) = trimmed.chars().next() else {
                let Some(raw) = self.lines.next() else {
                    return Ok(None);
                };
                self.line += 1;
                let body = raw.split('$').next().unwrap_or("");
                self.body = if body.trim_start().starts_with("language ") {
                    &body[body.len()..]
                } else {
                    body
                };
                self.at = 0;
                continue;
            };
            let line = self.line;
            let run =
                |keep: &dyn Fn(char) -> bool| trimmed.find(|c| !keep(c)).unwrap_or(trimmed.len());
            let (token, len) = if ch.is_ascii_alphabetic() || ch == '_' {
                let len = run(&|c| c.is_ascii_alphanumeric() || c == '_' || c == '\'');
                (Token::Word(&trimmed[..len]), len)
            } else if ch.is_ascii_digit() || ch == '-' {
                let len = 1 + trimmed[1..]
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(trimmed.len() - 1);
                (Token::Int(number(&trimmed[..len], line)?), len)
            } else if "[],=".contains(ch) {
                (Token::Punct(ch), 1)
            } else {
                return Err(InstanceParseError::Malformed {
                    line,
                    message: format!(
                        "unexpected '{}' in a CSPLib parameter file",
                        crate::text::escape(ch.encode_utf8(&mut [0; 4]))
                    ),
                });
            };
            self.at += len;
            return Ok(Some((line, token)));
        }
    }

    fn malformed(line: usize, message: impl Into<String>) -> InstanceParseError {
        InstanceParseError::Malformed {
            line,
            message: message.into(),
        }
    }
}

/// The whole number `text` (digits, perhaps after a `-`), or why not.
fn number(text: &str, line: usize) -> Result<i128, InstanceParseError> {
    text.parse::<i128>()
        .map_err(|_| InstanceParseError::Malformed {
            line,
            message: if text.len() > 2 {
                format!(
                    "{} ({} digits) is too large: sizes, rows and columns are at most {}",
                    shorten(text),
                    text.len() - usize::from(text.starts_with('-')),
                    MAX_N
                )
            } else {
                format!("'{text}' is not a whole number")
            },
        })
}

/// The deepest nesting of lists the reader follows; `init` needs 2.
pub const MAX_NESTING: usize = 16;

/// What a value is, as far as `init` cares: a number, a pair of numbers, or another list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Int(i128),
    Pair(i128, i128),
    OtherList,
}

impl<'a> Lexer<'a> {
    /// Reads a value whose lists sit `depth` deep in others, keeping only its [`Shape`].
    fn value(&mut self, depth: usize) -> Result<Shape, InstanceParseError> {
        let next = self.next()?;
        match next {
            Some((_, Token::Int(v))) => Ok(Shape::Int(v)),
            Some((line, Token::Punct('['))) if depth >= MAX_NESTING => Err(Self::malformed(
                line,
                format!(
                    "lists nested more than {MAX_NESTING} deep, at byte {} (init is a list of \
                     [row, column] pairs: 2 deep)",
                    self.offset() - 1
                ),
            )),
            Some((_, Token::Punct('['))) => {
                if let Some((_, Token::Punct(']'))) = self.peek()? {
                    self.next()?;
                    return Ok(Shape::OtherList);
                }
                // The first two items while they are numbers, and how many there are.
                let mut ints = [None, None];
                let mut items = 0usize;
                loop {
                    match self.value(depth + 1)? {
                        Shape::Int(v) if items < 2 => ints[items] = Some(v),
                        _ => ints = [None, None],
                    }
                    items += 1;
                    match self.next()? {
                        Some((_, Token::Punct(','))) => {}
                        Some((_, Token::Punct(']'))) => {
                            return Ok(match (items, ints) {
                                (2, [Some(r), Some(c)]) => Shape::Pair(r, c),
                                _ => Shape::OtherList,
                            });
                        }
                        other => {
                            let line = other.map_or(self.last_line, |(line, _)| line);
                            return Err(Self::malformed(line, "expected ',' or ']' in a list"));
                        }
                    }
                }
            }
            Some((line, t)) => Err(Self::malformed(
                line,
                format!("expected a number or a list, found {}", describe(&t)),
            )),
            None => Err(Self::malformed(
                self.last_line,
                "the file ends where a value was expected",
            )),
        }
    }
}

fn describe(t: &Token) -> String {
    match t {
        Token::Word(w) => format!("'{}'", shorten(w)),
        Token::Int(v) => format!("{v}"),
        Token::Punct(c) => format!("'{c}'"),
    }
}

/// The given queens of `init` as read: the squares that fit, each pair's line, and the first
/// pair whose row or column is negative or past any board (its index, line and values).
#[derive(Default)]
struct Given {
    squares: Vec<Square>,
    lines: Vec<u32>,
    unfit: Option<(usize, usize, i128, i128)>,
}

/// Reads the list of `init`, its opening `[` already taken, as pairs into `given`, within
/// `budget`.
fn read_init(lx: &mut Lexer, budget: u64) -> Result<Given, InstanceParseError> {
    let max = budget / BYTES_PER_GIVEN_QUEEN;
    let mut given = Given::default();
    if let Some((_, Token::Punct(']'))) = lx.peek()? {
        lx.next()?;
        return Ok(given);
    }
    loop {
        let line = lx.line_ahead()?;
        let (r, c) = match lx.value(1)? {
            Shape::Pair(r, c) => (r, c),
            Shape::Int(_) | Shape::OtherList => return Err(pair_error(line)),
        };
        if given.squares.len() as u64 >= max {
            return Err(InstanceParseError::TooManyQueens { line, max, budget });
        }
        let fits = |v: i128| usize::try_from(v).ok().filter(|&v| v <= MAX_N);
        let square = match (fits(r), fits(c)) {
            (Some(row), Some(col)) => Square { row, col },
            _ => {
                given.unfit.get_or_insert((given.squares.len(), line, r, c));
                Square {
                    row: usize::MAX,
                    col: usize::MAX,
                }
            }
        };
        given.squares.push(square);
        given.lines.push(u32::try_from(line).unwrap_or(u32::MAX));
        match lx.next()? {
            Some((_, Token::Punct(','))) => {}
            Some((_, Token::Punct(']'))) => return Ok(given),
            other => {
                let line = other.map_or(lx.last_line, |(line, _)| line);
                return Err(Lexer::malformed(line, "expected ',' or ']' in a list"));
            }
        }
    }
}

fn parse_csplib(text: &str, budget: u64) -> Result<(Instance, Vec<u32>), InstanceParseError> {
    let mut lx = Lexer::new(text);
    let mut n: Option<(usize, i128)> = None;
    let mut init: Option<Given> = None;
    // Each name and the line that gave it: a parameter is given once.
    let mut named: Vec<(&str, usize)> = Vec::new();
    while let Some((line, tok)) = lx.next()? {
        if tok != Token::Word("letting") {
            return Err(Lexer::malformed(
                line,
                format!("expected 'letting', found {}", describe(&tok)),
            ));
        }
        let name = match lx.next()? {
            Some((_, Token::Word(w))) => w,
            other => {
                let line = other.map_or(lx.last_line, |(line, _)| line);
                return Err(Lexer::malformed(line, "expected a name after 'letting'"));
            }
        };
        if let Some(&(_, first)) = named.iter().find(|(seen, _)| *seen == name) {
            return Err(Lexer::malformed(
                line,
                format!(
                    "'letting {}' again: it was given on line {first}, and a parameter is given \
                     once",
                    shorten(name)
                ),
            ));
        }
        named.push((name, line));
        match lx.next()? {
            Some((_, Token::Punct('='))) | Some((_, Token::Word("be"))) => {}
            other => {
                let line = other.map_or(lx.last_line, |(line, _)| line);
                return Err(Lexer::malformed(
                    line,
                    format!("expected '=' or 'be' after 'letting {}'", shorten(name)),
                ));
            }
        }
        let line = lx.line_ahead()?;
        match name {
            "init" => {
                // Only the list is read here; `[` must open it.
                if let Some((_, Token::Punct('['))) = lx.peek()? {
                    lx.next()?;
                    init = Some(read_init(&mut lx, budget)?);
                } else {
                    lx.value(0)?;
                    return Err(Lexer::malformed(
                        line,
                        "init must be a list of [row, column] pairs",
                    ));
                }
            }
            "n" => match lx.value(0)? {
                Shape::Int(v) => n = Some((line, v)),
                Shape::Pair(..) | Shape::OtherList => {
                    return Err(Lexer::malformed(line, "n must be a whole number"))
                }
            },
            _ => {
                lx.value(0)?;
            }
        }
    }
    let (n_line, n) = n.ok_or(InstanceParseError::MissingSize)?;
    if n > MAX_N as i128 {
        return Err(Lexer::malformed(
            n_line,
            format!(
                "n = {} is too large: at most {}",
                shorten(&n.to_string()),
                MAX_N
            ),
        ));
    }
    let n = usize::try_from(n)
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| Lexer::malformed(n_line, format!("n must be at least 1 (got {n})")))?;
    let given = init.unwrap_or_default();
    let off = given.squares.iter().position(|q| q.row >= n || q.col >= n);
    if let Some(i) = off {
        let (line, r, c) = match given.unfit {
            Some((first, line, r, c)) if first == i => (line, r, c),
            _ => {
                let q = given.squares[i];
                (given.lines[i] as usize, q.row as i128, q.col as i128)
            }
        };
        return Err(Lexer::malformed(
            line,
            format!(
                "the queen [{r}, {c}] is off the {n}x{n} board (rows and columns are 0 to {}, \
                 as in CSPLib)",
                n - 1
            ),
        ));
    }
    let instance = Instance {
        n,
        fixed: given.squares,
    };
    Ok((instance, given.lines))
}

/// Where a square given twice was given first, in words: ` (first on line 3)`, or ` on this
/// line` when it is the line that gives it again.
fn first_on(line: usize, first: usize) -> String {
    if line == first {
        " on this line".to_string()
    } else {
        format!(" (first on line {first})")
    }
}

/// Text to echo in a message, cut to 40 characters.
fn shorten(text: &str) -> String {
    crate::text::shorten(text, 40)
}

fn pair_error(line: usize) -> InstanceParseError {
    InstanceParseError::Malformed {
        line,
        message: "each element of init must be a [row, column] pair".into(),
    }
}
