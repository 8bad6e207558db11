//! The arguments of `queens count`: the engine and its split, shards, checkpoints, progress,
//! `--recount` and `--estimate`.
//!
//! May call: [`super::shared`], [`super::parse`] and the engine's names of its engines.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::parse::{
    parse_depth, parse_estimate_bound, parse_interval, parse_positive, parse_threads,
};
use super::shared::{AlgoArg, ResultFormat, SearchArgs, Size};

/// The help of `queens count --max-memory`, whose default follows the machine: `-h`'s line and
/// `--help`'s paragraph.
const MAX_MEMORY_HELP: &str = "The memory budget of the half-board engine: its split, and how \
     many subproblems run at once. Default: the split of 1G and as many at once as fit in 3/4 of \
     the memory the process can have";
const MAX_MEMORY_LONG_HELP: &str = "The memory budget of the half-board engine: its split is \
     the coarsest whose two largest subproblems fit in it, and as many subproblems run at once \
     as fit in it (at most --threads); with --algo, the search's budget. Bytes, or a number \
     with K, M, G or T (powers of 1024, as KiB, MiB...; KB, MB... are powers of 1000; 1.5G is allowed). Default: the split of 1G, the same on every machine (so \
     that shards and checkpoints of any machine match), and as many subproblems at once as fit \
     in 3/4 of the memory the process can have (physical memory, RLIMIT_AS, RLIMIT_DATA, cgroup \
     limit); 1G with --algo. A budget given above that 3/4 is lowered to it, with a note.";

/// `queens count`.
#[derive(Debug, Args)]
#[command(mut_arg(super::shared::MAX_MEMORY, |arg| {
    arg.help(MAX_MEMORY_HELP).long_help(MAX_MEMORY_LONG_HELP).hide_default_value(true)
}))]
pub struct CountArgs {
    #[command(flatten)]
    pub size: Size,
    /// Count by listing every solution with this solver instead of the counting engine.
    #[arg(long, value_enum, conflicts_with_all = ["unique", "json", "shard", "checkpoint", "checkpoint_every", "recount", "engine", "threads", "progress_every"])]
    pub algo: Option<AlgoArg>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print the number of solutions distinct under rotations and reflections instead.
    #[arg(long, conflicts_with = "recount")]
    pub unique: bool,
    /// How to print the count: text (one integer line, the total or with --unique the classes)
    /// or json (one JSON object: n, total, unique, seconds, split (how the board was cut),
    /// subproblems, unique_unit, checksum; with --shard also shard and shards) [default: text].
    ///
    /// unique_unit says what unique holds: classes, or eighths (8 per class, which `queens
    /// merge` divides by 8 once summed) in a shard of several of the half-board engine (split
    /// halvesK-v1) or of --pieces (frame1-rowsD-v1). checksum is the fnv1a64 of the fields
    /// before unique_unit (which follows from split and shards), as is the mac written when
    /// QUEENS_KEY is set. Not with --algo, which prints the total only.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<ResultFormat>,
    /// The same as --format json (kept for older scripts; refused with --format text).
    #[arg(long)]
    pub json: bool,
    /// Worker threads, 0 to 1024; 0 means one per core.
    #[arg(long, short = 'j', value_name = "T", default_value_t = 0,
          value_parser = super::parse::checked(parse_threads))]
    pub threads: usize,
    /// Count only part I of M (0 <= I < M); `queens merge` sums the parts.
    #[arg(long, value_name = "I/M", value_parser = super::parse::checked(parse_shard))]
    pub shard: Option<queens_core::count::Shard>,
    /// Record finished work in FILE and resume from it when it exists.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoint saves (0.1 to 604800, one week).
    #[arg(long, value_name = "SECS", default_value_t = 2.0, requires = "checkpoint",
          value_parser = super::parse::checked(parse_interval))]
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
          value_parser = super::parse::checked(parse_interval))]
    pub progress_every: f64,
    /// Recount K random finished subproblems of the --checkpoint file with the plain search
    /// (not the join) and say whether each agrees; counts nothing else. Status 1 when one
    /// disagrees.
    #[arg(long, value_name = "K", requires = "checkpoint", value_parser = super::parse::checked(parse_positive))]
    pub recount: Option<u64>,
    /// Estimate the run instead of counting, for the engine and split it would use:
    /// subproblems, halves and memory (half-board engine) or search nodes (frame engine), time
    /// on the given threads and core-hours, within 10 s.
    ///
    /// The time comes from subproblems counted whole, timed by their threads' processor time
    /// (so a busy machine does not inflate it: it is the time on idle cores). Random probes of
    /// every subproblem come first, in rounds, none begun past 30 % of the bound; the counts
    /// stop 10 s after the start at the latest: those still running are stopped, and the
    /// estimate is made from what was counted, with its standard error (both engines keep the
    /// stopped ones as censored, each having taken at least its time so far: a Kaplan-Meier
    /// mean).
    #[arg(long, conflicts_with_all = ["recount", "checkpoint", "algo"])]
    pub estimate: bool,
    /// The bound of --estimate instead of 10 s, in seconds (1 to 86400, one day); implies
    /// --estimate. A longer bound counts more subproblems, for a smaller standard error on
    /// boards whose subproblems take seconds each (N = 22 and above).
    #[arg(long, value_name = "SECS", conflicts_with_all = ["recount", "checkpoint", "algo"],
          value_parser = super::parse::checked(parse_estimate_bound))]
    pub estimate_within: Option<f64>,
    /// The counting engine: frame (canonical frames searched, their last rows joined), halves
    /// (the upper and lower halves of the board listed and joined; N up to 24, within
    /// --max-memory), gpu (the split auto takes, counted on every visible NVIDIA GPU; see
    /// docs/gpu.md), or auto (halves from N = 12 to 24, frame otherwise; never the GPU).
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: EngineArg,
    /// Cut each frame of the frame engine into pieces by the queens of its first D free rows
    /// (0: whole frames). Default: whole frames up to N = 21, D = max(2, N - 21) above, so that
    /// no subproblem takes more than seconds of one core. Implies --engine frame, or with
    /// --engine gpu counts that split's pieces on the GPU.
    #[arg(long, value_name = "D", conflicts_with = "algo", value_parser = super::parse::checked(parse_depth))]
    pub pieces: Option<u64>,
}

impl CountArgs {
    /// Whether the run is estimated instead of counted: `--estimate`, or `--estimate-within`,
    /// which implies it.
    pub fn estimating(&self) -> bool {
        self.estimate || self.estimate_within.is_some()
    }

    /// Whether the count is printed as JSON: `--format json` or its synonym `--json` (see
    /// [`ResultFormat::resolve`]); refused with `--algo`, which prints only the total, and with
    /// `--estimate` and `--recount`, which print sentences.
    pub fn json(&self) -> anyhow::Result<bool> {
        let json = ResultFormat::resolve(self.format, self.json)? == ResultFormat::Json;
        if json && self.algo.is_some() {
            anyhow::bail!(
                "--format json cannot be used with --algo: counting by listing prints only the \
                 total, one integer line"
            );
        }
        if json && self.estimating() {
            anyhow::bail!(
                "--format json cannot be used with --estimate: the forecast is sentences, one \
                 a line"
            );
        }
        if json && self.recount.is_some() {
            anyhow::bail!(
                "--format json cannot be used with --recount: its report is sentences, one a \
                 line, and its exit status says whether all agree (0) or one does not (1)"
            );
        }
        Ok(json)
    }
}

/// The choices of `queens count --engine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Canonical frames of the board, searched, their last rows joined.
    Frame,
    /// The upper and lower halves listed per column pattern and joined.
    Halves,
    /// The subproblems of the split auto takes, counted on every visible NVIDIA GPU.
    Gpu,
    /// The faster one for the board size.
    Auto,
}

impl EngineArg {
    /// The engine's own name for the choice.
    pub fn engine(self) -> queens_core::count::Engine {
        match self {
            EngineArg::Frame => queens_core::count::Engine::Frame,
            EngineArg::Halves => queens_core::count::Engine::Halves,
            EngineArg::Gpu => queens_core::count::Engine::Gpu,
            EngineArg::Auto => queens_core::count::Engine::Auto,
        }
    }
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

/// `I/M`, a shard ([`queens_core::count::Shard`]'s own reading).
fn parse_shard(s: &str) -> Result<queens_core::count::Shard, String> {
    s.parse()
        .map_err(|e: queens_core::count::CountError| e.to_string())
}
