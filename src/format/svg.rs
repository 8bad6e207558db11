//! `svg`: a picture of the board, drawn by [`crate::svg`] (`list` writes one file per solution).
//!
//! May call: [`crate::svg`].

use std::io::{self, Write};

use anyhow::bail;

use super::PlacementFormat;

/// The `svg` format.
pub struct Svg;

impl PlacementFormat for Svg {
    fn check_size(n: usize) -> anyhow::Result<()> {
        if n > crate::svg::MAX_N {
            bail!(
                "the svg format draws boards up to N = {} (got N = {n}); use --format positions",
                crate::svg::MAX_N
            );
        }
        Ok(())
    }

    fn write_stream(
        out: &mut impl Write,
        _n: usize,
        columns: impl Iterator<Item = usize>,
    ) -> io::Result<()> {
        crate::svg::write_svg(out, &columns.collect::<Vec<_>>())
    }
}
