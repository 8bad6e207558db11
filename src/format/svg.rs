//! `svg`: a picture of the board, drawn by [`crate::svg`] (`list` writes one file per solution).
//!
//! May call: [`crate::svg`].

use std::io::{self, Write};

use super::{PlacementWriter, Stream};

/// The `svg` format.
pub struct Svg;

impl PlacementWriter for Svg {
    fn max_n(&self) -> usize {
        crate::svg::MAX_N
    }

    fn too_wide(&self, n: usize) -> String {
        format!(
            "the svg format draws boards up to N = {} (got N = {n}); use --format positions",
            crate::svg::MAX_N
        )
    }

    fn write_stream(
        &self,
        mut out: &mut dyn Write,
        _: usize,
        columns: Stream<'_>,
    ) -> io::Result<()> {
        crate::svg::write_svg(&mut out, &columns.collect::<Vec<_>>())
    }
}
