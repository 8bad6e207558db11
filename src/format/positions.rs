//! `positions`: the 0-based columns separated by spaces, one placement per line.
//!
//! May call: the digit writer of [`super`].

use std::io::{self, Write};

use super::{write_columns, Columns, PlacementFormat};

/// The `positions` format.
pub struct Positions;

impl PlacementFormat for Positions {
    fn write_stream(out: &mut impl Write, _n: usize, columns: impl Columns) -> io::Result<()> {
        write_columns(out, columns, b' ')?;
        out.write_all(b"\n")
    }
}
