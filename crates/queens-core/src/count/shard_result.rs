//! Shard results: the one-line JSON object `queens count --shard I/M --json` writes and
//! `queens merge` reads, written and read here so that both always agree.
//!
//! The idea: a result is a flat JSON object of nine fields, numbers and strings only —
//! `{"n":12,"total":4748,"unique":601,"seconds":0.021,"shard":0,"shards":3,"split":"frame1-v1",
//! "subproblems":130,"checksum":"fnv1a64:..."}` — so a strict reader of that shape needs no JSON
//! library: every field is required (`shard`, `shards` and `checksum` may be absent or `null`,
//! to be refused with a message of their own), none unknown or repeated, no nesting, integers
//! whole and up to 2^128 - 1, the line at most [`MAX_LINE`] bytes. The checksum is the FNV-1a
//! hash (see `checksum.rs`) of the line `queens-count-result 2 n=N total=T unique=U seconds=S
//! shard=I shards=M split=NAME subproblems=K` (`-` for an absent shard), so it does not depend
//! on how the JSON is spaced or ordered. A line that passes is then checked alone: its
//! checksum, its board (1 to [`MAX_N`]), its counts, its time, its shard (below
//! [`MAX_SHARDS`] shards) and its split (one this binary makes of that board, of that many
//! subproblems). What needs several results — same board, no shard twice, none missing — is
//! the merge's. Source: the JSON grammar of RFC 8259, restricted. Cost: one pass over the line;
//! checking a split builds its plan (up to 0.4 s for N = 32), once per split a [`Parser`] meets.

use std::fmt::{self, Write as _};

use thiserror::Error;

use super::{checksum, split_subproblems, Counts, Shard, MAX_N, MAX_SHARDS, SPLIT};

/// The longest result line read, in bytes (a real one has about 200).
pub const MAX_LINE: usize = 4096;

/// How much of a string taken from the input an error message repeats.
const ECHO: usize = 64;

/// One shard's result, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardResult {
    /// The board size.
    pub n: usize,
    /// The shard's share of the solutions and of the classes (eighths of classes for the
    /// half-board engine's shards of more than one).
    pub counts: Counts,
    /// The seconds the shard took.
    pub seconds: f64,
    /// Which shard.
    pub shard: Shard,
    /// The name of the split (see [`SPLIT`]).
    pub split: String,
    /// How many subproblems the split makes of the whole board.
    pub subproblems: usize,
}

/// Why a line is not a shard result. Every message starts with the name the caller gave the
/// line (a file, or a file and a line number).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ShardResultError {
    /// The line is not the JSON object a result is.
    #[error("{name} is not a shard result of `queens count --shard I/M --json`: {syntax}")]
    Malformed {
        /// The line's name.
        name: String,
        /// What is wrong and where.
        syntax: Syntax,
    },
    /// The line has no checksum, as written before results carried one.
    #[error(
        "{name} has no checksum: it was written by a queens binary from before shard results \
         carried one, and cannot be told from a damaged or edited one; count that shard again"
    )]
    NoChecksum {
        /// The line's name.
        name: String,
    },
    /// The checksum does not match the content.
    #[error(
        "{name}: its checksum says {claimed} but its content gives {actual}: the result was \
         damaged or edited"
    )]
    Checksum {
        /// The line's name.
        name: String,
        /// The checksum the line carries (cut short).
        claimed: String,
        /// The checksum of its content.
        actual: String,
    },
    /// N is outside what the counting engine counts.
    #[error("{name} is for N = {n}, but the counting engine counts N from 1 to {MAX_N}")]
    Size {
        /// The line's name.
        name: String,
        /// The N it claims.
        n: usize,
    },
    /// More classes than solutions (impossible but for the half-board engine's eighths).
    #[error("{name} has more classes ({unique}) than solutions ({total})")]
    MoreClasses {
        /// The line's name.
        name: String,
        /// The classes it claims.
        unique: u128,
        /// The solutions it claims.
        total: u128,
    },
    /// The time is negative.
    #[error("{name} has a negative or infinite time")]
    Time {
        /// The line's name.
        name: String,
    },
    /// More shards than a count may have.
    #[error(
        "{name} says the count has {shards} shards, more than the {MAX_SHARDS} a count may have"
    )]
    TooManyShards {
        /// The line's name.
        name: String,
        /// The number of shards it claims.
        shards: u64,
    },
    /// No shard, or a shard index not below the number of shards: a whole count's result.
    #[error(
        "{name} is not a shard result: it has no valid \"shard\" and \"shards\" (count with \
         --shard I/M --json)"
    )]
    NotSharded {
        /// The line's name.
        name: String,
    },
    /// A split this binary does not make of the board.
    #[error(
        "{name} is of the split {split}, which this binary does not make of N = {n} (it makes \
         {SPLIT}, the frame1-rowsD-v1 and the halvesK-v1 splits): parts of different splits \
         cannot be added"
    )]
    UnknownSplit {
        /// The line's name.
        name: String,
        /// The split it names (cut short).
        split: String,
        /// The board size.
        n: usize,
    },
    /// A known split, but of another number of subproblems than this binary makes.
    #[error(
        "{name} is of the split {split} of {subproblems} subproblems, but this binary splits \
         N = {n} that way into {plan}: parts of different splits cannot be added"
    )]
    Plan {
        /// The line's name.
        name: String,
        /// The split it names.
        split: String,
        /// The subproblems it claims.
        subproblems: usize,
        /// The board size.
        n: usize,
        /// The subproblems this binary makes.
        plan: usize,
    },
}

/// What is wrong with the text of a line; `at` is a byte offset from 1.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Syntax {
    /// The line is longer than [`MAX_LINE`].
    #[error("the line has {len} bytes, more than the {MAX_LINE} a result has")]
    TooLong {
        /// Its length.
        len: usize,
    },
    /// Something else than the grammar allows.
    #[error("expected {what} at byte {at}")]
    Expected {
        /// What was expected.
        what: &'static str,
        /// Where.
        at: usize,
    },
    /// Text after the object.
    #[error("trailing characters at byte {at}")]
    Trailing {
        /// Where.
        at: usize,
    },
    /// A field that results do not have.
    #[error("unknown field `{field}`")]
    UnknownField {
        /// Its name (cut short).
        field: String,
    },
    /// A field given twice.
    #[error("duplicate field `{0}`")]
    DuplicateField(&'static str),
    /// A required field not given.
    #[error("missing field `{0}`")]
    MissingField(&'static str),
    /// A field of the wrong type.
    #[error("field `{field}` must be {expected}")]
    WrongType {
        /// The field.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// A number too large for its field.
    #[error("field `{field}` is out of range")]
    OutOfRange {
        /// The field.
        field: &'static str,
    },
}

/// The checksum of a result's content (see the module's documentation): `shard` and `shards`
/// as written, `None` when absent.
pub fn result_checksum(
    n: usize,
    counts: Counts,
    seconds: f64,
    shard: Option<u64>,
    shards: Option<u64>,
    split: &str,
    subproblems: usize,
) -> String {
    let or_dash = |x: Option<u64>| x.map_or("-".to_string(), |x| x.to_string());
    let line = format!(
        "queens-count-result 2 n={n} total={} unique={} seconds={seconds} shard={} shards={} \
         split={split} subproblems={subproblems}",
        counts.total,
        counts.unique,
        or_dash(shard),
        or_dash(shards)
    );
    checksum(line.as_bytes())
}

/// The JSON line of a count's result, with its checksum and without a newline: what
/// `queens count --json` prints, `shard` `None` for a whole count (whose line has no `shard`
/// nor `shards`).
pub fn result_line(
    n: usize,
    counts: Counts,
    seconds: f64,
    shard: Option<Shard>,
    split: &str,
    subproblems: usize,
) -> String {
    let (index, count) = (shard.map(|s| s.index), shard.map(|s| s.count));
    let sum = result_checksum(n, counts, seconds, index, count, split, subproblems);
    let mut line = format!(
        "{{\"n\":{n},\"total\":{},\"unique\":{},\"seconds\":{}",
        counts.total,
        counts.unique,
        Seconds(seconds)
    );
    if let Some(s) = shard {
        let _ = write!(line, ",\"shard\":{},\"shards\":{}", s.index, s.count);
    }
    let _ = write!(
        line,
        ",\"split\":{},\"subproblems\":{subproblems},\"checksum\":{}}}",
        JsonString(split),
        JsonString(&sum)
    );
    line
}

impl ShardResult {
    /// This result's line (see [`result_line`]).
    pub fn to_line(&self) -> String {
        result_line(
            self.n,
            self.counts,
            self.seconds,
            Some(self.shard),
            &self.split,
            self.subproblems,
        )
    }

    /// Reads and checks one line, named `name` in errors (see [`Parser::parse`]).
    ///
    /// # Example
    /// ```
    /// use queens_core::count::shard_result::{result_line, ShardResult, ShardResultError};
    /// use queens_core::count::{split_subproblems, Counts, Shard, SPLIT};
    ///
    /// let plan = split_subproblems(8, SPLIT).unwrap();
    /// let counts = Counts { total: 92, unique: 12 };
    /// let line = result_line(8, counts, 0.5, Some(Shard::WHOLE), SPLIT, plan);
    /// let part = ShardResult::parse("part.json", &line)?;
    /// assert_eq!((part.counts, part.shard), (counts, Shard::WHOLE));
    /// // The same count, edited.
    /// let edited = line.replace("\"total\":92", "\"total\":93");
    /// let err = ShardResult::parse("part.json", &edited).unwrap_err();
    /// assert!(matches!(err, ShardResultError::Checksum { .. }));
    /// # Ok::<(), ShardResultError>(())
    /// ```
    pub fn parse(name: &str, line: &str) -> Result<ShardResult, ShardResultError> {
        Parser::new().parse(name, line)
    }
}

/// A reader of many result lines: it remembers the splits it has checked, so that the plan of
/// each is built once (there are a few hundred known splits, so the memory stays small).
#[derive(Debug, Default)]
pub struct Parser {
    known: Vec<(usize, String, usize)>,
}

impl Parser {
    /// A reader that has checked no split yet.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Reads one line (surrounding whitespace allowed) and checks it, in this order: its
    /// syntax, its checksum, its N, classes against solutions, its time, its shard, its split.
    pub fn parse(&mut self, name: &str, line: &str) -> Result<ShardResult, ShardResultError> {
        let f = fields(line).map_err(|syntax| ShardResultError::Malformed {
            name: name.to_string(),
            syntax,
        })?;
        let name = || name.to_string();
        let counts = Counts {
            total: f.total,
            unique: f.unique,
        };
        let Some(claimed) = &f.checksum else {
            return Err(ShardResultError::NoChecksum { name: name() });
        };
        let actual = result_checksum(
            f.n,
            counts,
            f.seconds,
            f.shard,
            f.shards,
            &f.split,
            f.subproblems,
        );
        if *claimed != actual {
            return Err(ShardResultError::Checksum {
                name: name(),
                claimed: cut(claimed),
                actual,
            });
        }
        if !(1..=MAX_N).contains(&f.n) {
            return Err(ShardResultError::Size {
                name: name(),
                n: f.n,
            });
        }
        // (The half-board engine's shards and those of pieces report eighths of classes, which
        // may exceed the total.)
        if f.unique > f.total && !super::unique_in_eighths(&f.split) {
            return Err(ShardResultError::MoreClasses {
                name: name(),
                unique: f.unique,
                total: f.total,
            });
        }
        if !(f.seconds.is_finite() && f.seconds >= 0.0) {
            return Err(ShardResultError::Time { name: name() });
        }
        let shard = match (f.shard, f.shards) {
            (Some(index), Some(count)) if index < count && count <= MAX_SHARDS => {
                Shard { index, count }
            }
            (Some(_), Some(shards)) if shards > MAX_SHARDS => {
                return Err(ShardResultError::TooManyShards {
                    name: name(),
                    shards,
                })
            }
            _ => return Err(ShardResultError::NotSharded { name: name() }),
        };
        let plan = self
            .plan(f.n, &f.split)
            .ok_or_else(|| ShardResultError::UnknownSplit {
                name: name(),
                split: cut(&f.split),
                n: f.n,
            })?;
        if plan != f.subproblems {
            return Err(ShardResultError::Plan {
                name: name(),
                split: f.split,
                subproblems: f.subproblems,
                n: f.n,
                plan,
            });
        }
        Ok(ShardResult {
            n: f.n,
            counts,
            seconds: f.seconds,
            shard,
            split: f.split,
            subproblems: f.subproblems,
        })
    }

    /// The subproblems of the split `split` of N = `n`, built once per known split.
    fn plan(&mut self, n: usize, split: &str) -> Option<usize> {
        if let Some(&(_, _, plan)) = self.known.iter().find(|k| k.0 == n && k.1 == split) {
            return Some(plan);
        }
        // Only known splits are remembered, and there are finitely many.
        let plan = split_subproblems(n, split)?;
        self.known.push((n, split.to_string(), plan));
        Some(plan)
    }
}

/// `s`, cut to [`ECHO`] characters.
fn cut(s: &str) -> String {
    match s.char_indices().nth(ECHO) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// The fields of a line as written, before any check of their meaning.
struct Fields {
    n: usize,
    total: u128,
    unique: u128,
    seconds: f64,
    shard: Option<u64>,
    shards: Option<u64>,
    split: String,
    subproblems: usize,
    checksum: Option<String>,
}

/// The names of the fields, in the order written.
const NAMES: [&str; 9] = [
    "n",
    "total",
    "unique",
    "seconds",
    "shard",
    "shards",
    "split",
    "subproblems",
    "checksum",
];

/// A value as read: a number's text, a string, or `null`.
enum Value<'a> {
    Number(&'a str),
    String(String),
    Null,
}

/// Reads the object of a line.
fn fields(line: &str) -> Result<Fields, Syntax> {
    if line.len() > MAX_LINE {
        return Err(Syntax::TooLong { len: line.len() });
    }
    let mut r = Reader { text: line, pos: 0 };
    let mut f = Fields {
        n: 0,
        total: 0,
        unique: 0,
        seconds: 0.0,
        shard: None,
        shards: None,
        split: String::new(),
        subproblems: 0,
        checksum: None,
    };
    let mut seen = [false; NAMES.len()];
    r.skip_space();
    r.expect(b'{', "`{`")?;
    r.skip_space();
    if r.peek() == Some(b'}') {
        r.pos += 1;
    } else {
        loop {
            r.skip_space();
            if r.peek() != Some(b'"') {
                return Err(r.expected("a field name in quotes"));
            }
            let key = r.string()?;
            let Some(k) = NAMES.iter().position(|&name| name == key) else {
                return Err(Syntax::UnknownField { field: cut(&key) });
            };
            if std::mem::replace(&mut seen[k], true) {
                return Err(Syntax::DuplicateField(NAMES[k]));
            }
            r.skip_space();
            r.expect(b':', "`:`")?;
            r.skip_space();
            let value = r.value()?;
            let field = NAMES[k];
            match k {
                0 => f.n = whole(field, value)?,
                1 => f.total = whole(field, value)?,
                2 => f.unique = whole(field, value)?,
                3 => f.seconds = real(field, value)?,
                4 => f.shard = optional(value, |v| whole(field, v))?,
                5 => f.shards = optional(value, |v| whole(field, v))?,
                6 => f.split = text(field, value)?,
                7 => f.subproblems = whole(field, value)?,
                _ => f.checksum = optional(value, |v| text(field, v))?,
            }
            r.skip_space();
            match r.peek() {
                Some(b',') => r.pos += 1,
                Some(b'}') => {
                    r.pos += 1;
                    break;
                }
                _ => return Err(r.expected("`,` or `}`")),
            }
        }
    }
    r.skip_space();
    if r.pos < line.len() {
        return Err(Syntax::Trailing { at: r.pos + 1 });
    }
    // `shard`, `shards` and `checksum` may be absent: the checks say why that is wrong.
    for (k, &name) in NAMES.iter().enumerate() {
        if !seen[k] && !matches!(name, "shard" | "shards" | "checksum") {
            return Err(Syntax::MissingField(name));
        }
    }
    Ok(f)
}

/// `None` for `null`, else `read(value)`.
fn optional<T>(
    value: Value<'_>,
    read: impl FnOnce(Value<'_>) -> Result<T, Syntax>,
) -> Result<Option<T>, Syntax> {
    match value {
        Value::Null => Ok(None),
        v => read(v).map(Some),
    }
}

/// A whole number of `T` (no sign, fraction or exponent).
fn whole<T: TryFrom<u128>>(field: &'static str, value: Value<'_>) -> Result<T, Syntax> {
    let wrong = Syntax::WrongType {
        field,
        expected: "a whole number of at least 0",
    };
    let Value::Number(digits) = value else {
        return Err(wrong);
    };
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(wrong);
    }
    let out_of_range = Syntax::OutOfRange { field };
    let x: u128 = digits.parse().map_err(|_| out_of_range.clone())?;
    T::try_from(x).map_err(|_| out_of_range)
}

/// A finite number.
fn real(field: &'static str, value: Value<'_>) -> Result<f64, Syntax> {
    let Value::Number(number) = value else {
        return Err(Syntax::WrongType {
            field,
            expected: "a number",
        });
    };
    match number.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(Syntax::OutOfRange { field }),
    }
}

/// A string.
fn text(field: &'static str, value: Value<'_>) -> Result<String, Syntax> {
    match value {
        Value::String(s) => Ok(s),
        _ => Err(Syntax::WrongType {
            field,
            expected: "a string",
        }),
    }
}

/// A cursor over the line.
struct Reader<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn expected(&self, what: &'static str) -> Syntax {
        Syntax::Expected {
            what,
            at: self.pos + 1,
        }
    }

    fn expect(&mut self, byte: u8, what: &'static str) -> Result<(), Syntax> {
        if self.peek() != Some(byte) {
            return Err(self.expected(what));
        }
        self.pos += 1;
        Ok(())
    }

    /// JSON's whitespace: space, tab, line feed, carriage return.
    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// A number, a string or `null`; anything else (objects, arrays, booleans) is refused.
    fn value(&mut self) -> Result<Value<'a>, Syntax> {
        match self.peek() {
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number().map(Value::Number),
            Some(b'n') if self.text[self.pos..].starts_with("null") => {
                self.pos += 4;
                Ok(Value::Null)
            }
            _ => Err(self.expected("a number, a string or null")),
        }
    }

    /// A number by RFC 8259's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&mut self) -> Result<&'a str, Syntax> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.expected("a digit")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.expected("a digit"));
            }
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.expected("a digit"));
            }
            self.digits();
        }
        Ok(&self.text[start..self.pos])
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
    }

    /// A string in quotes, its escapes decoded; control characters are refused, as JSON does.
    fn string(&mut self) -> Result<String, Syntax> {
        self.expect(b'"', "`\"`")?;
        let mut out = String::new();
        loop {
            let rest = &self.text[self.pos..];
            let plain = rest
                .find(|c: char| c == '"' || c == '\\' || c < ' ')
                .ok_or_else(|| Syntax::Expected {
                    what: "the closing `\"`",
                    at: self.text.len() + 1,
                })?;
            out.push_str(&rest[..plain]);
            self.pos += plain;
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let c = self.escape()?;
                    out.push(c);
                }
                _ => return Err(self.expected("no control character in a string")),
            }
        }
    }

    /// The character of the escape after a backslash.
    fn escape(&mut self) -> Result<char, Syntax> {
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                let high = self.hex4()?;
                if !(0xD800..0xDC00).contains(&high) {
                    return char::from_u32(high).ok_or_else(|| self.expected("a valid \\u escape"));
                }
                // A surrogate pair: `\uD83D\uDE00`.
                if !self.text[self.pos..].starts_with("\\u") {
                    return Err(self.expected("the second half of a surrogate pair"));
                }
                self.pos += 2;
                let low = self.hex4()?;
                if !(0xDC00..0xE000).contains(&low) {
                    return Err(self.expected("the second half of a surrogate pair"));
                }
                let c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                return char::from_u32(c).ok_or_else(|| self.expected("a valid \\u escape"));
            }
            _ => return Err(self.expected("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)")),
        };
        self.pos += 1;
        Ok(c)
    }

    /// Four hexadecimal digits.
    fn hex4(&mut self) -> Result<u32, Syntax> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.expected("four hexadecimal digits"))?;
        self.pos += 4;
        u32::from_str_radix(digits, 16).map_err(|_| self.expected("four hexadecimal digits"))
    }
}

/// Seconds as JSON: the shortest text that reads back as the same number, with a `.0` on whole
/// numbers; a number that is not finite as `null` (both as `serde_json` writes them).
struct Seconds(f64);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_finite() {
            write!(f, "{:?}", self.0)
        } else {
            f.write_str("null")
        }
    }
}

/// A string as JSON, in quotes, with `"`, `\` and control characters escaped.
struct JsonString<'a>(&'a str);

impl fmt::Display for JsonString<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if c < ' ' => write!(f, "\\u{:04x}", c as u32)?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A right result of shard `index` of `count` of N = 8 on the frame split.
    fn good(index: u64, count: u64) -> String {
        let plan = split_subproblems(8, SPLIT).unwrap();
        let counts = Counts {
            total: 40,
            unique: 5,
        };
        let shard = Shard::new(index, count).unwrap();
        result_line(8, counts, 0.021, Some(shard), SPLIT, plan)
    }

    /// The line with `from` replaced by `to`, its checksum recomputed: damage the checksum
    /// does not catch, so that the checks after it are reached.
    fn resummed(line: &str, from: &str, to: &str) -> String {
        let edited = line.replace(from, to);
        assert_ne!(edited, line, "{from} is not in {line}");
        let start = edited.find(",\"checksum\"").unwrap();
        let f = fields(&format!("{}}}", &edited[..start])).unwrap();
        let sum = result_checksum(
            f.n,
            Counts {
                total: f.total,
                unique: f.unique,
            },
            f.seconds,
            f.shard,
            f.shards,
            &f.split,
            f.subproblems,
        );
        format!("{},\"checksum\":\"{sum}\"}}", &edited[..start])
    }

    fn refusal(line: &str) -> ShardResultError {
        ShardResult::parse("p", line).unwrap_err()
    }

    #[test]
    fn a_written_line_reads_back_as_the_same_result() {
        let line = good(2, 3);
        let part = ShardResult::parse("p", &line).unwrap();
        assert_eq!(part.shard, Shard::new(2, 3).unwrap());
        assert_eq!((part.counts.total, part.counts.unique), (40, 5));
        assert_eq!(part.seconds, 0.021);
        assert_eq!(part.to_line(), line);
        // Spaces, another order and escapes do not change what is read.
        let spaced = format!(
            " {{ \"checksum\" : {} , {} }} ",
            &line[line.find("\"fnv").unwrap()..line.len() - 1],
            &line[1..line.find(",\"checksum").unwrap()].replace("frame", "fr\\u0061me")
        );
        assert_eq!(ShardResult::parse("p", &spaced).unwrap(), part);
    }

    #[test]
    fn the_line_matches_what_serde_json_wrote_before() {
        // As `queens count 12 --engine frame --shard 0/3 --json` printed it through serde.
        let plan = split_subproblems(12, SPLIT).unwrap();
        let counts = Counts {
            total: 4748,
            unique: 601,
        };
        let line = result_line(12, counts, 1.0, Shard::new(0, 3).ok(), SPLIT, plan);
        assert!(
            line.starts_with(
                "{\"n\":12,\"total\":4748,\"unique\":601,\"seconds\":1.0,\"shard\":0,\
                 \"shards\":3,\"split\":\"frame1-v1\",\"subproblems\":"
            ),
            "{line}"
        );
        // A whole count has no shard fields, and is no shard result.
        let whole = result_line(12, counts, 1.0, None, SPLIT, plan);
        assert!(!whole.contains("shard\""), "{whole}");
        assert!(matches!(
            refusal(&whole),
            ShardResultError::NotSharded { .. }
        ));
    }

    #[test]
    fn each_check_refuses_with_its_own_error() {
        let line = good(0, 2);
        let cases: Vec<(String, &str)> = vec![
            ("hello".into(), "expected `{` at byte 1"),
            (
                line.replace("\"total\":40", "\"total\":41"),
                "checksum says",
            ),
            (
                line.replace(",\"checksum\"", ",\"extra\":1,\"checksum\""),
                "unknown field `extra`",
            ),
            (
                line.replace("{\"n\":8,", "{\"n\":8,\"n\":8,"),
                "duplicate field `n`",
            ),
            (line.replace("\"n\":8,", ""), "missing field `n`"),
            (line.replace("\"n\":8", "\"n\":8.0"), "`n` must be a whole"),
            (line.replace("\"n\":8", "\"n\":[8]"), "expected a number"),
            (
                line.replace("\"total\":40", &format!("\"total\":{}0", u128::MAX)),
                "`total` is out of range",
            ),
            (format!("{line}x"), "trailing characters"),
            (
                format!("{line:<width$}", width = MAX_LINE + 1),
                "more than the 4096",
            ),
            (
                line.replace(",\"checksum\":\"fnv1a64:", ",\"checksum\":null,\"x\":\""),
                "unknown field",
            ),
            (resummed(&line, "\"n\":8", "\"n\":33"), "N from 1 to 32"),
            (resummed(&line, "\"n\":8", "\"n\":0"), "N from 1 to 32"),
            (
                resummed(&line, "\"unique\":5", "\"unique\":50"),
                "more classes (50) than solutions (40)",
            ),
            (
                resummed(&line, "\"seconds\":0.021", "\"seconds\":-1"),
                "negative or infinite time",
            ),
            (
                resummed(&line, "\"shards\":2", "\"shards\":2000000"),
                "more than the 1048576",
            ),
            (
                resummed(&line, "\"shard\":0", "\"shard\":2"),
                "no valid \"shard\"",
            ),
            (
                resummed(&line, "\"shard\":0", "\"shard\":null"),
                "no valid \"shard\"",
            ),
            (
                resummed(&line, "frame1-v1", "frame2-v1"),
                "split frame2-v1, which this binary does not make of N = 8",
            ),
            (
                resummed(&line, "\"subproblems\":", "\"subproblems\":9"),
                "this binary splits N = 8 that way into",
            ),
        ];
        for (bad, message) in cases {
            let err = refusal(&bad).to_string();
            assert!(
                err.starts_with('p') && err.contains(message),
                "{bad}: {err}"
            );
            assert!(err.len() < 400, "{err}");
        }
        let no_sum = &line[..line.find(",\"checksum").unwrap()];
        assert!(matches!(
            refusal(&format!("{no_sum}}}")),
            ShardResultError::NoChecksum { .. }
        ));
    }

    #[test]
    fn a_parser_builds_each_split_once() {
        let mut parser = Parser::new();
        for i in 0..5 {
            parser.parse("p", &good(i, 5)).unwrap();
        }
        assert_eq!(parser.known.len(), 1);
    }

    /// A byte of `line` changed, a byte inserted or a range removed.
    fn mutate(line: &str, at: usize, byte: u8, how: u8) -> Vec<u8> {
        let mut bytes = line.as_bytes().to_vec();
        let at = at % (bytes.len() + 1);
        match how % 3 {
            0 if at < bytes.len() => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => {
                let end = (at + usize::from(byte % 8) + 1).min(bytes.len());
                bytes.drain(at.min(end)..end);
            }
        }
        bytes
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_give_a_result_or_a_typed_error(
            bytes in proptest::collection::vec(proptest::prop_oneof![
                proptest::prelude::any::<u8>(),
                proptest::sample::select(b"{}[]\",:0123456789.eE-+ \\unlx".to_vec()),
            ], 0..300),
        ) {
            let text = String::from_utf8_lossy(&bytes);
            if let Err(err) = ShardResult::parse("p", &text) {
                proptest::prop_assert!(err.to_string().len() < 400, "{err}");
            }
        }

        #[test]
        fn a_mutated_line_whose_checksum_no_longer_matches_is_refused(
            index in 0u64..4,
            mutations in proptest::collection::vec((0usize..400, proptest::prelude::any::<u8>(), 0u8..3), 1..4),
        ) {
            let line = good(index, 4);
            let original = ShardResult::parse("p", &line).unwrap();
            let mut bytes = line.clone().into_bytes();
            for &(at, byte, how) in &mutations {
                bytes = mutate(&String::from_utf8_lossy(&bytes), at, byte, how);
            }
            let text = String::from_utf8_lossy(&bytes);
            match ShardResult::parse("p", &text) {
                // Only a change that keeps the content (spacing, an escape) is accepted.
                Ok(part) => proptest::prop_assert_eq!(part, original.clone(), "{}", text),
                Err(err) => proptest::prop_assert!(err.to_string().len() < 400, "{err}"),
            }
            // Whatever the syntax, content that differs from what the checksum covers is refused.
            if let Ok(f) = fields(&text) {
                let counts = Counts { total: f.total, unique: f.unique };
                let same = f.checksum.as_deref() == Some(&result_checksum(
                    f.n, counts, f.seconds, f.shard, f.shards, &f.split, f.subproblems,
                )[..]);
                if !same {
                    proptest::prop_assert!(ShardResult::parse("p", &text).is_err(), "{}", text);
                }
            }
        }
    }
}
