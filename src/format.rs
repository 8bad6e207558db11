//! The output formats of a placement: `positions`, `board`, `json`, `algebraic` and `svg`.

use std::io::{self, Write};

use anyhow::bail;
use clap::ValueEnum;

/// How a placement is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// N lines of N characters, `Q` and `.`, then an empty line.
    Board,
    /// The 0-based columns separated by spaces, one placement per line.
    Positions,
    /// One JSON object per line: {"n":8,"queens":[0,4,7,5,2,6,1,3]}.
    Json,
    /// Chess squares in row order, files a.. for columns, rank N for row 0 (N <= 26).
    Algebraic,
    /// An SVG picture of the board (`list` writes one file per solution into --out DIR).
    Svg,
}

/// The widest board the algebraic format can name: one file letter per column.
pub const MAX_ALGEBRAIC_N: usize = 26;

/// The widest board the board format draws: N x (N + 1) characters, 100 MB at this size.
pub const MAX_BOARD_N: usize = 10_000;

impl Format {
    /// Refuses sizes the format cannot write, before anything is printed.
    pub fn check_size(self, n: usize) -> anyhow::Result<()> {
        if self == Format::Algebraic && n > MAX_ALGEBRAIC_N {
            bail!(
                "the algebraic format names files a to z, so it handles N up to {MAX_ALGEBRAIC_N} \
                 (got N = {n}); use --format positions"
            );
        }
        if self == Format::Svg && n > crate::svg::MAX_N {
            bail!(
                "the svg format draws boards up to N = {} (got N = {n}); use --format positions",
                crate::svg::MAX_N
            );
        }
        if self == Format::Board && n > MAX_BOARD_N {
            bail!(
                "the board format would draw N x N = {} characters for N = {n}; it handles N up \
                 to {MAX_BOARD_N}: use --format positions or --format json",
                (n as u128) * (n as u128)
            );
        }
        Ok(())
    }

    /// Writes one placement.
    pub fn write(self, out: &mut impl Write, queens: &[usize]) -> io::Result<()> {
        match self {
            Format::Positions => write_positions(out, queens),
            Format::Board => write_board(out, queens),
            Format::Json => write_json(out, queens),
            Format::Algebraic => write_algebraic(out, queens),
            Format::Svg => crate::svg::write_svg(out, queens),
        }
    }
}

/// Writes one placement given as a stream of `n` columns, row 0 first, without collecting
/// it: huge boards are written in O(1) memory. The output is the same as [`Format::write`].
pub fn write_stream(
    format: Format,
    out: &mut impl Write,
    n: usize,
    columns: impl Iterator<Item = usize>,
) -> io::Result<()> {
    let mut buf = [0u8; 21];
    match format {
        Format::Positions | Format::Json => {
            let sep = if format == Format::Json {
                write!(out, "{{\"n\":{n},\"queens\":[")?;
                b','
            } else {
                b' '
            };
            for (i, c) in columns.enumerate() {
                let start = if i == 0 { 1 } else { 0 };
                let digits = decimal(c, &mut buf[1..]);
                let first = buf.len() - digits - 1;
                buf[first] = sep;
                out.write_all(&buf[first + start..])?;
            }
            out.write_all(if format == Format::Json {
                b"]}\n"
            } else {
                b"\n"
            })
        }
        Format::Board => {
            let mut row = vec![b'.'; n + 1];
            row[n] = b'\n';
            for c in columns {
                row[c] = b'Q';
                out.write_all(&row)?;
                row[c] = b'.';
            }
            out.write_all(b"\n")
        }
        _ => format.write(out, &columns.collect::<Vec<_>>()),
    }
}

/// Writes `value` in decimal at the end of `buf`; returns how many digits it took.
fn decimal(mut value: usize, buf: &mut [u8]) -> usize {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            return buf.len() - at;
        }
    }
}

fn write_positions(out: &mut impl Write, queens: &[usize]) -> io::Result<()> {
    for (i, c) in queens.iter().enumerate() {
        if i > 0 {
            out.write_all(b" ")?;
        }
        write!(out, "{c}")?;
    }
    out.write_all(b"\n")
}

fn write_board(out: &mut impl Write, queens: &[usize]) -> io::Result<()> {
    let n = queens.len();
    let mut row = vec![b'.'; n + 1];
    row[n] = b'\n';
    for &c in queens {
        row[c] = b'Q';
        out.write_all(&row)?;
        row[c] = b'.';
    }
    out.write_all(b"\n")
}

fn write_json(out: &mut impl Write, queens: &[usize]) -> io::Result<()> {
    write!(out, "{{\"n\":{},\"queens\":[", queens.len())?;
    for (i, c) in queens.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write!(out, "{c}")?;
    }
    out.write_all(b"]}\n")
}

fn write_algebraic(out: &mut impl Write, queens: &[usize]) -> io::Result<()> {
    let n = queens.len();
    for (row, &c) in queens.iter().enumerate() {
        if row > 0 {
            out.write_all(b" ")?;
        }
        write!(out, "{}{}", (b'a' + c as u8) as char, n - row)?;
    }
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(format: Format, queens: &[usize]) -> String {
        let mut out = Vec::new();
        format.write(&mut out, queens).unwrap();
        String::from_utf8(out).unwrap()
    }

    const FIRST: [usize; 8] = [0, 4, 7, 5, 2, 6, 1, 3];

    #[test]
    fn positions_are_space_separated_columns() {
        assert_eq!(render(Format::Positions, &FIRST), "0 4 7 5 2 6 1 3\n");
    }

    #[test]
    fn a_board_is_rows_of_q_and_dots_then_a_blank_line() {
        assert_eq!(
            render(Format::Board, &[1, 3, 0, 2]),
            ".Q..\n...Q\nQ...\n..Q.\n\n"
        );
    }

    #[test]
    fn json_has_n_and_queens() {
        let line = render(Format::Json, &FIRST);
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["n"], 8);
        assert_eq!(v["queens"], serde_json::json!(FIRST));
    }

    #[test]
    fn algebraic_uses_files_and_ranks_from_the_top() {
        assert_eq!(
            render(Format::Algebraic, &FIRST),
            "a8 e7 h6 f5 c4 g3 b2 d1\n"
        );
        assert!(Format::Algebraic.check_size(26).is_ok());
        assert!(Format::Algebraic.check_size(27).is_err());
    }

    #[test]
    fn the_board_format_refuses_boards_too_large_to_draw() {
        assert!(Format::Board.check_size(MAX_BOARD_N).is_ok());
        let err = Format::Board.check_size(MAX_BOARD_N + 1).unwrap_err();
        assert!(err.to_string().contains("--format positions"), "{err}");
        assert!(Format::Positions.check_size(100_000_000).is_ok());
    }

    #[test]
    fn streamed_output_matches_the_collected_writer() {
        for format in [
            Format::Positions,
            Format::Json,
            Format::Board,
            Format::Algebraic,
        ] {
            for queens in [&FIRST[..], &[0], &[1, 3, 0, 2], &[10, 0, 1000, 7]] {
                if format != Format::Positions && queens.iter().any(|&c| c >= queens.len()) {
                    continue;
                }
                let mut streamed = Vec::new();
                write_stream(format, &mut streamed, queens.len(), queens.iter().copied()).unwrap();
                assert_eq!(String::from_utf8(streamed).unwrap(), render(format, queens));
            }
        }
    }
}
