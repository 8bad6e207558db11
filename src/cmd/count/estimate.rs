//! `queens count --estimate`: the run's size, memory and time, printed as sentences, for the
//! engine the same command would run: the half-board engine's forecast (probes of every
//! subproblem's two walks, subproblems drawn by their predicted cost and counted whole on the
//! run's threads) or the frame engine's (Knuth's random probes of every subproblem's search and
//! a few seconds of random subproblems counted whole).
//!
//! May call: `queens_core::count` (the estimates themselves) and the binary's output helpers.

use std::io::Write;
use std::time::Duration;

use queens_core::count;

use crate::cli::CountArgs;
use crate::memory::CountBudget;
use crate::status::Status;

/// `--estimate`: the run's size and time, from Knuth's random probes of every subproblem and
/// a few seconds of random subproblems counted whole, for `run`, the run the same command would
/// make (engine, split within `budget`, shard, threads).
pub fn estimate(args: &CountArgs, run: count::Run, budget: &CountBudget) -> anyhow::Result<Status> {
    let n = args.size.n;
    let shard = run.shard_counted();
    let threads = run.workers();
    if let Some(f) = run.forecast_halves(Duration::from_secs(4)) {
        return halves(args, &run, &f?, threads, budget);
    }
    let e = count::estimate(n, shard, Duration::from_secs(3))?;
    let core = e.core_seconds();
    let mut out = crate::output::stdout();
    let of_shard = if args.shard.is_some() {
        format!(" (shard {shard})")
    } else {
        String::new()
    };
    writeln!(out, "N = {n}{of_shard}: {} subproblems", e.subproblems)?;
    writeln!(
        out,
        "engine: frame (split {}; canonical frames searched, their last rows joined)",
        run.split()
    )?;
    writeln!(
        out,
        "estimated search nodes: {:.3e} (Knuth's random probes, {} per subproblem)",
        e.nodes, e.probes
    )?;
    writeln!(
        out,
        "time per node: {:.3} ns (measured on {} random subproblems of N = {} counted whole in \
         {:.1} s)",
        e.seconds_per_node * 1e9,
        e.calibration.0,
        e.calibrated_on,
        e.calibration.1
    )?;
    writeln!(
        out,
        "estimated time: {} on {threads} thread{} ({} core-hours)",
        human(core / threads as f64),
        if threads == 1 { "" } else { "s" },
        significant(core / 3600.0)
    )?;
    writeln!(
        out,
        "largest subproblem: number {}, {:.3e} nodes, about {} on one core",
        e.largest.0,
        e.largest.1,
        human(e.largest.1 * e.seconds_per_node)
    )?;
    if let Some((pieces, largest)) = e.pieces {
        writeln!(
            out,
            "each frame is cut into pieces by its first {} free rows (split {}): about {:.3e} \
             pieces, the largest of 512 sampled from the 8 largest frames {:.3e} nodes, about {} \
             on one core",
            e.depth,
            count::pieces::split_name(e.depth),
            pieces,
            largest,
            human(largest * e.seconds_per_node)
        )?;
    }
    writeln!(
        out,
        "the time assumes {threads} idle core{}: on a busy machine the sample runs slower, and \
         so does the count",
        if threads == 1 { "" } else { "s" }
    )?;
    if e.calibrated_on != n {
        writeln!(
            out,
            "note: N = {n}'s subproblems are too long to time, so the time per node is N = {}'s; \
             the join gains more on larger boards, so the time is likely an overestimate",
            e.calibrated_on
        )?;
    }
    out.flush()?;
    Ok(Status::Success)
}

/// `--estimate` of a half-board run: `f` forecasts `run` on `threads` threads.
fn halves(
    args: &CountArgs,
    run: &count::Run,
    f: &count::halves::Forecast,
    threads: usize,
    budget: &CountBudget,
) -> anyhow::Result<Status> {
    let n = args.size.n;
    let mib = |b: u64| b as f64 / f64::from(1 << 20);
    let plural = |t: usize| if t == 1 { "" } else { "s" };
    let mut out = crate::output::stdout();
    let of_shard = match args.shard {
        Some(shard) => format!(" (shard {shard})"),
        None => String::new(),
    };
    writeln!(out, "N = {n}{of_shard}: {} subproblems", f.subproblems)?;
    writeln!(
        out,
        "engine: halves (split {}, {} pattern columns; the upper and lower halves listed and \
         joined)",
        run.split(),
        f.pattern_columns
    )?;
    writeln!(
        out,
        "estimated halves: {:.3e} listed in all (Knuth's random probes, {} per side of each \
         subproblem)",
        f.halves, f.probes
    )?;
    let allows = mib(f.bytes_model) * threads as f64;
    let within = if budget.given {
        format!(
            "the split allows {allows:.0} MiB for the halves of --max-memory {:.0} MiB",
            mib(budget.split)
        )
    } else {
        format!(
            "the split is the one of {:.0} MiB (the same on every machine) and allows {allows:.0} \
             MiB for the halves, within {}",
            mib(budget.split),
            budget.describe()
        )
    };
    writeln!(
        out,
        "memory: about {:.0} MiB on {threads} thread{} (the largest subproblem, number {}, about \
         {:.3e} halves, 18 bytes each per thread, and 8 MiB for the process); {within}",
        mib(f.bytes_largest * threads as u64 + count::halves::PROCESS_BYTES),
        plural(threads),
        f.largest.0,
        f.largest.1,
    )?;
    let error = if f.core_seconds() > 0.0 {
        format!(
            ", standard error {:.0} %",
            100.0 * f.pattern_error / f.core_seconds()
        )
    } else {
        String::new()
    };
    writeln!(
        out,
        "time sample: {} subproblem{} drawn by their predicted cost and counted whole on {} \
         thread{} in {:.1} s",
        f.sampled.0,
        plural(f.sampled.0),
        f.sampled.1,
        plural(f.sampled.1),
        f.sampled.2
    )?;
    let core = f.core_seconds();
    writeln!(
        out,
        "estimated time: {} on {threads} thread{} ({} core-hours{error})",
        human(f.wall_seconds(threads)),
        plural(threads),
        significant(core / 3600.0)
    )?;
    let (seconds, board) = f.fixed;
    let fixed = if seconds <= 0.0 {
        String::new()
    } else if board == n {
        format!("; the fixed points: {} on one core", human(seconds))
    } else {
        format!(
            "; the fixed points: about {} on one core (timed on N = {board}, scaled)",
            human(seconds)
        )
    };
    writeln!(
        out,
        "largest subproblem: about {} on one core (by its predicted cost){fixed}",
        human(f.largest_seconds)
    )?;
    writeln!(
        out,
        "the time assumes {threads} idle core{}: on a busy machine the sample runs slower, and \
         so does the count",
        plural(threads)
    )?;
    out.flush()?;
    Ok(Status::Success)
}

/// Three significant digits, without an exponent down to 0.001.
fn significant(x: f64) -> String {
    match x {
        x if x >= 100.0 => format!("{x:.0}"),
        x if x >= 10.0 => format!("{x:.1}"),
        x if x >= 1.0 => format!("{x:.2}"),
        x if x >= 0.001 => format!("{x:.4}"),
        x => format!("{x:.2e}"),
    }
}

/// A duration in the largest unit that keeps it readable.
fn human(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.1} s"),
        s if s < 7200.0 => format!("{:.1} min", s / 60.0),
        s if s < 3.0 * 86400.0 => format!("{:.1} h", s / 3600.0),
        s if s < 3.0 * 365.25 * 86400.0 => format!("{:.1} days", s / 86400.0),
        s => format!("{:.1} years", s / (365.25 * 86400.0)),
    }
}
