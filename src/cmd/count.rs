//! `queens count [N]`: the number of solutions, as one integer line (or a JSON object).
//!
//! The counting engine of `queens_core::count` does the work; this module adds what a person
//! at a terminal or a cluster scheduler needs around it: the shard to count; a checkpoint file,
//! locked for the run, saved at the start, every few seconds and at the end (a failed save is
//! reported at once and retried, and the count goes on); progress as a bar on a terminal or as
//! log lines; SIGINT, SIGTERM and SIGHUP saving the checkpoint and ending with 130, 143 or 129;
//! and `--recount`, which checks saved subproblems with an independent search.
//! `docs/counting-runs.md` tells the whole contract.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::bail;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use queens_core::count::shard_result::result_line;
use queens_core::count::{self, Checkpoint, Run, Shard};

use crate::cli::{CountArgs, Progress};
use crate::hint::budget_hint;
use crate::json::round_ms;
use crate::output::SignOfLife;
use crate::status::Status;

/// The engine of the run: the one asked for, except that `auto` resuming a checkpoint follows
/// the engine that wrote it (its split), so a run started with either engine resumes as it was.
fn engine_for(args: &CountArgs) -> count::Engine {
    let asked = args.engine.engine();
    if asked != count::Engine::Auto {
        return asked;
    }
    match args.checkpoint.as_deref().map(Checkpoint::load) {
        Some(Ok(Some(saved)))
            if count::pieces::depth_of_split(args.size.n, &saved.split).is_some() =>
        {
            count::Engine::Frame
        }
        Some(Ok(Some(saved))) if saved.split.starts_with("halves") => count::Engine::Halves,
        _ => asked,
    }
}

/// The run of `--pieces D`: the frame engine with its frames cut at `D` rows, refused with
/// another engine, past the board's free rows, or with a checkpoint of another split.
fn pieces_run(args: &CountArgs, depth: usize) -> anyhow::Result<Run> {
    let n = args.size.n;
    if args.engine.engine() == count::Engine::Halves {
        bail!(
            "--pieces cuts the frames of the frame engine: it cannot be used with --engine halves"
        );
    }
    count::check_size(n)?;
    if depth + 2 > n {
        bail!(
            "--pieces {depth} is too deep for N = {n}: a frame leaves at most {} free rows",
            n.saturating_sub(2)
        );
    }
    let split = count::pieces::split_name(depth);
    if let Some(path) = &args.checkpoint {
        if let Ok(Some(saved)) = Checkpoint::load(path) {
            if saved.n == n && saved.split != split {
                bail!(
                    "checkpoint file {} belongs to a different run (it is for the split {}, not \
                     {split} of --pieces {depth}); leave out --pieces to resume it, or use \
                     another file",
                    path.display(),
                    saved.split
                );
            }
        }
    }
    Ok(Run::with_depth(n, depth)?)
}

/// Runs `queens count`.
pub fn run(args: &CountArgs) -> anyhow::Result<Status> {
    let n = args.size.n;
    if let Some(algo) = args.algo {
        let algorithm = algo.algorithm();
        let options = args.search.options();
        // Counting by enumeration is exponential: a sign of life on a terminal after 2 s.
        let total = match SignOfLife::new(format!("counting N = {n} ({algorithm})"), args.quiet) {
            Some(mut sign) => {
                let mut total = 0u64;
                let _ = algorithm
                    .for_each_solution_watched(
                        n,
                        &options,
                        &mut |progress| {
                            sign.report(progress);
                            ControlFlow::Continue(())
                        },
                        &mut |_| {
                            total += 1;
                            ControlFlow::<()>::Continue(())
                        },
                    )
                    .map_err(budget_hint)?;
                total
            }
            None => algorithm
                .count_by_enumeration(n, &options)
                .map_err(budget_hint)?,
        };
        let mut out = super::stdout();
        writeln!(out, "{total}")?;
        out.flush()?;
        return Ok(Status::Success);
    }
    let started = Instant::now();
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    if let Some(k) = args.recount {
        // Recounts read frame-split checkpoints: the plain search is the frame kernel's.
        let run = Run::new(n)?.shard(shard).threads(args.threads);
        return recount(args, run, k);
    }
    if args.estimate {
        return estimate(args, shard);
    }
    let run = match args.pieces {
        Some(depth) => pieces_run(args, depth as usize)?,
        None => Run::with_engine(n, engine_for(args), args.threads, args.search.max_memory)?,
    }
    .shard(shard)
    .threads(args.threads);
    let (run, session) = Session::open(args, run)?;
    let run = Arc::new(run);
    let signals = signals::install(Arc::clone(&run))?;

    let progress = Display::new(args, run.todo() as u64);
    let (finished_run, run_ended) = mpsc::channel::<()>();
    let outcome = thread::scope(|scope| {
        let watcher = scope.spawn(|| session.watch(&run, &progress, run_ended));
        let result = run.execute();
        drop(finished_run);
        let failure = watcher.join().unwrap_or(None);
        result.map(|counts| (counts, failure))
    });
    progress.finish();
    let (counts, _) = outcome?;
    let caught = signals.caught();
    let save_failed = session.save(&run).err();
    if let Some(err) = &save_failed {
        eprintln!("queens: error: the last save failed: {err:#}");
    }

    if caught.is_some() || !run.is_complete() {
        let (finished, begun) = {
            let tally = run.control().tally();
            (tally.finished, tally.pieces.len())
        };
        // With pieces, the frames begun keep their counted pieces too.
        let finished = if begun > 0 {
            format!("{finished} (and pieces of {begun} more)")
        } else {
            finished.to_string()
        };
        let saved = match (&session.path, &save_failed) {
            (Some(path), None) => format!(
                "; {finished} of {} subproblems are saved in {}: run the same command again to \
                 resume",
                run.todo(),
                path.display()
            ),
            (Some(path), Some(_)) => format!(
                "; {finished} of {} subproblems were counted, but {} could not be saved and \
                 holds the state of its last successful save",
                run.todo(),
                path.display()
            ),
            (None, _) => {
                "; nothing was saved (use --checkpoint FILE to be able to resume)".to_string()
            }
        };
        eprintln!("queens: interrupted{saved}");
        if save_failed.is_some() {
            return Ok(Status::Failure);
        }
        return Ok(caught.map_or(Status::Interrupted, signals::status_of));
    }

    let mut out = super::stdout();
    if args.json {
        // With --shard, total and unique are the shard's share, which `queens merge` adds up;
        // the checksum covers every other field.
        let seconds = round_ms(started.elapsed().as_secs_f64());
        let line = result_line(
            n,
            counts,
            seconds,
            args.shard,
            &run.split(),
            run.subproblems(),
        );
        writeln!(out, "{line}")?;
    } else if args.unique {
        writeln!(out, "{}", counts.unique)?;
    } else {
        writeln!(out, "{}", counts.total)?;
    }
    out.flush()?;
    if let Some(path) = session.path.as_ref().filter(|_| save_failed.is_some()) {
        eprintln!(
            "queens: the count is complete and printed, but {} does not hold it (status 2)",
            path.display()
        );
        return Ok(Status::Failure);
    }
    Ok(Status::Success)
}

/// `--recount K`: counts again, with the plain search, K finished subproblems of the
/// checkpoint chosen at random, and says for each whether it agrees with the saved counts.
/// Status 0 when all agree, 1 when one does not.
fn recount(args: &CountArgs, run: Run, k: u64) -> anyhow::Result<Status> {
    let Some(path) = &args.checkpoint else {
        bail!("--recount needs --checkpoint FILE: the file whose subproblems to recount");
    };
    let _lock = lock::acquire(path)?;
    let Some(saved) = Checkpoint::load(path)? else {
        bail!(
            "{} does not exist: there is nothing to recount",
            path.display()
        );
    };
    let (run, _) = run.resume(saved, path)?;
    let tally = run.control().tally().clone();
    let finished: Vec<usize> = tally.finished_subproblems().collect();
    if finished.is_empty() {
        bail!(
            "{} lists no finished subproblem: there is nothing to recount",
            path.display()
        );
    }
    let chosen = sample(&finished, k.min(finished.len() as u64) as usize);
    let run = Arc::new(run);
    let signals = signals::install(Arc::clone(&run))?;
    let mut out = super::stdout();
    let mut disagree = 0usize;
    let mut checked = 0usize;
    for &i in &chosen {
        let Some(again) = run.recount(i) else {
            break;
        };
        checked += 1;
        let saved = tally.parts[i];
        let verdict = if again == saved {
            "agrees"
        } else {
            disagree += 1;
            "DISAGREES"
        };
        writeln!(
            out,
            "subproblem {i}: saved {}/{}, recounted {}/{}: {verdict}",
            saved.total, saved.unique, again.total, again.unique
        )?;
        out.flush()?;
    }
    if let Some(signal) = signals.caught() {
        eprintln!(
            "queens: interrupted; {checked} of {} recounts done",
            chosen.len()
        );
        return Ok(signals::status_of(signal));
    }
    if disagree == 0 {
        writeln!(
            out,
            "all {checked} recounted subproblems of {} agree",
            path.display()
        )?;
        Ok(Status::Success)
    } else {
        writeln!(
            out,
            "{disagree} of {checked} recounted subproblems of {} disagree: the file is wrong",
            path.display()
        )?;
        Ok(Status::No)
    }
}

/// `--estimate`: the run's size and time, from Knuth's random probes of every subproblem and
/// a few seconds of random subproblems counted whole.
fn estimate(args: &CountArgs, shard: Shard) -> anyhow::Result<Status> {
    let n = args.size.n;
    let e = count::estimate(n, shard, Duration::from_secs(3))?;
    let threads = if args.threads == 0 {
        thread::available_parallelism().map_or(1, |t| t.get())
    } else {
        args.threads
    };
    let core = e.core_seconds();
    let mut out = super::stdout();
    let of_shard = if args.shard.is_some() {
        format!(" (shard {shard})")
    } else {
        String::new()
    };
    writeln!(out, "N = {n}{of_shard}: {} subproblems", e.subproblems)?;
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

/// `k` distinct elements of `items` chosen at random (a partial Fisher-Yates shuffle seeded
/// by the standard library's random hasher keys), in increasing order.
fn sample(items: &[usize], k: usize) -> Vec<usize> {
    use std::hash::{BuildHasher, Hasher};
    let mut state = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
        | 1;
    let mut next = move || {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut pool = items.to_vec();
    for i in 0..k {
        let j = i + (next() % (pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(k);
    pool.sort_unstable();
    pool
}

/// The checkpoint side of a run: the file and its lock, the interval, the seconds spent before
/// this session, and when it started.
struct Session {
    path: Option<PathBuf>,
    _lock: Option<lock::Lock>,
    every: Duration,
    seconds_before: f64,
    started: Instant,
}

impl Session {
    /// Locks the checkpoint and loads it if there is one (refusing one of another run) into
    /// `run`, and saves the starting state, so that a bad path fails now rather than after
    /// hours.
    fn open(args: &CountArgs, mut run: Run) -> anyhow::Result<(Run, Self)> {
        let mut session = Session {
            path: args.checkpoint.clone(),
            _lock: None,
            every: Duration::from_secs_f64(args.checkpoint_every),
            seconds_before: 0.0,
            started: Instant::now(),
        };
        if let Some(path) = &args.checkpoint {
            session._lock = lock::acquire(path)?;
            if let Some(saved) = Checkpoint::load(path)? {
                let finished = saved.tally.finished;
                let (resumed, seconds) = run.resume(saved, path)?;
                if !args.quiet {
                    eprintln!(
                        "queens: resuming from {}: {finished} subproblems already counted",
                        path.display(),
                    );
                }
                run = resumed;
                session.seconds_before = seconds;
            }
        }
        session.save(&run)?;
        Ok((run, session))
    }

    /// Writes the checkpoint, if the run has one.
    fn save(&self, run: &Run) -> anyhow::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let seconds = self.seconds_before + self.started.elapsed().as_secs_f64();
        run.checkpoint(seconds).save(Path::new(path))?;
        Ok(())
    }

    /// Until the run ends: moves the progress display and saves the checkpoint every
    /// interval. A failed save is reported at once (and again when the error changes), retried
    /// at the next interval, and its recovery reported; returns the last failure, if the last
    /// save failed.
    fn watch(&self, run: &Run, progress: &Display, ended: Receiver<()>) -> Option<String> {
        progress.start(run.control().tally().finished);
        let mut last_save = Instant::now();
        // A large checkpoint (tens of MB for the finest half-board splits) takes a while to
        // write: the next save waits at least 50 times as long, so that saving never takes more
        // than 2 % of the run, whatever `--checkpoint-every` asks.
        let mut interval = self.every;
        let mut failing: Option<String> = None;
        while let Err(RecvTimeoutError::Timeout) = ended.recv_timeout(Duration::from_millis(50)) {
            let (finished, begun) = {
                let tally = run.control().tally();
                (tally.finished, tally.begun(run.shard_counted()))
            };
            progress.update(finished, begun);
            if self.path.is_some() && last_save.elapsed() >= interval {
                let began = Instant::now();
                let saved = self.save(run);
                interval = self.every.max(began.elapsed() * 50);
                match saved {
                    Ok(()) => {
                        if failing.take().is_some() {
                            eprintln!("queens: the checkpoint is saved again");
                        }
                    }
                    Err(err) => {
                        let message = format!("{err:#}");
                        if failing.as_deref() != Some(message.as_str()) {
                            eprintln!(
                                "queens: warning: {message}; the count goes on and the save is \
                                 retried every {} s",
                                self.every.as_secs_f64()
                            );
                        }
                        failing = Some(message);
                    }
                }
                last_save = Instant::now();
            }
        }
        failing
    }
}

/// The progress display chosen by `--progress` (default: a bar when standard error is a
/// terminal and `--quiet` is absent, nothing otherwise).
struct Display {
    bar: ProgressBar,
    lines: Option<Lines>,
}

/// The state of `--progress lines`.
struct Lines {
    todo: u64,
    every: Duration,
    start: std::sync::Mutex<(Instant, u64, Instant)>,
}

impl Display {
    fn new(args: &CountArgs, todo: u64) -> Display {
        let how = args
            .progress
            .unwrap_or(if args.quiet || !std::io::stderr().is_terminal() {
                Progress::None
            } else {
                Progress::Bar
            });
        let now = Instant::now();
        Display {
            bar: if how == Progress::Bar {
                progress_bar(todo)
            } else {
                ProgressBar::hidden()
            },
            lines: (how == Progress::Lines).then(|| Lines {
                todo,
                every: Duration::from_secs_f64(args.progress_every),
                start: std::sync::Mutex::new((now, 0, now)),
            }),
        }
    }

    fn start(&self, finished: u64) {
        self.bar.set_position(finished);
        self.bar.reset_eta();
        if let Some(lines) = &self.lines {
            let now = Instant::now();
            if let Ok(mut s) = lines.start.lock() {
                *s = (now, finished, now);
            }
        }
    }

    /// `begun`: the frames begun and their pieces counted, with a plan of pieces.
    fn update(&self, finished: u64, begun: (usize, u64)) {
        self.bar.set_position(finished);
        let Some(lines) = &self.lines else {
            return;
        };
        let Ok(mut state) = lines.start.lock() else {
            return;
        };
        let (started, at_start, last) = *state;
        if last.elapsed() < lines.every {
            return;
        }
        state.2 = Instant::now();
        let mut line = lines.line(started.elapsed(), at_start, finished);
        if begun.0 > 0 {
            // A frame of a large board is many pieces: show them moving too.
            let _ = write!(
                line,
                "; {} pieces counted in {} frames begun",
                begun.1, begun.0
            );
        }
        eprintln!("{line}");
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Lines {
    /// `queens: progress 1234/5728 subproblems (21.5%), 12.3/s, elapsed 0:01:40, ETA 0:06:05`.
    fn line(&self, elapsed: Duration, at_start: u64, finished: u64) -> String {
        let secs = elapsed.as_secs_f64();
        let rate = if secs > 0.0 {
            finished.saturating_sub(at_start) as f64 / secs
        } else {
            0.0
        };
        let percent = if self.todo == 0 {
            100.0
        } else {
            100.0 * finished as f64 / self.todo as f64
        };
        let left = self.todo.saturating_sub(finished);
        let eta = if left == 0 {
            "0:00:00".to_string()
        } else if rate > 0.0 {
            clock(left as f64 / rate)
        } else {
            "unknown".to_string()
        };
        format!(
            "queens: progress {finished}/{} subproblems ({percent:.1}%), {rate:.3}/s, elapsed {}, \
             ETA {eta}",
            self.todo,
            clock(secs)
        )
    }
}

/// Seconds as `H:MM:SS` (hours unbounded).
fn clock(seconds: f64) -> String {
    let s = seconds.clamp(0.0, 1e12).round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// A bar on standard error.
fn progress_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {pos}/{len} subproblems, {rate}/s, ETA {eta}",
    ) {
        let style = style
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}", state.per_sec());
                },
            )
            .progress_chars("=> ");
        bar.set_style(style);
    }
    bar
}

/// SIGINT, SIGTERM and SIGHUP: the first one caught cancels the run (which then saves its
/// checkpoint and ends with 128 + the signal's number); a second one ends the process at once
/// with that status, without saving. SIGHUP stays ignored when it was ignored at the start (as
/// `nohup` leaves it), so that a run under `nohup` survives the end of its session.
#[cfg(unix)]
mod signals {
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::sync::Arc;

    use anyhow::Context;
    use queens_core::count::Run;
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    use crate::status::Status;

    /// The signal caught, shared with the thread that waits for them.
    pub struct Caught(Arc<AtomicI32>);

    impl Caught {
        /// The first signal caught, if any.
        pub fn caught(&self) -> Option<i32> {
            Some(self.0.load(Ordering::SeqCst)).filter(|&s| s != 0)
        }
    }

    /// Starts the thread that turns the signals into a cancel of `run`.
    pub fn install(run: Arc<Run>) -> anyhow::Result<Caught> {
        // SIGINT is handled even when ignored (a shell script's `queens count ... &` starts
        // with it ignored): whoever sends it to a count means it to stop and save.
        let mut wanted = vec![SIGINT, SIGTERM];
        if !ignored(SIGHUP) {
            wanted.push(SIGHUP);
        }
        let mut signals = Signals::new(&wanted).context("cannot install the signal handlers")?;
        let caught = Arc::new(AtomicI32::new(0));
        let shared = Arc::clone(&caught);
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if shared
                        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                        .is_err()
                    {
                        eprintln!("queens: a second signal: stopping without saving");
                        std::process::exit(128 + signal);
                    }
                    run.cancel();
                }
            })
            .context("cannot start the signal thread")?;
        Ok(Caught(caught))
    }

    /// The exit status after `signal`: 130, 143 or 129.
    pub fn status_of(signal: i32) -> Status {
        match signal {
            SIGTERM => Status::Terminated,
            SIGHUP => Status::HungUp,
            _ => Status::Interrupted,
        }
    }

    /// Whether `signal` is ignored (`SIG_IGN`) in this process, as `nohup` leaves SIGHUP.
    fn ignored(signal: i32) -> bool {
        // SAFETY: with a null new action, `sigaction` only writes the current disposition into
        // `old`, a zeroed `sigaction` owned by this frame.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(signal, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction == libc::SIG_IGN
        }
    }
}

/// Elsewhere the default handling stays: a signal ends the process, and a resumed run loses
/// the work since the last save.
#[cfg(not(unix))]
mod signals {
    use std::sync::Arc;

    use queens_core::count::Run;

    use crate::status::Status;

    pub struct Caught;

    impl Caught {
        pub fn caught(&self) -> Option<i32> {
            None
        }
    }

    pub fn install(_run: Arc<Run>) -> anyhow::Result<Caught> {
        Ok(Caught)
    }

    pub fn status_of(_signal: i32) -> Status {
        Status::Interrupted
    }
}

/// The advisory lock of a checkpoint: `flock` on `FILE.lock` beside it (the checkpoint itself
/// is replaced by every save, so a lock on it would not outlive the first rename). Held for
/// the run, released when the process ends however it ends; a second run on the same file is
/// refused at once. The lock file is left in place (removing it would let two runs lock two
/// different files of one name).
mod lock {
    use std::fs::File;
    use std::path::Path;

    /// A held lock (dropping it, or the end of the process, releases it).
    #[derive(Debug)]
    pub struct Lock(#[allow(dead_code)] File);

    /// `FILE.lock`, beside `FILE`.
    pub fn path_of(path: &Path) -> std::path::PathBuf {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        path.with_file_name(name)
    }

    /// Locks the checkpoint `path`, or says why not. `Ok(None)` when the file system has no
    /// locks (some network file systems): a warning, and the run goes on unlocked.
    #[cfg(unix)]
    pub fn acquire(path: &Path) -> anyhow::Result<Option<Lock>> {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::OpenOptionsExt;

        use anyhow::{bail, Context};

        let lock_path = path_of(path);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&lock_path)
            .with_context(|| {
                format!(
                    "cannot open the lock file {} of the checkpoint",
                    lock_path.display()
                )
            })?;
        // SAFETY: `flock` on a descriptor this function owns (the file stays open while the
        // `Lock` lives); no memory is passed.
        let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if locked == 0 {
            return Ok(Some(Lock(file)));
        }
        let err = std::io::Error::last_os_error();
        if err.kind() == std::io::ErrorKind::WouldBlock {
            bail!(
                "the checkpoint {} is in use by another run (it holds the lock {}): wait for \
                 that run to end, or give this one another file",
                path.display(),
                lock_path.display()
            );
        }
        eprintln!(
            "queens: warning: cannot lock {} ({err}); going on without a lock: make sure no \
             other run uses {}",
            lock_path.display(),
            path.display()
        );
        Ok(None)
    }

    /// No locks off Unix.
    #[cfg(not(unix))]
    pub fn acquire(_path: &Path) -> anyhow::Result<Option<Lock>> {
        Ok(None)
    }
}
