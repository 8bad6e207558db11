//! The GPU engine: a CPU engine's subproblems counted by thousands of threads of a GPU, by
//! one of two splits ([`asked_split`]): the frame engine's, in this file, or the half-board
//! engine's, whose patterns are counted group by group on the device ([`halves`], [`groups`]).
//!
//! The frame split: the frame engine's subproblems (canonical frames, or their pieces on large
//! boards; see `frame` and `pieces`) are cut further on the host into partial placements of
//! their first free rows (`tasks`), and one GPU thread searches each to the last row with
//! the CPU kernel's bitmask loop, its stack in shared memory (`kernel.cu`). The frames that a
//! symmetry fixes need each solution checked against those symmetries to count classes; they
//! are a small share of the work and are counted meanwhile by the CPU engine on the host's
//! threads. Each subproblem's contribution is exactly the one the frame engine records, so a
//! checkpoint or a shard belongs to the split, not to the engine: shards counted here and on
//! CPUs merge, and a run saved by one engine resumes on the other.
//!
//! Work goes to the device in launches sized to take about a quarter of a second, so that a
//! raised cancel flag (Ctrl-C, SIGTERM, a checkpoint's signal) is seen within well under two
//! seconds; a subproblem is recorded once all its tasks are counted, so a cancelled run stays
//! exact. The device itself sits behind [`Kernel`]: the CUDA driver in `cuda.rs` (feature
//! `cuda`, loaded at run time), or [`CpuTwin`], the same loop on the CPU, for tests and for
//! machines without a GPU. Source: the decomposition of backtracking into GPU threads by
//! pre-placed rows is the usual one (for example Feinbube et al., "Evaluating the N-Queens
//! problem on GPUs", 2010; T. Zhang et al., arXiv 2511.12009, whose counter also keeps its
//! stack in shared memory). Cost: the searches, as for the frame engine; host memory is one
//! launch of tasks (20 bytes each: a subproblem's tasks are listed as the launches take them,
//! not all at once, which at N = 26 was gigabytes) and the plan.

pub(crate) mod error;
pub mod groups;
pub mod halves;
pub mod join;
mod plan;
mod tasks;

#[cfg(feature = "cuda")]
pub mod cuda;
#[cfg(feature = "cuda")]
pub mod nvrtc;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::control::Control;
use super::frames::engine;
use super::frames::frame::Subproblem;
use super::frames::pieces::{self, FramePieces, PieceIter};
use super::shard::Shard;
use super::types::{CountError, Counts};

pub use error::GpuError;
pub use groups::GroupTask;
pub use join::Launched;
pub use plan::{asked_split, open, GpuSplit, Plan, DEVICE_VAR, SPLIT_VAR};
pub(crate) use tasks::{Frame, Walk};
pub use tasks::{FrameRows, Task, MAX_LEFT};

/// The source of the kernel, compiled by NVRTC for the device at run time, and by the host
/// compiler for the tests of `crates/queens-kernel-host`.
pub const KERNEL_SOURCE: &str = include_str!("kernel.cu");

/// The name of the kernel's entry point in [`KERNEL_SOURCE`].
pub const KERNEL_NAME: &str = "queens_count_tasks";

/// Threads per block of a launch (`QUEENS_BLOCK` in [`KERNEL_SOURCE`]).
pub const BLOCK: u32 = 128;

/// A device that counts the completions of tasks: what the GPU engine needs of a GPU.
pub trait Kernel: Send + Sync {
    /// Counts the completions of each of `tasks` into `out` (as long as `tasks`), each task
    /// referring to a frame of `frames` by its index; blocks until done.
    fn count(&self, frames: &[FrameRows], tasks: &[Task], out: &mut [u64]) -> Result<(), GpuError>;

    /// The most tasks one call may take (the device's memory; the host's is the caller's);
    /// also the most groups a launch of the half-board split aims at.
    fn max_tasks(&self) -> usize;

    /// Counts, for each group of `groups` of the `n` x `n` board, the pairs of its upper and
    /// lower halves whose diagonals do not meet into `out` (as long as `groups`), or
    /// [`groups::OVERFLOW`] where a side has more than `room` halves; blocks until done.
    fn count_groups(&self, n: usize, groups: &[GroupTask], room: u32, out: &mut [u64]) -> Launched;

    /// The halves a side of a group may have in a first groups launch of the `n` x `n` board
    /// (the `room` of [`Kernel::count_groups`]): as many as the device's memory gives each of
    /// its blocks.
    fn group_capacity(&self, n: usize) -> u32;

    /// The device, in words ("NVIDIA H200, 139.8 GiB", "the CPU twin").
    fn describe(&self) -> String;
}

/// The kernel's loop run on the CPU, one task after another: a [`Kernel`] for tests, and the
/// reference a device's counts are checked against.
#[derive(Debug, Default, Clone, Copy)]
pub struct CpuTwin;

impl Kernel for CpuTwin {
    fn count(&self, frames: &[FrameRows], tasks: &[Task], out: &mut [u64]) -> Result<(), GpuError> {
        for (t, o) in tasks.iter().zip(out.iter_mut()) {
            let frame = Frame {
                rows: frames[t.frame as usize],
                root: Task::default(),
            };
            *o = frame.count(*t);
        }
        Ok(())
    }

    fn max_tasks(&self) -> usize {
        1 << 16
    }

    fn count_groups(&self, n: usize, groups: &[GroupTask], room: u32, out: &mut [u64]) -> Launched {
        groups::twin(n, groups, room, out);
        Ok(())
    }

    fn group_capacity(&self, _n: usize) -> u32 {
        u32::MAX
    }

    fn describe(&self) -> String {
        "the CPU twin of the GPU kernel".to_string()
    }
}

/// The text of environment variable `name`, `None` when unset. A value that is not UTF-8 is
/// kept, its bad bytes made U+FFFD, so that it is refused as unknown rather than taken for
/// unset.
pub(crate) fn env_text(name: &str) -> Option<String> {
    std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
}

/// How many free rows each task leaves to its GPU thread on the `n` x `n` board: enough that a
/// thread's search costs far more than its launch share, few enough that a launch has many
/// thousands of tasks.
pub fn rows_per_thread(n: usize) -> u32 {
    (n as u32).saturating_sub(8).clamp(4, 14)
}

/// The first launch's size, before launches are timed.
const FIRST_LAUNCH: usize = 1 << 16;

/// The time one launch aims at: short enough that a cancel is seen within two seconds even when
/// a launch takes four times longer than the last one predicts.
const LAUNCH_TARGET: Duration = Duration::from_millis(250);

/// The frame split a GPU run counts: the frames of the `n` x `n` board, whole when `depth` is
/// 0, else cut into pieces at `depth` rows of which the run counts those of `shard`.
#[derive(Debug, Clone, Copy)]
pub struct FramePlan<'a> {
    /// The board size.
    pub n: usize,
    /// The frames (see [`super::subproblems`]).
    pub frames: &'a [Subproblem],
    /// The rows the frames are cut at (0: whole frames).
    pub depth: usize,
    /// The shard whose pieces are counted (with pieces; whole frames are chosen by `todo`).
    pub shard: Shard,
}

/// The tally of every frame of the `n` x `n` board (pieces of `depth` rows, those of `shard`)
/// counted on `kernel` on the calling thread: the whole pipeline in one call, for the checks of
/// a device against the CPU engines.
pub fn tally_on(
    kernel: &dyn Kernel,
    n: usize,
    depth: usize,
    shard: Shard,
) -> Result<super::Tally, CountError> {
    let control = Control::new(super::Tally::new(
        super::frames::frame::subproblems(n).len(),
    ));
    run_whole(kernel, n, (depth, shard), &control)?;
    let tally = control.tally().clone();
    Ok(tally)
}

/// [`run`] over every frame of the `n` x `n` board (pieces of `depth` rows, those of `shard`)
/// on the calling thread, recording into `control` (whose tally may hold a run to resume).
pub fn run_whole(
    kernel: &dyn Kernel,
    n: usize,
    (depth, shard): (usize, Shard),
    control: &Control,
) -> Result<(), CountError> {
    let frames = super::frames::frame::subproblems(n);
    let todo: Vec<usize> = (0..frames.len()).collect();
    let plan = FramePlan {
        n,
        frames: &frames,
        depth,
        shard,
    };
    run(kernel, plan, &todo, 1, control)
}

/// Counts the subproblems `todo` of `plan` not yet done in `control`'s tally: those no
/// symmetry fixes on `kernel`, the others by the CPU engine on `threads` threads (0: one per
/// core) meanwhile. Each subproblem is recorded in `control` as the frame engine records it.
pub fn run(
    kernel: &dyn Kernel,
    plan: FramePlan<'_>,
    todo: &[usize],
    threads: usize,
    control: &Control,
) -> Result<(), CountError> {
    let FramePlan {
        n,
        frames,
        depth,
        shard,
    } = plan;
    let left: Vec<usize> = {
        let tally = control.tally();
        todo.iter()
            .copied()
            .filter(|&i| !tally.is_done(i))
            .collect()
    };
    let (fixed, plain): (Vec<usize>, Vec<usize>) = left
        .into_iter()
        .partition(|&i| !frames[i].fixed_by.is_empty());
    alongside(
        control,
        || {
            if fixed.is_empty() {
                Ok(())
            } else if depth > 0 {
                engine::run_pieces(n, frames, &fixed, depth, shard, threads, control)
            } else if threads == 1 {
                engine::run_sequential(n, frames, &fixed, control);
                Ok(())
            } else {
                engine::run_parallel(n, frames, &fixed, threads, control)
            }
        },
        || Launches::new(kernel, plan, control).run(&plain),
    )
}

/// Runs `host` (the subproblems the CPU counts) on a thread of its own while `device` runs on
/// the calling thread; an error of the device cancels the run, so the host stops too. The
/// device's error first, else the host's.
pub(crate) fn alongside(
    control: &Control,
    host: impl FnOnce() -> Result<(), CountError> + Send,
    device: impl FnOnce() -> Result<(), CountError>,
) -> Result<(), CountError> {
    std::thread::scope(|scope| {
        let cpu = scope.spawn(host);
        let gpu = device();
        if gpu.is_err() {
            control.cancel.store(true, Ordering::SeqCst);
        }
        let cpu = cpu
            .join()
            .unwrap_or_else(|_| Err(CountError::Threads("a CPU worker stopped".to_string())));
        gpu.and(cpu)
    })
}

/// One subproblem whose tasks are being counted.
struct Open {
    /// Its number in the plan.
    index: usize,
    /// Its rows, as the kernel reads them.
    rows: FrameRows,
    /// Its tasks listed and not yet counted.
    waiting: u64,
    /// Where the listing of its tasks stands; `None` once all are listed.
    lister: Option<Lister>,
    /// The completions counted so far.
    found: u64,
}

/// Where the listing of a subproblem's tasks stands: a subproblem of a large board has
/// hundreds of millions of tasks (N = 26: gigabytes), so they are listed as the launches take
/// them, never more than a launch ahead.
struct Lister {
    frame: Frame,
    /// Its number in the tasks' `frame` fields.
    number: u32,
    /// The expansion under way.
    walk: Walk,
    /// With pieces: the pieces not yet begun, and those a checkpoint had counted.
    pieces: Option<(PieceIter, Option<FramePieces>)>,
}

/// The launches of one run: subproblems listed into tasks, in order, and counted in launches.
struct Launches<'a> {
    kernel: &'a dyn Kernel,
    n: usize,
    plan: &'a [Subproblem],
    depth: usize,
    shard: Shard,
    control: &'a Control,
    /// The free rows each task leaves to its thread ([`rows_per_thread`]).
    keep: u32,
    /// The subproblems with tasks listed and not all counted, oldest first; `base` is the
    /// number (in tasks' `frame` fields) of the first of them.
    open: std::collections::VecDeque<Open>,
    base: u32,
    /// Tasks listed and not yet counted, in order.
    tasks: Vec<Task>,
    /// The size of the next launch.
    launch: usize,
}

impl<'a> Launches<'a> {
    fn new(kernel: &'a dyn Kernel, plan: FramePlan<'a>, control: &'a Control) -> Launches<'a> {
        Launches {
            kernel,
            n: plan.n,
            plan: plan.frames,
            depth: plan.depth,
            shard: plan.shard,
            control,
            keep: rows_per_thread(plan.n),
            open: std::collections::VecDeque::new(),
            base: 0,
            tasks: Vec::new(),
            launch: FIRST_LAUNCH.min(kernel.max_tasks()).max(1),
        }
    }

    fn run(mut self, todo: &[usize]) -> Result<(), CountError> {
        let mut next = todo.iter().copied();
        loop {
            if self.control.cancelled() {
                return Ok(());
            }
            // Tasks for the next launch: the newest subproblem's listing goes on, then the
            // next subproblems are opened, until the launch is full or none is left.
            while self.tasks.len() < self.launch {
                if self.open.back().is_some_and(|o| o.lister.is_some()) {
                    self.list_more();
                } else if let Some(i) = next.next() {
                    self.open_subproblem(i);
                } else {
                    break;
                }
            }
            self.finish_counted();
            if self.tasks.is_empty() {
                // Nothing listed is left and nothing is left to list: every subproblem is
                // recorded.
                return Ok(());
            }
            self.count_launch()?;
        }
    }

    /// Opens subproblem `i`: its tasks are listed by [`Launches::list_more`] (its pieces of
    /// the shard not yet counted, with pieces).
    fn open_subproblem(&mut self, i: usize) {
        let sub = &self.plan[i];
        let frame = Frame::new(self.n, &sub.oriented);
        let number = self.base + self.open.len() as u32;
        let (walk, pieces) = if self.depth == 0 {
            (frame.walk(frame.root, number, self.keep), None)
        } else {
            let before = self.control.tally().pieces.get(&i).cloned();
            // The first piece begins the listing.
            let pieces = PieceIter::new(self.n, sub, self.depth);
            (Walk::empty(), Some((pieces, before)))
        };
        self.open.push_back(Open {
            index: i,
            rows: frame.rows,
            waiting: 0,
            lister: Some(Lister {
                frame,
                number,
                walk,
                pieces,
            }),
            found: 0,
        });
    }

    /// Lists tasks of the newest open subproblem until the next launch is full or all of its
    /// tasks are listed.
    fn list_more(&mut self) {
        let Some(open) = self.open.back_mut() else {
            return;
        };
        let Some(lister) = open.lister.as_mut() else {
            return;
        };
        let i = open.index;
        while self.tasks.len() < self.launch {
            if !lister.walk.done() {
                let room = self.launch - self.tasks.len();
                open.waiting += lister.frame.fill(&mut lister.walk, room, &mut self.tasks) as u64;
                continue;
            }
            let start = lister.pieces.as_mut().and_then(|(iter, before)| {
                iter.find_map(|(p, queens)| {
                    let fresh = pieces::in_shard(self.shard, i, p)
                        && !before.as_ref().is_some_and(|b| b.is_counted(p));
                    fresh.then(|| lister.frame.after(&queens)).flatten()
                })
            });
            match start {
                Some(start) => lister.walk = lister.frame.walk(start, lister.number, self.keep),
                None => {
                    open.lister = None;
                    return;
                }
            }
        }
    }

    /// Counts the next launch of tasks and adds each to its subproblem.
    fn count_launch(&mut self) -> Result<(), CountError> {
        let take = self.launch.min(self.tasks.len());
        let first = self.tasks[0].frame;
        let last = self.tasks[take - 1].frame;
        let frames: Vec<FrameRows> = (first..=last)
            .map(|f| self.open[(f - self.base) as usize].rows)
            .collect();
        let launch: Vec<Task> = self.tasks[..take]
            .iter()
            .map(|t| Task {
                frame: t.frame - first,
                ..*t
            })
            .collect();
        let mut out = vec![0u64; take];
        let start = Instant::now();
        self.kernel
            .count(&frames, &launch, &mut out)
            .map_err(CountError::Gpu)?;
        let took = start.elapsed();
        for (t, found) in self.tasks[..take].iter().zip(&out) {
            let open = &mut self.open[(t.frame - self.base) as usize];
            open.found += found;
            open.waiting -= 1;
        }
        self.tasks.drain(..take);
        // The next launch aims at LAUNCH_TARGET, growing at most fourfold at a time.
        let per_task = took.as_secs_f64() / take as f64;
        let aim = if per_task > 0.0 {
            (LAUNCH_TARGET.as_secs_f64() / per_task) as usize
        } else {
            take * 4
        };
        self.launch = aim
            .clamp(1, take.saturating_mul(4).max(FIRST_LAUNCH))
            .min(self.kernel.max_tasks())
            .max(1);
        Ok(())
    }

    /// Records, oldest first, every subproblem whose tasks are all counted.
    fn finish_counted(&mut self) {
        while let Some(front) = self.open.front() {
            if !(front.lister.is_none() && front.waiting == 0) {
                break;
            }
            let done = self.open.pop_front().expect("the front exists");
            self.base += 1;
            self.record(done.index, done.found);
        }
    }

    /// Records subproblem `i` with `found` completions (of its shard's pieces not counted
    /// before, with pieces), as the frame engine would.
    fn record(&self, i: usize, found: u64) {
        let sub = &self.plan[i];
        let orbit = u128::from(sub.orbit_size());
        let total = u128::from(found) * orbit;
        let mut tally = self.control.tally();
        let counts = if self.depth == 0 {
            Counts {
                total,
                unique: u128::from(found),
            }
        } else {
            // Pieces count classes in eighths: the orbit times the completions, for a frame no
            // symmetry fixes; added to the pieces a checkpoint had counted.
            let before = tally
                .pieces
                .remove(&i)
                .map(|p| p.counts)
                .unwrap_or_default();
            Counts {
                total: total + before.total,
                unique: total + before.unique,
            }
        };
        tally.record(i, counts);
    }
}

#[cfg(test)]
mod tests;
