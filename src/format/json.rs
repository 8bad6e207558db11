//! `json`: one JSON object per line, `{"n":8,"queens":[0,4,7,5,2,6,1,3]}`: the one writer of a
//! placement's JSON for every command. `solve` adds the seed of a seeded method after `n`
//! (`{"n":50,"seed":7,"queens":[...]}`), and writes `"queens":null` for a board without a
//! solution.
//!
//! May call: the digit writer of [`super`].

use std::io::{self, Write};

use super::{write_columns, PlacementWriter, Stream};

/// The `json` format.
pub struct Json;

impl PlacementWriter for Json {
    fn write_stream(&self, out: &mut dyn Write, n: usize, columns: Stream<'_>) -> io::Result<()> {
        write_object(out, n, None, Some(columns))
    }
}

/// Writes the JSON object of an answer of the `n` x `n` board: its `seed` when the method took
/// one, then its `columns`, row 0 first, or `null` when there is no solution.
pub fn write_object(
    out: &mut dyn Write,
    n: usize,
    seed: Option<u64>,
    columns: Option<Stream<'_>>,
) -> io::Result<()> {
    write!(out, "{{\"n\":{n}")?;
    if let Some(seed) = seed {
        write!(out, ",\"seed\":{seed}")?;
    }
    match columns {
        Some(columns) => {
            out.write_all(b",\"queens\":[")?;
            write_columns(out, columns, b',')?;
            out.write_all(b"]}\n")
        }
        None => out.write_all(b",\"queens\":null}\n"),
    }
}
