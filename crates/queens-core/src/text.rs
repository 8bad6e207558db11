//! Text of messages: input echoed back in an error, cut short so that a huge or binary input
//! never floods the terminal, and with its control characters escaped so that it can never
//! drive the terminal (set its title, clear the screen, ring the bell). It calls nothing; the
//! parsers of the engine and the binary use it.

use std::borrow::Cow;
use std::fmt::Write;
use std::path::Path;

/// Why a text is not a whole number [`decimal`] takes. Its message names no text: the caller,
/// who knows what the number was for, quotes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotDecimal {
    /// Something other than decimal digits, or nothing.
    #[error("not a whole number in decimal digits")]
    NotDigits,
    /// Decimal digits, of a number past `u64`.
    #[error("a number past 18446744073709551615")]
    TooLarge,
}

/// `text` as a whole number written in decimal digits only, as every number of the command
/// line, the JSON API and the saved files is written: no sign, no space, no exponent (Rust's
/// `parse` alone takes `+8`).
///
/// # Example
/// ```
/// use queens_core::text::{decimal, NotDecimal};
/// assert_eq!(decimal("08"), Ok(8));
/// assert_eq!(decimal("+8"), Err(NotDecimal::NotDigits));
/// assert_eq!(decimal("18446744073709551616"), Err(NotDecimal::TooLarge));
/// ```
pub fn decimal(text: &str) -> Result<u64, NotDecimal> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NotDecimal::NotDigits);
    }
    text.parse().map_err(|_| NotDecimal::TooLarge)
}

/// `text` cut to its first `max` characters, with `...` when something was cut, and its control
/// characters escaped ([`escape`]).
///
/// # Example
/// ```
/// use queens_core::text::shorten;
/// assert_eq!(shorten("abcdef", 3), "abc...");
/// assert_eq!(shorten("abc", 3), "abc");
/// assert_eq!(shorten("\u{1b}]0;pwned\u{7}", 40), r"\x1b]0;pwned\x07");
/// ```
pub fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", escape(&text[..i])),
        None => escape(text).into_owned(),
    }
}

/// `text` with every character that could act on a terminal written as an escape, so that
/// input echoed in a message is shown, never obeyed: the C0 controls and DEL as `\0`, `\t`,
/// `\n`, `\r` or `\xHH` (ESC is `\x1b`, BEL `\x07`), the C1 controls (U+0080 to U+009F, CSI
/// among them) and the bidirectional formatting characters (which reorder what follows them
/// on the screen) as `\u{HHHH}`. Printable text, UTF-8 included, is kept as it is; nothing is
/// copied when there is nothing to escape.
///
/// # Example
/// ```
/// use queens_core::text::escape;
/// assert_eq!(escape("é 0 1\u{0}\u{1b}[2J"), r"é 0 1\0\x1b[2J");
/// assert_eq!(escape("plain"), "plain");
/// ```
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !needs_escape(c) {
            out.push(c);
            continue;
        }
        let _ = match c {
            '\0' => out.write_str("\\0"),
            '\t' => out.write_str("\\t"),
            '\n' => out.write_str("\\n"),
            '\r' => out.write_str("\\r"),
            c if (c as u32) < 0x80 => write!(out, "\\x{:02x}", c as u32),
            c => write!(out, "\\u{{{:x}}}", c as u32),
        };
    }
    Cow::Owned(out)
}

/// How a file's path is named in a message: as [`Path::display`] shows it, with its control
/// characters escaped ([`escape`]), so that a file named with an escape sequence is shown, never
/// obeyed.
///
/// # Example
/// ```
/// use std::path::Path;
/// use queens_core::text::escape_path;
/// assert_eq!(escape_path(Path::new("runs/n20.ck")), "runs/n20.ck");
/// assert_eq!(escape_path(Path::new("\u{1b}[2J.ck")), r"\x1b[2J.ck");
/// ```
pub fn escape_path(path: &Path) -> String {
    escape(&path.display().to_string()).into_owned()
}

/// `text`, which may run over several lines, with the control characters of each line escaped
/// ([`escape`]) and its line breaks kept: for a whole message that quotes input somewhere.
///
/// # Example
/// ```
/// use queens_core::text::escape_lines;
/// assert_eq!(escape_lines("one\ntwo \u{7}"), "one\ntwo \\x07");
/// ```
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && needs_escape(c)) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<Cow<'_, str>> = text.split('\n').map(escape).collect();
    Cow::Owned(lines.join("\n"))
}

/// Whether `c` is escaped by [`escape`]: a C0 or C1 control, DEL, or a bidirectional
/// formatting character (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069).
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}'
                | '\u{feff}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_that_is_not_decimal_is_an_error_with_a_message() {
        let err: Box<dyn std::error::Error + Send + Sync> = Box::new(decimal("+8").unwrap_err());
        assert_eq!(err.to_string(), "not a whole number in decimal digits");
        let err = decimal("18446744073709551616").unwrap_err();
        assert_eq!(err.to_string(), "a number past 18446744073709551615");
    }

    #[test]
    fn cuts_by_characters_not_bytes() {
        assert_eq!(shorten("ééé", 2), "éé...");
        assert_eq!(shorten("", 0), "");
        assert_eq!(shorten("x", 0), "...");
    }

    #[test]
    fn escapes_every_control_character_and_nothing_printable() {
        for b in (0u8..0x20).chain([0x7f]) {
            let shown = escape(std::str::from_utf8(&[b]).unwrap()).into_owned();
            assert!(shown.starts_with('\\'), "{b:#x}: {shown:?}");
            assert!(shown.chars().all(|c| c.is_ascii_graphic()), "{shown:?}");
        }
        assert_eq!(escape("\u{9b}31m"), r"\u{9b}31m");
        assert_eq!(escape("a\u{202e}b"), r"a\u{202e}b");
        let printable = "queens 8 ♛ ü 日本 \\x1b";
        assert!(matches!(escape(printable), Cow::Borrowed(t) if t == printable));
    }

    #[test]
    fn cuts_before_escaping_so_an_escape_is_never_cut_in_half() {
        assert_eq!(shorten("ab\u{1b}cd", 3), r"ab\x1b...");
        assert_eq!(shorten("\u{7}\u{7}\u{7}", 2), r"\x07\x07...");
    }
}
