//! The arguments several subcommands share: the board size N, the enumerating solvers and the
//! ways to find one solution (their values and help from the engine's own lists), and the memory
//! budget.
//!
//! May call: the engine's lists ([`Algorithm::ALL`], [`Method::ALL`]) and [`super::parse`].
use std::sync::LazyLock;

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};
use queens_core::solve::Method;
use queens_core::Algorithm;

use super::parse::{parse_bytes, SizeParser};

/// The board size N: a whole number of at least 1.
#[derive(Debug, Args, Clone, Copy)]
pub struct Size {
    /// The board size N (N queens on an N x N board).
    #[arg(value_name = "N", default_value_t = 8, value_parser = SizeParser)]
    pub n: usize,
}

/// A solver that enumerates solutions, by its engine name: the values and their help come from
/// [`Algorithm::ALL`], so the command line and the engine list the same algorithms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlgoArg(pub Algorithm);

impl AlgoArg {
    /// The default of `list`, `count --algo` and `browse`.
    pub const BITBOARD: AlgoArg = AlgoArg(Algorithm::Bitboard);
    /// The default of `trace`.
    pub const BACKTRACK: AlgoArg = AlgoArg(Algorithm::Backtrack);

    /// The library's algorithm.
    pub fn algorithm(self) -> Algorithm {
        self.0
    }
}

impl ValueEnum for AlgoArg {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: LazyLock<Vec<AlgoArg>> =
            LazyLock::new(|| Algorithm::ALL.into_iter().map(AlgoArg).collect());
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.summary()))
    }
}

impl std::fmt::Display for AlgoArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name())
    }
}

/// A way `solve` finds one solution, by its engine name: the six enumerating algorithms plus the
/// two made for huge boards, from [`Method::ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolveAlgo(pub Method);

impl ValueEnum for SolveAlgo {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: LazyLock<Vec<SolveAlgo>> =
            LazyLock::new(|| Method::ALL.into_iter().map(SolveAlgo).collect());
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.summary()))
    }
}

/// The id of the `--max-memory` argument (`main` reads it too, to tell a given budget from the
/// default, and `queens count` rewords its help).
pub const MAX_MEMORY: &str = "max_memory";

/// The budget's help (`queens count` words its own, see [`super::count`]).
const MAX_MEMORY_HELP: &str = "The memory budget: the most that a search, a trace or a reader \
     may allocate, checked before allocating; bytes, or a number with K, M, G or T (powers of \
     1024, as KiB, MiB...; KB, MB... are powers of 1000; 1.5G is allowed). Lowered, with a note, to 3/4 of the memory the process can have (physical memory, \
     RLIMIT_AS, RLIMIT_DATA, cgroup limit) when above it.";

/// Flags shared by the commands that run a solver: the memory budget, and whether the user
/// gave it (`queens count` sizes its default by the machine; the other commands keep `1G`).
///
/// Written by hand rather than derived so that it can record where the value came from.
#[derive(Debug, Clone)]
pub struct SearchArgs {
    /// The memory budget, in bytes: `--max-memory`, or its default `1G` (as lowered by `main`
    /// to what the process can have).
    pub max_memory: u64,
    /// Whether `--max-memory` was given on the command line.
    pub max_memory_given: bool,
}

impl clap::FromArgMatches for SearchArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let max_memory = matches
            .get_one::<u64>(MAX_MEMORY)
            .copied()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingRequiredArgument))?;
        Ok(SearchArgs {
            max_memory,
            max_memory_given: matches.value_source(MAX_MEMORY)
                == Some(clap::parser::ValueSource::CommandLine),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = SearchArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for SearchArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new(MAX_MEMORY)
                .long("max-memory")
                .value_name("SIZE")
                .default_value("1G")
                .value_parser(super::parse::checked(parse_bytes))
                .help(MAX_MEMORY_HELP),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        SearchArgs::augment_args(cmd)
    }
}

/// How `count`, `merge` and `verify` print their results (`--format`): `text`, their lines for
/// people and shells, or `json`, one JSON object per line. `count` and `merge` also take
/// `--json`, a synonym of `--format json` kept from before issue 39.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ResultFormat {
    /// Plain lines: an integer for count and merge, a verdict per placement for verify.
    Text,
    /// One JSON object per line.
    Json,
}

impl ResultFormat {
    /// The format that `--format` (`None`: not given) and `--json` ask for together: text by
    /// default, json when either asks for it; `--json --format text` is refused (status 2),
    /// as the two ask for different things.
    pub fn resolve(format: Option<ResultFormat>, json: bool) -> anyhow::Result<ResultFormat> {
        match (format, json) {
            (Some(ResultFormat::Text), true) => anyhow::bail!(
                "--json is a synonym of --format json: it cannot be used with --format text \
                 (leave out one of the two)"
            ),
            (_, true) => Ok(ResultFormat::Json),
            (format, false) => Ok(format.unwrap_or(ResultFormat::Text)),
        }
    }
}
