//! `queens count [N]`: the number of solutions, as one integer line (or a JSON object).
//!
//! The counting engine of `queens_core::count` does the work; this module adds what a person
//! at a terminal or a cluster scheduler needs around it: the shard to count, a checkpoint file
//! saved at the start, every few seconds and at the end, a progress bar on a terminal, and
//! SIGINT (Ctrl-C) saving the checkpoint and ending with status 130.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use queens_core::count::{Checkpoint, Counts, Run, Shard};
use serde::Serialize;

use crate::cli::CountArgs;
use crate::status::Status;

/// The JSON line of `queens count --json`; with `--shard`, `total` and `unique` are the
/// shard's share and `queens merge` adds them up.
#[derive(Debug, Serialize)]
struct Report {
    n: usize,
    total: u128,
    unique: u128,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shards: Option<u64>,
    split: String,
    subproblems: usize,
}

/// Runs `queens count`.
pub fn run(args: &CountArgs) -> anyhow::Result<Status> {
    let n = args.size.n;
    if let Some(algo) = args.algo {
        let total = algo
            .algorithm()
            .count_by_enumeration(n, &args.search.options())?;
        let mut out = super::stdout();
        writeln!(out, "{total}")?;
        out.flush()?;
        return Ok(Status::Success);
    }
    let started = Instant::now();
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let run = Run::with_engine(
        n,
        args.engine.engine(),
        args.threads,
        args.search.max_memory,
    )?
    .shard(shard)
    .threads(args.threads);
    let (run, session) = Session::open(args, run)?;
    let run = Arc::new(run);
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let run = Arc::clone(&run);
        let interrupted = Arc::clone(&interrupted);
        ctrlc::set_handler(move || {
            interrupted.store(true, Ordering::SeqCst);
            run.cancel();
        })
        .context("cannot install the Ctrl-C handler")?;
    }

    let bar = progress_bar(args, run.todo() as u64);
    let (finished_run, run_ended) = mpsc::channel::<()>();
    let outcome = thread::scope(|scope| {
        let watcher = scope.spawn(|| session.watch(&run, &bar, run_ended));
        let result = run.execute();
        drop(finished_run);
        let watched = watcher.join().expect("the progress thread does not panic");
        result
            .map_err(anyhow::Error::from)
            .and_then(|counts| watched.map(|()| counts))
    });
    bar.finish_and_clear();
    let counts: Counts = outcome?;
    session.save(&run)?;

    if interrupted.load(Ordering::SeqCst) || !run.is_complete() {
        let saved = match &session.path {
            Some(path) => format!(
                "; {} of {} subproblems are saved in {}: run the same command again to resume",
                run.control().tally().finished,
                run.todo(),
                path.display()
            ),
            None => "; nothing was saved (use --checkpoint FILE to be able to resume)".to_string(),
        };
        eprintln!("queens: interrupted{saved}");
        return Ok(Status::Interrupted);
    }

    let mut out = super::stdout();
    if args.json {
        let sharded = args.shard.is_some();
        let report = Report {
            n,
            total: counts.total,
            unique: counts.unique,
            seconds: round_ms(started.elapsed().as_secs_f64()),
            shard: sharded.then_some(shard.index),
            shards: sharded.then_some(shard.count),
            split: run.split(),
            subproblems: run.subproblems(),
        };
        serde_json::to_writer(&mut out, &report)?;
        writeln!(out)?;
    } else if args.unique {
        writeln!(out, "{}", counts.unique)?;
    } else {
        writeln!(out, "{}", counts.total)?;
    }
    out.flush()?;
    Ok(Status::Success)
}

/// Seconds to the millisecond, for readable JSON.
pub fn round_ms(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

/// The checkpoint side of a run: the file, the seconds spent before this session, and when it
/// started.
struct Session {
    path: Option<std::path::PathBuf>,
    every: Duration,
    seconds_before: f64,
    started: Instant,
}

impl Session {
    /// Loads the checkpoint if there is one (refusing one of another run) into `run`, and saves
    /// the starting state, so that a bad path fails now rather than after hours.
    fn open(args: &CountArgs, mut run: Run) -> anyhow::Result<(Run, Self)> {
        let mut session = Session {
            path: args.checkpoint.clone(),
            every: Duration::from_secs_f64(args.checkpoint_every),
            seconds_before: 0.0,
            started: Instant::now(),
        };
        if let Some(path) = &args.checkpoint {
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

    /// Until the run ends: moves the progress bar and saves the checkpoint every interval.
    fn watch(&self, run: &Run, bar: &ProgressBar, ended: Receiver<()>) -> anyhow::Result<()> {
        bar.set_position(run.control().tally().finished);
        bar.reset_eta();
        let mut last_save = Instant::now();
        while let Err(RecvTimeoutError::Timeout) = ended.recv_timeout(Duration::from_millis(50)) {
            let finished = run.control().tally().finished;
            bar.set_position(finished);
            if self.path.is_some() && last_save.elapsed() >= self.every {
                self.save(run)?;
                last_save = Instant::now();
            }
        }
        Ok(())
    }
}

/// A bar on standard error when it is a terminal and `--quiet` is absent; hidden otherwise.
fn progress_bar(args: &CountArgs, len: u64) -> ProgressBar {
    if args.quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
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
