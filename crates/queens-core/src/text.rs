//! Text of messages: input echoed back in an error, cut short so that a huge or binary input
//! never floods the terminal. It calls nothing; the parsers of the engine and the binary use it.

/// `text` cut to its first `max` characters, with `...` when something was cut.
///
/// # Example
/// ```
/// use queens_core::text::shorten;
/// assert_eq!(shorten("abcdef", 3), "abc...");
/// assert_eq!(shorten("abc", 3), "abc");
/// ```
pub fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_by_characters_not_bytes() {
        assert_eq!(shorten("ééé", 2), "éé...");
        assert_eq!(shorten("", 0), "");
        assert_eq!(shorten("x", 0), "...");
    }
}
