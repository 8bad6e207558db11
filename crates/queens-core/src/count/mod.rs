//! The counting engine: the exact number of solutions (OEIS A000170) and of symmetry classes
//! (OEIS A002562) of the N x N board, on every core, in shards, resumable.
//!
//! The layers, each a file, each depending only on those before it:
//! - `frame.rs`: the plan. The board's outer frame is pre-placed in one canonical way per
//!   symmetry orbit; each frame is a [`Subproblem`].
//! - `kernel.rs`: the leaf, a tight bitmask loop that fills a frame's free rows.
//! - `join.rs`: the join of a frame's last rows from a table of bottoms, on top of the kernel.
//! - `engine.rs`: the choice between join and plain search per frame, and the runs on one
//!   thread or a pool, with a shared [`Tally`] and a cancel flag ([`Control`]).
//! - `shard.rs` and `checkpoint.rs`: one [`Shard`] of the plan, and the saved state of a run.
//! - `fixed.rs`: the solutions fixed by the half and quarter turns, so that Burnside's lemma
//!   can check the classes independently, and the class representatives in order.
//!
//! A run is assembled by [`Run`]: N, the shard, the threads, the state to resume from.
//!
//! # Example
//! ```
//! let counts = queens_core::count::count(8).unwrap();
//! assert_eq!((counts.total, counts.unique), (92, 12));
//! ```

pub(crate) mod checkpoint;
pub(crate) mod checksum;
pub(crate) mod engine;
pub(crate) mod estimate;
pub(crate) mod fixed;
pub(crate) mod frame;
pub mod halves;
pub(crate) mod join;
pub(crate) mod kernel;
pub(crate) mod shard;
pub mod shard_result;

use std::path::Path;
use std::sync::atomic::Ordering;

use thiserror::Error;

use crate::error::SizeError;

pub use checkpoint::{add_counts, Checkpoint, MAX_SUBPROBLEMS};
pub use checksum::{checksum, fnv1a64};
pub use engine::{Control, Tally};
pub use estimate::{estimate, probe_nodes, Estimate};
pub use fixed::{
    classes_from_fixed, count_fixed_by_half_turn, count_fixed_by_quarter_turn, for_each_canonical,
};
pub use frame::{subproblems, Subproblem};
pub use shard::{Shard, MAX_SHARDS};

/// The widest board the engine counts: its masks are 32-bit words. (Totals are exact 128-bit
/// numbers; the count of N = 27 is the largest known, so the limit is not the practical one.)
pub const MAX_N: usize = kernel::MAX_N;

/// The name of the way the engine splits a board into subproblems. Shards and checkpoints
/// carry it, so that results of a different split are never summed together.
pub const SPLIT: &str = "frame1-v1";

/// Which counting engine a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Canonical frames, each searched with its last rows joined (`frame.rs`, `join.rs`).
    Frame,
    /// The upper and lower halves of the board listed and joined (`halves.rs`).
    Halves,
    /// The faster of the two for the board size: halves from [`HALVES_FROM`] to
    /// [`halves::MAX_N`] (when a split fits in the memory budget), frames otherwise.
    Auto,
}

/// The smallest board on which [`Engine::Auto`] chooses the half-board engine.
pub const HALVES_FROM: usize = 12;

impl Engine {
    /// The engine actually run for `n`: [`Engine::Auto`] resolved.
    pub fn resolve(self, n: usize) -> Engine {
        match self {
            Engine::Auto if (HALVES_FROM..=halves::MAX_N).contains(&n) => Engine::Halves,
            Engine::Auto => Engine::Frame,
            other => other,
        }
    }
}

/// The number of solutions and of symmetry classes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Every solution (OEIS A000170).
    pub total: u128,
    /// The solutions distinct under rotations and reflections (OEIS A002562).
    pub unique: u128,
}

/// Why the counting engine refused or stopped.
#[derive(Debug, Error)]
pub enum CountError {
    /// N is 0 or past what the engine's 32-bit masks hold.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// A shard specification was malformed.
    #[error("bad shard '{0}': use I/M with 0 <= I < M <= 1048576, for example 0/4")]
    BadShard(String),
    /// The thread pool could not be built.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
    /// A checkpoint file could not be read or written.
    #[error("cannot read or write the checkpoint file {path}")]
    CheckpointIo {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A checkpoint file is not one this engine wrote, or is damaged.
    #[error("checkpoint file {path} is not a valid checkpoint: {reason}")]
    CheckpointMalformed {
        /// The file.
        path: String,
        /// What is wrong, naming the line or field.
        reason: String,
    },
    /// No split of the half-board engine fits in the memory budget.
    #[error(
        "the half-board engine needs about {} MiB for N = {n} with its finest split, more than \
         the budget of {} MiB (raise --max-memory, use fewer threads, or --engine frame)",
        need >> 20, budget >> 20
    )]
    MemoryBudget {
        /// The board size.
        n: usize,
        /// The bytes the finest split needs on the requested threads.
        need: u64,
        /// The budget.
        budget: u64,
    },
    /// A checkpoint file belongs to a different run.
    #[error("checkpoint file {path} belongs to a different run ({reason}); use another file or delete it")]
    CheckpointMismatch {
        /// The file.
        path: String,
        /// Which parameter differs.
        reason: String,
    },
}

/// How many subproblems the split named `split` makes of the `n` x `n` board, when this binary
/// knows the split: `frame1-v1` (the frame engine) or `halvesK-v1` (the half-board engine with K
/// pattern columns); `None` for another name or an N out of range. `queens merge` checks parts
/// against it, so that results of different splits are never summed.
pub fn split_subproblems(n: usize, split: &str) -> Option<usize> {
    if split == SPLIT {
        return check_size(n).ok().map(|()| subproblems(n).len());
    }
    let k: usize = split
        .strip_prefix("halves")?
        .strip_suffix("-v1")?
        .parse()
        .ok()?;
    let plan = (1..=halves::MAX_N).contains(&n) && k <= halves::MAX_PATTERN_COLUMNS;
    plan.then(|| halves::Plan::new(n, k))
        .filter(|p| p.split() == split)
        .map(|p| p.len())
}

/// Checks that `n` is a size the engine counts.
pub fn check_size(n: usize) -> Result<(), CountError> {
    Ok(SizeError::check(n, "the counting engine", MAX_N)?)
}

/// One counting run, assembled: the plan of subproblems of the board, the shard of it to count,
/// the threads, and the tally so far (empty, or resumed from a checkpoint). The binary's
/// `queens count` is this plus a progress bar, signals and checkpoint files.
///
/// # Example
/// ```
/// use queens_core::count::{Run, Shard};
/// // The two halves of the 10x10 board, counted apart and added up.
/// let mut total = 0;
/// for index in 0..2 {
///     let run = Run::new(10)?.shard(Shard::new(index, 2)?).threads(1);
///     total += run.execute()?.total;
/// }
/// assert_eq!(total, 724);
/// # Ok::<(), queens_core::count::CountError>(())
/// ```
#[derive(Debug)]
pub struct Run {
    n: usize,
    plan: Vec<Subproblem>,
    /// The half-board plan, when this run uses that engine (then `plan` is empty).
    halves: Option<halves::Plan>,
    shard: Shard,
    todo: Vec<usize>,
    threads: usize,
    control: Control,
}

impl Run {
    /// A run over the whole `n` x `n` board, on every core, from nothing.
    pub fn new(n: usize) -> Result<Run, CountError> {
        check_size(n)?;
        let plan = subproblems(n);
        let todo = Shard::WHOLE.select(plan.len());
        let control = Control::new(Tally::new(plan.len()));
        Ok(Run {
            n,
            plan,
            halves: None,
            shard: Shard::WHOLE,
            todo,
            threads: 0,
            control,
        })
    }

    /// A run over the whole `n` x `n` board with the chosen engine ([`Engine::Auto`]: the
    /// faster one for `n`), on every core, from nothing. The half-board engine sizes its
    /// subproblems so that `threads` of them fit in `max_memory` bytes, and refuses with
    /// [`CountError::MemoryBudget`] when none do.
    pub fn with_engine(
        n: usize,
        engine: Engine,
        threads: usize,
        max_memory: u64,
    ) -> Result<Run, CountError> {
        check_size(n)?;
        let auto = engine == Engine::Auto;
        let engine = engine.resolve(n);
        if engine != Engine::Halves {
            return Ok(Run::new(n)?.threads(threads));
        }
        if n > halves::MAX_N {
            return Err(CountError::Size(
                SizeError::check(n, "the half-board engine", halves::MAX_N).unwrap_err(),
            ));
        }
        let workers = if threads == 0 {
            std::thread::available_parallelism().map_or(1, |p| p.get())
        } else {
            threads
        };
        let plan = match halves::Plan::fitting(n, workers, max_memory) {
            Ok(plan) => plan,
            // Auto falls back to the frame engine, whose memory is small whatever N.
            Err(CountError::MemoryBudget { .. }) if auto => {
                return Ok(Run::new(n)?.threads(threads))
            }
            Err(err) => return Err(err),
        };
        let todo = Shard::WHOLE.select(plan.len());
        let control = Control::new(Tally::new(plan.len()));
        Ok(Run {
            n,
            plan: Vec::new(),
            halves: Some(plan),
            shard: Shard::WHOLE,
            todo,
            threads,
            control,
        })
    }

    /// The engine this run uses.
    pub fn engine(&self) -> Engine {
        if self.halves.is_some() {
            Engine::Halves
        } else {
            Engine::Frame
        }
    }

    /// The name of the split of this run's plan (see [`SPLIT`]).
    pub fn split(&self) -> String {
        match &self.halves {
            Some(plan) => plan.split(),
            None => SPLIT.to_string(),
        }
    }

    /// Counts only `shard` of the subproblems.
    pub fn shard(mut self, shard: Shard) -> Run {
        self.todo = shard.select(self.subproblems());
        self.shard = shard;
        self
    }

    /// Runs on `threads` threads: 1 on the calling thread, 0 one per core.
    pub fn threads(mut self, threads: usize) -> Run {
        self.threads = threads;
        self
    }

    /// Resumes from a checkpoint read from `path`, after checking that it belongs to this run
    /// (same N, split and shard). Returns the seconds the checkpoint says were spent so far.
    ///
    /// Each saved part is also checked against its subproblem: a total that is not a multiple
    /// of the frame's orbit, or (for a frame no symmetry fixes) not 8 times its classes, cannot
    /// have been counted, and the file is refused.
    pub fn resume(self, checkpoint: Checkpoint, path: &Path) -> Result<(Run, f64), CountError> {
        if self.halves.is_some() {
            let split = self.split();
            let reason = if checkpoint.n != self.n {
                Some(format!(
                    "it is for N = {}, not N = {}",
                    checkpoint.n, self.n
                ))
            } else if checkpoint.split != split || checkpoint.subproblems != self.subproblems() {
                Some(format!(
                    "it is for the split {} of {} subproblems, not {split} of {}",
                    checkpoint.split,
                    checkpoint.subproblems,
                    self.subproblems()
                ))
            } else if checkpoint.shard != self.shard {
                Some(format!(
                    "it is for shard {}, not shard {}",
                    checkpoint.shard, self.shard
                ))
            } else {
                None
            };
            if let Some(reason) = reason {
                return Err(CountError::CheckpointMismatch {
                    path: path.display().to_string(),
                    reason,
                });
            }
        } else {
            checkpoint.check_matches(path, self.n, self.plan.len(), self.shard)?;
            self.check_frame_parts(&checkpoint, path)?;
        }
        *self.control.tally() = checkpoint.tally;
        Ok((self, checkpoint.seconds))
    }

    /// Checks each saved part of a frame-split checkpoint against its subproblem: a total that
    /// is not a multiple of the frame's orbit, or (for a frame no symmetry fixes) not its classes
    /// times the orbit, cannot have been counted.
    fn check_frame_parts(&self, checkpoint: &Checkpoint, path: &Path) -> Result<(), CountError> {
        for i in checkpoint.tally.finished_subproblems() {
            let part = checkpoint.tally.parts[i];
            let sub = &self.plan[i];
            let orbit = u128::from(sub.orbit_size());
            let possible = if sub.fixed_by.is_empty() {
                part.unique.checked_mul(orbit) == Some(part.total)
            } else {
                // `found` completions in classes of 1 to `stab` of them each.
                let found = part.total / orbit;
                let stab = 1 + sub.fixed_by.len() as u128;
                part.total.is_multiple_of(orbit)
                    && part.unique <= found
                    && part.unique.saturating_mul(stab) >= found
            };
            if !possible {
                return Err(CountError::CheckpointMalformed {
                    path: path.display().to_string(),
                    reason: format!(
                        "subproblem {i} cannot have {} solutions in {} classes (its frame's \
                     orbit has {orbit} frames)",
                        part.total, part.unique
                    ),
                });
            }
        }
        Ok(())
    }

    /// Recounts subproblem `i` of the plan with the plain search (the bitboard kernel over
    /// every free row, never the join), independently of how the run counted it; `None` when
    /// `i` is past the plan or the run was cancelled.
    pub fn recount(&self, i: usize) -> Option<Counts> {
        let sub = self.plan.get(i)?;
        engine::solve_searched(self.n, sub, &self.control.cancel)
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The shard counted.
    pub fn shard_counted(&self) -> Shard {
        self.shard
    }

    /// How many subproblems the whole board has.
    pub fn subproblems(&self) -> usize {
        match &self.halves {
            Some(plan) => plan.len(),
            None => self.plan.len(),
        }
    }

    /// How many subproblems this run counts (its shard of the plan).
    pub fn todo(&self) -> usize {
        self.todo.len()
    }

    /// The shared state: the tally so far and the cancel flag, for a watcher thread.
    pub fn control(&self) -> &Control {
        &self.control
    }

    /// Raises the cancel flag: the run stops soon, and the tally stays exact.
    pub fn cancel(&self) {
        self.control.cancel.store(true, Ordering::SeqCst);
    }

    /// Whether every subproblem of the shard is counted.
    pub fn is_complete(&self) -> bool {
        self.control.tally().finished >= self.todo.len() as u64
    }

    /// The saved state of the run, with `seconds` spent so far.
    pub fn checkpoint(&self, seconds: f64) -> Checkpoint {
        Checkpoint {
            n: self.n,
            split: self.split(),
            subproblems: self.subproblems(),
            shard: self.shard,
            tally: self.control.tally().clone(),
            seconds,
        }
    }

    /// Counts every subproblem of the shard not yet counted (until cancelled), then returns the
    /// counts so far: complete when [`Run::is_complete`] holds.
    ///
    /// With the half-board engine the classes come from Burnside's lemma over the whole board,
    /// so `unique` is exact only for a complete run of the whole board; the `unique` of a shard
    /// (or of an incomplete run) is in *eighths* of classes, which `queens merge` adds up and
    /// divides by 8.
    pub fn execute(&self) -> Result<Counts, CountError> {
        if let Some(plan) = &self.halves {
            halves::run(plan, &self.todo, self.threads, &self.control)?;
            let mut counts = self.control.tally().counts;
            if self.shard == Shard::WHOLE && self.is_complete() {
                counts.unique = plan.classes(counts.unique);
            }
            return Ok(counts);
        }
        if self.threads == 1 {
            engine::run_sequential(self.n, &self.plan, &self.todo, &self.control);
        } else {
            engine::run_parallel(self.n, &self.plan, &self.todo, self.threads, &self.control)?;
        }
        Ok(self.control.tally().counts)
    }
}

/// Counts total and classes of the `n` x `n` board on the calling thread alone.
///
/// # Example
/// ```
/// let counts = queens_core::count::count_sequential(10).unwrap();
/// assert_eq!((counts.total, counts.unique), (724, 92));
/// ```
pub fn count_sequential(n: usize) -> Result<Counts, CountError> {
    Run::new(n)?.threads(1).execute()
}

/// Counts total and classes of the `n` x `n` board on `threads` threads (0: one per core).
///
/// # Example
/// ```
/// let counts = queens_core::count::count_parallel(10, 2).unwrap();
/// assert_eq!((counts.total, counts.unique), (724, 92));
/// ```
pub fn count_parallel(n: usize, threads: usize) -> Result<Counts, CountError> {
    Run::new(n)?.threads(threads).execute()
}

/// Counts total and classes of the `n` x `n` board on every core.
pub fn count(n: usize) -> Result<Counts, CountError> {
    count_parallel(n, 0)
}

/// The number of solutions of the `n` x `n` board (OEIS A000170), on every core.
pub fn count_total(n: usize) -> Result<u128, CountError> {
    Ok(count(n)?.total)
}

/// The number of solutions distinct under rotations and reflections (OEIS A002562), on every
/// core.
pub fn count_unique(n: usize) -> Result<u128, CountError> {
    Ok(count(n)?.unique)
}

#[cfg(test)]
mod tests {
    use super::engine::{run_parallel, run_sequential};
    use super::*;

    /// Known answers (OEIS A000170 and A002562): rows of `(n, total, unique)`.
    pub(crate) fn known() -> Vec<(usize, u128, u128)> {
        crate::reference::known()
            .into_iter()
            .map(|k| (k.n, k.total, k.unique))
            .collect()
    }

    #[test]
    fn sequential_counts_equal_the_known_totals_and_classes() {
        for (n, total, unique) in known().into_iter().filter(|k| k.0 <= 12) {
            let c = count_sequential(n).unwrap();
            assert_eq!((c.total, c.unique), (total, unique), "n = {n}");
        }
    }

    #[test]
    fn parallel_counts_equal_the_known_totals_and_classes_up_to_fifteen() {
        for (n, total, unique) in known().into_iter().filter(|k| k.0 <= 15) {
            let c = count(n).unwrap();
            assert_eq!((c.total, c.unique), (total, unique), "n = {n}");
        }
    }

    #[test]
    fn any_number_of_threads_gives_the_same_counts_as_one() {
        for n in [1, 4, 6, 9, 11] {
            let one = count_sequential(n).unwrap();
            for threads in [1, 2, 3, 7] {
                assert_eq!(
                    count_parallel(n, threads).unwrap(),
                    one,
                    "n = {n}, {threads}"
                );
            }
        }
    }

    #[test]
    fn the_shards_of_a_board_add_up_to_the_whole() {
        let n = 11;
        let plan = subproblems(n);
        let whole = count_sequential(n).unwrap();
        for m in [1, 2, 5, 13] {
            let mut sum = Counts::default();
            for i in 0..m {
                let control = Control::new(Tally::new(plan.len()));
                let todo = Shard::new(i, m).unwrap().select(plan.len());
                run_parallel(n, &plan, &todo, 2, &control).unwrap();
                let part = control.tally().counts;
                sum.total += part.total;
                sum.unique += part.unique;
            }
            assert_eq!(sum, whole, "{m} shards");
        }
    }

    #[test]
    fn a_cancelled_run_resumed_from_its_checkpoint_gives_the_exact_count() {
        let n = 12;
        let plan = subproblems(n);
        let todo: Vec<usize> = (0..plan.len()).collect();
        // First session: count a third, then cancel.
        let control = Control::new(Tally::new(plan.len()));
        run_sequential(n, &plan, &todo[..plan.len() / 3], &control);
        control
            .cancel
            .store(true, std::sync::atomic::Ordering::SeqCst);
        run_parallel(n, &plan, &todo, 2, &control).unwrap();
        let saved = Checkpoint {
            n,
            split: SPLIT.to_string(),
            subproblems: plan.len(),
            shard: Shard::WHOLE,
            tally: control.tally().clone(),
            seconds: 0.0,
        };
        assert_eq!(saved.tally.finished, (plan.len() / 3) as u64);
        // Second session: load the text and finish.
        let text = saved.to_text();
        let loaded = Checkpoint::from_text(std::path::Path::new("t"), &text).unwrap();
        let control = Control::new(loaded.tally);
        run_parallel(n, &plan, &todo, 2, &control).unwrap();
        let tally = control.tally();
        assert_eq!(tally.finished, plan.len() as u64);
        assert_eq!(tally.counts, count_sequential(n).unwrap());
    }

    #[test]
    fn a_cancel_raised_in_the_middle_of_a_long_subproblem_stops_it_unrecorded() {
        // The first frame of N = 21 takes seconds; a flag raised after 20 ms must end it.
        let n = 21;
        let run = std::sync::Arc::new(Run::new(n).unwrap().threads(1));
        let watcher = {
            let run = std::sync::Arc::clone(&run);
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(20));
                run.cancel();
            })
        };
        let counts = run.execute().unwrap();
        watcher.join().unwrap();
        let tally = run.control().tally();
        assert_eq!(
            tally.finished, 0,
            "a cancelled subproblem is never recorded"
        );
        assert_eq!(counts, Counts::default());
    }

    #[test]
    fn recounts_by_the_plain_search_agree_with_the_engine() {
        for n in [12, 15, 16] {
            let run = Run::new(n).unwrap().threads(2);
            run.execute().unwrap();
            let tally = run.control().tally().clone();
            let plan = subproblems(n);
            for i in (0..plan.len()).step_by(plan.len() / 17 + 1) {
                assert_eq!(
                    run.recount(i),
                    Some(tally.parts[i]),
                    "n = {n}, subproblem {i}"
                );
            }
            // Some of those frames are fixed by a symmetry, some are not.
            assert!(plan.iter().any(|s| !s.fixed_by.is_empty()));
            assert_eq!(run.recount(plan.len()), None);
        }
    }

    #[test]
    fn a_saved_part_that_its_frame_cannot_have_is_refused_on_resume() {
        let n = 10;
        let run = Run::new(n).unwrap().threads(1);
        run.execute().unwrap();
        let good = run.checkpoint(0.0);
        let path = std::path::Path::new("r.ckpt");
        assert!(Run::new(n).unwrap().resume(good.clone(), path).is_ok());
        let plan = subproblems(n);
        let free = plan.iter().position(|s| s.fixed_by.is_empty()).unwrap();
        let mut bad = good.clone();
        let part = &mut bad.tally.parts[free];
        part.total += 8;
        bad.tally.counts.total += 8;
        let text = bad.to_text();
        // The file itself is consistent (parts add up, checksum right) but the frame cannot
        // have those counts: 8 more solutions without one more class.
        let loaded = Checkpoint::from_text(path, &text).unwrap();
        let err = Run::new(n)
            .unwrap()
            .resume(loaded, path)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("subproblem {free} cannot have")),
            "{err}"
        );
    }

    #[test]
    fn burnside_agrees_with_the_classes_counted_by_the_engine() {
        for n in 1..=12 {
            let c = count(n).unwrap();
            let half = u128::from(fixed::count_fixed_by_half_turn(n).unwrap());
            let quarter = u128::from(fixed::count_fixed_by_quarter_turn(n).unwrap());
            assert_eq!(
                fixed::classes_from_fixed(n, c.total, half, quarter),
                c.unique
            );
        }
    }

    fn halves_run(n: usize, threads: usize) -> Run {
        let run = Run::with_engine(n, Engine::Halves, threads, 1 << 30).unwrap();
        assert_eq!(run.engine(), Engine::Halves);
        run
    }

    #[test]
    fn the_half_board_engine_counts_the_known_totals_and_classes_on_one_and_two_threads() {
        for (n, total, unique) in known().into_iter().filter(|k| k.0 <= 16) {
            for threads in [1, 2] {
                let c = halves_run(n, threads).execute().unwrap();
                assert_eq!(
                    (c.total, c.unique),
                    (total, unique),
                    "n = {n}, {threads} threads"
                );
            }
        }
    }

    #[test]
    fn the_half_board_engine_counts_seventeen() {
        let (_, total, unique) = known().into_iter().find(|k| k.0 == 17).unwrap();
        let c = halves_run(17, 2).execute().unwrap();
        assert_eq!((c.total, c.unique), (total, unique));
    }

    #[test]
    fn the_half_board_shards_add_up_to_the_whole_and_their_eighths_to_the_classes() {
        for n in [9, 12, 14, 15] {
            let (_, total, unique) = known().into_iter().find(|k| k.0 == n).unwrap();
            for m in [1, 2, 5, 13] {
                let mut sum = Counts::default();
                for i in 0..m {
                    let run = halves_run(n, 2).shard(Shard::new(i, m).unwrap());
                    let part = run.execute().unwrap();
                    assert!(run.is_complete());
                    sum.total += part.total;
                    sum.unique += part.unique;
                }
                let classes = if m == 1 { sum.unique } else { sum.unique / 8 };
                assert_eq!((sum.total, classes), (total, unique), "n = {n}, {m} shards");
            }
        }
    }

    #[test]
    fn a_cancelled_half_board_run_resumed_from_its_checkpoint_gives_the_exact_count() {
        let n = 14;
        let first = halves_run(n, 1);
        let third = first.subproblems() / 3;
        // First session: a third of the subproblems (as a shard would), then a cancelled run.
        let todo: Vec<usize> = (0..third).collect();
        halves::run(first.halves.as_ref().unwrap(), &todo, 1, first.control()).unwrap();
        first.cancel();
        first.execute().unwrap();
        assert!(!first.is_complete());
        let saved = first.checkpoint(1.5);
        assert_eq!(saved.tally.finished, third as u64);
        assert_eq!(saved.split, first.split());
        // Second session: load the text and finish on two threads.
        let loaded = Checkpoint::from_text(std::path::Path::new("t"), &saved.to_text()).unwrap();
        let (second, seconds) = halves_run(n, 2)
            .resume(loaded.clone(), std::path::Path::new("t"))
            .unwrap();
        assert_eq!(seconds, 1.5);
        let c = second.execute().unwrap();
        assert!(second.is_complete());
        assert_eq!(c, count_sequential(n).unwrap());
        // A checkpoint of the other engine, or of another board, is refused.
        let frames = Run::new(n).unwrap();
        let err = frames
            .resume(loaded.clone(), std::path::Path::new("t"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("split"), "{err}");
        let other = Run::with_engine(13, Engine::Halves, 1, 1 << 30).unwrap();
        let err = other
            .resume(loaded, std::path::Path::new("t"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("N = 14, not N = 13"), "{err}");
    }

    #[test]
    fn a_raised_cancel_flag_stops_a_half_board_count() {
        let run = halves_run(15, 1);
        run.cancel();
        run.execute().unwrap();
        assert_eq!(run.control().tally().finished, 0);
    }

    #[test]
    fn a_memory_budget_too_small_for_any_split_is_refused_clearly() {
        let err = Run::with_engine(18, Engine::Halves, 2, 1 << 20).unwrap_err();
        assert!(matches!(err, CountError::MemoryBudget { .. }), "{err}");
        let text = err.to_string();
        assert!(
            text.contains("N = 18") && text.contains("--max-memory"),
            "{text}"
        );
        // A budget that fits a finer split than the default is used, under another name.
        let fine = Run::with_engine(18, Engine::Halves, 2, 64 << 20).unwrap();
        let coarse = Run::with_engine(18, Engine::Halves, 2, 1 << 30).unwrap();
        assert_ne!(fine.split(), coarse.split());
        assert!(fine.subproblems() > coarse.subproblems());
    }

    #[test]
    fn auto_chooses_the_half_board_engine_from_twelve_on() {
        for n in [1, 8, 11, 25, 32] {
            assert_eq!(
                Run::with_engine(n, Engine::Auto, 1, 1 << 30)
                    .unwrap()
                    .engine(),
                Engine::Frame
            );
        }
        for n in [12, 16, 24] {
            assert_eq!(
                Run::with_engine(n, Engine::Auto, 1, 1 << 30)
                    .unwrap()
                    .engine(),
                Engine::Halves
            );
        }
        // Too little memory for the half-board engine: auto falls back, an explicit choice is
        // refused.
        assert_eq!(
            Run::with_engine(18, Engine::Auto, 2, 1 << 20)
                .unwrap()
                .engine(),
            Engine::Frame
        );
    }

    #[test]
    fn sizes_past_the_masks_are_refused_clearly() {
        assert!(matches!(count(0), Err(CountError::Size(_))));
        let err = count(33).unwrap_err().to_string();
        assert!(err.contains("N = 33") && err.contains("up to 32"), "{err}");
    }
}
