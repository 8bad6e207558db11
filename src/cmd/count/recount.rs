//! `queens count --recount K --checkpoint FILE`: counts again, with the plain search, K finished
//! subproblems of a checkpoint chosen at random, and says for each whether it agrees with the
//! saved counts. The run is the checkpoint's own split: frames (the plain bitboard search of a
//! frame) or halves (the plain search of a pattern's board, never the join).
//!
//! May call: `queens_core::count`, [`crate::lock`], [`crate::signals`], [`super::session`] (to
//! read the checkpoint) and the binary's output helpers.

use queens_core::text::escape_path;
use std::io::Write;
use std::sync::Arc;

use anyhow::bail;
use queens_core::count::{Run, Shard};

use super::session::{self, load_to_read};
use crate::cli::CountArgs;
use crate::output::note;
use crate::signals;
use crate::status::Status;

/// `--recount K`: counts again, with the plain search, K finished subproblems of the
/// checkpoint chosen at random, and says for each whether it agrees with the saved counts.
/// Status 0 when all agree, 1 when one does not.
pub fn recount(args: &CountArgs, shard: Shard, k: u64) -> anyhow::Result<Status> {
    let Some(path) = &args.checkpoint else {
        bail!("--recount needs --checkpoint FILE: the file whose subproblems to recount");
    };
    let missing = || {
        anyhow::anyhow!(
            "{} does not exist: there is nothing to recount",
            escape_path(path)
        )
    };
    // Before the lock: a missing checkpoint leaves no lock file behind.
    if !session::exists(path) {
        return Err(missing());
    }
    let (_lock, saved) = load_to_read(path, args.size.n)?;
    let Some(saved) = saved else {
        return Err(missing());
    };
    let n = args.size.n;
    // A split this binary does not make of N is refused by the resume, naming it.
    let run = match Run::of_split(n, &saved.split, shard) {
        Some(run) => run,
        None => Run::new(n)?.shard(shard),
    }
    .threads(args.threads);
    let (run, _) = run.resume(saved, path)?;
    let tally = run.control().tally().clone();
    let finished: Vec<usize> = tally.finished_subproblems().collect();
    if finished.is_empty() {
        bail!(
            "{} lists no finished subproblem: there is nothing to recount",
            escape_path(path)
        );
    }
    let k = usize::try_from(k).unwrap_or(usize::MAX);
    let chosen = queens_core::random::Rng::from_entropy().sample(&finished, k);
    let run = Arc::new(run);
    let signals = signals::install()?;
    signals.attach(Arc::clone(&run));
    let mut out = crate::output::stdout();
    // A closed pipe (`| grep -m1 DISAGREES`) stops the printing, never the answer: the status
    // stays 1 once a subproblem disagreed, as `verify` keeps it.
    let mut closed = false;
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
        if closed {
            // Nobody reads on: once the answer is known (a disagreement), stop recounting.
            if disagree > 0 {
                break;
            }
            continue;
        }
        let written = writeln!(
            out,
            "subproblem {i}: saved {}/{}, recounted {}/{}: {verdict}",
            saved.total, saved.unique, again.total, again.unique
        )
        .and_then(|()| out.flush());
        match written {
            Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => closed = true,
            other => other?,
        }
    }
    if let Some(signal) = signals.caught() {
        note!(
            "queens: interrupted; {checked} of {} recounts done",
            chosen.len()
        );
        return Ok(signals::status_of(signal));
    }
    if closed {
        return Ok(if disagree == 0 {
            Status::Success
        } else {
            Status::No
        });
    }
    let (summary, status) = if disagree == 0 {
        (
            format!(
                "all {checked} recounted subproblems of {} agree",
                escape_path(path)
            ),
            Status::Success,
        )
    } else {
        (
            format!(
                "{disagree} of {checked} recounted subproblems of {} disagree: the file is wrong",
                escape_path(path)
            ),
            Status::No,
        )
    };
    match writeln!(out, "{summary}").and_then(|()| out.flush()) {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(status),
        other => other.map(|()| status).map_err(Into::into),
    }
}
