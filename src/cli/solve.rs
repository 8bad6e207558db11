//! The arguments of `queens solve`.
//!
//! May call: [`super::shared`] and the placement formats.

use clap::Args;

use super::shared::{SearchArgs, Size, SolveAlgo};
use crate::format::Format;

/// `queens solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub size: Size,
    /// The solver. By default: bitboard (the lexicographically first solution) for N <= 29,
    /// where it takes under 0.1 s; construct for N >= 30, where finding the first solution
    /// takes a second or, from N = 34 on, far longer.
    #[arg(long, value_enum, verbatim_doc_comment)]
    pub algo: Option<SolveAlgo>,
    /// The seed of --algo min-conflicts (the same seed gives the same solution); random when
    /// absent, and then printed on standard error. --format json prints it either way, as
    /// "seed" after "n".
    #[arg(long, value_name = "S", value_parser = super::parse::checked(super::parse::parse_whole))]
    pub seed: Option<u64>,
    /// How to print the solution (board only up to N = 10000).
    #[arg(long, value_enum, default_value_t = Format::Board)]
    pub format: Format,
    #[command(flatten)]
    pub search: SearchArgs,
    /// No sign of life on standard error during a long search (shown only on a terminal).
    #[arg(long, short)]
    pub quiet: bool,
}
