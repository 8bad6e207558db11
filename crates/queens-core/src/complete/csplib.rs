//! Reading a completion instance: a CSPLib problem 79 parameter file, or one drawn board.
//!
//! The CSPLib format is Essence' parameter syntax, tokenised by hand (no parser generator): the
//! reader makes one pass over the text, so it is O(length of the input).

use thiserror::Error;

use super::Instance;
use crate::board::Square;
use crate::parse::{parse_entries, Entry};

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
}

/// Reads an instance: a CSPLib problem 79 parameter file when the text has a `letting`,
/// otherwise one drawn board (`Q` for the given queens, `.` elsewhere).
///
/// The CSPLib format is Essence' parameter syntax: `letting n = 8` (or `be`), and
/// `letting init = [[r, c], ...]`, a list of row, column pairs, 0-based as written by the
/// CSPLib generators (`queens-gen-fast.py`, `queens-diag-transform.py`). `$` starts a comment,
/// a `language ESSENCE' 1.0` line is skipped, white space and line breaks are free, and other
/// `letting`s are ignored.
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
    let is_csplib = text
        .lines()
        .any(|l| l.split('$').next().unwrap_or("").contains("letting"));
    if is_csplib {
        return parse_csplib(text);
    }
    let entries = parse_entries(text)?;
    match <[_; 1]>::try_from(entries) {
        Ok([located]) => match located.entry {
            Entry::Board { n, queens } => Ok(Instance { n, fixed: queens }),
            Entry::Positions(_) => Err(InstanceParseError::NotOneBoard),
        },
        Err(_) => Err(InstanceParseError::NotOneBoard),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Int(i128),
    Punct(char),
}

fn tokenize(text: &str) -> Result<Vec<(usize, Token)>, InstanceParseError> {
    let mut tokens = Vec::new();
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let body = raw.split('$').next().unwrap_or("");
        if body.trim_start().starts_with("language ") {
            continue;
        }
        let mut chars = body.char_indices().peekable();
        while let Some(&(start, ch)) = chars.peek() {
            if ch.is_whitespace() {
                chars.next();
            } else if ch.is_ascii_alphabetic() || ch == '_' {
                let mut end = start;
                while let Some(&(i, c)) = chars.peek() {
                    if c.is_ascii_alphanumeric() || c == '_' || c == '\'' {
                        end = i + c.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                tokens.push((line, Token::Word(body[start..end].to_string())));
            } else if ch.is_ascii_digit() || ch == '-' {
                let mut end = start + 1;
                chars.next();
                while let Some(&(i, c)) = chars.peek() {
                    if c.is_ascii_digit() {
                        end = i + 1;
                        chars.next();
                    } else {
                        break;
                    }
                }
                let text = &body[start..end];
                let value = text
                    .parse::<i128>()
                    .map_err(|_| InstanceParseError::Malformed {
                        line,
                        message: if text.len() > 2 {
                            format!(
                            "{} ({} digits) is too large: sizes, rows and columns are at most {}",
                            shorten(text),
                            text.len() - usize::from(text.starts_with('-')),
                            super::MAX_N
                        )
                        } else {
                            format!("'{text}' is not a whole number")
                        },
                    })?;
                tokens.push((line, Token::Int(value)));
            } else if "[],=".contains(ch) {
                tokens.push((line, Token::Punct(ch)));
                chars.next();
            } else {
                return Err(InstanceParseError::Malformed {
                    line,
                    message: format!(
                        "unexpected '{}' in a CSPLib parameter file",
                        crate::text::escape(ch.encode_utf8(&mut [0; 4]))
                    ),
                });
            }
        }
    }
    Ok(tokens)
}

/// The deepest nesting of lists the reader follows (it reads them recursively); `init` needs 2.
pub const MAX_NESTING: usize = 16;

/// A parameter value: a whole number or a list of values.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Value {
    Int(i128),
    List(Vec<(usize, Value)>),
}

struct Tokens {
    tokens: Vec<(usize, Token)>,
    at: usize,
}

impl Tokens {
    fn line(&self) -> usize {
        self.tokens
            .get(self.at)
            .or(self.tokens.last())
            .map_or(1, |t| t.0)
    }

    fn malformed(&self, message: impl Into<String>) -> InstanceParseError {
        InstanceParseError::Malformed {
            line: self.line(),
            message: message.into(),
        }
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.at).map(|t| t.1.clone());
        self.at += 1;
        t
    }

    /// Reads a value whose lists sit `depth` deep in others.
    fn value(&mut self, depth: usize) -> Result<Value, InstanceParseError> {
        let line = self.line();
        match self.next() {
            Some(Token::Int(v)) => Ok(Value::Int(v)),
            Some(Token::Punct('[')) if depth >= MAX_NESTING => Err(InstanceParseError::Malformed {
                line,
                message: format!(
                    "lists nested more than {MAX_NESTING} deep (init is a list of [row, column] \
                     pairs: 2 deep)"
                ),
            }),
            Some(Token::Punct('[')) => {
                let mut items = Vec::new();
                if self.tokens.get(self.at).map(|t| &t.1) == Some(&Token::Punct(']')) {
                    self.at += 1;
                    return Ok(Value::List(items));
                }
                loop {
                    let item_line = self.line();
                    items.push((item_line, self.value(depth + 1)?));
                    match self.next() {
                        Some(Token::Punct(',')) => {}
                        Some(Token::Punct(']')) => return Ok(Value::List(items)),
                        _ => {
                            self.at -= 1;
                            return Err(self.malformed("expected ',' or ']' in a list"));
                        }
                    }
                }
            }
            other => Err(InstanceParseError::Malformed {
                line,
                message: match other {
                    None => "the file ends where a value was expected".to_string(),
                    Some(t) => format!("expected a number or a list, found {}", describe(&t)),
                },
            }),
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

fn parse_csplib(text: &str) -> Result<Instance, InstanceParseError> {
    let mut toks = Tokens {
        tokens: tokenize(text)?,
        at: 0,
    };
    let mut n: Option<(usize, i128)> = None;
    let mut init: Option<Vec<(usize, Value)>> = None;
    while let Some(tok) = toks.next() {
        if tok != Token::Word("letting".into()) {
            toks.at -= 1;
            return Err(toks.malformed(format!("expected 'letting', found {}", describe(&tok))));
        }
        let name = match toks.next() {
            Some(Token::Word(w)) => w,
            _ => {
                toks.at -= 1;
                return Err(toks.malformed("expected a name after 'letting'"));
            }
        };
        match toks.next() {
            Some(Token::Punct('=')) => {}
            Some(Token::Word(w)) if w == "be" => {}
            _ => {
                toks.at -= 1;
                return Err(toks.malformed(format!(
                    "expected '=' or 'be' after 'letting {}'",
                    shorten(&name)
                )));
            }
        }
        let line = toks.line();
        let value = toks.value(0)?;
        match (name.as_str(), value) {
            ("n", Value::Int(v)) => n = Some((line, v)),
            ("n", Value::List(_)) => {
                return Err(InstanceParseError::Malformed {
                    line,
                    message: "n must be a whole number".into(),
                })
            }
            ("init", Value::List(items)) => init = Some(items),
            ("init", Value::Int(_)) => {
                return Err(InstanceParseError::Malformed {
                    line,
                    message: "init must be a list of [row, column] pairs".into(),
                })
            }
            _ => {}
        }
    }
    let (n_line, n) = n.ok_or(InstanceParseError::MissingSize)?;
    if n > super::MAX_N as i128 {
        return Err(InstanceParseError::Malformed {
            line: n_line,
            message: format!(
                "n = {} is too large: at most {}",
                shorten(&n.to_string()),
                super::MAX_N
            ),
        });
    }
    let n = usize::try_from(n).ok().filter(|&n| n >= 1).ok_or_else(|| {
        InstanceParseError::Malformed {
            line: n_line,
            message: format!("n must be at least 1 (got {n})"),
        }
    })?;
    let mut fixed = Vec::new();
    for (line, item) in init.unwrap_or_default() {
        let pair = match item {
            Value::List(pair) => match pair.as_slice() {
                [(_, Value::Int(r)), (_, Value::Int(c))] => (*r, *c),
                _ => return Err(pair_error(line)),
            },
            Value::Int(_) => return Err(pair_error(line)),
        };
        let (r, c) = pair;
        let on_board = |v: i128| usize::try_from(v).ok().filter(|&v| v < n);
        match (on_board(r), on_board(c)) {
            (Some(row), Some(col)) => fixed.push(Square { row, col }),
            _ => {
                return Err(InstanceParseError::Malformed {
                    line,
                    message: format!(
                        "the queen [{r}, {c}] is off the {n}x{n} board (rows and columns are 0 \
                         to {}, as in CSPLib)",
                        n - 1
                    ),
                })
            }
        }
    }
    Ok(Instance { n, fixed })
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
