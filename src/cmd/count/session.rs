//! The checkpoint side of a run of `queens count`: the file, locked for the run and read once;
//! the resumed run; the saves at the start, every interval (a failed save is reported at once
//! and retried, and the count goes on) and at the end; the wall and processor time the run has
//! taken over all its sessions, which every save records.
//!
//! May call: `queens_core::count` (the checkpoint format), [`crate::lock`],
//! [`crate::output::note`] (its notes), [`super::progress`] (moved while the run is watched)
//! and `libc` (the process's processor time).

use queens_core::text::escape_path;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use queens_core::count::{Checkpoint, Run, Shard, Spent};

use super::progress::Display;
use crate::cli::CountArgs;
use crate::lock;
use crate::output::note;

/// The checkpoint side of a run: the file and its lock, the interval, the time spent before
/// this session, and when it started (on the clock and in processor time).
pub struct Session {
    path: Option<PathBuf>,
    _lock: Option<lock::Lock>,
    every: Duration,
    before: Spent,
    resumed: bool,
    started: Instant,
    cpu_started: Option<f64>,
}

impl Session {
    /// Resumes `run` from the checkpoint `saved` read by [`lock_and_load`] (refusing one of
    /// another run), holds its `lock` for the run, and saves the starting state, so that a bad
    /// path fails now rather than after hours.
    pub fn open(
        args: &CountArgs,
        mut run: Run,
        lock: Option<lock::Lock>,
        saved: Option<Checkpoint>,
    ) -> anyhow::Result<(Run, Self)> {
        let mut session = Session {
            path: args.checkpoint.clone(),
            _lock: lock,
            every: Duration::from_secs_f64(args.checkpoint_every),
            before: Spent {
                seconds: 0.0,
                cpu_seconds: Some(0.0),
            },
            resumed: false,
            started: Instant::now(),
            cpu_started: cpu_seconds(),
        };
        if let (Some(path), Some(saved)) = (&args.checkpoint, saved) {
            let finished = saved.tally.finished;
            let (resumed, before) = run.resume(saved, path)?;
            if !args.quiet {
                note!(
                    "queens: resuming from {}: {finished} subproblems already counted",
                    escape_path(path),
                );
            }
            run = resumed;
            session.before = before;
            session.resumed = !run.is_complete();
        }
        session.save(&run)?;
        Ok((run, session))
    }

    /// The checkpoint file, if the run has one.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Whether the run was resumed from a checkpoint with work left (a checkpoint already
    /// complete is only read).
    pub fn resumed(&self) -> bool {
        self.resumed
    }

    /// The time the run has taken so far, this session's and its earlier sessions': the
    /// processor time is unknown when an earlier session's is (a checkpoint written by an older
    /// `queens`) or when this process cannot read its own.
    pub fn spent(&self) -> Spent {
        let now = cpu_seconds();
        let cpu = match (self.before.cpu_seconds, self.cpu_started, now) {
            (Some(before), Some(start), Some(now)) => Some(before + (now - start).max(0.0)),
            _ => None,
        };
        Spent {
            seconds: self.before.seconds + self.started.elapsed().as_secs_f64(),
            cpu_seconds: cpu,
        }
    }

    /// Writes the checkpoint, if the run has one.
    pub fn save(&self, run: &Run) -> anyhow::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        run.checkpoint(self.spent()).save(Path::new(path))?;
        Ok(())
    }

    /// Until the run ends: moves the progress display and saves the checkpoint every
    /// interval. A failed save is reported at once (and again when the error changes), retried
    /// at the next interval, and its recovery reported; returns the last failure, if the last
    /// save failed.
    pub fn watch(&self, run: &Run, progress: &Display, ended: Receiver<()>) -> Option<String> {
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
                            note!("queens: the checkpoint is saved again");
                        }
                    }
                    Err(err) => {
                        let message = format!("{err:#}");
                        if failing.as_deref() != Some(message.as_str()) {
                            note!(
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

/// Locks the checkpoint `path` and reads it, once for the whole run: `None` when the file does
/// not exist yet. The lock is taken first, so that no other run rewrites the file meanwhile;
/// the read is bounded by the largest checkpoint of the `n` x `n` board's splits.
pub fn lock_and_load(
    path: &Path,
    n: usize,
) -> anyhow::Result<(Option<lock::Lock>, Option<Checkpoint>)> {
    load(path, n, false)
}

/// [`lock_and_load`] for a reader that only reads the file, once (`count --recount`): where the
/// lock cannot be made (a read-only mount, an archive it may not write to) it reads the file as
/// it is, unlocked, instead of refusing. A lock held by a running count is refused as for a
/// writer: that file is changing.
pub fn load_to_read(
    path: &Path,
    n: usize,
) -> anyhow::Result<(Option<lock::Lock>, Option<Checkpoint>)> {
    load(path, n, true)
}

fn load(
    path: &Path,
    n: usize,
    reading: bool,
) -> anyhow::Result<(Option<lock::Lock>, Option<Checkpoint>)> {
    // Before any lock file is made beside it: a device, pipe or folder is never a checkpoint
    // (reading `/dev/zero` would never end; `/dev/null.lock` would litter `/dev`).
    // A name ending in a slash names a folder, made or not (`new/` would lock `new.lock`).
    let folder = path.as_os_str().as_encoded_bytes().ends_with(b"/");
    if folder && !path.exists() {
        anyhow::bail!(
            "checkpoint file {} names a folder (it ends in /): give the path of a file, or of one \
             to create",
            escape_path(path)
        );
    }
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            anyhow::bail!(
                "checkpoint file {} is not a regular file (a device, pipe or folder): give the \
                 path of a file, or of one to create",
                escape_path(path)
            );
        }
    }
    let lock = if reading {
        lock::acquire_to_read(path)?
    } else {
        lock::acquire(path)?
    };
    // Holding the lock, no other run is saving this checkpoint: the temporary files of its
    // saves still there were left by processes killed mid-save.
    if lock.is_some() {
        queens_core::count::remove_stale_temporaries(path);
    }
    let saved = Checkpoint::load(path, n)?;
    Ok((lock, saved))
}

/// The run of the checkpoint `path` when it is finished, and the time it recorded: read
/// without its lock, in its own
/// split whatever the memory budget, so that a finished run prints its result at once on a
/// read-only mount and under any `--max-memory`. A finished checkpoint never changes (no run
/// saves one again), and a save replaces the file by a rename, so the read is of one whole
/// file, finished or not. `None` when the file does not exist, is not a regular file (the
/// locked path names it), or has work left (it is then locked and read again); a file that
/// cannot be read or belongs to another run is an error, as under the lock.
pub fn finished(path: &Path, n: usize, shard: Shard) -> anyhow::Result<Option<(Run, Spent)>> {
    if !std::fs::metadata(path).is_ok_and(|meta| meta.is_file()) {
        return Ok(None);
    }
    let Some(saved) = Checkpoint::load(path, n)? else {
        return Ok(None);
    };
    let Some(run) = Run::of_split(n, &saved.split, shard) else {
        return Ok(None);
    };
    let (run, spent) = run.resume(saved, path)?;
    Ok(run.is_complete().then_some((run, spent)))
}

/// Whether the checkpoint `path` exists (through its links): `--recount` of a missing one is
/// refused before any lock file is made beside it.
pub fn exists(path: &Path) -> bool {
    std::fs::metadata(path).is_ok()
}

/// The processor time this process has used so far, every thread, user and system, in
/// seconds (`getrusage`); `None` where it cannot be read.
fn cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        // SAFETY: `getrusage` only writes the `rusage` it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
            return None;
        }
        let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        Some(seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
    #[cfg(not(unix))]
    {
        None
    }
}
