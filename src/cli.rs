//! The command line: raw flags parsed by clap. Each subcommand's arguments are a struct whose
//! `///` comments are its help text; `main` turns them into calls on the library.

use std::path::PathBuf;

use std::sync::LazyLock;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};
use queens_core::solve::Method;
use queens_core::{Algorithm, Square};

use crate::format::Format;

/// The N-Queens toolkit: solve, list, count and verify placements of N queens on an N x N board.
#[derive(Debug, Parser)]
#[command(name = "queens", version, about, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands. Each one's `--help` ends with examples and its exit statuses.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print one solution of the N x N board: the lexicographically first where that is fast,
    /// else one built by a formula (N up to 10^8 and more).
    #[command(after_help = SOLVE_HELP)]
    Solve(SolveArgs),
    /// List every solution in lexicographic order, streamed.
    #[command(after_help = LIST_HELP)]
    List(ListArgs),
    /// Print the number of solutions as one integer line.
    #[command(after_help = COUNT_HELP)]
    Count(CountArgs),
    /// Read placements (positions lines or board blocks) and say whether each is a solution.
    #[command(after_help = VERIFY_HELP)]
    Verify(VerifyArgs),
    /// Step through the solutions in the terminal (arrow keys or j/k, u unique only, q quits).
    #[command(after_help = BROWSE_HELP)]
    Browse(BrowseArgs),
    /// Show every step of a search: squares tried, conflicts, placements, backtracks.
    #[command(after_help = TRACE_HELP)]
    Trace(TraceArgs),
    /// Sum the results of `queens count --shard I/M --json`, refusing incomplete sets.
    #[command(after_help = MERGE_HELP)]
    Merge(MergeArgs),
    /// Complete a partly filled board: one solution containing the given queens, or how many.
    #[command(after_help = COMPLETE_HELP)]
    Complete(CompleteArgs),
    /// Serve the board viewer: a web page to browse every solution, and its JSON API.
    #[command(after_help = SERVE_HELP)]
    Serve(ServeArgs),
}

const SOLVE_HELP: &str = "\
Examples:
  queens solve 8                                  the first solution, drawn as a board
  queens solve 1000000 --format positions | wc -c   one solution of a million queens
  queens solve 50 --algo min-conflicts --seed 7   a random solution, reproducible by its seed

Exit status: 0 a solution was printed, 1 the board has none (N = 2, 3), 2 bad usage or error.";

const LIST_HELP: &str = "\
Examples:
  queens list 8 | head -3              the first three solutions
  queens list 8 --unique --format board  one board per symmetry class (12)
  queens list 6 --format svg --out pics  one SVG file per solution

Exit status: 0 success (also when a closed pipe ends the listing), 2 bad usage or error.";

const COUNT_HELP: &str = "\
Limits: the counting engine handles N up to 32 (--algo counts by enumeration, up to that
algorithm's own limit).

Examples:
  queens count 14                              365596
  queens count 12 --unique                     1787 symmetry classes
  queens count 20 --shard 3/8 --json           one part of eight, for `queens merge`
  queens count 18 --checkpoint n18.ckpt        resumable: run it again after an interruption

Exit status: 0 success, 2 bad usage or error, 130 interrupted by Ctrl-C (SIGINT) after saving the
checkpoint.";

const VERIFY_HELP: &str = "\
Examples:
  queens list 8 | queens verify                  every line is a solution
  echo '0 4 7 5 2 6 3 1' | queens verify         names the two queens that attack each other
  queens verify boards.txt                       positions lines and drawn boards, mixed

Exit status: 0 every placement is a solution, 1 at least one is not, 2 unreadable input or error.";

const BROWSE_HELP: &str = "\
Limits: boards up to N = 14 (the browser lists every solution).

Examples:
  queens browse 8             step through the 92 solutions of 8x8
  queens browse 10 --unique   only one solution per symmetry class

Exit status: 0 success, 2 bad usage, no terminal, or error.";

const TRACE_HELP: &str = "\
Examples:
  queens trace 4                                  every step of backtracking on 4x4
  queens trace 8 --algo recursive --summary       the counts only: 876 tries, 113 placements
  queens trace 6 --algo bfs --format json | head  one JSON object per event

Exit status: 0 success (also when a closed pipe ends the trace), 2 bad usage or error.";

const MERGE_HELP: &str = "\
A file holds one shard result or several, one JSON object per line (as collected from many
machines with `cat`). Every shard of the set must be there exactly once, all of the same N and
split.

Examples:
  queens merge part-*.json                 the total of all the parts
  cat parts/*.json > all.json && queens merge --unique all.json

Exit status: 0 success, 2 a missing, repeated or mismatched part, unreadable input, or error.";

const COMPLETE_HELP: &str = "\
Examples:
  queens complete 8 --fixed 0:3,5:2        one solution with queens on (0,3) and (5,2)
  queens complete 10 --fixed 0:2 --count   how many solutions have a queen on (0,2)
  queens complete instance.param           a CSPLib problem 79 instance

Exit status: 0 a completion was printed (or counted), 1 there is none, 2 bad input or error.";

const SERVE_HELP: &str = "\
Examples:
  queens serve                  the viewer at http://127.0.0.1:8080/
  queens serve --port 0 --open  a free port, opened in the browser

Exit status: 0 after Ctrl-C, 2 the address cannot be bound, or another error.";

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

/// Flags shared by the commands that run a solver.
#[derive(Debug, Args, Clone)]
pub struct SearchArgs {
    /// The memory budget: the most that a search, a trace, a reader or the half-board engine of
    /// `queens count` may allocate, checked before allocating; bytes, or a number with K, M, G
    /// or T (powers of 1024).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_bytes)]
    pub max_memory: u64,
}

/// `queens solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub size: Size,
    /// The solver. By default: bitboard (the lexicographically first solution) for N <= 29,
    /// where it takes under 0.1 s; construct for N >= 30, where finding the first solution
    /// takes a second or, from N = 34 on, far longer.
    #[arg(long, value_enum, verbatim_doc_comment)]
    pub algo: Option<SolveAlgo>,
    /// The seed of --algo min-conflicts (the same seed gives the same solution); random when
    /// absent, and then printed on standard error.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// How to print the solution (board only up to N = 10000).
    #[arg(long, value_enum, default_value_t = Format::Board)]
    pub format: Format,
    #[command(flatten)]
    pub search: SearchArgs,
    /// No sign of life on standard error during a long search (shown only on a terminal).
    #[arg(long, short)]
    pub quiet: bool,
}

/// `queens list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub size: Size,
    /// The solver; every solver lists the same solutions in the same order.
    #[arg(long, value_enum, default_value_t = AlgoArg::BITBOARD)]
    pub algo: AlgoArg,
    /// Stop after K solutions.
    #[arg(long, value_name = "K")]
    pub limit: Option<u64>,
    /// List one solution per symmetry class: the smallest of its 8 rotations and reflections.
    #[arg(long)]
    pub unique: bool,
    /// How to print each solution.
    #[arg(long, value_enum, default_value_t = Format::Positions)]
    pub format: Format,
    /// With --format svg: the directory (created when missing) that receives one file per
    /// solution, DIR/solution-000001.svg, DIR/solution-000002.svg, ...
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// No sign of life on standard error during a long search (shown only on a terminal).
    #[arg(long, short)]
    pub quiet: bool,
}

/// `queens count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub size: Size,
    /// Count by listing every solution with this solver instead of the counting engine.
    #[arg(long, value_enum, conflicts_with_all = ["unique", "json", "shard", "checkpoint", "engine"])]
    pub algo: Option<AlgoArg>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print the number of solutions distinct under rotations and reflections instead.
    #[arg(long)]
    pub unique: bool,
    /// Print one JSON object: n, total, unique, seconds (and the shard, when counting one).
    #[arg(long)]
    pub json: bool,
    /// Worker threads; 0 means one per core.
    #[arg(long, short = 'j', value_name = "T", default_value_t = 0)]
    pub threads: usize,
    /// Count only part I of M (0 <= I < M); `queens merge` sums the parts.
    #[arg(long, value_name = "I/M")]
    pub shard: Option<queens_core::count::Shard>,
    /// Record finished work in FILE and resume from it when it exists.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoint saves (0.1 to 604800, one week).
    #[arg(long, value_name = "SECS", default_value_t = 2.0, requires = "checkpoint",
          value_parser = parse_interval)]
    pub checkpoint_every: f64,
    /// No progress bar, no "resuming" note.
    #[arg(long, short)]
    pub quiet: bool,
    /// Progress on standard error: a bar, one line per interval (for logs), or nothing.
    /// Default: a bar on a terminal (unless --quiet), nothing otherwise.
    #[arg(long, value_enum, value_name = "HOW")]
    pub progress: Option<Progress>,
    /// Seconds between two lines of --progress lines (0.1 to 604800).
    #[arg(long, value_name = "SECS", default_value_t = 60.0,
          value_parser = parse_interval)]
    pub progress_every: f64,
    /// Recount K random finished subproblems of the --checkpoint file with the plain search
    /// (not the join) and say whether each agrees; counts nothing else. Status 1 when one
    /// disagrees.
    #[arg(long, value_name = "K", requires = "checkpoint",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub recount: Option<u64>,
    /// Estimate the run instead of counting: subproblems, search nodes (Knuth's random
    /// probes), time on the given threads and core-hours, in a few seconds.
    #[arg(long, conflicts_with_all = ["recount", "checkpoint", "algo"])]
    pub estimate: bool,
    /// The counting engine: frame (canonical frames searched, their last rows joined), halves
    /// (the upper and lower halves of the board listed and joined; N up to 24, within
    /// --max-memory), or auto (halves from N = 12 to 24, frame otherwise).
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: EngineArg,
    /// Cut each frame of the frame engine into pieces by the queens of its first D free rows
    /// (0: whole frames). Default: whole frames up to N = 21, D = max(2, N - 21) above, so that
    /// no subproblem takes more than seconds of one core. Implies --engine frame.
    #[arg(long, value_name = "D", conflicts_with_all = ["algo", "estimate"],
          value_parser = clap::value_parser!(u64).range(0..=12))]
    pub pieces: Option<u64>,
}

/// The choices of `queens count --engine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Canonical frames of the board, searched, their last rows joined.
    Frame,
    /// The upper and lower halves listed per column pattern and joined.
    Halves,
    /// The faster one for the board size.
    Auto,
}

impl EngineArg {
    /// The engine's own name for the choice.
    pub fn engine(self) -> queens_core::count::Engine {
        match self {
            EngineArg::Frame => queens_core::count::Engine::Frame,
            EngineArg::Halves => queens_core::count::Engine::Halves,
            EngineArg::Auto => queens_core::count::Engine::Auto,
        }
    }
}

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
}

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

/// `queens browse`.
#[derive(Debug, Args)]
pub struct BrowseArgs {
    #[command(flatten)]
    pub size: Size,
    /// Start with only the solutions distinct under rotations and reflections (`u` toggles).
    #[arg(long)]
    pub unique: bool,
    /// The solver whose search `t` plays (`a` switches to the next one while playing).
    #[arg(long, value_enum, default_value_t = AlgoArg::BACKTRACK)]
    pub algo: AlgoArg,
}

/// `queens trace`.
#[derive(Debug, Args)]
pub struct TraceArgs {
    #[command(flatten)]
    pub size: Size,
    /// The solver to watch; backtrack is the column-by-column search of the COMP 333 notes.
    #[arg(long, value_enum, default_value_t = AlgoArg::BACKTRACK)]
    pub algo: AlgoArg,
    /// How to print the events.
    #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
    pub format: TraceFormat,
    /// Trace the whole search instead of stopping at the first solution.
    #[arg(long)]
    pub all: bool,
    /// Stop after STEPS events, with a last line saying the trace was cut.
    #[arg(long, value_name = "STEPS", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Print only the counts (tries, conflicts, placements, removals, backtracks, solutions).
    #[arg(long)]
    pub summary: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    /// No sign of life on standard error during a long trace (shown only on a terminal).
    #[arg(long, short)]
    pub quiet: bool,
}

/// How `queens trace` prints its events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TraceFormat {
    /// One readable line per event with the positions (and first-untried) arrays, then a summary.
    Text,
    /// One JSON object per line: {"event":"place","step":2,"row":0,"col":0,"positions":[...],...}.
    Json,
    /// The board drawn after each step in the COMP 333 description's notation, with row and
    /// column numbers: Q a queen, Q? the square being tried, R? (C? row-wise) and D? every square
    /// the conflict test checks along its row (column) and diagonals, R! C! D! a queen there, CC
    /// under the current column (RR after the current row), then the arrays (N up to 32).
    Board,
}

/// `queens complete`.
#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 a completion exists, 1 none does (also when two given \
queens attack each other), 2 a queen off the board, malformed input or another error."
)]
pub struct CompleteArgs {
    /// The board size N, or a file holding the instance (`-` for standard input): CSPLib
    /// problem 79 parameters (`letting n = 8` / `letting init = [[r, c], ...]`, 0-based) or one
    /// drawn board (Q for the given queens, . elsewhere). A whole number is read as N.
    #[arg(value_name = "N|FILE")]
    pub target: String,
    /// The given queens as 0-based ROW:COLUMN pairs separated by commas (only with N).
    #[arg(long, value_name = "R:C[,R:C...]", value_delimiter = ',', value_parser = parse_square)]
    pub fixed: Vec<Square>,
    /// Print the number of completions instead of one of them.
    #[arg(long, conflicts_with = "format")]
    pub count: bool,
    /// How to print the completed board (board only up to N = 10000).
    #[arg(long, value_enum, default_value_t = Format::Board)]
    pub format: Format,
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Parses a square written `ROW:COLUMN`, both 0-based.
pub fn parse_square(s: &str) -> Result<Square, String> {
    let bad = || format!("'{s}' is not a square: write ROW:COLUMN, both 0-based, such as 0:3");
    let (row, col) = s.trim().split_once(':').ok_or_else(bad)?;
    Ok(Square {
        row: row.trim().parse().map_err(|_| bad())?,
        col: col.trim().parse().map_err(|_| bad())?,
    })
}

/// `queens serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one (the address is printed on standard error).
    #[arg(long, short, value_name = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on: the default serves only this machine; 0.0.0.0 serves the
    /// network.
    #[arg(long, value_name = "HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the default web browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// The server's bounds on connections and work (docs/server-limits.md).
    #[command(flatten)]
    pub limits: ServeLimits,
}

/// Parses a board size, a whole number of at least 1, for the subcommand `command`, whose largest N a number too large for
/// this machine is compared with: "N = 18446744073709551616 is too large: at most 4294967295
/// for `list --algo backtrack`".
pub fn parse_n_for(command: Option<&str>, s: &str) -> Result<usize, String> {
    let t = s.trim();
    match t.parse::<usize>() {
        Ok(0) => Err("N must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
            Err(too_large(command, t))
        }
        Err(_) => Err(format!(
            "N must be a whole number of at least 1, not '{}'",
            shorten(s)
        )),
    }
}

/// The message for a board size beyond `usize`: the digits (cut when long) and the largest N
/// of the subcommand, with the algorithm that takes it.
pub fn too_large(command: Option<&str>, digits: &str) -> String {
    let shown = if digits.len() > 40 {
        format!("{}... ({} digits)", &digits[..40], digits.len())
    } else {
        digits.to_string()
    };
    let (max, by) = match command {
        Some("solve") => {
            let best = Method::ALL
                .into_iter()
                .max_by_key(|m| m.max_n())
                .expect("methods");
            (best.max_n(), format!(" for `solve --algo {}`", best.name()))
        }
        Some("complete") => (queens_core::complete::MAX_N, " for `complete`".to_string()),
        Some(cmd @ ("list" | "count" | "trace" | "browse")) => {
            // The first algorithm with the largest range (`max_by_key` would take the last).
            let max = Algorithm::ALL
                .iter()
                .map(|a| a.max_n())
                .max()
                .expect("algorithms");
            let best = Algorithm::ALL
                .into_iter()
                .find(|a| a.max_n() == max)
                .expect("algorithms");
            (max, format!(" for `{cmd} --algo {}`", best.name()))
        }
        _ => (usize::MAX, String::new()),
    };
    format!("N = {shown} is too large: at most {max}{by}")
}

/// Text echoed in a message, cut to 40 characters.
pub fn shorten(text: &str) -> String {
    if text.chars().count() <= 40 {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(40).collect::<String>())
    }
}

/// The value parser of N: [`parse_n_for`] with the subcommand it is given to.
#[derive(Debug, Clone, Copy)]
pub struct SizeParser;

impl clap::builder::TypedValueParser for SizeParser {
    type Value = usize;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<usize, clap::Error> {
        let text = value.to_string_lossy();
        parse_n_for(Some(cmd.get_name()), &text).map_err(|message| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("invalid value '{}' for '[N]': {message}\n", shorten(&text)),
            )
            .with_cmd(cmd)
        })
    }
}

/// Parses a positive number of seconds.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

/// Parses a byte size such as `1G`, `512M`, `64K` or `1000000`.
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => t.split_at(i),
        None => (t, ""),
    };
    let shift = match unit
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => {
            return Err(format!(
                "'{s}' is not a size: use bytes or a number with K, M, G or T"
            ))
        }
    };
    let value: u64 = digits
        .parse()
        .map_err(|_| format!("'{s}' is not a size: use bytes or a number with K, M, G or T"))?;
    value
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("'{s}' is too large"))
}

/// How `queens count` shows its progress on standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Progress {
    /// A bar redrawn in place (for a terminal).
    Bar,
    /// One line per interval: done / total subproblems, rate, elapsed time and ETA (for a log
    /// file, under Slurm or nohup).
    Lines,
    /// Nothing.
    None,
}

/// The shortest interval `--checkpoint-every` and `--progress-every` accept, in seconds.
pub const MIN_INTERVAL: f64 = 0.1;
/// The longest: one week.
pub const MAX_INTERVAL: f64 = 7.0 * 24.0 * 3600.0;

/// Parses an interval in seconds, from [`MIN_INTERVAL`] to [`MAX_INTERVAL`].
pub fn parse_interval(s: &str) -> Result<f64, String> {
    match parse_seconds(s) {
        Ok(x) if (MIN_INTERVAL..=MAX_INTERVAL).contains(&x) => Ok(x),
        _ => Err(format!(
            "'{s}' is not a number of seconds from {MIN_INTERVAL} to {MAX_INTERVAL} (one week)"
        )),
    }
}

/// The bounds of `queens serve`, every one with its default (docs/server-limits.md).
#[derive(Debug, Clone, Args)]
pub struct ServeLimits {
    /// The most connections open at once; when full, the connection quiet the longest (with no
    /// request being worked on) is closed to let a new one in.
    #[arg(long, value_name = "COUNT", default_value_t = 512, value_parser = parse_count)]
    pub max_connections: usize,
    /// The most heavy requests (large boards, long traces) worked on at once; the others are
    /// answered 503 with Retry-After. Default: the number of cores.
    #[arg(long, value_name = "COUNT", value_parser = parse_count)]
    pub max_heavy: Option<usize>,
    /// The most search steps one request may take (a 422 beyond).
    #[arg(long, value_name = "STEPS", default_value_t = 300_000_000)]
    pub max_steps: u64,
    /// The longest wait for a request's head (request line and headers); also closes keep-alive
    /// connections idle that long.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    pub header_timeout: f64,
    /// A connection that moves no byte for this long while no request is worked on is closed.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_seconds)]
    pub idle_timeout: f64,
    /// On Ctrl-C, how long the requests in flight may take to finish before every connection is
    /// dropped.
    #[arg(long, value_name = "SECONDS", default_value = "2", value_parser = parse_seconds)]
    pub shutdown_grace: f64,
}

/// Parses a count of at least 1.
fn parse_count(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{s}' is not a whole number of at least 1")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse_n(s: &str) -> Result<usize, String> {
        parse_n_for(None, s)
    }

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn sizes_take_binary_suffixes() {
        assert_eq!(parse_bytes("1G"), Ok(1 << 30));
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert_eq!(parse_bytes("64k"), Ok(64 << 10));
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("1X").is_err());
    }

    #[test]
    fn squares_are_row_colon_column() {
        assert_eq!(parse_square("2:5"), Ok(Square { row: 2, col: 5 }));
        assert!(parse_square("2,5").unwrap_err().contains("'2,5'"));
        assert!(parse_square("-1:0").is_err());
        assert!(parse_square("1:").is_err());
    }

    #[test]
    fn n_must_be_a_positive_whole_number() {
        assert_eq!(parse_n("8"), Ok(8));
        assert!(parse_n("0").unwrap_err().contains("at least 1"));
        assert!(parse_n("eight").unwrap_err().contains("'eight'"));
        assert!(parse_n("-3").is_err());
    }

    #[test]
    fn sizes_beyond_the_machine_say_too_large_with_the_commands_limit() {
        let two_to_64 = "18446744073709551616";
        assert_eq!(
            parse_n_for(Some("list"), two_to_64).unwrap_err(),
            "N = 18446744073709551616 is too large: at most 4294967295 for `list --algo backtrack`"
        );
        assert!(parse_n_for(Some("solve"), two_to_64)
            .unwrap_err()
            .ends_with("at most 18446744073709551615 for `solve --algo construct`"));
        let long = "9".repeat(1000);
        let err = parse_n(&long).unwrap_err();
        assert!(err.contains("(1000 digits) is too large"), "{err}");
        assert!(err.len() < 200, "{err}");
        assert!(parse_n(&"x".repeat(1000)).unwrap_err().len() < 200);
    }
}
