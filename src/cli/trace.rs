//! The arguments of `queens trace`.
//!
//! May call: [`super::shared`] and the trace formats.

use clap::Args;

use super::shared::{AlgoArg, SearchArgs, Size};
use crate::format::trace::TraceFormat;

/// `queens trace`.
#[derive(Debug, Args)]
pub struct TraceArgs {
    #[command(flatten)]
    pub size: Size,
    /// The solver to watch; backtrack is the column-by-column search of the COMP 333 notes.
    #[arg(long, value_enum, default_value_t = AlgoArg::BACKTRACK)]
    pub algo: AlgoArg,
    /// How to print the events.
    #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
    pub format: TraceFormat,
    /// Trace the whole search instead of stopping at the first solution.
    #[arg(long)]
    pub all: bool,
    /// Stop after STEPS events, with a last line saying the trace was cut.
    #[arg(long, value_name = "STEPS", value_parser = super::parse::checked(super::parse::parse_positive))]
    pub limit: Option<u64>,
    /// Print only the counts (tries, conflicts, placements, removals, backtracks, solutions).
    #[arg(long)]
    pub summary: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    /// No sign of life on standard error during a long trace (shown only on a terminal).
    #[arg(long, short)]
    pub quiet: bool,
}
