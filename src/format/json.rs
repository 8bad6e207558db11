//! `json`: one JSON object per line, `{"n":8,"queens":[0,4,7,5,2,6,1,3]}`: the one writer of a
//! placement's JSON for every command.
//!
//! May call: the digit writer of [`super`].

use std::io::{self, Write};

use super::{write_columns, Columns, PlacementFormat};

/// The `json` format.
pub struct Json;

impl PlacementFormat for Json {
    fn write_stream(out: &mut impl Write, n: usize, columns: impl Columns) -> io::Result<()> {
        write!(out, "{{\"n\":{n},\"queens\":[")?;
        write_columns(out, columns, b',')?;
        out.write_all(b"]}\n")
    }
}
