//! One counting run, assembled: the engine and its plan of subproblems ([`Engine`] resolved to
//! a [`Plan`] value the run holds), the shard of it to count, the threads, and the tally so far
//! (empty, or resumed from a checkpoint). It calls the engines (`engine.rs`, `halves/`), the
//! plans (`frame.rs`, `pieces.rs`) and the checkpoint.

use std::path::Path;
use std::sync::atomic::Ordering;

use super::checkpoint::{add_counts, Checkpoint, Spent};
use super::control::{Control, Tally};
use super::frames::engine;
use super::frames::frame::{subproblems, Subproblem};
use super::frames::pieces;
use super::halves;
use super::invariants::{check_complete, classes_of_eighths};
use super::shard::Shard;
use super::split::{halves_plan_of_split, unique_in_eighths};
use super::types::{check_size, CountError, Counts};
use crate::error::SizeError;

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
    pub(super) plan: Plan,
    shard: Shard,
    todo: Vec<usize>,
    /// The threads asked for (0: one per core); the half-board engine runs at most as many
    /// subproblems at once as fit in `budget`.
    threads: usize,
    /// The memory budget of the half-board engine's subproblems, in bytes.
    budget: u64,
    control: Control,
}

impl Run {
    /// A run over the whole `n` x `n` board, on every core, from nothing, with the frame
    /// engine's plan for `n` (whole frames up to [`pieces::WHOLE_FRAMES_UP_TO`], pieces of
    /// [`pieces::depth_for`] rows above).
    pub fn new(n: usize) -> Result<Run, CountError> {
        check_size(n)?;
        Ok(Run::frames(n, pieces::depth_for(n)))
    }

    /// [`Run::new`] with the frames cut at `depth` rows (0: whole frames), whatever the board:
    /// for tests, experiments, and resuming a checkpoint of another depth. A depth past the
    /// frames' free rows cuts them at their last row.
    pub fn with_depth(n: usize, depth: usize) -> Result<Run, CountError> {
        check_size(n)?;
        Ok(Run::frames(n, depth))
    }

    /// [`Run::with_depth`] for an `n` already checked.
    fn frames(n: usize, depth: usize) -> Run {
        let frames = subproblems(n);
        let depth = depth.min(pieces::MAX_DEPTH).min(n.saturating_sub(2));
        let plan = if depth == 0 {
            Plan::Frames(frames)
        } else {
            Plan::Pieces { frames, depth }
        };
        Run::of_plan(n, plan, 0)
    }

    /// A run of the whole board by `plan`, from nothing.
    fn of_plan(n: usize, plan: Plan, threads: usize) -> Run {
        let todo = Shard::WHOLE.select(plan.len());
        let control = Control::new(Tally::new(plan.len()));
        Run {
            n,
            plan,
            shard: Shard::WHOLE,
            todo,
            threads,
            budget: u64::MAX,
            control,
        }
    }

    /// A run over the whole `n` x `n` board with the chosen engine ([`Engine::Auto`]: the
    /// faster one for `n`), on `threads` threads, from nothing. The half-board engine's split
    /// depends on `n` and `max_memory` only ([`halves::Plan::fitting`]), never on the threads,
    /// so that a run resumes and its shards merge on any machine; the threads only decide how
    /// many subproblems run at once, at most as many as fit in `max_memory`. It refuses with
    /// [`CountError::MemoryBudget`] when no split fits.
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
            return Ok(Run::frames(n, pieces::depth_for(n)).threads(threads));
        }
        if n > halves::MAX_N {
            return Err(CountError::Size(
                SizeError::check(n, "the half-board engine", halves::MAX_N).unwrap_err(),
            ));
        }
        let plan = match halves::Plan::fitting(n, max_memory) {
            Ok(plan) => plan,
            // Auto falls back to the frame engine, whose memory is small whatever N.
            Err(CountError::MemoryBudget { .. }) if auto => {
                return Ok(Run::frames(n, pieces::depth_for(n)).threads(threads))
            }
            Err(err) => return Err(err),
        };
        let mut run = Run::of_plan(n, Plan::Halves(plan), threads);
        run.budget = max_memory;
        Ok(run)
    }

    /// A run of `shard` of the `n` x `n` board by the split named `split` (as a checkpoint or
    /// a shard result names it: `frame1-v1`, `frame1-rowsD-v1`, `halvesK-v1`), whatever the
    /// memory; `None` for a split this binary does not make of `n`.
    pub fn of_split(n: usize, split: &str, shard: Shard) -> Option<Run> {
        check_size(n).ok()?;
        if let Some(depth) = pieces::depth_of_split(n, split) {
            return Some(Run::frames(n, depth).shard(shard));
        }
        let plan = halves_plan_of_split(n, split)?;
        Some(Run::of_plan(n, Plan::Halves(plan), 0).shard(shard))
    }

    /// The threads the run uses: those asked for (0: one per core), and with the half-board
    /// engine at most as many as its subproblems fit in the budget at once.
    pub fn workers(&self) -> usize {
        let Plan::Halves(plan) = &self.plan else {
            return self.threads;
        };
        let asked = if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |p| p.get())
        } else {
            self.threads
        };
        asked.min(plan.concurrent(self.budget))
    }

    /// The engine this run uses.
    pub fn engine(&self) -> Engine {
        match self.plan {
            Plan::Halves(_) => Engine::Halves,
            Plan::Frames(_) | Plan::Pieces { .. } => Engine::Frame,
        }
    }

    /// Forecasts this run's shard with the half-board engine (see [`halves::forecast`]):
    /// `None` when the run uses the frame engine (whose estimate is [`super::estimate`]).
    /// Draws subproblems on the run's threads as `sampling` says (its budget, its bound, its
    /// thread clock); a thread that cannot start or a draw without memory is an error.
    pub fn forecast_halves(
        &self,
        sampling: &super::Sampling,
    ) -> Option<Result<halves::Forecast, CountError>> {
        let Plan::Halves(plan) = &self.plan else {
            return None;
        };
        let threads = if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |p| p.get())
        } else {
            self.threads
        };
        Some(halves::forecast(plan, &self.todo, threads, sampling))
    }

    /// Rehearses this run's memory with the half-board engine ([`halves::rehearse`]): the
    /// subproblems left to count listed on the run's threads, in its order, into its buffers,
    /// without the join, so that the process reaches the run's peak memory in the time of the
    /// listing. Each subproblem listed and its halves, by number (all those of the shard not
    /// yet counted, unless [`Run::cancel`] was called); `on_listed` hears of each as it is
    /// listed. `None` when the run uses the frame engine, whose memory is small whatever N.
    pub fn rehearse(
        &self,
        on_listed: &(dyn Fn(usize, halves::Listed) + Sync),
    ) -> Option<Result<Vec<(usize, halves::Listed)>, CountError>> {
        let Plan::Halves(plan) = &self.plan else {
            return None;
        };
        let left: Vec<usize> = {
            let tally = self.control.tally();
            self.todo
                .iter()
                .copied()
                .filter(|&i| !tally.is_done(i))
                .collect()
        };
        Some(halves::rehearse(
            plan,
            &left,
            self.workers(),
            &self.control.cancel,
            on_listed,
        ))
    }

    /// The most bytes the half-board engine's buffers can hold room for on this run's threads
    /// when the largest of its subproblems have the sizes `most` (each its own largest, as
    /// [`Run::rehearse`] gives them): [`halves::buffers_ceiling`] on each thread. With the
    /// sizes of every subproblem, a bound on the room of the run's buffers whichever of its
    /// threads takes which, on threads that start with empty buffers (as in `queens count`;
    /// on one thread a run lists on the calling thread, whose buffers may keep more from an
    /// earlier run); the rest of the process (the plan, the program, what the allocator keeps)
    /// comes on top. `None` for the frame engine.
    pub fn buffers_ceiling(&self, most: halves::Listed) -> Option<u64> {
        let Plan::Halves(plan) = &self.plan else {
            return None;
        };
        let k = plan.pattern_columns.count_ones() as usize;
        Some(self.workers() as u64 * halves::buffers_ceiling(self.n, k, most))
    }

    /// The name of the split of this run's plan (see [`SPLIT`]).
    pub fn split(&self) -> String {
        match &self.plan {
            Plan::Halves(plan) => plan.split(),
            _ => pieces::split_name(self.depth()),
        }
    }

    /// The rows the frames are cut at (0: whole frames, and for the half-board engine).
    pub fn depth(&self) -> usize {
        match self.plan {
            Plan::Pieces { depth, .. } => depth,
            Plan::Frames(_) | Plan::Halves(_) => 0,
        }
    }

    /// Counts only `shard` of the subproblems. With pieces, a shard counts its pieces of every
    /// frame, so each frame is part of every shard's work.
    pub fn shard(mut self, shard: Shard) -> Run {
        self.todo = if self.depth() > 0 {
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

    /// Bounds by `bytes` how many of the half-board engine's subproblems run at once, apart
    /// from the budget [`Run::with_engine`] chose the split by: `queens count` without
    /// `--max-memory` chooses the split by a fixed budget, the same on every machine, and runs
    /// as many subproblems at once as the machine's memory holds. A resumed checkpoint's split
    /// must fit one subproblem in it. No effect on the frame engine.
    pub fn memory_at_once(mut self, bytes: u64) -> Run {
        self.budget = bytes;
        self
    }

    /// The bytes one of the half-board engine's subproblems may hold by the memory model (what
    /// [`Run::workers`] divides the budget by); `None` for the frame engine.
    pub fn subproblem_bytes(&self) -> Option<u64> {
        let Plan::Halves(plan) = &self.plan else {
            return None;
        };
        Some(halves::bytes_per_thread(
            self.n,
            plan.pattern_columns.count_ones() as usize,
        ))
    }

    /// Resumes from a checkpoint read from `path`, after checking that it belongs to this run
    /// (same N and shard; the same split, except that a half-board run takes the split the
    /// checkpoint records when its subproblems fit in the budget, whatever split this machine
    /// would choose). Returns the time the checkpoint says was spent so far.
    ///
    /// Each saved part is also checked against its subproblem: a total that is not a multiple
    /// of the frame's orbit, or (for a frame no symmetry fixes) not 8 times its classes, or a
    /// pattern's total not a multiple of its weight, cannot have been counted; nor can a
    /// complete count that breaks [`check_complete`]; and the file is refused.
    pub fn resume(self, checkpoint: Checkpoint, path: &Path) -> Result<(Run, Spent), CountError> {
        let spent = Spent {
            seconds: checkpoint.seconds,
            cpu_seconds: checkpoint.cpu_seconds,
        };
        if let Plan::Halves(_) = self.plan {
            let mut run = self;
            if checkpoint.n == run.n && checkpoint.split != run.split() {
                if let Some(plan) = halves_plan_of_split(run.n, &checkpoint.split) {
                    let k = plan.pattern_columns.count_ones() as usize;
                    let need = halves::bytes_per_thread(run.n, k);
                    if need > run.budget {
                        return Err(CountError::CheckpointMemory {
                            path: path.display().to_string(),
                            split: checkpoint.split,
                            need,
                            budget: run.budget,
                        });
                    }
                    let (shard, threads, budget) = (run.shard, run.threads, run.budget);
                    run = Run::of_plan(run.n, Plan::Halves(plan), threads).shard(shard);
                    run.budget = budget;
                }
            }
            let split = run.split();
            let this = &run;
            let reason = if checkpoint.n != this.n {
                Some(format!(
                    "it is for N = {}, not N = {}",
                    checkpoint.n, this.n
                ))
            } else if checkpoint.split != split || checkpoint.subproblems != this.subproblems() {
                Some(format!(
                    "it is for the split {} of {} subproblems, not {split} of {}",
                    checkpoint.split,
                    checkpoint.subproblems,
                    this.subproblems()
                ))
            } else if checkpoint.shard != this.shard {
                Some(format!(
                    "it is for shard {}, not shard {}",
                    checkpoint.shard, this.shard
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
            run.check_halves_parts(&checkpoint, path)?;
            *run.control.tally() = checkpoint.tally;
            run.check_complete_tally(path)?;
            Ok((run, spent))
        } else {
            // A checkpoint of another frame split (whole frames, or another depth) is resumed
            // with its own split: its frames are the same, only their cut differs.
            let mut run = self;
            if let Some(depth) = pieces::depth_of_split(run.n, &checkpoint.split) {
                if depth != run.depth() && checkpoint.n == run.n {
                    let (shard, threads) = (run.shard, run.threads);
                    run = Run::frames(run.n, depth).shard(shard).threads(threads);
                }
            }
            checkpoint.check_matches(path, run.n, &run.split(), run.plan.len(), run.shard)?;
            run.check_frame_parts(&checkpoint, path)?;
            *run.control.tally() = checkpoint.tally;
            run.check_complete_tally(path)?;
            Ok((run, spent))
        }
    }

    /// Checks each saved part of a half-board checkpoint against its subproblem
    /// ([`halves::Plan::possible`]), and a complete one against [`check_complete`].
    fn check_halves_parts(&self, checkpoint: &Checkpoint, path: &Path) -> Result<(), CountError> {
        let Plan::Halves(plan) = &self.plan else {
            return Ok(());
        };
        let tally = &checkpoint.tally;
        if let Some(i) = tally
            .finished_subproblems()
            .find(|&i| !plan.possible(i, tally.parts[i]))
        {
            let part = tally.parts[i];
            return Err(CountError::CheckpointMalformed {
                path: path.display().to_string(),
                reason: format!(
                    "subproblem {i} cannot have {} solutions in {} eighths of classes \
                     ({})",
                    part.total,
                    part.unique,
                    match plan.parts[i] {
                        halves::Part::Fixed => "the fixed-point subproblem has no total and \
                                                an even sum"
                            .to_string(),
                        halves::Part::Pattern { weight, .. } => format!(
                            "a pattern's eighths equal its total, a multiple of its weight \
                             {weight}"
                        ),
                    }
                ),
            });
        }
        Ok(())
    }

    /// Refuses a complete checkpoint of the whole board whose counts no board can have
    /// ([`check_complete`]), whatever its checksum says.
    fn check_complete_tally(&self, path: &Path) -> Result<(), CountError> {
        if self.shard != Shard::WHOLE || !self.is_complete() {
            return Ok(());
        }
        let counts = self.control.tally().counts;
        let checked = if unique_in_eighths(&self.split()) {
            classes_of_eighths(self.n, counts.total, counts.unique).map(|_| ())
        } else {
            check_complete(self.n, counts)
        };
        checked.map_err(|why| CountError::CheckpointMalformed {
            path: path.display().to_string(),
            reason: format!("its complete count is impossible: {why}"),
        })
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
            let sub = &self.plan.frames()[i];
            let orbit = u128::from(sub.orbit_size());
            let possible = if self.depth() > 0 {
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
                        if self.depth() > 0 {
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
        if let Plan::Halves(plan) = &self.plan {
            return plan.recount(i, &self.control.cancel);
        }
        let sub = self.plan.frames().get(i)?;
        let depth = self.depth();
        if depth == 0 {
            return engine::solve_searched(self.n, sub, &self.control.cancel);
        }
        // The shard's pieces of the frame, each by the plain search.
        let mut sum = Counts::default();
        for (p, queens) in pieces::PieceIter::new(self.n, sub, depth) {
            if pieces::in_shard(self.shard, i, p) {
                let piece = pieces::piece_subproblem(sub, &queens);
                let c = engine::solve_piece(self.n, &piece, &self.control.cancel, true)?;
                sum = add_counts(sum, c)?;
            }
        }
        Some(sum)
    }

    /// Every subproblem of the shard recounted by [`Run::recount`] and added up, as
    /// [`Run::execute`] reports a complete run (classes in eighths for a shard of a split that
    /// counts them so); `None` when cancelled.
    pub fn recount_shard(&self) -> Option<Counts> {
        let mut sum = Counts::default();
        for &i in &self.todo {
            sum = add_counts(sum, self.recount(i)?)?;
        }
        if self.shard == Shard::WHOLE && unique_in_eighths(&self.split()) {
            sum.unique = match &self.plan {
                Plan::Halves(plan) => plan.classes(sum.unique),
                _ => sum.unique / 8,
            };
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
        self.plan.len()
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

    /// The saved state of the run, with the time `spent` so far.
    pub fn checkpoint(&self, spent: Spent) -> Checkpoint {
        Checkpoint {
            n: self.n,
            split: self.split(),
            subproblems: self.subproblems(),
            shard: self.shard,
            tally: self.control.tally().clone(),
            seconds: spent.seconds,
            cpu_seconds: spent.cpu_seconds,
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
        let (todo, control) = (&self.todo[..], &self.control);
        let whole = self.shard == Shard::WHOLE;
        match &self.plan {
            Plan::Halves(plan) => {
                halves::run(plan, todo, self.workers(), control)?;
                let mut counts = control.tally().counts;
                if whole && self.is_complete() {
                    counts.unique = plan.classes(counts.unique);
                }
                Ok(counts)
            }
            Plan::Pieces { frames, depth } => {
                let n = self.n;
                engine::run_pieces(n, frames, todo, *depth, self.shard, self.threads, control)?;
                let mut counts = control.tally().counts;
                if whole && self.is_complete() {
                    counts.unique /= 8;
                }
                Ok(counts)
            }
            Plan::Frames(frames) if self.threads == 1 => {
                engine::run_sequential(self.n, frames, todo, control);
                Ok(control.tally().counts)
            }
            Plan::Frames(frames) => {
                engine::run_parallel(self.n, frames, todo, self.threads, control)?;
                Ok(control.tally().counts)
            }
        }
    }
}

/// What a run counts, and with which engine: the value a [`Run`] holds.
#[derive(Debug)]
pub(super) enum Plan {
    /// The canonical frames, each counted whole (its last rows joined, `join.rs`).
    Frames(Vec<Subproblem>),
    /// The canonical frames, each cut into pieces by the queens of its first `depth` free
    /// rows (`pieces.rs`); classes are summed in eighths.
    Pieces {
        /// The frames.
        frames: Vec<Subproblem>,
        /// The rows each frame is cut at.
        depth: usize,
    },
    /// The upper and lower halves of the board, listed and joined (`halves/`).
    Halves(halves::Plan),
}

impl Plan {
    /// How many subproblems the whole board has.
    fn len(&self) -> usize {
        match self {
            Plan::Frames(frames) | Plan::Pieces { frames, .. } => frames.len(),
            Plan::Halves(plan) => plan.len(),
        }
    }

    /// The frames of a frame plan (none for the half-board engine).
    pub(super) fn frames(&self) -> &[Subproblem] {
        match self {
            Plan::Frames(frames) | Plan::Pieces { frames, .. } => frames,
            Plan::Halves(_) => &[],
        }
    }
}
