//! The counting engine: the exact number of solutions (OEIS A000170) and of symmetry classes
//! (OEIS A002562) of the N x N board, on every core, in shards, resumable.
//!
//! The layers, each a file, each depending only on those before it:
//! - `frame.rs`: the plan. The board's outer frame is pre-placed in one canonical way per
//!   symmetry orbit; each frame is a [`Subproblem`].
//! - `kernel.rs`: the leaf, a tight bitmask loop that fills a frame's free rows.
//! - `join.rs`: the join of a frame's last rows from a table of bottoms, on top of the kernel.
//! - `pieces.rs`: on large boards, each frame cut into pieces by the queens of its first free
//!   rows, so that no subproblem is more than about a minute of one core.
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
pub mod pieces;
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

/// The name of the way the engine splits a board into subproblems when it counts whole frames
/// (boards up to [`pieces::WHOLE_FRAMES_UP_TO`]). Shards and checkpoints carry the name of
/// their split, so that results of a different split are never summed together; larger
/// boards cut their frames into pieces, `frame1-rowsD-v1` (see [`pieces::split_name`]).
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
/// knows the split: `frame1-v1` or `frame1-rowsD-v1` (the frame engine, whole frames or pieces
/// of D rows; the subproblems are the frames) or `halvesK-v1` (the half-board engine with K
/// pattern columns); `None` for another name or an N out of range. `queens merge` checks parts
/// against it, so that results of different splits are never summed.
pub fn split_subproblems(n: usize, split: &str) -> Option<usize> {
    if check_size(n).is_ok() && pieces::depth_of_split(n, split).is_some() {
        return Some(subproblems(n).len());
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

/// Whether the parts of `split` count classes in eighths (summed, then divided by 8 for the
/// whole board): the half-board engine's splits and the frame splits cut into pieces.
pub fn unique_in_eighths(split: &str) -> bool {
    split.starts_with("halves") || (split.starts_with("frame1-rows") && split != SPLIT)
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
    /// The rows each frame is cut at (see `pieces`; 0: whole frames).
    depth: usize,
    /// The half-board plan, when this run uses that engine (then `plan` is empty).
    halves: Option<halves::Plan>,
    shard: Shard,
    todo: Vec<usize>,
    threads: usize,
    control: Control,
}

impl Run {
    /// A run over the whole `n` x `n` board, on every core, from nothing, with the frame
    /// engine's plan for `n` (whole frames up to [`pieces::WHOLE_FRAMES_UP_TO`], pieces of
    /// [`pieces::depth_for`] rows above).
    pub fn new(n: usize) -> Result<Run, CountError> {
        check_size(n)?;
        Run::with_depth(n, pieces::depth_for(n))
    }

    /// [`Run::new`] with the frames cut at `depth` rows (0: whole frames), whatever the board:
    /// for tests, experiments, and resuming a checkpoint of another depth. A depth past the
    /// frames' free rows cuts them at their last row.
    pub fn with_depth(n: usize, depth: usize) -> Result<Run, CountError> {
        check_size(n)?;
        let plan = subproblems(n);
        let depth = depth.min(pieces::MAX_DEPTH).min(n.saturating_sub(2));
        let todo = Shard::WHOLE.select(plan.len());
        let control = Control::new(Tally::new(plan.len()));
        Ok(Run {
            n,
            plan,
            depth,
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
            depth: 0,
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
            None => pieces::split_name(self.depth),
        }
    }

    /// The rows the frames are cut at (0: whole frames, and for the half-board engine).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Counts only `shard` of the subproblems. With pieces, a shard counts its pieces of every
    /// frame, so each frame is part of every shard's work.
    pub fn shard(mut self, shard: Shard) -> Run {
        self.todo = if self.depth > 0 {
            Shard::WHOLE.select(self.subproblems())
        } else {
            shard.select(self.subproblems())
        };
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
            // A checkpoint of another frame split (whole frames, or another depth) is resumed
            // with its own split: its frames are the same, only their cut differs.
            let mut run = self;
            if let Some(depth) = pieces::depth_of_split(run.n, &checkpoint.split) {
                if depth != run.depth && checkpoint.n == run.n {
                    let (shard, threads) = (run.shard, run.threads);
                    run = Run::with_depth(run.n, depth)?.shard(shard).threads(threads);
                }
            }
            checkpoint.check_matches(path, run.n, &run.split(), run.plan.len(), run.shard)?;
            run.check_frame_parts(&checkpoint, path)?;
            *run.control.tally() = checkpoint.tally;
            return Ok((run, checkpoint.seconds));
        }
        *self.control.tally() = checkpoint.tally;
        Ok((self, checkpoint.seconds))
    }

    /// Checks each saved part of a frame-split checkpoint against its subproblem: a total that
    /// is not a multiple of the frame's orbit, or (for a frame no symmetry fixes) not its classes
    /// times the orbit, cannot have been counted.
    fn check_frame_parts(&self, checkpoint: &Checkpoint, path: &Path) -> Result<(), CountError> {
        let tally = &checkpoint.tally;
        let finished = tally
            .finished_subproblems()
            .map(|i| (i, tally.parts[i], ""));
        let begun = tally
            .pieces
            .iter()
            .map(|(&i, p)| (i, p.counts, " (its pieces so far)"));
        for (i, part, what) in finished.chain(begun) {
            let sub = &self.plan[i];
            let orbit = u128::from(sub.orbit_size());
            let possible = if self.depth > 0 {
                // Eighths of classes: the orbit times the stabilizer sum, which is from 1 to
                // the frame's stabilizer times the completions.
                let stab = 1 + sub.fixed_by.len() as u128;
                let (found, sum) = (part.total / orbit, part.unique / orbit);
                part.total.is_multiple_of(orbit)
                    && part.unique.is_multiple_of(orbit)
                    && sum >= found
                    && sum <= found.saturating_mul(stab)
            } else if sub.fixed_by.is_empty() {
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
                        "subproblem {i}{what} cannot have {} solutions in {} {} (its frame's \
                     orbit has {orbit} frames)",
                        part.total,
                        part.unique,
                        if self.depth > 0 {
                            "eighths of classes"
                        } else {
                            "classes"
                        }
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
        if self.depth == 0 {
            return engine::solve_searched(self.n, sub, &self.control.cancel);
        }
        // The shard's pieces of the frame, each by the plain search.
        let mut sum = Counts::default();
        for (p, queens) in pieces::PieceIter::new(self.n, sub, self.depth) {
            if pieces::in_shard(self.shard, i, p) {
                let piece = pieces::piece_subproblem(sub, &queens);
                let c = engine::solve_piece(self.n, &piece, &self.control.cancel, true)?;
                sum = add_counts(sum, c)?;
            }
        }
        Some(sum)
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
    /// and with pieces they are summed in eighths (see `pieces`), so `unique` is exact only for
    /// a complete run of the whole board; the `unique` of a shard (or of an incomplete run) is
    /// then in *eighths* of classes, which `queens merge` adds up and divides by 8.
    pub fn execute(&self) -> Result<Counts, CountError> {
        if let Some(plan) = &self.halves {
            halves::run(plan, &self.todo, self.threads, &self.control)?;
            let mut counts = self.control.tally().counts;
            if self.shard == Shard::WHOLE && self.is_complete() {
                counts.unique = plan.classes(counts.unique);
            }
            return Ok(counts);
        }
        if self.depth > 0 {
            engine::run_pieces(
                self.n,
                &self.plan,
                &self.todo,
                self.depth,
                self.shard,
                self.threads,
                &self.control,
            )?;
            let mut counts = self.control.tally().counts;
            if self.shard == Shard::WHOLE && self.is_complete() {
                counts.unique /= 8;
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
    fn pieces_count_the_known_totals_and_classes_at_every_depth_shard_and_thread_count() {
        for (n, total, unique) in known().into_iter().filter(|k| (5..=12).contains(&k.0)) {
            for depth in 1..=3 {
                let run = Run::with_depth(n, depth).unwrap().threads(1);
                assert_eq!(run.split(), format!("frame1-rows{depth}-v1"));
                let whole = run.execute().unwrap();
                assert_eq!(
                    (whole.total, whole.unique),
                    (total, unique),
                    "n = {n}, depth {depth}"
                );
                for (m, threads) in [(2, 2), (3, 1), (7, 2)] {
                    let mut sum = Counts::default();
                    for i in 0..m {
                        let shard = Shard::new(i, m).unwrap();
                        let run = Run::with_depth(n, depth)
                            .unwrap()
                            .shard(shard)
                            .threads(threads);
                        let part = run.execute().unwrap();
                        assert!(run.is_complete());
                        sum = add_counts(sum, part).unwrap();
                    }
                    assert_eq!(sum.total, total, "n = {n}, depth {depth}, {m} shards");
                    assert_eq!(sum.unique, 8 * unique, "eighths, n = {n}, {m} shards");
                }
            }
        }
    }

    #[test]
    fn large_boards_cut_their_frames_and_small_ones_keep_the_first_split() {
        assert_eq!(Run::new(21).unwrap().split(), SPLIT);
        assert_eq!(Run::new(22).unwrap().split(), "frame1-rows2-v1");
        assert_eq!(Run::new(27).unwrap().split(), "frame1-rows6-v1");
        assert_eq!(
            split_subproblems(27, "frame1-rows6-v1"),
            Some(subproblems(27).len())
        );
        assert_eq!(split_subproblems(27, SPLIT), Some(subproblems(27).len()));
        assert!(unique_in_eighths("frame1-rows7-v1") && !unique_in_eighths(SPLIT));
    }

    /// Runs `run` on two threads and cancels it after `delay`; returns its checkpoint.
    fn interrupted(run: Run, delay: std::time::Duration) -> Checkpoint {
        let run = std::sync::Arc::new(run);
        let watcher = {
            let run = std::sync::Arc::clone(&run);
            std::thread::spawn(move || {
                std::thread::sleep(delay);
                run.cancel();
            })
        };
        run.execute().unwrap();
        watcher.join().unwrap();
        run.checkpoint(0.0)
    }

    #[test]
    fn a_piece_run_cancelled_at_any_moment_resumes_from_its_text_to_the_exact_count() {
        let (n, depth) = (13, 3);
        let exact = count_sequential(n).unwrap();
        let mut begun = 0;
        for (shards, ms) in [(1, 0), (1, 3), (1, 10), (1, 30), (3, 5), (3, 20)] {
            let mut sum = Counts::default();
            for i in 0..shards {
                let shard = Shard::new(i, shards).unwrap();
                let fresh = || Run::with_depth(n, depth).unwrap().shard(shard).threads(2);
                let saved = interrupted(fresh(), std::time::Duration::from_millis(ms));
                begun += saved.tally.pieces.len();
                let text = saved.to_text();
                let path = std::path::Path::new("t");
                let loaded = Checkpoint::from_text(path, &text).unwrap();
                assert_eq!(loaded, saved);
                let (run, _) = fresh().resume(loaded, path).unwrap();
                let part = run.execute().unwrap();
                assert!(run.is_complete());
                assert!(run.control().tally().pieces.is_empty());
                sum = add_counts(sum, part).unwrap();
            }
            let unique = if shards == 1 {
                exact.unique
            } else {
                8 * exact.unique
            };
            assert_eq!(
                (sum.total, sum.unique),
                (exact.total, unique),
                "{shards} shards, {ms} ms"
            );
        }
        assert!(
            begun > 0,
            "no run was interrupted with a frame half counted"
        );
    }

    #[test]
    fn a_checkpoint_of_whole_frames_resumes_with_whole_frames() {
        // A file of the first split (as binaries before pieces wrote at every N) keeps working.
        let n = 12;
        let saved = interrupted(Run::with_depth(n, 0).unwrap(), std::time::Duration::ZERO);
        assert_eq!(saved.split, SPLIT);
        let path = std::path::Path::new("t");
        let (run, _) = Run::with_depth(n, 2).unwrap().resume(saved, path).unwrap();
        assert_eq!((run.split(), run.depth()), (SPLIT.to_string(), 0));
        assert_eq!(run.execute().unwrap(), count_sequential(n).unwrap());
        // A checkpoint of pieces resumes with its own depth.
        let saved = interrupted(Run::with_depth(n, 3).unwrap(), std::time::Duration::ZERO);
        let (run, _) = Run::with_depth(n, 0).unwrap().resume(saved, path).unwrap();
        assert_eq!(run.depth(), 3);
        assert_eq!(run.execute().unwrap(), count_sequential(n).unwrap());
    }

    #[test]
    fn a_piece_recount_agrees_and_a_tampered_piece_sum_is_refused() {
        let (n, depth) = (11, 2);
        let shard = Shard::new(1, 3).unwrap();
        let run = Run::with_depth(n, depth).unwrap().shard(shard).threads(2);
        run.execute().unwrap();
        let tally = run.control().tally().clone();
        for i in (0..tally.parts.len()).step_by(5) {
            assert_eq!(run.recount(i), Some(tally.parts[i]), "frame {i}");
        }
        // A begun frame whose pieces' sum no frame can have.
        let mut saved = interrupted(
            Run::with_depth(13, 3).unwrap(),
            std::time::Duration::from_millis(5),
        );
        let Some((_, fp)) = saved.tally.pieces.iter_mut().next() else {
            return; // the run ended before the cancel (a very fast machine)
        };
        fp.counts.total += 1;
        let err = Run::with_depth(13, 3)
            .unwrap()
            .resume(saved, std::path::Path::new("t"))
            .unwrap_err();
        assert!(err.to_string().contains("its pieces so far"), "{err}");
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
