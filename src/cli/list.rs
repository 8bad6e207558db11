//! The arguments of `queens list`.
//!
//! May call: [`super::shared`] and the placement formats.

use std::path::PathBuf;

use clap::Args;

use super::shared::{AlgoArg, SearchArgs, Size};
use crate::format::Format;

/// `queens list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub size: Size,
    /// The solver; every solver lists the same solutions in the same order.
    #[arg(long, value_enum, default_value_t = AlgoArg::BITBOARD)]
    pub algo: AlgoArg,
    /// Stop after K solutions.
    #[arg(long, value_name = "K", value_parser = super::parse::checked(super::parse::parse_whole))]
    pub limit: Option<u64>,
    /// List one solution per symmetry class: the smallest of its 8 rotations and reflections.
    #[arg(long)]
    pub unique: bool,
    /// How to print each solution.
    #[arg(long, value_enum, default_value_t = Format::Positions)]
    pub format: Format,
    /// With --format svg: the directory (created when missing) that receives one file per
    /// solution, DIR/solution-000001.svg, DIR/solution-000002.svg, ...
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// No sign of life on standard error during a long search (shown only on a terminal).
    #[arg(long, short)]
    pub quiet: bool,
}
