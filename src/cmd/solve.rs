//! `queens solve [N]`: one solution: the lexicographically first by an enumerating solver, or a
//! constructed one, or one found by min-conflicts local search.

use std::io::Write;

use anyhow::Context;
use queens_core::solve::{construct, min_conflicts, Method};

use std::ops::ControlFlow;

use queens_core::Algorithm;

use crate::cli::SolveArgs;
use crate::format::{write_json_answer, write_stream, Format};
use crate::hint::budget_hint;
use crate::output::{note, SignOfLife};
use crate::status::Status;

/// Runs `queens solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<Status> {
    let n = args.size.n;
    args.format.check_size(n)?;
    let method = args.algo.map_or_else(|| Method::default_for(n), |a| a.0);
    if args.seed.is_some() && !method.takes_seed() {
        anyhow::bail!("--seed only applies to --algo min-conflicts");
    }
    let answer = Answer {
        format: args.format,
        n,
        seed: None,
    };
    match method {
        Method::Construct => match construct::columns(n)? {
            Some(cols) => answer.solution(cols),
            None => answer.none(),
        },
        Method::MinConflicts => {
            min_conflicts::check_request(n, args.search.max_memory).map_err(budget_hint)?;
            let seed = args.seed.unwrap_or_else(|| {
                let seed = queens_core::random::random_seed();
                note!("queens: min-conflicts seed {seed} (repeat with --seed {seed})");
                seed
            });
            // The seed, given or drawn, is in the JSON too (issue 39).
            let answer = Answer {
                seed: Some(seed),
                ..answer
            };
            match min_conflicts::solve(n, seed)? {
                Some(queens) => answer.solution(queens.iter().map(|&c| c as usize)),
                None => answer.none(),
            }
        }
        Method::First(algorithm) => match first_solution(algorithm, args)? {
            Some(queens) => answer.solution(queens.into_iter()),
            None => answer.none(),
        },
    }
}

/// How the answer of one `solve` is printed: its format, its board, and the seed of a seeded
/// method (which `--format json` prints).
#[derive(Debug, Clone, Copy)]
struct Answer {
    format: Format,
    n: usize,
    seed: Option<u64>,
}

impl Answer {
    /// Prints the solution (status 0).
    fn solution(self, mut columns: impl Iterator<Item = usize>) -> anyhow::Result<Status> {
        let mut out = super::stdout();
        match self.format {
            Format::Json => write_json_answer(&mut out, self.n, self.seed, Some(&mut columns))?,
            format => write_stream(format, &mut out, self.n, columns)?,
        }
        out.flush().context("writing the solution")?;
        Ok(Status::Success)
    }

    /// The answer "no" (status 1): the message on standard error, and with `--format json` the
    /// JSON value of a board without a solution, `{"n":3,"queens":null}` (with its seed when
    /// seeded), on standard output, so that a script reading JSON gets a value for every N
    /// (issue 39).
    fn none(self) -> anyhow::Result<Status> {
        let n = self.n;
        if self.format == Format::Json {
            super::print_json_none(n, self.seed)?;
        }
        note!("queens: no solution: the {n}x{n} board has none");
        Ok(Status::No)
    }
}

/// The first solution by `algorithm`, with a sign of life on a terminal when it takes long.
fn first_solution(algorithm: Algorithm, args: &SolveArgs) -> anyhow::Result<Option<Vec<usize>>> {
    let options = args.search.options();
    let what = format!("searching N = {} ({algorithm})", args.size.n);
    let Some(mut sign) = SignOfLife::new(what, args.quiet) else {
        return algorithm
            .first_solution(args.size.n, &options)
            .map_err(budget_hint);
    };
    let mut found = None;
    let _ = algorithm
        .for_each_solution_watched(
            args.size.n,
            &options,
            &mut |progress| {
                sign.report(progress);
                ControlFlow::Continue(())
            },
            &mut |q| {
                found = Some(q.to_vec());
                ControlFlow::Break(())
            },
        )
        .map_err(budget_hint)?;
    Ok(found)
}
