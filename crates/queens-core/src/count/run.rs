//! One counting run, assembled: the engine's plan of subproblems (an [`Engine`] resolved to a
//! plan, `plan.rs`), the shard of it to count, the threads, the memory budget, and the tally so
//! far (empty, or resumed from a checkpoint, whose parts it checks). It knows no engine: it
//! drives the plan's [`Counter`](super::counter::Counter), and speaks of splits, not of
//! engines, with the checkpoint and the shard.

use std::path::Path;
use std::sync::atomic::Ordering;

use super::checkpoint::{Checkpoint, Spent};
use super::control::{Control, Tally};
use super::frames::pieces;
use super::halves;
use super::invariants::{check_complete, classes_of_eighths, within_permutations};
use super::plan::{Engine, Plan};
use super::shard::Shard;
use super::split::Split;
use super::types::{add_counts, check_size, CountError, Counts};

/// The most threads a run counts on, whatever [`Run::threads`] asks: more only add stacks and
/// buffers, never speed (the binary's `--threads` takes up to as many).
pub const MAX_THREADS: usize = 1024;

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
    pub(crate) plan: Plan,
    shard: Shard,
    todo: Vec<usize>,
    /// The threads asked for (0: one per core); an engine whose subproblems take memory runs
    /// at most as many at once as fit in `budget`.
    threads: usize,
    /// The memory budget of the subproblems counted at once, in bytes.
    budget: u64,
    control: Control,
}

impl Run {
    /// A run over the whole `n` x `n` board, on every core, from nothing, with the frame
    /// engine's plan for `n` (whole frames up to [`pieces::WHOLE_FRAMES_UP_TO`], pieces of
    /// [`pieces::depth_for`] rows above).
    pub fn new(n: usize) -> Result<Run, CountError> {
        check_size(n)?;
        Ok(Run::of_plan(n, Plan::frames(n, pieces::depth_for(n)), 0))
    }

    /// [`Run::new`] with the frames cut at `depth` rows (0: whole frames), whatever the board:
    /// for tests, experiments, and resuming a checkpoint of another depth. A depth past the
    /// frames' free rows cuts them at their last row.
    pub fn with_depth(n: usize, depth: usize) -> Result<Run, CountError> {
        check_size(n)?;
        Ok(Run::of_plan(n, Plan::frames(n, depth), 0))
    }

    /// [`Run::with_depth`] counted by `engine`: on every visible GPU for [`Engine::Gpu`]
    /// (refused with what is missing), else by the frame engine, the only other engine that
    /// cuts frames.
    pub fn with_depth_on(n: usize, depth: usize, engine: Engine) -> Result<Run, CountError> {
        check_size(n)?;
        Ok(Run::of_plan(n, Plan::frames_on(n, depth, engine)?, 0))
    }

    /// The device that counts, in words, when the run counts on a GPU.
    pub fn device(&self) -> Option<String> {
        self.plan.device()
    }

    /// A run of the whole board by `plan`, from nothing.
    fn of_plan(n: usize, plan: Plan, threads: usize) -> Run {
        let len = plan.counter().len();
        let todo = plan.counter().split().select(Shard::WHOLE, len);
        Run {
            n,
            plan,
            shard: Shard::WHOLE,
            todo,
            threads,
            budget: u64::MAX,
            control: Control::new(Tally::new(len)),
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
        let mut run = Run::of_plan(n, Plan::for_engine(n, engine, max_memory)?, threads);
        run.budget = max_memory;
        Ok(run)
    }

    /// A run of `shard` of the `n` x `n` board by the split named `split` (as a checkpoint or
    /// a shard result names it, see [`Split`]), whatever the memory; `None` for a split this
    /// binary does not make of `n`.
    pub fn of_split(n: usize, split: &str, shard: Shard) -> Option<Run> {
        Run::by_split(n, split.parse().ok()?, shard)
    }

    /// [`Run::of_split`] of a [`Split`] already read.
    pub fn by_split(n: usize, split: Split, shard: Shard) -> Option<Run> {
        check_size(n).ok()?;
        let plan = Plan::of_split(n, split)?;
        Some(Run::of_plan(n, plan, 0).shard(shard))
    }

    /// The threads the run may use: those asked for (0: one per core), at most [`MAX_THREADS`],
    /// and at most as many as fit in the budget at once by the engine's memory model
    /// ([`Run::worker_bytes`]), at least one. On the GPU, whose host threads the model does not
    /// cover, 0 stays 0 (one per core). [`Run::execute`] starts no more of them than the shard
    /// has subproblems to share out.
    pub fn workers(&self) -> usize {
        let Some(bytes) = self.worker_bytes() else {
            return self.threads.min(MAX_THREADS);
        };
        let fit = (self.budget / bytes.max(1)).clamp(1, usize::MAX as u64) as usize;
        self.asked().min(fit)
    }

    /// The threads [`Run::execute`] starts: the [`Run::workers`], but no more than the shard
    /// has subproblems to share out (with pieces, as many as its frames can have pieces).
    fn started(&self) -> usize {
        self.workers().min(self.shareable().max(1))
    }

    /// The threads asked for, 0 read as one per core, at most [`MAX_THREADS`].
    fn asked(&self) -> usize {
        let asked = if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |p| p.get())
        } else {
            self.threads
        };
        asked.min(MAX_THREADS)
    }

    /// How many pieces of work the run's threads can share at most: the shard's subproblems,
    /// or with frames cut into pieces of `depth` rows, at most `n^depth` pieces of each.
    fn shareable(&self) -> usize {
        let depth = u32::try_from(self.depth()).unwrap_or(u32::MAX);
        let pieces = self.n.checked_pow(depth).unwrap_or(usize::MAX);
        self.todo.len().saturating_mul(pieces)
    }

    /// The engine this run uses.
    pub fn engine(&self) -> Engine {
        self.plan.engine()
    }

    /// Forecasts this run's shard with the half-board engine (see [`halves::forecast`]):
    /// `None` when the run uses another engine (the frame engine's estimate is
    /// [`super::estimate()`]). Draws subproblems on the run's threads as `sampling` says (its
    /// budget, its bound, its thread clock); a thread that cannot start or a draw without
    /// memory is an error.
    pub fn forecast_halves(
        &self,
        sampling: &super::Sampling,
    ) -> Option<Result<halves::Forecast, CountError>> {
        let plan = self.plan.halves()?;
        Some(halves::forecast(plan, &self.todo, self.asked(), sampling))
    }

    /// The name of the split of this run's plan (see [`Split`]).
    pub fn split(&self) -> String {
        self.plan.counter().split().to_string()
    }

    /// Whether this run's `unique` is in eighths of classes rather than classes: a shard of
    /// several of a split that sums classes in eighths ([`Split::unique_in_eighths`]), whose
    /// classes are whole only once every shard is added (`queens merge` divides by 8).
    pub fn unique_in_eighths(&self) -> bool {
        self.shard.count() > 1 && self.plan.counter().split().unique_in_eighths()
    }

    /// The rows the frames are cut at (0: whole frames, and for the half-board engine).
    pub fn depth(&self) -> usize {
        self.plan.counter().split().depth()
    }

    /// Counts only `shard` of the subproblems. With pieces, a shard counts its pieces of every
    /// frame, so each frame is part of every shard's work ([`Split::select`]).
    pub fn shard(mut self, shard: Shard) -> Run {
        self.todo = (self.plan.counter().split()).select(shard, self.subproblems());
        self.shard = shard;
        self
    }

    /// Runs on `threads` threads: 1 on the calling thread, 0 one per core. A run never starts
    /// more than [`MAX_THREADS`] ([`Run::workers`]), nor more than it has subproblems to share
    /// out ([`Run::execute`]).
    pub fn threads(mut self, threads: usize) -> Run {
        self.threads = threads;
        self
    }

    /// Bounds by `bytes` how many of the run's subproblems are counted at once (its workers,
    /// [`Run::workers`]), apart from the budget [`Run::with_engine`] chose the half-board
    /// split by: `queens count` without `--max-memory` chooses the split by a fixed budget, the
    /// same on every machine, and runs as many subproblems at once as the machine's memory
    /// holds. A resumed checkpoint's half-board split must fit one subproblem in it.
    pub fn memory_at_once(mut self, bytes: u64) -> Run {
        self.budget = bytes;
        self
    }

    /// The bytes one of the half-board engine's subproblems may hold by the memory model, which
    /// a resumed split must fit in the budget; `None` for the frame engine.
    pub fn subproblem_bytes(&self) -> Option<u64> {
        self.plan.counter().subproblem_bytes()
    }

    /// The bytes one worker thread may hold by the engine's memory model (what
    /// [`Run::workers`] divides the budget by): a half-board subproblem's, or a frame engine
    /// thread's stack and buffers (`frames::join::thread_bytes`); `None` on the GPU.
    pub fn worker_bytes(&self) -> Option<u64> {
        self.plan.counter().worker_bytes()
    }

    /// Resumes from a checkpoint read from `path`, after checking that it belongs to this run:
    /// same N and shard, and the same split, except that a run takes the split the checkpoint
    /// records when its engine counts that split too (the frame engine any frame split, the
    /// half-board engine any of its own when its subproblems fit in the budget, whatever split
    /// this machine would choose). Returns the time the checkpoint says was spent so far.
    ///
    /// Each saved part is also checked against its subproblem by the engine (a total that is
    /// not a multiple of the frame's orbit, or for a frame no symmetry fixes not 8 times its
    /// classes, or a pattern's total not a multiple of its weight, cannot have been counted);
    /// so is the saved total, against N! (of any shard, complete or not), and a complete
    /// count, against [`check_complete`]; and the file is refused.
    pub fn resume(self, checkpoint: Checkpoint, path: &Path) -> Result<(Run, Spent), CountError> {
        let spent = Spent {
            seconds: checkpoint.seconds,
            cpu_seconds: checkpoint.cpu_seconds,
        };
        let mut run = self;
        let saved = checkpoint.split.parse::<Split>().ok();
        let other = saved.filter(|&s| checkpoint.n == run.n && s != run.plan.counter().split());
        if let Some(plan) = other.and_then(|saved| run.plan.resuming(run.n, saved)) {
            if let Some(need) = plan.counter().subproblem_bytes() {
                if need > run.budget {
                    return Err(CountError::CheckpointMemory {
                        path: path.display().to_string(),
                        split: checkpoint.split,
                        need,
                        budget: run.budget,
                    });
                }
            }
            let (shard, threads, budget) = (run.shard, run.threads, run.budget);
            run = Run::of_plan(run.n, plan, threads).shard(shard);
            run.budget = budget;
        }
        checkpoint.check_matches(path, run.n, &run.split(), run.subproblems(), run.shard)?;
        if let Some(reason) = run.plan.counter().impossible(&checkpoint.tally, run.shard) {
            return Err(CountError::CheckpointMalformed {
                path: path.display().to_string(),
                reason,
            });
        }
        // Saved parts of any shard, complete or not, add up to no more than the board's N!.
        within_permutations(run.n, checkpoint.tally.counts.total).map_err(|why| {
            CountError::CheckpointMalformed {
                path: path.display().to_string(),
                reason: format!("its saved count is impossible: {why}"),
            }
        })?;
        *run.control.tally() = checkpoint.tally;
        run.check_complete_tally(path)?;
        Ok((run, spent))
    }

    /// Refuses a complete checkpoint of the whole board whose counts no board can have
    /// ([`check_complete`]), whatever its checksum says.
    fn check_complete_tally(&self, path: &Path) -> Result<(), CountError> {
        if self.shard != Shard::WHOLE || !self.is_complete() {
            return Ok(());
        }
        let counts = self.control.tally().counts;
        let checked = if self.plan.counter().split().unique_in_eighths() {
            classes_of_eighths(self.n, counts.total, counts.unique).map(|_| ())
        } else {
            check_complete(self.n, counts)
        };
        checked.map_err(|why| CountError::CheckpointMalformed {
            path: path.display().to_string(),
            reason: format!("its complete count is impossible: {why}"),
        })
    }

    /// Recounts subproblem `i` of the plan by an independent search (the plain search of the
    /// frame or of the pattern's board, never the join nor the listing), whatever counted it;
    /// with pieces, the run's shard of its pieces. `None` when `i` is past the plan or the run
    /// was cancelled.
    pub fn recount(&self, i: usize) -> Option<Counts> {
        (self.plan.counter()).recount(i, self.shard, &self.control.cancel)
    }

    /// Every subproblem of the shard recounted by [`Run::recount`] and added up, as
    /// [`Run::execute`] reports a complete run (classes in eighths for a shard of a split that
    /// counts them so); `None` when cancelled.
    pub fn recount_shard(&self) -> Option<Counts> {
        let mut sum = Counts::default();
        for &i in &self.todo {
            sum = add_counts(sum, self.recount(i)?)?;
        }
        if self.shard == Shard::WHOLE {
            sum.unique = self.plan.counter().classes(sum.unique);
        }
        Some(sum)
    }

    /// [`Run::recount_shard`] on `threads` threads (0: one per core; at most [`MAX_THREADS`]
    /// and one per subproblem), the shard's subproblems recounted at once; the same counts.
    /// `Ok(None)` when cancelled; an error when the threads cannot start.
    pub fn recount_shard_parallel(&self, threads: usize) -> Result<Option<Counts>, CountError> {
        use rayon::prelude::*;
        let threads = threads.min(MAX_THREADS).min(self.todo.len().max(1));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| CountError::Threads(e.to_string()))?;
        let sum = pool.install(|| {
            self.todo
                .par_iter()
                .map(|&i| self.recount(i))
                .try_reduce(Counts::default, add_counts)
        });
        Ok(sum.map(|mut sum| {
            if self.shard == Shard::WHOLE {
                sum.unique = self.plan.counter().classes(sum.unique);
            }
            sum
        }))
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
        self.plan.counter().len()
    }

    /// The subproblems of the shard not yet counted, in the run's order.
    pub(crate) fn left(&self) -> Vec<usize> {
        let tally = self.control.tally();
        (self.todo.iter().copied())
            .filter(|&i| !tally.is_done(i))
            .collect()
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

    /// The counts of a run with nothing left to count (resumed from a finished checkpoint), as
    /// [`Run::execute`] returns them, without starting its engine (no thread, no buffer);
    /// `None` while work is left.
    pub fn finished_counts(&self) -> Option<Counts> {
        if !self.is_complete() {
            return None;
        }
        let mut counts = self.control.tally().counts;
        if self.shard == Shard::WHOLE {
            counts.unique = self.plan.counter().classes(counts.unique);
        }
        Some(counts)
    }

    /// Counts every subproblem of the shard not yet counted (until cancelled), then returns the
    /// counts so far: complete when [`Run::is_complete`] holds. It counts on the
    /// [`Run::workers`], no more of them than the shard has subproblems (with pieces, than its
    /// frames can have pieces).
    ///
    /// With the half-board engine the classes come from Burnside's lemma over the whole board,
    /// and with pieces they are summed in eighths (see `pieces`), so `unique` is exact only for
    /// a complete run of the whole board; the `unique` of a shard (or of an incomplete run) is
    /// then in *eighths* of classes, which `queens merge` adds up and divides by 8.
    pub fn execute(&self) -> Result<Counts, CountError> {
        let counter = self.plan.counter();
        counter.count(&self.todo, self.shard, self.started(), &self.control)?;
        let mut counts = self.control.tally().counts;
        if self.shard == Shard::WHOLE && self.is_complete() {
            counts.unique = counter.classes(counts.unique);
        }
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_never_starts_more_threads_than_it_has_work_for_nor_than_the_ceiling() {
        // The 4x4 board has a handful of frames: a thousand threads, or usize::MAX, would
        // wait for nothing (usize::MAX never returned).
        for asked in [1000, usize::MAX] {
            let run = Run::new(4).unwrap().threads(asked);
            assert!(run.workers() <= MAX_THREADS, "{asked}");
            assert!(run.started() <= run.todo().max(1), "{asked}");
            assert_eq!(run.execute().unwrap().total, 2, "{asked}");
        }
        // Frames cut into pieces share out more work than they have frames, up to the ceiling.
        let pieces = Run::with_depth(12, 3).unwrap();
        assert!(pieces.todo() < MAX_THREADS);
        let pieces = pieces.threads(usize::MAX);
        assert_eq!(
            (pieces.workers(), pieces.started()),
            (MAX_THREADS, MAX_THREADS)
        );
        let recount = Run::new(5).unwrap();
        assert_eq!(
            recount.recount_shard_parallel(usize::MAX).unwrap(),
            recount.recount_shard()
        );
    }

    #[test]
    fn sane_thread_counts_are_used_as_asked() {
        let run = Run::new(12).unwrap();
        assert!(run.todo() >= 8);
        for threads in [1, 2, 3, 8] {
            let run = Run::new(12).unwrap().threads(threads);
            assert_eq!((run.workers(), run.started()), (threads, threads));
        }
        // A board with fewer subproblems than threads still reports the threads it may use.
        let small = Run::new(4).unwrap().threads(8);
        assert_eq!(small.workers(), 8);
    }
}
