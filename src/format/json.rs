//! `json`: one JSON object per line, `{"n":8,"queens":[0,4,7,5,2,6,1,3]}`: the one writer of a
//! placement's JSON for every command.
//!
//! May call: the digit writer of [`super`].

use std::io::{self, Write};

use super::{write_columns, PlacementWriter};

/// The `json` format.
pub struct Json;

impl PlacementWriter for Json {
    fn write_stream(
        &self,
        out: &mut dyn Write,
        n: usize,
        columns: &mut dyn Iterator<Item = usize>,
    ) -> io::Result<()> {
        write!(out, "{{\"n\":{n},\"queens\":[")?;
        write_columns(out, columns, b',')?;
        out.write_all(b"]}\n")
    }
}
