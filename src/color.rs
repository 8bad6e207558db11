//! Colour in what `queens` writes for people: `--color auto|always|never` (a global flag) and
//! the `NO_COLOR` convention (no-color.org). Auto colours a stream only when it is a terminal,
//! `NO_COLOR` is unset or empty and `TERM` is not `dumb`. Clap's help and usage errors follow
//! the same choice; so do the binary's own error lines (`queens: error:` in bold red) and the
//! terminal browser (without colour it draws with reverse video and signs: see
//! `browse::board_view::Palette`). Data on standard output is never coloured, and progress is
//! never drawn on a pipe or a file. Where colour is drawn, `COLORTERM` says whether in 24 bits
//! ([`true_colour`]).
//!
//! May call: the standard library and the flag's type in [`crate::cli`].

use std::ffi::OsString;
use std::io::IsTerminal;
use std::sync::OnceLock;

use crate::cli::ColorChoice;

static CHOICE: OnceLock<ColorChoice> = OnceLock::new();

/// The choice on the command line, read before clap parses it so that clap's own help and
/// errors follow it: the last `--color WHEN` or `--color=WHEN` before a `--`; auto otherwise
/// (and for a value clap will then refuse).
pub fn from_args(args: &[OsString]) -> ColorChoice {
    let mut choice = ColorChoice::Auto;
    let mut words = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(word) = words.next() {
        let value = match word.as_ref() {
            "--" => break,
            "--color" => words.next().map(|w| w.into_owned()),
            w => w.strip_prefix("--color=").map(str::to_string),
        };
        match value.as_deref() {
            Some("always") => choice = ColorChoice::Always,
            Some("never") => choice = ColorChoice::Never,
            Some("auto") => choice = ColorChoice::Auto,
            Some(_) | None => {}
        }
    }
    choice
}

/// Clap's name for the choice.
pub fn for_clap(choice: ColorChoice) -> clap::ColorChoice {
    match choice {
        ColorChoice::Auto => clap::ColorChoice::Auto,
        ColorChoice::Always => clap::ColorChoice::Always,
        ColorChoice::Never => clap::ColorChoice::Never,
    }
}

/// Records the run's choice (the first call wins).
pub fn set(choice: ColorChoice) {
    let _ = CHOICE.set(choice);
}

/// Whether to colour standard error.
pub fn on_stderr() -> bool {
    on_stream(std::io::stderr().is_terminal())
}

/// Whether to colour standard output (the terminal browser draws there).
pub fn on_stdout() -> bool {
    on_stream(std::io::stdout().is_terminal())
}

/// Whether the terminal says it draws 24-bit colour: `COLORTERM` is `truecolor` or `24bit`,
/// the convention such terminals follow (and tmux, vim and bat read). Where it does not say so,
/// the browser draws each colour as the nearest of the xterm 256-colour palette, which every
/// colour terminal draws: 24-bit codes on one without them (an older macOS Terminal.app, the
/// Linux console) show other colours or none.
pub fn true_colour() -> bool {
    says_true_colour(std::env::var_os("COLORTERM").as_deref())
}

/// [`true_colour`]'s decision, apart from the process's state.
fn says_true_colour(colorterm: Option<&std::ffi::OsStr>) -> bool {
    colorterm
        .and_then(|v| v.to_str())
        .is_some_and(|v| v.eq_ignore_ascii_case("truecolor") || v.eq_ignore_ascii_case("24bit"))
}

/// The run's choice for a stream that is (or is not) a terminal.
fn on_stream(terminal: bool) -> bool {
    colour(
        CHOICE.get().copied().unwrap_or(ColorChoice::Auto),
        terminal,
        std::env::var_os("NO_COLOR"),
        std::env::var_os("TERM"),
    )
}

/// The decision, apart from the process's state.
fn colour(
    choice: ColorChoice,
    terminal: bool,
    no_color: Option<OsString>,
    term: Option<OsString>,
) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            terminal && no_color.is_none_or(|v| v.is_empty()) && term.is_none_or(|t| t != "dumb")
        }
    }
}

/// `text` in bold red when `on`.
pub fn error_word(text: &str, on: bool) -> String {
    if on {
        format!("\x1b[1;31m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_truecolor_or_24bit_in_colorterm_says_true_colour() {
        use std::ffi::OsStr;
        for yes in ["truecolor", "24bit", "TrueColor"] {
            assert!(says_true_colour(Some(OsStr::new(yes))), "{yes}");
        }
        for no in ["", "yes", "256color", "truecolour"] {
            assert!(!says_true_colour(Some(OsStr::new(no))), "{no}");
        }
        assert!(!says_true_colour(None));
    }

    fn args(words: &[&str]) -> Vec<OsString> {
        std::iter::once("queens")
            .chain(words.iter().copied())
            .map(OsString::from)
            .collect()
    }

    #[test]
    fn the_flag_is_read_in_both_spellings_and_the_last_one_wins() {
        assert_eq!(from_args(&args(&["solve", "8"])), ColorChoice::Auto);
        assert_eq!(
            from_args(&args(&["--color", "never", "solve"])),
            ColorChoice::Never
        );
        assert_eq!(
            from_args(&args(&["solve", "--color=always"])),
            ColorChoice::Always
        );
        assert_eq!(
            from_args(&args(&["--color=never", "--color", "always"])),
            ColorChoice::Always
        );
        assert_eq!(
            from_args(&args(&["verify", "--", "--color=never"])),
            ColorChoice::Auto
        );
    }

    #[test]
    fn auto_colours_only_a_terminal_without_no_color_or_a_dumb_term() {
        let set = |v: &str| Some(OsString::from(v));
        assert!(colour(ColorChoice::Auto, true, None, set("xterm")));
        assert!(!colour(ColorChoice::Auto, false, None, set("xterm")));
        assert!(!colour(ColorChoice::Auto, true, set("1"), None));
        assert!(colour(ColorChoice::Auto, true, set(""), None));
        assert!(!colour(ColorChoice::Auto, true, None, set("dumb")));
        assert!(colour(ColorChoice::Always, false, set("1"), None));
        assert!(!colour(ColorChoice::Never, true, None, None));
    }
}
