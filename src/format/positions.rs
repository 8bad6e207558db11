//! `positions`: the 0-based columns separated by spaces, one placement per line.
//!
//! May call: the digit writer of [`super`].

use std::io::{self, Write};

use super::{write_columns, PlacementWriter, Stream};

/// The `positions` format.
pub struct Positions;

impl PlacementWriter for Positions {
    fn write_stream(&self, out: &mut dyn Write, _: usize, columns: Stream<'_>) -> io::Result<()> {
        write_columns(out, columns, b' ')?;
        out.write_all(b"\n")
    }
}
