//! `board`: N lines of N characters, `Q` for a queen and `.` elsewhere, then an empty line.
//!
//! May call: nothing of the crate.

use std::io::{self, Write};

use super::{PlacementWriter, Stream};

/// The widest board the board format draws: N x (N + 1) characters, 100 MB at this size.
pub const MAX_BOARD_N: usize = 10_000;

/// The `board` format.
pub struct Board;

impl PlacementWriter for Board {
    fn max_n(&self) -> usize {
        MAX_BOARD_N
    }

    fn too_wide(&self, n: usize) -> String {
        format!(
            "the board format would draw N x N = {} characters for N = {n}; it handles N up to \
             {MAX_BOARD_N}: use --format positions or --format json",
            (n as u128) * (n as u128)
        )
    }

    fn write_stream(&self, out: &mut dyn Write, n: usize, columns: Stream<'_>) -> io::Result<()> {
        let mut row = vec![b'.'; n + 1];
        row[n] = b'\n';
        for c in columns {
            row[c] = b'Q';
            out.write_all(&row)?;
            row[c] = b'.';
        }
        out.write_all(b"\n")
    }
}
