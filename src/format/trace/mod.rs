//! The formats of `queens trace`: `text`, `json` and `board`, one file each, every one a
//! [`TraceWriter`]: the lines before the first event, one event, and the summary at the end.
//! The same design as the placement formats of [`super`] (their [`super::PlacementWriter`]):
//! a unit struct per file, the trait through `&self` and `&mut dyn Write`, and one table,
//! [`TraceFormat::writer`], from a `--format` value to its writer. A new format is a file here
//! with its `impl TraceWriter`, a variant of [`TraceFormat`] and its line in
//! [`TraceFormat::writer`].
//!
//! May call: [`crate::json`] (the JSON encodings the server shares) and the engine's trace types.

mod board;
mod json;
mod text;

use std::io::{self, Write};

use clap::ValueEnum;
use queens_core::trace::{Event, Outcome};
use queens_core::Algorithm;

/// How `queens trace` prints its events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TraceFormat {
    /// One readable line per event with the positions (and first-untried) arrays, then a summary.
    Text,
    /// One JSON object per line: {"event":"place","step":2,"row":0,"col":0,"positions":[...],...}.
    Json,
    /// The board drawn after each step in the COMP 333 description's notation, with row and
    /// column numbers: Q a queen, Q? the square being tried, R? (C? row-wise) and D? every square
    /// the conflict test checks along its row (column) and diagonals, R! C! D! a queen there, CC
    /// under the current column (RR after the current row), then the arrays (N up to 32).
    Board,
}

/// What one trace is about: the solver, the board and whether the whole search is traced.
#[derive(Debug, Clone, Copy)]
pub struct Traced {
    /// The solver traced.
    pub algorithm: Algorithm,
    /// The board size.
    pub n: usize,
    /// The whole search, or up to the first solution.
    pub all: bool,
}

/// One output format of `queens trace`.
pub trait TraceWriter: Sync {
    /// Refuses boards the format cannot write, before anything is printed.
    fn check_size(&self, _n: usize) -> anyhow::Result<()> {
        Ok(())
    }

    /// What comes before the first event (nothing by default).
    fn header(&self, _out: &mut dyn Write, _traced: Traced) -> io::Result<()> {
        Ok(())
    }

    /// One event.
    fn event(&self, out: &mut dyn Write, event: &Event) -> io::Result<()>;

    /// The counts at the end, and whether `--limit` cut the trace (`--summary` prints only
    /// this).
    fn summary(&self, out: &mut dyn Write, traced: Traced, outcome: &Outcome) -> io::Result<()>;
}

impl TraceFormat {
    /// The format's writer: the one table from a `--format` value to its file.
    pub fn writer(self) -> &'static dyn TraceWriter {
        match self {
            TraceFormat::Text => &text::Text,
            TraceFormat::Json => &json::Json,
            TraceFormat::Board => &board::Board,
        }
    }
}
