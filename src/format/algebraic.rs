//! `algebraic`: chess squares in row order, files a.. for columns and rank N for row 0, such as
//! `a8 e7 h6 f5 c4 g3 b2 d1`.
//!
//! May call: nothing of the crate.

use std::io::{self, Write};

use super::{PlacementWriter, Stream};

/// The widest board the algebraic format can name: one file letter per column.
pub const MAX_ALGEBRAIC_N: usize = 26;

/// The `algebraic` format.
pub struct Algebraic;

impl PlacementWriter for Algebraic {
    fn max_n(&self) -> usize {
        MAX_ALGEBRAIC_N
    }

    fn too_wide(&self, n: usize) -> String {
        format!(
            "the algebraic format names files a to z, so it handles N up to {MAX_ALGEBRAIC_N} \
             (got N = {n}); use --format positions"
        )
    }

    fn write_stream(&self, out: &mut dyn Write, n: usize, columns: Stream<'_>) -> io::Result<()> {
        for (row, c) in columns.enumerate() {
            if row > 0 {
                out.write_all(b" ")?;
            }
            write!(out, "{}{}", (b'a' + c as u8) as char, n - row)?;
        }
        out.write_all(b"\n")
    }
}
