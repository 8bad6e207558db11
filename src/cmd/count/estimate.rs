//! `queens count --estimate`: the run's size, memory and time, printed as sentences, for the
//! engine the same command would run: the half-board engine's forecast (probes of every
//! subproblem's two walks, subproblems drawn by their predicted cost and counted whole on the
//! run's threads) or the frame engine's (Knuth's random probes of every subproblem's search and
//! a few seconds of random subproblems counted whole).
//!
//! The counts of both are timed by the processor time of their threads ([`thread_cpu_time`],
//! passed to the engine, which cannot read it), and the estimate keeps within its bound of wall
//! time ([`BOUND`], or `--estimate-within`), answering from what it has: both keep the counts
//! still running at the end of their sample as censored (each took at least its time so far),
//! and say how many and whether the estimate may be short for it.
//!
//! May call: `queens_core::count` (the estimates themselves), the binary's output helpers and
//! `libc` (the thread's processor time).

use std::io::Write;
use std::time::Duration;

use queens_core::count;

use crate::cli::CountArgs;
use crate::memory::CountBudget;
use crate::status::Status;

/// The most wall time `--estimate` takes by default: the probes begin no round past 30 % of
/// it, the counts still running at its end are stopped, and the estimate is made from what it
/// has. Stated in `--help` and docs/counting.md;
/// `--estimate-within` sets another.
pub const BOUND: Duration = Duration::from_secs(10);

/// The share of the bound the half-board forecast draws subproblems at least (then on until 64
/// are counted, within the bound): 4 s of the default 10 s.
const HALVES_SAMPLE: f64 = 0.4;

/// The share of the bound the frame estimate counts subproblems of one board (then a smaller
/// board, within the bound): 3 s of the default 10 s.
const FRAME_SAMPLE: f64 = 0.3;

/// The bound of the estimate `args` asks for: `--estimate-within`, else [`BOUND`].
fn bound(args: &CountArgs) -> Duration {
    args.estimate_within.map_or(BOUND, Duration::from_secs_f64)
}

/// The bound as the estimate's sentences write it: `10 s`, `2.5 s`.
fn bound_text(bound: Duration) -> String {
    format!("{} s", bound.as_secs_f64())
}

/// How the estimate samples: for `share` of the `bound` at least, within the bound, timed by
/// the thread's processor time.
fn sampling(share: f64, bound: Duration) -> count::Sampling {
    count::Sampling::new(bound.mul_f64(share), bound).timed_by(thread_cpu_time)
}

/// The processor time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`): the clock of
/// the estimate's counts, so that what other processes take on a busy machine is not counted;
/// `None` where the platform does not give it (the engine then times by the wall clock).
#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    target_os = "freebsd"
))]
fn thread_cpu_time() -> Option<Duration> {
    // SAFETY: a `timespec` is plain integers, and `clock_gettime` only writes the one given.
    let mut time: libc::timespec = unsafe { std::mem::zeroed() };
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) } != 0 {
        return None;
    }
    let seconds = u64::try_from(time.tv_sec).ok()?;
    let nanos = u32::try_from(time.tv_nsec).ok()?;
    Some(Duration::new(seconds, nanos))
}

#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    target_os = "freebsd"
)))]
fn thread_cpu_time() -> Option<Duration> {
    None
}

/// `--estimate`: the run's size and time, from Knuth's random probes of every subproblem and
/// a few seconds of random subproblems counted whole, for `run`, the run the same command would
/// make (engine, split within `budget`, shard, threads).
pub fn estimate(args: &CountArgs, run: count::Run, budget: &CountBudget) -> anyhow::Result<Status> {
    let n = args.size.n;
    let shard = run.shard_counted();
    let threads = run.workers();
    let bound = bound(args);
    if let Some(f) = run.forecast_halves(&sampling(HALVES_SAMPLE, bound)) {
        return halves(args, &run, &f?, threads, budget, bound);
    }
    let e = count::estimate(n, shard, run.depth(), &sampling(FRAME_SAMPLE, bound))?;
    let about = FrameRun {
        n,
        shard: args.shard.is_some().then_some(shard),
        gpu: args.engine == crate::cli::EngineArg::Gpu,
        split: run.split().to_string(),
        threads,
        bound,
    };
    frame(crate::output::stdout(), &e, &about)
}

/// What the frame estimate's text says of the run besides the estimate itself.
struct FrameRun {
    n: usize,
    /// The shard counted, when `--shard` gave one.
    shard: Option<count::Shard>,
    /// Whether `--engine gpu` asked for it.
    gpu: bool,
    split: String,
    threads: usize,
    bound: Duration,
}

/// Writes the frame engine's estimate `e` of the run `about` as `count --estimate` prints it.
fn frame(mut out: impl Write, e: &count::Estimate, about: &FrameRun) -> anyhow::Result<Status> {
    let FrameRun {
        n,
        shard,
        gpu,
        ref split,
        threads,
        bound,
    } = *about;
    let core = e.core_seconds();
    let plural = |t: usize| if t == 1 { "" } else { "s" };
    let of_shard = match shard {
        Some(shard) => format!(" (shard {shard})"),
        None => String::new(),
    };
    writeln!(
        out,
        "N = {n}{of_shard}: {} subproblem{}",
        e.subproblems,
        plural(e.subproblems)
    )?;
    if gpu {
        writeln!(
            out,
            "engine: gpu (split {split}; the frame engine's subproblems, whose search is \
             estimated here and timed on this machine's CPU: the GPU's speed is not known to \
             the estimate)"
        )?;
    } else {
        writeln!(
            out,
            "engine: frame (split {split}; canonical frames searched, their last rows joined)"
        )?;
    }
    if e.subproblems == 0 {
        return nothing_to_count(out, shard.is_some());
    }
    writeln!(
        out,
        "estimated search nodes: {:.3e} (Knuth's random probes, {} per subproblem)",
        e.nodes, e.probes
    )?;
    let measured = e.calibration.0 > 0;
    // A time per node, measured or (no count finished) a lower bound from those stopped.
    let timed = measured || e.at_least;
    let clock = if e.processor_time {
        "processor"
    } else {
        "wall"
    };
    if measured {
        // The count still running at the end of the sample: kept as censored (Kaplan–Meier).
        let stopped = match e.stopped {
            0 => String::new(),
            1 => "; 1 still counting at the end of the sample was stopped and kept as censored, \
                  at least its time so far: a Kaplan-Meier mean"
                .to_string(),
            s => format!(
                "; {s} still counting at the end of the sample were stopped and kept as censored, \
                 each at least its time so far: a Kaplan-Meier mean"
            ),
        };
        writeln!(
            out,
            "time per node: {:.3} ns (measured on {} random subproblem{} of N = {} counted \
             whole in {:.1} s of {clock} time{stopped})",
            e.seconds_per_node * 1e9,
            e.calibration.0,
            plural(e.calibration.0),
            e.calibrated_on,
            e.calibration.1,
        )?;
        let short = match (e.closed_short, e.pieces_closed_short) {
            (false, false) => "",
            (true, false) => {
                "; the subproblem of the most time per node was stopped, so this may be short"
            }
            (false, true) => "; the piece of the most time was stopped, so this may be short",
            (true, true) => {
                "; the subproblem of the most time per node and the piece of the most time were \
                 stopped, so this may be short"
            }
        };
        writeln!(
            out,
            "estimated time: {} on {threads} thread{} ({} core-hours{short})",
            human(core / threads as f64),
            plural(threads),
            significant(core / 3600.0)
        )?;
    } else if e.at_least {
        writeln!(
            out,
            "time per node: more than {:.3} ns (no subproblem of N = {} finished within the \
             bound of {}: the time per node so far of the {} stopped, in {clock} time)",
            e.seconds_per_node * 1e9,
            e.calibrated_on,
            bound_text(bound),
            if e.stopped == 1 {
                "one".to_string()
            } else {
                e.stopped.to_string()
            },
        )?;
        writeln!(
            out,
            "estimated time: more than {} on {threads} thread{} (more than {} core-hours: no \
             subproblem finished within the bound, so this is from the time the stopped {} had \
             taken)",
            human(core / threads as f64),
            plural(threads),
            significant(core / 3600.0),
            if e.stopped == 1 { "one" } else { "ones" },
        )?;
    } else {
        writeln!(
            out,
            "time per node: not measured (no subproblem of N = {} finished within the bound of \
             {})",
            e.calibrated_on,
            bound_text(bound)
        )?;
        writeln!(
            out,
            "estimated time: not known on {threads} thread{} (no time per node)",
            plural(threads)
        )?;
    }
    let largest_time = if timed {
        format!(
            "{} {}",
            if e.at_least { "more than" } else { "about" },
            human(e.largest.1 * e.seconds_per_node)
        )
    } else {
        "time not known".to_string()
    };
    writeln!(
        out,
        "largest subproblem: number {}, {:.3e} nodes, {largest_time} on one core",
        e.largest.0, e.largest.1,
    )?;
    if let Some((pieces, largest)) = e.pieces {
        let (per_piece, pieces_timed) = e.seconds_per_piece;
        let piece_stopped = match e.pieces_stopped {
            0 => String::new(),
            s => format!(", {s} stopped and kept as censored"),
        };
        let piece_time = if timed && pieces_timed == 0 {
            // No piece finished (or the time per node is a lower bound, which a piece's cost
            // besides its nodes cannot be measured against): the time leaves that cost out.
            let stopped = match e.pieces_stopped {
                0 => String::new(),
                1 => ", 1 stopped before it finished".to_string(),
                s => format!(", {s} stopped before they finished"),
            };
            format!(
                ", {} {} on one core by its nodes; what each piece costs besides (its set-up and \
                 join) was not measured (no random piece timed{stopped}), and is left out of \
                 the time",
                if e.at_least { "more than" } else { "about" },
                human(largest * e.seconds_per_node),
            )
        } else if timed {
            format!(
                ", {} {} on one core; each piece costs about {:.0} µs besides its nodes \
                 (its set-up and join; {pieces_timed} random pieces timed{piece_stopped}), \
                 included in the time",
                if e.at_least { "more than" } else { "about" },
                human(largest * e.seconds_per_node + per_piece),
                per_piece * 1e6
            )
        } else {
            String::new()
        };
        writeln!(
            out,
            "each frame is cut into pieces by its first {} free rows (split {}): about {:.3e} \
             pieces, the largest of 512 sampled from the 8 largest frames {:.3e} nodes{piece_time}",
            e.depth,
            count::pieces::split_name(e.depth),
            pieces,
            largest,
        )?;
    }
    if measured && e.bound_reached {
        writeln!(
            out,
            "note: the bound of {} stopped the sample after {} subproblem{}: the time per node \
             is rough",
            bound_text(bound),
            e.calibration.0,
            plural(e.calibration.0)
        )?;
    }
    writeln!(out, "{}", load_line(threads, e.processor_time))?;
    if timed && e.calibrated_on != n {
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

/// The end of an estimate of a run without subproblems (N = 2 or 3, or a shard of a small
/// board): nothing to sample, nothing to forecast.
fn nothing_to_count(mut out: impl Write, shard: bool) -> anyhow::Result<Status> {
    let what = if shard { "this shard" } else { "the board" };
    writeln!(
        out,
        "nothing to count: {what} has no subproblem, so the count is 0 and takes no time"
    )?;
    out.flush()?;
    Ok(Status::Success)
}

/// The last line of an estimate: what its time assumes about the load, by how it was timed.
fn load_line(threads: usize, processor_time: bool) -> String {
    let cores = format!("{threads} idle core{}", if threads == 1 { "" } else { "s" });
    if processor_time {
        format!(
            "the time is processor time, as on {cores}: a busy machine makes the count slower, \
             not the estimate"
        )
    } else {
        format!(
            "the time assumes {cores}: on a busy machine the sample runs slower, and so does the \
             count"
        )
    }
}

/// `--estimate` of a half-board run: `f` forecasts `run` on `threads` threads.
fn halves(
    args: &CountArgs,
    run: &count::Run,
    f: &count::halves::Forecast,
    threads: usize,
    budget: &CountBudget,
    bound: Duration,
) -> anyhow::Result<Status> {
    let n = args.size.n;
    let mib = |b: u64| b as f64 / f64::from(1 << 20);
    let plural = |t: usize| if t == 1 { "" } else { "s" };
    let mut out = crate::output::stdout();
    let of_shard = match args.shard {
        Some(shard) => format!(" (shard {shard})"),
        None => String::new(),
    };
    writeln!(
        out,
        "N = {n}{of_shard}: {} subproblem{}",
        f.subproblems,
        plural(f.subproblems)
    )?;
    let gpu = args.engine == crate::cli::EngineArg::Gpu;
    if gpu {
        writeln!(
            out,
            "engine: gpu (split {}, {} pattern columns; the half-board engine's subproblems, \
             whose halves are estimated here and whose join is timed on this machine's CPU: \
             the GPU's speed is not known to the estimate)",
            run.split(),
            f.pattern_columns
        )?;
    } else {
        writeln!(
            out,
            "engine: halves (split {}, {} pattern columns; the upper and lower halves listed \
             and joined)",
            run.split(),
            f.pattern_columns
        )?;
    }
    if f.subproblems == 0 {
        return nothing_to_count(out, args.shard.is_some());
    }
    writeln!(
        out,
        "estimated halves: {:.3e} listed in all (Knuth's random probes, {} per side of each \
         subproblem)",
        f.halves, f.probes
    )?;
    if gpu {
        writeln!(
            out,
            "memory: on the GPU, up to a quarter of its free memory for the groups of halves \
             its blocks hold at once (more for a group too large, taken again); on this machine, \
             the list of one launch's groups"
        )?;
    } else {
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
    }
    let (drawn, on, wall) = f.sampled;
    let timed_by = if f.processor_time {
        format!(" ({:.1} s of processor time)", f.sampled_seconds)
    } else {
        String::new()
    };
    // The draws the bound stopped: kept as censored when some finished (Kaplan–Meier), else
    // the next line says what their times so far give.
    let were = |s: usize| if s == 1 { "was" } else { "were" };
    let kept = match (drawn, f.stopped) {
        (0, _) => "",
        (_, 1) => " and kept as censored (it took at least its time so far: the Kaplan-Meier mean)",
        _ => " and kept as censored (each took at least its time so far: the Kaplan-Meier mean)",
    };
    let stopped = match (f.bound_reached, f.stopped) {
        (false, 0) => String::new(),
        (true, 0) => format!("; the bound of {} ended it", bound_text(bound)),
        (true, s) => format!(
            "; the bound of {} ended it, and {s} draw{} still counting {} stopped{kept}",
            bound_text(bound),
            plural(s),
            were(s)
        ),
        (false, s) => format!(
            "; {s} draw{} still counting at the bound of {} {} stopped{kept}",
            plural(s),
            bound_text(bound),
            were(s)
        ),
    };
    writeln!(
        out,
        "time sample: {drawn} subproblem{} drawn by their predicted cost and counted whole on {on} \
         thread{} in {wall:.1} s of wall time{timed_by}{stopped}",
        plural(drawn),
        plural(on),
    )?;
    let core = f.core_seconds();
    let (hours, wall_time) = (significant(core / 3600.0), human(f.wall_seconds(threads)));
    if drawn > 0 {
        let error = match drawn {
            1 => ", one draw: no standard error".to_string(),
            _ => format!(
                ", standard error {:.0} %",
                100.0 * f.pattern_error / core.max(f64::MIN_POSITIVE)
            ),
        };
        let short = if f.closed_short {
            "; the draw of the most seconds per predicted cost was stopped, so this may be short"
        } else {
            ""
        };
        writeln!(
            out,
            "estimated time: {wall_time} on {threads} thread{} ({hours} core-hours{error}{short})",
            plural(threads),
        )?;
    } else if f.at_least {
        writeln!(
            out,
            "estimated time: more than {wall_time} on {threads} thread{} (more than {hours} \
             core-hours: no draw finished within the bound, so this is the time the stopped ones \
             had taken)",
            plural(threads),
        )?;
    } else {
        writeln!(
            out,
            "estimated time: not known on {threads} thread{} (no draw within the bound of {})",
            plural(threads),
            bound_text(bound)
        )?;
    }
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
    let largest = if drawn > 0 || f.at_least {
        format!(
            "{} {}",
            if f.at_least { "more than" } else { "about" },
            human(f.largest_seconds)
        )
    } else {
        "time not known".to_string()
    };
    writeln!(
        out,
        "largest subproblem: {largest} on one core (by its predicted cost){fixed}"
    )?;
    writeln!(out, "{}", load_line(threads, f.processor_time))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame estimate of N = 22 cut into pieces at 2 rows: 10^12 nodes at 5 ns each, 10^6
    /// pieces at 10 µs each besides their nodes, timed on N = 22 itself, nothing stopped.
    fn with_pieces() -> count::Estimate {
        count::Estimate {
            subproblems: 100,
            nodes: 1e12,
            probes: 16,
            largest: (7, 1e10),
            depth: 2,
            pieces: Some((1e6, 1e8)),
            seconds_per_node: 5e-9,
            seconds_per_piece: (1e-5, 40),
            calibrated_on: 22,
            calibration: (3, 2.0),
            processor_time: true,
            bound_reached: false,
            stopped: 0,
            pieces_stopped: 0,
            at_least: false,
            closed_short: false,
            pieces_closed_short: false,
        }
    }

    fn text(e: &count::Estimate) -> String {
        let about = FrameRun {
            n: 22,
            shard: None,
            gpu: false,
            split: "frame1-rows2-v1".to_string(),
            threads: 2,
            bound: Duration::from_secs(10),
        };
        let mut out = Vec::new();
        frame(&mut out, e, &about).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn line<'a>(text: &'a str, start: &str) -> &'a str {
        text.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?} in {text}"))
    }

    /// The time line says which stopped observation may make it short: the subproblem of the
    /// most time per node, the piece of the most time, or both.
    #[test]
    fn the_time_says_whether_a_subproblem_or_a_piece_stopped_may_make_it_short() {
        let mut e = with_pieces();
        let time = |e: &count::Estimate| line(&text(e), "estimated time: ").to_string();
        assert!(!time(&e).contains("may be short"), "{}", time(&e));
        e.pieces_stopped = 1;
        e.pieces_closed_short = true;
        let piece = time(&e);
        assert!(
            piece.ends_with("; the piece of the most time was stopped, so this may be short)"),
            "{piece}"
        );
        e.stopped = 1;
        e.closed_short = true;
        let both = time(&e);
        assert!(
            both.contains("the subproblem of the most time per node and the piece of the most"),
            "{both}"
        );
        e.pieces_closed_short = false;
        let subproblem = time(&e);
        assert!(
            subproblem.ends_with(
                "; the subproblem of the most time per node was stopped, so this may be short)"
            ),
            "{subproblem}"
        );
    }

    /// With no piece timed, the pieces' line says their cost besides their nodes was not
    /// measured and is left out, instead of "about 0 µs (0 random pieces timed)".
    #[test]
    fn a_piece_cost_not_measured_is_said_so_and_left_out() {
        let mut e = with_pieces();
        let measured = text(&e);
        assert!(
            line(&measured, "each frame is cut").contains("each piece costs about 10 µs"),
            "{measured}"
        );
        e.seconds_per_piece = (0.0, 0);
        e.pieces_stopped = 1;
        let pieces = text(&e);
        let cut = line(&pieces, "each frame is cut");
        assert!(
            cut.contains("was not measured (no random piece timed, 1 stopped before it finished)"),
            "{cut}"
        );
        assert!(!cut.contains("0 µs"), "{cut}");
        // 10^12 nodes x 5 ns over 2 threads: 2500 s, the pieces' cost left out.
        assert!(
            line(&pieces, "estimated time: ").starts_with("estimated time: 41.7 min on 2"),
            "{pieces}"
        );
    }

    /// With no subproblem finished, the lower bound names the one stopped in words.
    #[test]
    fn a_lower_bound_from_one_stopped_subproblem_says_one() {
        let mut e = with_pieces();
        (e.calibration, e.stopped, e.at_least) = ((0, 0.0), 1, true);
        e.seconds_per_piece = (0.0, 0);
        let out = text(&e);
        let per_node = line(&out, "time per node: ");
        assert!(
            per_node.starts_with("time per node: more than 5.000 ns"),
            "{out}"
        );
        assert!(per_node.contains("of the one stopped"), "{out}");
        assert!(line(&out, "estimated time: ").starts_with("estimated time: more than "));
    }

    /// The estimate's clock is the thread's processor time: it grows while the thread works
    /// and not while it sleeps (no duration is asserted beyond that).
    #[cfg(target_os = "linux")]
    #[test]
    fn the_thread_clock_counts_work_not_sleep() {
        let before = thread_cpu_time().expect("CLOCK_THREAD_CPUTIME_ID on Linux");
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        let worked = thread_cpu_time().unwrap();
        assert!(worked > before, "{x}");
        let nap = Duration::from_millis(300);
        std::thread::sleep(nap);
        let slept = thread_cpu_time().unwrap() - worked;
        assert!(
            slept < nap,
            "{slept:?} of processor time in a nap of {nap:?}"
        );
    }
}
