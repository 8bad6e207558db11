//! The arguments of `queens complete`.
//!
//! May call: [`super::shared`], [`super::parse`] and the placement formats.

use clap::Args;
use queens_core::Square;

use super::parse::parse_square;
use super::shared::SearchArgs;
use crate::format::Format;

/// `queens complete`.
#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 a completion exists, 1 none does (also when two given \
queens attack each other), 2 a queen off the board, malformed input or another error; --count \
stopped by a signal: 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP), nothing on standard output \
and the completions found so far on standard error."
)]
pub struct CompleteArgs {
    /// The board size N, or a file holding the instance (`-` for standard input): CSPLib
    /// problem 79 parameters (`letting n = 8` / `letting init = [[r, c], ...]`, 0-based) or one
    /// drawn board (Q for the given queens, . elsewhere). A whole number is read as N.
    #[arg(value_name = "N|FILE")]
    pub target: String,
    /// The given queens as 0-based ROW:COLUMN pairs separated by commas (only with N).
    #[arg(long, value_name = "R:C[,R:C...]", value_delimiter = ',', value_parser = super::parse::checked(parse_square))]
    pub fixed: Vec<Square>,
    /// Print the number of completions instead of one of them (with --format json, as
    /// {"n":N,"count":C}).
    #[arg(long)]
    pub count: bool,
    /// How to print the completed board (board only up to N = 10000) [default: board]; with
    /// --count only json.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    #[command(flatten)]
    pub search: SearchArgs,
}
