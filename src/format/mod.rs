//! The output formats of a placement: `positions`, `board`, `json`, `algebraic` and `svg`, one
//! file each, every one a [`PlacementWriter`]: the columns of a placement, row 0 first, streamed
//! into a writer (huge boards are written in O(1) memory). The formats of `queens trace` are in
//! [`trace`], in the same design: one unit struct per file implementing the writer trait through
//! `&self` and `&mut dyn Write`, and one table, the `--format` value's `writer()`, mapping each
//! value to its writer. A new format is a file here with its `impl PlacementWriter`, a variant
//! of [`Format`] and its line in [`Format::writer`].
//!
//! May call: [`crate::svg`] (the drawing) and the standard library.

mod algebraic;
mod board;
mod json;
mod positions;
mod svg;
pub mod trace;

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
    /// One JSON object per line: `{"n":8,"queens":[0,4,7,5,2,6,1,3]}`.
    Json,
    /// Chess squares in row order, files a.. for columns, rank N for row 0 (N <= 26).
    Algebraic,
    /// An SVG picture of the board (`list` writes one file per solution into --out DIR).
    Svg,
}

/// The columns of a placement, row 0 first, as the formats take them: any iterator of columns.
pub trait Columns: Iterator<Item = usize> {}

impl<I: Iterator<Item = usize>> Columns for I {}

/// The columns of one placement, row 0 first, as a [`PlacementWriter`] reads them.
pub type Stream<'a> = &'a mut dyn Iterator<Item = usize>;

/// One output format of a placement.
pub trait PlacementWriter: Sync {
    /// The widest board the format writes.
    fn max_n(&self) -> usize {
        usize::MAX
    }

    /// Why the format refuses a board of `n` wider than [`PlacementWriter::max_n`]: the
    /// message, which names the formats to use instead.
    fn too_wide(&self, n: usize) -> String {
        format!("N = {n} is above {}", self.max_n())
    }

    /// Refuses sizes the format cannot write, before anything is printed.
    fn check_size(&self, n: usize) -> anyhow::Result<()> {
        if n > self.max_n() {
            bail!(self.too_wide(n));
        }
        Ok(())
    }

    /// Writes one placement of the `n` x `n` board given as its `n` columns, row 0 first.
    fn write_stream(&self, out: &mut dyn Write, n: usize, columns: Stream<'_>) -> io::Result<()>;
}

impl Format {
    /// The format's writer: the one table from a `--format` value to its file.
    pub fn writer(self) -> &'static dyn PlacementWriter {
        match self {
            Format::Board => &board::Board,
            Format::Positions => &positions::Positions,
            Format::Json => &json::Json,
            Format::Algebraic => &algebraic::Algebraic,
            Format::Svg => &svg::Svg,
        }
    }

    /// Refuses sizes the format cannot write, before anything is printed.
    pub fn check_size(self, n: usize) -> anyhow::Result<()> {
        self.writer().check_size(n)
    }

    /// Writes one placement.
    pub fn write(self, out: &mut impl Write, queens: &[usize]) -> io::Result<()> {
        self.write_stream(out, queens.len(), queens.iter().copied())
    }

    /// Writes one placement given as a stream of `n` columns, row 0 first, without collecting
    /// it where the format allows.
    pub fn write_stream(
        self,
        out: &mut impl Write,
        n: usize,
        mut columns: impl Columns,
    ) -> io::Result<()> {
        self.writer().write_stream(out, n, &mut columns)
    }
}

/// [`Format::write_stream`], as the commands call it.
pub fn write_stream(
    format: Format,
    out: &mut impl Write,
    n: usize,
    columns: impl Columns,
) -> io::Result<()> {
    format.write_stream(out, n, columns)
}

/// Writes the `json` object of one answer of `solve`: with the `seed` of a seeded method, and
/// `"queens":null` when `columns` is `None` (no solution), as [`json::write_object`] says.
pub fn write_json_answer(
    out: &mut impl Write,
    n: usize,
    seed: Option<u64>,
    columns: Option<Stream<'_>>,
) -> io::Result<()> {
    json::write_object(out, n, seed, columns)
}

/// Writes `columns` in decimal, `sep` between two of them: the body of `positions` and of the
/// JSON array. The digits are gathered in a buffer of 256 bytes (a line of a board of up to about
/// 60 queens; a wider one is written a buffer at a time), so that a writer behind `dyn Write` is
/// called about once per line, not once per column. The buffer is small because it is set to
/// zeros on every call: 4 KiB made `queens list 14` 13 % slower.
fn write_columns(out: &mut dyn Write, columns: Stream<'_>, sep: u8) -> io::Result<()> {
    let mut line = [0u8; 256];
    let mut len = 0;
    let mut buf = [0u8; 21];
    for (i, c) in columns.enumerate() {
        let start = if i == 0 { 1 } else { 0 };
        let digits = decimal(c, &mut buf[1..]);
        let first = buf.len() - digits - 1;
        buf[first] = sep;
        let piece = &buf[first + start..];
        if len + piece.len() > line.len() {
            out.write_all(&line[..len])?;
            len = 0;
        }
        line[len..len + piece.len()].copy_from_slice(piece);
        len += piece.len();
    }
    out.write_all(&line[..len])
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

#[cfg(test)]
mod tests {
    use super::board::MAX_BOARD_N;
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
    fn issue_39_a_seeded_answer_names_its_seed_and_no_solution_is_null() {
        let mut out = Vec::new();
        write_json_answer(&mut out, 4, Some(7), Some(&mut [1, 3, 0, 2].into_iter())).unwrap();
        write_json_answer(&mut out, 3, Some(7), None).unwrap();
        write_json_answer(&mut out, 3, None, None).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"n\":4,\"seed\":7,\"queens\":[1,3,0,2]}\n{\"n\":3,\"seed\":7,\"queens\":null}\n\
             {\"n\":3,\"queens\":null}\n"
        );
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
