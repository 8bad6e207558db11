//! `svg`: a picture of the board, drawn by [`crate::svg`] (`list` writes one file per solution).
//!
//! May call: [`crate::svg`].

use std::io::{self, Write};

use super::{Columns, PlacementFormat};

/// The `svg` format.
pub struct Svg;

impl PlacementFormat for Svg {
    const MAX_N: usize = crate::svg::MAX_N;

    fn too_wide(n: usize) -> String {
        format!(
            "the svg format draws boards up to N = {} (got N = {n}); use --format positions",
            crate::svg::MAX_N
        )
    }

    fn write_stream(out: &mut impl Write, _n: usize, columns: impl Columns) -> io::Result<()> {
        crate::svg::write_svg(out, &columns.collect::<Vec<_>>())
    }
}
