//! The value parsers of the command line: board sizes (with the subcommand's largest N in the
//! message), squares, byte sizes, seconds and intervals, counts; and [`shorten`], which cuts
//! echoed input in messages.
//!
//! May call: the engine's limits ([`Algorithm::ALL`], [`Method::ALL`], `complete::MAX_N`).

use queens_core::solve::Method;
use queens_core::text::{decimal, NotDecimal};
use queens_core::{Algorithm, Square};

/// A value parser of the command line, `fn(&str) -> Result<T, String>`, whose error clap
/// shows as `invalid value 'TEXT' for 'FLAG': MESSAGE` with the text escaped and cut
/// ([`shorten`]): clap's own parser of a function echoes the value as it came, control
/// characters and all, which a terminal would obey. `value_parser = checked(parse_seconds)`.
#[derive(Clone, Copy)]
pub struct Checked<T>(fn(&str) -> Result<T, String>);

/// `parse` as a value parser that echoes its input escaped and cut ([`Checked`]).
pub fn checked<T>(parse: fn(&str) -> Result<T, String>) -> Checked<T> {
    Checked(parse)
}

impl<T: Clone + Send + Sync + 'static> clap::builder::TypedValueParser for Checked<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let text = value.to_string_lossy();
        (self.0)(&text).map_err(|message| {
            let flag = arg.map_or_else(|| "...".to_string(), ToString::to_string);
            // As clap words the error of a function's parser, the value escaped.
            let more = format!("{message}\n\nFor more information, try '--help'.");
            invalid_value(cmd, &flag, &text, &more)
        })
    }
}

/// Parses a square written `ROW:COLUMN`, both 0-based, in decimal digits only (no sign, no
/// space).
pub fn parse_square(s: &str) -> Result<Square, String> {
    let bad = || {
        format!(
            "'{}' is not a square: write ROW:COLUMN, both 0-based, such as 0:3",
            shorten(s)
        )
    };
    let (row, col) = s.split_once(':').ok_or_else(bad)?;
    // Digits beyond any board are named as such: the square is written right, its number is
    // off every board.
    let number = |t: &str, what: &str| match whole(t) {
        Ok(k) => Ok(k),
        Err(NotDecimal::TooLarge) => Err(format!(
            "'{}': the {what} {} is off every board (rows and columns of `complete` are at \
             most {})",
            shorten(s),
            shorten(t),
            queens_core::complete::MAX_N - 1
        )),
        Err(NotDecimal::NotDigits) => Err(bad()),
    };
    Ok(Square {
        row: number(row, "row")?,
        col: number(col, "column")?,
    })
}

/// Parses a board size, a whole number of at least 1, for the subcommand `command`, whose largest N a number too large for
/// this machine is compared with: "N = 18446744073709551616 is too large: at most 4294967295
/// for `list --algo backtrack`".
pub fn parse_n_for(command: Option<&str>, s: &str) -> Result<usize, String> {
    match whole(s) {
        Ok(0) => Err("N must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(NotDecimal::TooLarge) => Err(too_large(command, s)),
        Err(NotDecimal::NotDigits) => Err(format!(
            "N must be a whole number of at least 1, not '{}'",
            shorten(s)
        )),
    }
}

/// Why a text is not a whole number [`whole`] takes.
/// `s` as a whole number written in decimal digits only ([`decimal`]), as a `usize`.
fn whole(s: &str) -> Result<usize, NotDecimal> {
    usize::try_from(decimal(s)?).map_err(|_| NotDecimal::TooLarge)
}

/// The message for a board size beyond `usize`: the digits (cut when long) and the largest N
/// of the subcommand, with the algorithm that takes it.
pub fn too_large(command: Option<&str>, digits: &str) -> String {
    let shown = if digits.len() > 40 {
        format!("{}... ({} digits)", &digits[..40], digits.len())
    } else {
        digits.to_string()
    };
    let (max, by) = match command {
        Some("solve") => {
            let best = Method::ALL
                .into_iter()
                .max_by_key(|m| m.max_n())
                .expect("methods");
            (best.max_n(), format!(" for `solve --algo {}`", best.name()))
        }
        Some("complete") => (queens_core::complete::MAX_N, " for `complete`".to_string()),
        // The viewer draws boards up to its own N, whatever the algorithm it plays.
        Some("browse") => (crate::browse::MAX_N, " for `browse`".to_string()),
        Some(cmd @ ("list" | "count" | "trace")) => {
            // The first algorithm with the largest range (`max_by_key` would take the last).
            let max = Algorithm::ALL
                .iter()
                .map(|a| a.max_n())
                .max()
                .expect("algorithms");
            let best = Algorithm::ALL
                .into_iter()
                .find(|a| a.max_n() == max)
                .expect("algorithms");
            (max, format!(" for `{cmd} --algo {}`", best.name()))
        }
        _ => (usize::MAX, String::new()),
    };
    format!("N = {shown} is too large: at most {max}{by}")
}

/// Text echoed in a message, cut to 40 characters.
pub fn shorten(text: &str) -> String {
    queens_core::text::shorten(text, 40)
}

/// The value parser of N: [`parse_n_for`] with the subcommand it is given to.
#[derive(Debug, Clone, Copy)]
pub struct SizeParser;

impl clap::builder::TypedValueParser for SizeParser {
    type Value = usize;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<usize, clap::Error> {
        let text = value.to_string_lossy();
        parse_n_for(Some(cmd.get_name()), &text)
            .map_err(|message| invalid_value(cmd, "[N]", &text, &message))
    }
}

/// Clap's error for the value `text` of `flag` that `message` says is wrong: `invalid value
/// 'TEXT' for 'FLAG': MESSAGE`, the text escaped and cut ([`shorten`]).
fn invalid_value(cmd: &clap::Command, flag: &str, text: &str, message: &str) -> clap::Error {
    clap::Error::raw(
        clap::error::ErrorKind::ValueValidation,
        format!(
            "invalid value '{}' for '{flag}': {message}\n",
            shorten(text)
        ),
    )
    .with_cmd(cmd)
}

/// Parses a positive number of seconds.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!(
            "'{}' is not a positive number of seconds",
            shorten(s)
        )),
    }
}

/// Parses a byte size such as `1G`, `1.5G`, `512M`, `64K`, `2GB` or `1000000`: bytes, or a
/// number (a fraction allowed) with a unit. `K`, `M`, `G`, `T` and `KiB`, `MiB`, `GiB`, `TiB`
/// are powers of 1024 (the bare letters always were); `KB`, `MB`, `GB`, `TB` powers of 1000.
/// Units are read in any case; a fraction of a byte rounds down.
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let bad = || {
        format!(
            "'{}' is not a size: use bytes or a number with K, M, G or T (powers of 1024, as KiB, MiB, GiB, TiB) or KB, MB, GB, TB (powers of 1000)",
            shorten(s)
        )
    };
    let (number, unit) = match s.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => s.split_at(i),
        None => (s, ""),
    };
    let unit = unit.to_ascii_uppercase();
    let (base, power): (u128, u32) = match unit.as_str() {
        "" | "B" => (1, 0),
        "K" | "KIB" => (1024, 1),
        "M" | "MIB" => (1024, 2),
        "G" | "GIB" => (1024, 3),
        "T" | "TIB" => (1024, 4),
        "KB" => (1000, 1),
        "MB" => (1000, 2),
        "GB" => (1000, 3),
        "TB" => (1000, 4),
        _ => return Err(bad()),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > 9 {
        return Err(bad());
    }
    if number.ends_with('.') || (power == 0 && !fraction.is_empty()) {
        return Err(bad());
    }
    let too_large = || format!("'{}' is too large", shorten(s));
    let multiplier = base.pow(power);
    let whole: u128 = whole.parse().map_err(|_| too_large())?;
    let scale = 10u128.pow(fraction.len() as u32);
    let fraction: u128 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().map_err(|_| bad())?
    };
    let bytes = whole
        .checked_mul(multiplier)
        .and_then(|w| w.checked_add(fraction * multiplier / scale))
        .ok_or_else(too_large)?;
    u64::try_from(bytes).map_err(|_| too_large())
}

/// The shortest interval `--checkpoint-every` and `--progress-every` accept, in seconds.
pub const MIN_INTERVAL: f64 = 0.1;
/// The longest: one week.
pub const MAX_INTERVAL: f64 = 7.0 * 24.0 * 3600.0;

/// The longest bound `count --estimate-within` takes, in seconds: one day.
pub const MAX_ESTIMATE_BOUND: f64 = 86_400.0;

/// Parses the bound of `count --estimate-within`: seconds, from 1 to [`MAX_ESTIMATE_BOUND`].
pub fn parse_estimate_bound(s: &str) -> Result<f64, String> {
    match parse_seconds(s) {
        Ok(x) if (1.0..=MAX_ESTIMATE_BOUND).contains(&x) => Ok(x),
        _ => Err(format!(
            "'{}' is not a number of seconds from 1 to {MAX_ESTIMATE_BOUND} (one day)",
            shorten(s)
        )),
    }
}

/// The longest wait of the server's `--header-timeout`, `--idle-timeout` and
/// `--shutdown-grace`, in seconds: one day.
pub const MAX_WAIT: f64 = 86_400.0;

/// Parses a wait of the server: seconds, more than 0 and at most [`MAX_WAIT`] (a longer one
/// was taken as a day without a word).
pub fn parse_wait(s: &str) -> Result<f64, String> {
    match parse_seconds(s) {
        Ok(x) if x <= MAX_WAIT => Ok(x),
        _ => Err(format!(
            "'{}' is not a number of seconds above 0 and at most {MAX_WAIT} (one day)",
            shorten(s)
        )),
    }
}

/// Parses an interval in seconds, from [`MIN_INTERVAL`] to [`MAX_INTERVAL`].
pub fn parse_interval(s: &str) -> Result<f64, String> {
    match parse_seconds(s) {
        Ok(x) if (MIN_INTERVAL..=MAX_INTERVAL).contains(&x) => Ok(x),
        _ => Err(format!(
            "'{}' is not a number of seconds from {MIN_INTERVAL} to {MAX_INTERVAL} (one week)",
            shorten(s)
        )),
    }
}

/// `s` as a whole number from `min` to `max`, in decimal digits only (no sign, no space), as
/// every whole number of the command line is written.
fn whole_between(s: &str, min: u64, max: u64) -> Result<u64, String> {
    let range = if max == u64::MAX {
        format!("of at least {min}")
    } else {
        format!("from {min} to {max}")
    };
    // Digits past the range, or past `u64`, are a whole number all the same: too large, with
    // the range named in full (`-j 2000`: "too large: a whole number from 0 to 1024"), as
    // docs/cli.md says.
    let too_large = || {
        Err(format!(
            "'{}' is too large: a whole number from {min} to {max}",
            shorten(s)
        ))
    };
    match decimal(s) {
        Ok(k) if (min..=max).contains(&k) => Ok(k),
        Ok(k) if k > max => too_large(),
        Err(NotDecimal::TooLarge) => too_large(),
        _ => Err(format!(
            "'{}' is not a whole number {range} (decimal digits only)",
            shorten(s)
        )),
    }
}

/// `serve --port`: 0 (a free port) to 65535, in decimal digits only, as every whole number of
/// the command line (clap's own parser of `u16` took `+80` and `-0`, and its messages named
/// no range).
pub fn parse_port(s: &str) -> Result<u16, String> {
    whole_between(s, 0, u64::from(u16::MAX)).map(|p| p as u16)
}

/// Worker threads: 0 (one per core) to 1024.
pub fn parse_threads(s: &str) -> Result<usize, String> {
    whole_between(s, 0, MAX_THREADS).map(|t| t as usize)
}

/// The most worker threads `count -j` and `merge -j` take: more only add stacks, never speed
/// (the engine's own ceiling, [`queens_core::count::MAX_THREADS`]).
pub const MAX_THREADS: u64 = queens_core::count::MAX_THREADS as u64;

/// A whole number of at least 1 (`--limit`, `--recount`, `serve --max-steps`).
pub fn parse_positive(s: &str) -> Result<u64, String> {
    whole_between(s, 1, u64::MAX)
}

/// Any whole number (`list --limit`, `--seed`).
pub fn parse_whole(s: &str) -> Result<u64, String> {
    whole_between(s, 0, u64::MAX)
}

/// The rows of `count --pieces`: 0 to 12.
pub fn parse_depth(s: &str) -> Result<u64, String> {
    whole_between(s, 0, 12)
}

/// The most connections `serve --max-connections` takes: Linux's own ceiling on a process's
/// open files (`fs.nr_open`, 1,048,576 by default), which bounds them anyway.
pub const MAX_CONNECTIONS: u64 = 1 << 20;

/// `serve --max-connections`: 1 to [`MAX_CONNECTIONS`].
pub fn parse_connections(s: &str) -> Result<usize, String> {
    whole_between(s, 1, MAX_CONNECTIONS).map(|n| n as usize)
}

/// `serve --max-heavy`: 1 to [`MAX_THREADS`], as threads: each heavy request takes a thread
/// of its own.
pub fn parse_heavy(s: &str) -> Result<usize, String> {
    whole_between(s, 1, MAX_THREADS).map(|n| n as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_servers_waits_are_above_zero_and_at_most_a_day() {
        assert_eq!(parse_wait("0.5"), Ok(0.5));
        assert_eq!(parse_wait("86400"), Ok(86_400.0));
        for bad in [
            "0",
            "-1",
            "86400.5",
            "18446744073709551616",
            "inf",
            "NaN",
            "ten",
        ] {
            let err = parse_wait(bad).unwrap_err();
            assert!(err.contains("at most 86400 (one day)"), "{bad}: {err}");
        }
    }

    #[test]
    fn whole_numbers_are_digits_within_their_range() {
        assert_eq!(parse_whole("300000000"), Ok(300_000_000));
        assert_eq!(parse_threads("1024"), Ok(1024));
        assert_eq!(parse_depth("0"), Ok(0));
        for bad in ["+5", " 5", "5 ", "5e0", "-5", "", "0x5"] {
            let err = parse_whole(bad).unwrap_err();
            assert!(
                err.contains(&format!("'{bad}'")) && err.contains("digits"),
                "{err}"
            );
        }
        let err = parse_threads("1025").unwrap_err();
        assert!(
            err.contains("'1025' is too large: a whole number from 0 to 1024"),
            "{err}"
        );
        let err = parse_heavy("0").unwrap_err();
        assert!(
            err.contains("'0' is not a whole number from 1 to 1024"),
            "{err}"
        );
        assert!(parse_positive("0").unwrap_err().contains("of at least 1"));
        assert!(parse_depth("13").is_err());
        assert_eq!(parse_connections("1048576"), Ok(1 << 20));
        assert!(parse_connections("1048577").is_err());
        assert!(parse_heavy("1025").unwrap_err().contains("from 1 to 1024"));
        assert!(parse_heavy("0").is_err());
        assert!(parse_whole("18446744073709551616").is_err());
    }

    #[test]
    fn digits_past_u64_are_named_too_large_not_malformed() {
        let err = parse_whole("18446744073709551616").unwrap_err();
        assert!(
            err.contains("is too large: a whole number from 0 to 18446744073709551615"),
            "{err}"
        );
        assert!(!err.contains("not a whole number"), "{err}");
        let err = parse_threads("99999999999999999999").unwrap_err();
        assert!(
            err.contains("too large: a whole number from 0 to 1024"),
            "{err}"
        );
        let err = parse_square("99999999999999999999:0").unwrap_err();
        assert!(
            err.contains(
                "the row 99999999999999999999 is off every board (rows and columns of \
                          `complete` are at most 4294967294)"
            ),
            "{err}"
        );
        let err = parse_square("0:18446744073709551616").unwrap_err();
        assert!(
            err.contains("the column 18446744073709551616 is off"),
            "{err}"
        );
        assert!(parse_square("0:+1")
            .unwrap_err()
            .contains("is not a square"));
    }

    #[test]
    fn ports_are_digits_from_0_to_65535() {
        assert_eq!(parse_port("0"), Ok(0));
        assert_eq!(parse_port("8080"), Ok(8080));
        assert_eq!(parse_port("65535"), Ok(65535));
        for bad in ["+80", "-0", " 80", "80 ", "0x50", "", "8e1"] {
            let err = parse_port(bad).unwrap_err();
            assert!(
                err.contains("from 0 to 65535 (decimal digits only)"),
                "{bad}: {err}"
            );
        }
        assert!(parse_port("65536")
            .unwrap_err()
            .contains("'65536' is too large: a whole number from 0 to 65535"));
        assert!(parse_port("99999999999999999999")
            .unwrap_err()
            .contains("too large: a whole number from 0 to 65535"));
    }

    #[test]
    fn sizes_take_fractions_and_both_kinds_of_units() {
        assert_eq!(parse_bytes("1G"), Ok(1 << 30));
        assert_eq!(parse_bytes("1.5G"), Ok(3 << 29));
        assert_eq!(parse_bytes("1GiB"), Ok(1 << 30));
        assert_eq!(parse_bytes("1gb"), Ok(1_000_000_000));
        assert_eq!(parse_bytes("2MB"), Ok(2_000_000));
        assert_eq!(parse_bytes("64K"), Ok(65536));
        assert_eq!(parse_bytes("64k"), Ok(65536));
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert_eq!(parse_bytes("1000000"), Ok(1_000_000));
        for bad in [
            "", "G", "1.5", "1.G", ".5G", "1..5G", "+1G", " 1G", "1G ", "1 G", "1X", "lots",
        ] {
            assert!(parse_bytes(bad).is_err(), "{bad:?} was accepted");
        }
        assert!(parse_bytes("20000000T").unwrap_err().contains("too large"));
    }

    #[test]
    fn numbers_are_digits_only() {
        assert_eq!(parse_n_for(None, "8"), Ok(8));
        for bad in ["+8", " 8", "8 ", "-8", "0x8", ""] {
            assert!(parse_n_for(None, bad).is_err(), "{bad:?} was accepted");
            assert!(parse_connections(bad).is_err(), "{bad:?} was accepted");
            assert!(parse_heavy(bad).is_err(), "{bad:?} was accepted");
        }
        assert!(parse_n_for(None, "99999999999999999999999")
            .unwrap_err()
            .contains("too large"));
    }
}
