//! `queens solve [N]`: the lexicographically first solution.

use std::io::Write;

use anyhow::Context;
use queens_core::Algorithm;

use crate::cli::SolveArgs;
use crate::status::Status;

/// Runs `queens solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<Status> {
    let n = args.size.n;
    args.format.check_size(n)?;
    let algorithm = args.algo.map_or(Algorithm::Bitboard, |a| a.algorithm());
    match algorithm.first_solution(n, &args.search.options())? {
        Some(queens) => {
            let mut out = super::stdout();
            args.format.write(&mut out, &queens)?;
            out.flush().context("writing the solution")?;
            Ok(Status::Success)
        }
        None => {
            eprintln!("queens: no solution: the {n}x{n} board has none");
            Ok(Status::No)
        }
    }
}
