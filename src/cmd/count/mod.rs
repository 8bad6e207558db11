//! `queens count [N]`: the number of solutions, as one integer line (or a JSON object).
//!
//! The counting engine of `queens_core::count` does the work; this module assembles the run
//! (engine, shard, pieces, threads), starts it beside its watcher and prints the count. Around
//! it: [`session`] (the checkpoint file, locked and read once, saved at the start, every few
//! seconds and at the end), [`progress`] (a bar on a terminal or log lines), [`crate::signals`]
//! (SIGINT, SIGTERM and SIGHUP save the checkpoint and end with 130, 143 or 129), [`recount`]
//! (`--recount`, an independent check of saved subproblems) and [`estimate`] (`--estimate`).
//! `docs/counting-runs.md` tells the whole contract.
//!
//! May call: `queens_core::count`, its children here, [`crate::signals`], [`crate::lock`] (through
//! the session) and the binary's output helpers; no other command.

mod estimate;
mod progress;
mod recount;
mod session;

use queens_core::text::escape_path;
use std::io::Write;
use std::ops::ControlFlow;
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::Instant;

use anyhow::{bail, Context};
use queens_core::count::shard_result::result_line;
use queens_core::count::{self, Checkpoint, Run, Shard};

use crate::cli::{CountArgs, Progress};
use crate::hint::{self, budget_hint};
use crate::json::round_ms;
use crate::memory::{self, CountBudget};
use crate::output::{note, SignOfLife};
use crate::signals;
use crate::status::Status;
use progress::Display;
use session::Session;

/// The engine of the run: the one asked for, except that `auto` resuming a checkpoint follows
/// the engine that wrote it (its split), so a run started with either engine resumes as it was.
fn engine_for(args: &CountArgs, saved: Option<&Checkpoint>) -> count::Engine {
    let asked = args.engine.engine();
    if asked != count::Engine::Auto {
        return asked;
    }
    match saved {
        Some(saved) if count::pieces::depth_of_split(args.size.n, &saved.split).is_some() => {
            count::Engine::Frame
        }
        Some(saved) if saved.split.starts_with("halves") => count::Engine::Halves,
        Some(_) | None => asked,
    }
}

/// A budget in which no half-board split fits, met while resuming a checkpoint of one: the
/// error names the checkpoint's split and the budget it needs (as a resume whose split does not
/// fit does), not the finest split, which the checkpoint does not have.
fn resuming_budget(
    err: count::CountError,
    args: &CountArgs,
    saved: Option<&Checkpoint>,
) -> count::CountError {
    let (count::CountError::MemoryBudget { budget, .. }, Some(saved), Some(path)) =
        (&err, saved, &args.checkpoint)
    else {
        return err;
    };
    let need = Run::of_split(args.size.n, &saved.split, Shard::WHOLE)
        .and_then(|run| run.subproblem_bytes());
    match need {
        Some(need) if need > *budget => count::CountError::CheckpointMemory {
            path: escape_path(path),
            split: saved.split.clone(),
            need,
            budget: *budget,
        },
        _ => err,
    }
}

/// The run of `--pieces D`: the frame engine with its frames cut at `D` rows, refused with
/// another engine, past the board's free rows, or with a checkpoint of another split.
fn pieces_run(args: &CountArgs, depth: usize, saved: Option<&Checkpoint>) -> anyhow::Result<Run> {
    let n = args.size.n;
    if depth + 2 > n {
        bail!(
            "--pieces {depth} is too deep for N = {n}: a frame leaves at most {} free rows",
            n.saturating_sub(2)
        );
    }
    let split = count::pieces::split_name(depth);
    if let (Some(path), Some(saved)) = (&args.checkpoint, saved) {
        if saved.n == n && saved.split != split {
            bail!(
                "checkpoint file {} belongs to a different run (it is for the split {}, not \
                 {split} of --pieces {depth}); leave out --pieces to resume it, or use another \
                 file",
                escape_path(path),
                saved.split
            );
        }
    }
    Ok(Run::with_depth_on(n, depth, args.engine.engine())?)
}

/// Runs `queens count`.
pub fn run(args: &CountArgs) -> anyhow::Result<Status> {
    let n = args.size.n;
    // `--json` and `--format` agree, and not with `--algo`, `--estimate` or `--recount`:
    // refused before any work.
    args.json()?;
    if let Some(algo) = args.algo {
        if args.progress == Some(Progress::Lines) {
            bail!(
                "--progress lines cannot be used with --algo: counting by listing shows only a \
                 sign of life, on a terminal (--progress none or --quiet turns it off)"
            );
        }
        let algorithm = algo.algorithm();
        let options = args.search.options();
        // Counting by enumeration is exponential: a sign of life on a terminal after 2 s.
        let quiet = args.quiet || args.progress == Some(Progress::None);
        let total = match SignOfLife::new(format!("counting N = {n} ({algorithm})"), quiet) {
            Some(mut sign) => algorithm
                .count_by_enumeration_watched(n, &options, &mut |progress| {
                    sign.report(progress);
                    ControlFlow::Continue(())
                })
                .map_err(budget_hint)?,
            None => algorithm
                .count_by_enumeration(n, &options)
                .map_err(budget_hint)?,
        };
        // A result that cannot be written is given in the error, as a counter's is.
        crate::output::print_result(&total.to_string())?;
        return Ok(Status::Success);
    }
    let started = Instant::now();
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    if let Some(k) = args.recount {
        // The run is the checkpoint's own split, whichever engine wrote it.
        return recount::recount(args, shard, k);
    }
    let budget = CountBudget::new(
        args.search.max_memory,
        args.search.max_memory_given,
        memory::ceiling(),
    );
    if args.pieces.is_some() && args.engine.engine() == count::Engine::Halves {
        bail!(
            "--pieces cuts the frames of the frame engine: it cannot be used with --engine halves"
        );
    }
    if args.estimating() {
        let threads = asked_threads(args);
        // The GPU engine counts a CPU engine's subproblems: the estimate is of those, made on
        // the CPU (estimate.rs says so), without opening a device.
        let engine = args.engine.engine().on_cpu()?;
        let (run, budget) = match args.pieces {
            Some(depth) => (
                pieces_run(args, depth as usize, None)?.memory_at_once(budget.at_once),
                budget,
            ),
            None => engine_run(n, engine, threads, budget)?,
        };
        return estimate::estimate(args, run.shard(shard).threads(threads), &budget);
    }
    // The handlers come before any planning or reading: a signal sent while the plan is made
    // or the checkpoint read cancels the run as soon as it exists.
    let signals = signals::install()?;
    count::check_size(n)?;
    // A finished checkpoint is only read: no lock, no save, no budget.
    if let Some(path) = &args.checkpoint {
        let finished = session::finished(path, n, shard)?.filter(|(run, _)| same_run(args, run));
        if let Some((run, spent)) = finished {
            return print_finished(args, &run, path, spent.seconds);
        }
    }
    // The checkpoint is locked and read once; the engine, the pieces and the resume follow it.
    let (lock, saved) = match &args.checkpoint {
        Some(path) => session::lock_and_load(path, n)?,
        None => (None, None),
    };
    let (run, budget) = match args.pieces {
        Some(depth) => (
            pieces_run(args, depth as usize, saved.as_ref())?.memory_at_once(budget.at_once),
            budget,
        ),
        None => engine_run(n, engine_for(args, saved.as_ref()), args.threads, budget)
            .map_err(|err| resuming_budget(err, args, saved.as_ref()))?,
    };
    let run = run.shard(shard).threads(args.threads);
    classes_in_text(args, &run)?;
    let split_kept = saved.is_some();
    let (run, session) = Session::open(args, run, lock, saved)?;
    if !args.quiet {
        let engine = (split_kept, engine_for(args, None));
        if let Some(note) = at_once_note(&run, &budget, asked_threads(args), engine) {
            note!("queens: note: {note}");
        }
    }
    let run = Arc::new(run);
    signals.attach(Arc::clone(&run));

    let progress = Display::new(args, run.todo() as u64);
    let (finished_run, run_ended) = mpsc::channel::<()>();
    let outcome = thread::scope(|scope| -> anyhow::Result<_> {
        // A thread that cannot start (no memory for its stack) is an error, not a panic. The
        // run waits until the watcher is up: the standard library maps a thread's signal stack
        // from the new thread itself, and aborts when that fails, so the watcher must not
        // start while the count is taking the memory there is.
        let (up, watcher_up) = mpsc::channel::<()>();
        let watcher = thread::Builder::new()
            .name("watcher".into())
            .spawn_scoped(scope, {
                let (session, run, progress) = (&session, &run, &progress);
                move || {
                    let _ = up.send(());
                    session.watch(run, progress, run_ended)
                }
            })
            .context("could not start the thread that watches the run")?;
        let _ = watcher_up.recv();
        let result = run.execute();
        drop(finished_run);
        let failure = watcher.join().unwrap_or(None);
        Ok(result.map(|counts| (counts, failure))?)
    });
    progress.finish();
    let (counts, _) = match outcome {
        Ok(done) => done,
        Err(err) => return Err(saved_first(err, &session, &run)),
    };
    let caught = signals.caught();
    let save_failed = session.save(&run).err();
    if let Some(err) = &save_failed {
        note!("queens: error: the last save failed: {err:#}");
    }

    // A signal that came after the last subproblem was counted stops nothing: the run is
    // complete and its result is printed (the first signal only cancels the search).
    if !run.is_complete() {
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
        let saved = match (session.path(), &save_failed) {
            (Some(path), None) => format!(
                "; {finished} of {} subproblems are saved in {}: run the same command again to \
                 resume",
                run.todo(),
                escape_path(path)
            ),
            (Some(path), Some(_)) => format!(
                "; {finished} of {} subproblems were counted, but {} could not be saved and \
                 holds the state of its last successful save",
                run.todo(),
                escape_path(path)
            ),
            (None, _) => {
                "; nothing was saved (use --checkpoint FILE to be able to resume)".to_string()
            }
        };
        note!("queens: interrupted{saved}");
        if save_failed.is_some() {
            return Ok(Status::Failure);
        }
        return Ok(caught.map_or(Status::Interrupted, signals::status_of));
    }

    // A resumed run's result carries its whole time, over its sessions, so that `merge` adds
    // up what the shards took, requeues and all.
    let seconds = if session.resumed() {
        session.spent().seconds
    } else {
        started.elapsed().as_secs_f64()
    };
    // Standard output failing must not hide a failed save (status 2), nor lose a result no
    // file holds: the message gives the result, and a closed pipe keeps the save's status.
    let text = result_text(args, &run, counts, seconds)?;
    if let Err(err) = print_line(&text) {
        let kept = match (session.path(), &save_failed) {
            (Some(path), None) => format!("{} holds it", escape_path(path)),
            _ => format!("the result: {text}"),
        };
        if crate::output::is_broken_pipe(&err) {
            if save_failed.is_none() {
                return Ok(Status::Success);
            }
            note!("queens: error: standard output is closed; {kept}");
            return Ok(Status::Failure);
        }
        // The root cause names standard output (`crate::output::Stdout`).
        bail!("{}; {kept}", err.root_cause());
    }
    if session.resumed() && !args.quiet {
        note!("queens: {}", whole_run(session.spent()));
    }
    if let Some(path) = session.path().filter(|_| save_failed.is_some()) {
        note!(
            "queens: the count is complete and printed, but {} does not hold it (status 2)",
            escape_path(path)
        );
        return Ok(Status::Failure);
    }
    Ok(Status::Success)
}

/// The line that gives the counts of a complete run that took `seconds` of wall time: one
/// integer, or the JSON result line (`--format json`, or `--json`).
fn result_text(
    args: &CountArgs,
    run: &Run,
    counts: count::Counts,
    seconds: f64,
) -> anyhow::Result<String> {
    Ok(if args.json()? {
        // With --shard, total and unique are the shard's share, which `queens merge` adds up;
        // the checksum covers every other field.
        let seconds = round_ms(seconds);
        result_line(
            args.size.n,
            counts,
            seconds,
            args.shard,
            &run.split(),
            run.subproblems(),
        )
    } else if args.unique {
        counts.unique.to_string()
    } else {
        counts.total.to_string()
    })
}

/// Writes `text`, a line, to standard output.
fn print_line(text: &str) -> anyhow::Result<()> {
    let mut out = super::stdout();
    writeln!(out, "{text}")?;
    out.flush()?;
    Ok(())
}

/// Refuses `--unique` in text (one line: the classes) for a shard whose classes are eighths,
/// before anything is counted: its classes are not whole until every shard is added, which
/// `--format json` and `queens merge --unique` do.
fn classes_in_text(args: &CountArgs, run: &Run) -> anyhow::Result<()> {
    if args.unique && !args.json()? && run.unique_in_eighths() {
        bail!(
            "--unique prints the classes, but a shard of split {} holds its classes in eighths, \
             whole only once every shard is added: count the shards with --format json and add \
             them with `queens merge --unique`",
            run.split()
        );
    }
    Ok(())
}

/// Whether the finished `run` of a checkpoint is the run the arguments ask for: any engine
/// under `auto`, else the one asked; the split of `--pieces` when given. Otherwise the locked
/// path refuses the file, naming why.
fn same_run(args: &CountArgs, run: &Run) -> bool {
    let asked = args.engine.engine();
    let engine = asked == count::Engine::Auto || asked == run.engine();
    let pieces = args
        .pieces
        .is_none_or(|depth| count::pieces::split_name(depth as usize) == run.split());
    engine && pieces
}

/// A finished checkpoint run again: its result, read from the file alone.
fn print_finished(
    args: &CountArgs,
    run: &Run,
    path: &std::path::Path,
    seconds: f64,
) -> anyhow::Result<Status> {
    let Some(counts) = run.finished_counts() else {
        bail!("the checkpoint {} is not finished", escape_path(path));
    };
    classes_in_text(args, run)?;
    if !args.quiet {
        note!(
            "queens: {} holds a finished run ({} subproblems counted): its result, read, not \
             counted again",
            escape_path(path),
            run.control().tally().finished
        );
    }
    match print_line(&result_text(args, run, counts, seconds)?) {
        Err(err) if crate::output::is_broken_pipe(&err) => Ok(Status::Success),
        // The file keeps the result: the error says where (`... device; FILE holds it`).
        Err(err) => bail!("{}; {} holds it", err.root_cause(), escape_path(path)),
        Ok(()) => Ok(Status::Success),
    }
}

/// What a resumed run took over all its sessions, as its last line on standard error says it.
fn whole_run(spent: count::Spent) -> String {
    let cpu = match spent.cpu_seconds {
        Some(cpu) => format!("{cpu:.1} s of processor time"),
        None => "processor time not known (a queens older than its record began the checkpoint)"
            .to_string(),
    };
    format!(
        "the whole run, over its sessions: {:.1} s of wall time, {cpu}",
        spent.seconds
    )
}

/// A run that ended in an error (no memory for the half-board engine's halves, a thread that
/// could not start) saves its checkpoint first, as an interrupted one does: the error, with
/// where the subproblems counted are kept.
fn saved_first(err: anyhow::Error, session: &Session, run: &Run) -> anyhow::Error {
    let Some(path) = session.path() else {
        return err;
    };
    let finished = run.control().tally().finished;
    // The message is made anew, so the engine error's hint (the flags to change) is added here:
    // `main` finds no engine error in it to add one to.
    let hint = hint::for_error(&err);
    match session.save(run) {
        Ok(()) => anyhow::anyhow!(
            "{err:#}{hint}; {finished} of {} subproblems are saved in {}: run the same command \
             again to resume",
            run.todo(),
            escape_path(path)
        ),
        Err(save) => anyhow::anyhow!(
            "{err:#}{hint}; {} could not be saved ({save:#}) and holds the state of its last \
             successful save",
            escape_path(path)
        ),
    }
}

/// The threads `--threads` asks for: one per core for 0.
fn asked_threads(args: &CountArgs) -> usize {
    if args.threads == 0 {
        thread::available_parallelism().map_or(1, |p| p.get())
    } else {
        args.threads
    }
}

/// The run of the `n` x `n` board with `engine` on `threads`, within `budget` (see
/// [`CountBudget`]): the half-board engine's split chosen by `budget.split` (or by the budget
/// at once, when not one of its subproblems fits there), as many of its subproblems at once as
/// fit in `budget.at_once`; and the budgets it took.
fn engine_run(
    n: usize,
    engine: count::Engine,
    threads: usize,
    budget: CountBudget,
) -> Result<(Run, CountBudget), count::CountError> {
    let run = Run::with_engine(n, engine, threads, budget.split)?;
    let Some(need) = run.subproblem_bytes() else {
        // The frame engine's threads fit in the budget at once too (`Run::workers`).
        return Ok((run.memory_at_once(budget.at_once), budget));
    };
    let fitted = budget.fitted(need);
    let run = if fitted.split == budget.split {
        run
    } else {
        Run::with_engine(n, engine, threads, fitted.split)?
    };
    Ok((run.memory_at_once(fitted.at_once), fitted))
}

/// The note, when the budget holds fewer of the half-board engine's subproblems at once than
/// the `asked` threads: how many it holds, and the least `--max-memory` that would run them all
/// with the run's split or a coarser one (the split that budget would choose is named when it
/// is not the run's), or what running them all
/// would need when this process cannot have that much. The split stays the run's when it is kept
/// from a checkpoint (`split_kept`), and by default, where the budget at once is already all the
/// process can have: only more memory would run more.
fn at_once_note(
    run: &Run,
    budget: &CountBudget,
    asked: usize,
    (split_kept, engine): (bool, count::Engine),
) -> Option<String> {
    let need = run.worker_bytes()?;
    let workers = run.workers();
    if workers >= asked {
        return None;
    }
    let n = run.n();
    let split = run.split();
    // "the default --max-memory, 96.0 GiB (3/4 of the physical memory), holds ..."
    let budget_words = match budget.given {
        true => budget.describe(),
        false => format!("{},", budget.describe()),
    };
    // One thread counts even where the budget holds less than its memory (the frame engine,
    // whose threads need little; the half-board engine refuses such a budget first).
    let held = if budget.at_once < need {
        format!(
            "holds less than one subproblem of N = {n} ({} each)",
            memory::short(need)
        )
    } else {
        format!(
            "holds {workers} subproblem{} of N = {n} at once",
            if workers == 1 { "" } else { "s" }
        )
    };
    let mut note = format!(
        "{budget_words} {held}, so {workers} of the {asked} threads count{}",
        if workers == 1 { "s" } else { "" }
    );
    // Only the half-board split follows the budget.
    let split_fixed = split_kept
        || (!budget.given && budget.ceiling.is_some())
        || run.subproblem_bytes().is_none();
    // The split under a budget of `bytes`, when it runs `asked` subproblems at once: the
    // run's own when fixed, else the one that budget would choose.
    let runs_all = |bytes: u64| -> Option<String> {
        if split_fixed {
            return (bytes / need.max(1) >= asked as u64).then(|| split.clone());
        }
        let plan = count::halves::Plan::fitting(n, bytes).ok()?;
        (plan.concurrent(bytes) >= asked).then(|| plan.split())
    };
    let candidates: Vec<u64> = if split_fixed {
        vec![need.saturating_mul(asked as u64)]
    } else {
        let first = count::halves::default_pattern_columns(n);
        let last = n.min(count::halves::MAX_PATTERN_COLUMNS);
        // The run's split and the coarser ones (a finer split would run more at once in
        // less memory, but slower: the least budget of them all is not the best advice).
        (first..=last)
            .step_by(2)
            .map(|k| count::halves::bytes_per_thread(n, k))
            .filter(|&one| one >= need)
            .map(|one| one.saturating_mul(asked as u64))
            .collect()
    };
    let Some((flag, bytes)) = memory::least_flag(candidates, |b| runs_all(b).is_some()) else {
        return Some(note);
    };
    let usable = budget.ceiling.map(memory::Ceiling::usable);
    if usable.is_some_and(|usable| bytes > usable) {
        note.push_str(&format!(
            "; all {asked} would need {}, more than this process can have",
            memory::short(bytes)
        ));
        return Some(note);
    }
    note.push_str(&format!("; --max-memory {flag} would run all {asked}"));
    // `auto` may take another engine under that budget (the frame engine is its fallback where
    // no half-board split fits a small one): that split is named too.
    let auto = (engine == count::Engine::Auto && !split_kept)
        .then(|| {
            Run::with_engine(n, engine, asked, bytes)
                .ok()
                .map(|run| run.split())
        })
        .flatten();
    if let Some(other) = auto
        .or_else(|| runs_all(bytes))
        .filter(|other| *other != split)
    {
        note.push_str(&format!(
            " (with the split {other}, not {split}: give every shard of a run the same \
             --max-memory)"
        ));
    }
    Some(note)
}
