//! The arguments of `queens merge`.
//!
//! May call: nothing of the crate.

use std::path::PathBuf;

use clap::Args;

/// `queens merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard results (the JSON printed by `queens count --shard I/M --json`), one per file.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Print the number of symmetry classes instead of the total.
    #[arg(long)]
    pub unique: bool,
    /// Print one JSON object: n, total, unique, shards, and seconds (the sum over the shards).
    #[arg(long)]
    pub json: bool,
    /// Before printing, recount K of the shard results chosen at random, each whole shard by
    /// the plain search (no join), and refuse the merge when one disagrees (status 1). Costs
    /// those shards' work again, several times slower.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub recount: Option<u64>,
}
