//! `queens count [N]`: the number of solutions, as one integer line.

use std::io::Write;

use queens_core::{bitboard, Algorithm};

use crate::cli::CountArgs;
use crate::status::Status;

/// Runs `queens count`.
pub fn run(args: &CountArgs) -> anyhow::Result<Status> {
    let n = args.size.n;
    let total = match args.algo {
        Some(algo) => algo
            .algorithm()
            .count_by_enumeration(n, &args.search.options())?,
        None => {
            Algorithm::Bitboard.check_size(n)?;
            bitboard::count(n)
        }
    };
    let mut out = super::stdout();
    writeln!(out, "{total}")?;
    out.flush()?;
    Ok(Status::Success)
}
