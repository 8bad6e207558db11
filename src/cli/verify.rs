//! The arguments of `queens verify`.
//!
//! May call: [`super::shared`].

use std::path::PathBuf;

use clap::Args;

use super::shared::SearchArgs;

/// `queens verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The file to read; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Print nothing; only the exit status tells (0: all are solutions, 1: some are not).
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub search: SearchArgs,
}
