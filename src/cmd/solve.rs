//! `queens solve [N]`: one solution: the lexicographically first by an enumerating solver, or a
//! constructed one, or one found by min-conflicts local search.

use std::io::Write;

use anyhow::Context;
use queens_core::{construct, min_conflicts};

use crate::cli::{SolveAlgo, SolveArgs};
use crate::format::{write_stream, Format};
use crate::status::Status;

/// The largest N whose lexicographically first solution the bitboard search finds fast: measured
/// in a release build, every N up to 29 takes under 0.1 s, N = 30 a second, N = 32 1.5 s and
/// from N = 34 on more than 3 s (growing without bound).
pub const FAST_FIRST_N: usize = 29;

/// The default solver: bitboard up to [`FAST_FIRST_N`], the construction above.
pub fn default_algo(n: usize) -> SolveAlgo {
    if n <= FAST_FIRST_N {
        SolveAlgo::Bitboard
    } else {
        SolveAlgo::Construct
    }
}

/// Runs `queens solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<Status> {
    let n = args.size.n;
    args.format.check_size(n)?;
    let algo = args.algo.unwrap_or_else(|| default_algo(n));
    if args.seed.is_some() && algo != SolveAlgo::MinConflicts {
        anyhow::bail!("--seed only applies to --algo min-conflicts");
    }
    match algo {
        SolveAlgo::Construct => match construct::columns(n) {
            Some(cols) => write_solution(args.format, n, cols),
            None => no_solution(n),
        },
        SolveAlgo::MinConflicts => {
            if u32::try_from(n).is_err() {
                anyhow::bail!(
                    "N = {n} is too large for min-conflicts, which handles N up to {}",
                    u32::MAX
                );
            }
            let seed = args.seed.unwrap_or_else(|| {
                let seed = random_seed();
                eprintln!("queens: min-conflicts seed {seed} (repeat with --seed {seed})");
                seed
            });
            match min_conflicts::solve(n, seed) {
                Some(queens) => write_solution(args.format, n, queens.iter().map(|&c| c as usize)),
                None => no_solution(n),
            }
        }
        enumerating => {
            let algorithm = enumerating
                .algorithm()
                .expect("every other choice enumerates");
            match algorithm.first_solution(n, &args.search.options())? {
                Some(queens) => write_solution(args.format, n, queens.into_iter()),
                None => no_solution(n),
            }
        }
    }
}

fn write_solution(
    format: Format,
    n: usize,
    columns: impl Iterator<Item = usize>,
) -> anyhow::Result<Status> {
    let mut out = super::stdout();
    write_stream(format, &mut out, n, columns)?;
    out.flush().context("writing the solution")?;
    Ok(Status::Success)
}

fn no_solution(n: usize) -> anyhow::Result<Status> {
    eprintln!("queens: no solution: the {n}x{n} board has none");
    Ok(Status::No)
}

/// A seed from the clock and the process id, for runs without --seed.
fn random_seed() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut h = RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish() % 1_000_000_000
}
