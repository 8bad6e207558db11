//! The strict reader of a result's text: a flat JSON object of the eleven known fields, numbers,
//! strings and `null` only, by RFC 8259's grammar; nothing is checked for meaning here. It
//! calls only `error.rs`.

use super::error::{cut, Syntax, MAX_LINE};

/// The fields of a line as written, before any check of their meaning.
pub(super) struct Fields {
    pub(super) n: usize,
    pub(super) total: u128,
    pub(super) unique: u128,
    pub(super) seconds: f64,
    pub(super) shard: Option<u64>,
    pub(super) shards: Option<u64>,
    pub(super) split: String,
    pub(super) subproblems: usize,
    pub(super) checksum: Option<String>,
    pub(super) mac: Option<String>,
    pub(super) unique_unit: Option<String>,
}

/// The names of the fields, in the order written.
const NAMES: [&str; 11] = [
    "n",
    "total",
    "unique",
    "seconds",
    "shard",
    "shards",
    "split",
    "subproblems",
    "checksum",
    "mac",
    "unique_unit",
];

/// A value as read: a number's text, a string, or `null`.
enum Value<'a> {
    Number(&'a str),
    String(String),
    Null,
}

/// Reads the object of a line.
pub(super) fn fields(line: &str) -> Result<Fields, Syntax> {
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
        mac: None,
        unique_unit: None,
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
                8 => f.checksum = optional(value, |v| text(field, v))?,
                9 => f.mac = optional(value, |v| text(field, v))?,
                _ => f.unique_unit = optional(value, |v| text(field, v))?,
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
    // `shard`, `shards`, `checksum` and `mac` may be absent: the checks say why that is wrong;
    // `unique_unit` too, as in the lines written before issue 39.
    for (k, &name) in NAMES.iter().enumerate() {
        if !seen[k]
            && !matches!(
                name,
                "shard" | "shards" | "checksum" | "mac" | "unique_unit"
            )
        {
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
