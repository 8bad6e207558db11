//! The arguments of `queens verify`.
//!
//! May call: [`super::shared`].

use std::path::PathBuf;

use clap::Args;

use super::shared::{ResultFormat, SearchArgs};

/// `queens verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The file to read; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Print nothing, whatever --format; only the exit status tells (0: all are solutions, 1:
    /// some are not).
    #[arg(long, short)]
    pub quiet: bool,
    /// How to print the verdicts: text (`line 3: 8x8: solution`) or json (one object per
    /// placement read) [default: text].
    ///
    /// Each JSON object has line, n and valid, and for a placement that is not a solution its
    /// flaw: "attack" with along (row, column, diagonal or anti-diagonal) and the two queens
    /// ([{"row":R,"col":C}, ...], in reading order), or "empty-row" with its row.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = ResultFormat::Text,
          hide_default_value = true)]
    pub format: ResultFormat,
    #[command(flatten)]
    pub search: SearchArgs,
}
