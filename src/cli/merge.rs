//! The arguments of `queens merge`.
//!
//! May call: [`super::shared`].

use std::path::PathBuf;

use clap::Args;

use super::shared::ResultFormat;

/// `queens merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard results (the JSON printed by `queens count --shard I/M --format json`), one or
    /// more per file; `-` is standard input.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Print the number of symmetry classes instead of the total.
    #[arg(long)]
    pub unique: bool,
    /// How to print the sum: text (one integer line, the total or with --unique the classes)
    /// or json (one JSON object: n, total, unique, unique_unit (always classes here), seconds
    /// (the sum over the shards), shards, split, subproblems) [default: text].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<ResultFormat>,
    /// The same as --format json (kept for older scripts; refused with --format text).
    #[arg(long)]
    pub json: bool,
    /// Before printing, recount K of the shard results chosen at random (or P% of them, rounded
    /// up: 100% is every one), each whole shard by the plain search (no join), and refuse the
    /// merge when one disagrees (status 1). Costs those shards' work again, several times
    /// slower.
    #[arg(long, value_name = "K|P%", value_parser = super::parse::checked(parse_recount))]
    pub recount: Option<Recount>,
    /// Threads of `--recount`, 0 to 1024; 0 means one per core.
    #[arg(long, short = 'j', value_name = "T", default_value_t = 0,
          value_parser = super::parse::checked(super::parse::parse_threads))]
    pub threads: usize,
}

impl MergeArgs {
    /// Whether the sum is printed as JSON: `--format json` or its synonym `--json` (see
    /// [`ResultFormat::resolve`]).
    pub fn json(&self) -> anyhow::Result<bool> {
        Ok(ResultFormat::resolve(self.format, self.json)? == ResultFormat::Json)
    }
}

/// How many parts `merge --recount` recounts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Recount {
    /// K parts, at least 1.
    Parts(u64),
    /// This percentage of the parts, above 0 and at most 100, rounded up to whole parts.
    Percent(f64),
}

impl Recount {
    /// How many of `parts` parts to recount.
    pub fn of(self, parts: usize) -> usize {
        match self {
            Recount::Parts(k) => usize::try_from(k).unwrap_or(usize::MAX),
            Recount::Percent(p) => ((parts as f64 * p / 100.0).ceil() as usize)
                .max(1)
                .min(parts),
        }
    }
}

/// `K` (a whole number from 1) or `P%` (above 0, at most 100).
fn parse_recount(s: &str) -> Result<Recount, String> {
    if let Some(p) = s.strip_suffix('%') {
        // Digits and at most one point: no sign, exponent or space.
        let decimal = p.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && p.bytes().filter(|&b| b == b'.').count() <= 1;
        return match p.parse::<f64>() {
            Ok(p) if decimal && p > 0.0 && p <= 100.0 => Ok(Recount::Percent(p)),
            _ => Err(format!(
                "'{}' is not a percentage above 0 and at most 100 (write 5% or 100%)",
                super::parse::shorten(s)
            )),
        };
    }
    match queens_core::text::decimal(s) {
        Ok(k) if k >= 1 => Ok(Recount::Parts(k)),
        _ => Err(format!(
            "'{}' is neither a number of parts (1 or more) nor a percentage of them (5%)",
            super::parse::shorten(s)
        )),
    }
}
