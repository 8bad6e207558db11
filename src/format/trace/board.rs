//! `queens trace --format board`: the board drawn after each step in the COMP 333
//! description's notation (N up to [`BOARD_MAX_N`]), then the summary in words.
//!
//! May call: the engine's trace types and the line descriptions of [`super::text`].

use std::io::{self, Write};

use anyhow::bail;
use queens_core::trace::{ConflictLine, Event, EventKind, Outcome};
use queens_core::{Algorithm, Square};

use super::text::{describe, write_summary};
use super::{TraceWriter, Traced};

/// The `board` format.
pub struct Board;

impl TraceWriter for Board {
    fn check_size(&self, n: usize) -> anyhow::Result<()> {
        if n > BOARD_MAX_N {
            bail!(
                "--format board draws boards up to N = {BOARD_MAX_N} (got N = {n}); use --format text"
            );
        }
        Ok(())
    }

    fn header(&self, out: &mut dyn Write, traced: Traced) -> io::Result<()> {
        write_board_header(out, traced.algorithm, traced.n, traced.all)
    }

    fn event(&self, out: &mut dyn Write, event: &Event) -> io::Result<()> {
        write_board(out, event)
    }

    fn summary(&self, out: &mut dyn Write, traced: Traced, outcome: &Outcome) -> io::Result<()> {
        write_summary(out, traced, outcome)
    }
}

/// The largest board `--format board` draws after every step.
pub const BOARD_MAX_N: usize = 32;

/// The comment line that says how to read the boards.
fn write_board_header(
    out: &mut dyn Write,
    algorithm: Algorithm,
    n: usize,
    all: bool,
) -> io::Result<()> {
    let until = if all {
        "the whole search"
    } else {
        "up to the first solution"
    };
    writeln!(
        out,
        "# {} on the {n}x{n} board, {until}, the board after each step; row 0 at the top",
        algorithm.name()
    )?;
    writeln!(
        out,
        "# Q queen, Q? the square tried, R? D? C? the queen it conflicts with along a row, a \
         diagonal or a column, . empty"
    )
}

/// The cell of a square after `event`, two characters: `Q `, `Q?`, `R?`, `D?`, `C?` or `. `.
fn board_cell(event: &Event, queens: &[Square], square: Square) -> &'static str {
    if let EventKind::Conflict { with, line } = event.kind {
        if with == square {
            return match line {
                ConflictLine::Row => "R?",
                ConflictLine::Diagonal => "D?",
                ConflictLine::Column => "C?",
            };
        }
    }
    let tried = matches!(event.kind, EventKind::Try | EventKind::Conflict { .. });
    if tried && event.square() == Some(square) {
        "Q?"
    } else if queens.contains(&square) {
        "Q "
    } else {
        ". "
    }
}

/// The step's line, then the board after it, then a blank line.
fn write_board(out: &mut dyn Write, event: &Event) -> io::Result<()> {
    let n = event.positions.len();
    writeln!(out, "{:>5}  {}", event.step, describe(event))?;
    let queens = event.queens();
    for row in 0..n {
        let cells: Vec<&str> = (0..n)
            .map(|col| board_cell(event, &queens, Square { row, col }))
            .collect();
        writeln!(out, "       {}", cells.join(" ").trim_end())?;
    }
    out.write_all(b"\n")
}
