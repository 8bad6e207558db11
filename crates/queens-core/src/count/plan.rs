//! What a run counts, and with which engine: the one place that maps an engine to its code.
//! [`Engine`] is the choice a caller makes, [`Plan`] the value a [`Run`](super::Run) holds, one
//! variant per engine, and each variant's plan is a [`Counter`] in the engine's own folder
//! (`frames/`, `halves/`), which the run drives without knowing which engine it is. Adding an
//! engine is a variant of each enum and its arms in this file. Here too: which boards each
//! engine splits a given way ([`Split::fits`], [`Split::subproblems`]). It calls the engines'
//! plans.

use super::counter::Counter;
use super::frames;
use super::gpu;
use super::halves;
use super::shard::Shard;
use super::split::Split;
use super::types::{check_size, CountError, Counts};
use crate::error::SizeError;

/// Which counting engine a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Canonical frames, each searched with its last rows joined (`frames/`).
    Frame,
    /// The upper and lower halves of the board listed and joined (`halves/`).
    Halves,
    /// A CPU engine's subproblems counted on every visible NVIDIA GPU (`gpu/`): the split
    /// [`Engine::Auto`] takes (or the one `QUEENS_GPU_SPLIT` names, see [`Engine::on_cpu`]), so
    /// their checkpoints and shard results mix with that CPU engine's.
    Gpu,
    /// The faster CPU engine for the board size: halves from [`HALVES_FROM`] to
    /// [`halves::MAX_N`] (when a split fits in the memory budget), frames otherwise. It never
    /// takes the GPU: that engine is chosen by name.
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

impl Engine {
    /// The CPU engine whose split this engine counts a board by: itself for a CPU engine; for
    /// the GPU, the engine of the split [`gpu::asked_split`] names, else `Auto` (the GPU counts
    /// the split `auto` takes on the CPU). Its forecast is the GPU's (`--estimate`). Refuses a
    /// `QUEENS_GPU_SPLIT` it does not know.
    pub fn on_cpu(self) -> Result<Engine, CountError> {
        Ok(match self {
            Engine::Gpu => match gpu::asked_split()? {
                Some(gpu::GpuSplit::Halves) => Engine::Halves,
                Some(gpu::GpuSplit::Frames) => Engine::Frame,
                None => Engine::Auto,
            },
            other => other,
        })
    }
}

/// What a run counts, and with which engine: one engine's plan of the board.
#[derive(Debug)]
pub(crate) enum Plan {
    /// The canonical frames, whole or cut into pieces (`frames/`).
    Frames(frames::Plan),
    /// The upper and lower halves of the board, listed and joined (`halves/`).
    Halves(halves::Plan),
    /// The frames or the half-board split counted on a GPU (`gpu/`).
    Gpu(gpu::Plan),
}

impl Plan {
    /// The plan of the frame engine for the `n` x `n` board (checked by the caller): whole
    /// frames up to [`frames::pieces::WHOLE_FRAMES_UP_TO`], pieces of
    /// [`frames::pieces::depth_for`] rows above.
    pub(crate) fn frames(n: usize, depth: usize) -> Plan {
        Plan::Frames(frames::Plan::new(n, depth))
    }

    /// The frames of the `n` x `n` board cut at `depth` rows, counted by `engine`: on the GPU
    /// for [`Engine::Gpu`] (opened here, refused with what is missing), else by the frame
    /// engine, the only other engine that cuts frames.
    pub(crate) fn frames_on(n: usize, depth: usize, engine: Engine) -> Result<Plan, CountError> {
        let plan = frames::Plan::new(n, depth);
        Ok(match engine {
            Engine::Gpu => Plan::Gpu(gpu::Plan::open(plan)?),
            _ => Plan::Frames(plan),
        })
    }

    /// The plan of `engine` ([`Engine::Auto`]: the faster one for `n`) for the `n` x `n` board
    /// (checked by the caller) within `budget` bytes. The half-board engine's split depends on
    /// `n` and `budget` only ([`halves::Plan::fitting`]); it refuses with
    /// [`CountError::MemoryBudget`] when no split fits, and `Auto` then takes the frame engine,
    /// whose memory is small whatever N.
    pub(crate) fn for_engine(n: usize, engine: Engine, budget: u64) -> Result<Plan, CountError> {
        let frames = || Plan::frames(n, frames::pieces::depth_for(n));
        match engine.resolve(n) {
            Engine::Halves if n > halves::MAX_N => Err(CountError::Size(
                SizeError::check(n, "the half-board engine", halves::MAX_N).unwrap_err(),
            )),
            Engine::Halves => match halves::Plan::fitting(n, budget) {
                Ok(plan) => Ok(Plan::Halves(plan)),
                Err(CountError::MemoryBudget { .. }) if engine == Engine::Auto => Ok(frames()),
                Err(err) => Err(err),
            },
            // The split of the CPU engine `on_cpu` names, on the device.
            Engine::Gpu => match Plan::for_engine(n, engine.on_cpu()?, budget)? {
                Plan::Halves(plan) => Ok(Plan::Gpu(gpu::Plan::open_halves(plan)?)),
                _ => Plan::frames_on(n, frames::pieces::depth_for(n), Engine::Gpu),
            },
            Engine::Frame | Engine::Auto => Ok(frames()),
        }
    }

    /// The plan of `split` of the `n` x `n` board, when an engine of this binary makes it:
    /// the frame engine's plan for a frame split, the half-board engine's for its own.
    pub(crate) fn of_split(n: usize, split: Split) -> Option<Plan> {
        match split {
            Split::Frames | Split::Pieces { .. } => {
                frames::Plan::of_split(n, split).map(Plan::Frames)
            }
            Split::Halves { .. } => halves::Plan::of_split(n, split).map(Plan::Halves),
        }
    }

    /// The plan with which this plan's engine resumes a checkpoint of the same board by another
    /// split, `saved`: the frame engine takes any frame split (the frames are the same, only
    /// their cut differs), the half-board engine any split of its own (when one of its
    /// subproblems fits in the run's budget, which the run checks); `None` when the engine
    /// does not count that split (the checkpoint then belongs to another run).
    pub(crate) fn resuming(&self, n: usize, saved: Split) -> Option<Plan> {
        match self {
            Plan::Frames(_) => frames::Plan::of_split(n, saved).map(Plan::Frames),
            Plan::Halves(_) => halves::Plan::of_split(n, saved).map(Plan::Halves),
            Plan::Gpu(gpu) => match saved {
                Split::Halves { .. } => {
                    halves::Plan::of_split(n, saved).map(|h| Plan::Gpu(gpu.with_halves(h)))
                }
                _ => frames::Plan::of_split(n, saved).map(|f| Plan::Gpu(gpu.with_frames(f))),
            },
        }
    }

    /// The plan as its engine's [`Counter`], which the run drives.
    pub(crate) fn counter(&self) -> &dyn Counter {
        match self {
            Plan::Frames(plan) => plan,
            Plan::Halves(plan) => plan,
            Plan::Gpu(plan) => plan,
        }
    }

    /// The engine of this plan.
    pub(crate) fn engine(&self) -> Engine {
        match self {
            Plan::Frames(_) => Engine::Frame,
            Plan::Halves(_) => Engine::Halves,
            Plan::Gpu(_) => Engine::Gpu,
        }
    }

    /// The device that counts, in words, for a plan counted on a GPU.
    pub(crate) fn device(&self) -> Option<String> {
        match self {
            Plan::Gpu(plan) => Some(plan.device()),
            _ => None,
        }
    }

    /// The half-board engine's plan, for what only that engine does (its forecast), also when
    /// a GPU counts it.
    pub(crate) fn halves(&self) -> Option<&halves::Plan> {
        match self {
            Plan::Halves(plan) => Some(plan),
            Plan::Gpu(plan) => plan.halves(),
            _ => None,
        }
    }
}

impl Split {
    /// Whether an engine of this binary splits the `n` x `n` board this way (no plan is built):
    /// whole frames for every N it counts, pieces of 1 to 12 rows leaving two free rows at
    /// least, and the half-board engine's splits of N up to [`halves::MAX_N`] with as many
    /// pattern columns as its plans of N have.
    pub fn fits(self, n: usize) -> bool {
        match self {
            Split::Frames | Split::Pieces { .. } => frames::Plan::fits(n, self),
            Split::Halves { columns } => halves::Plan::fits(n, columns),
        }
    }

    /// Whether `counts` can be what `shard` of this split of the `n` x `n` board adds up to, whatever a checksum says,
    /// by the rules of the engine that makes it: a half-board shard of several counts its
    /// eighths of classes as [`halves::Plan::possible_shard`] says; the frame splits have no
    /// rule of the kind.
    pub fn shard_possible(self, n: usize, shard: Shard, counts: Counts) -> bool {
        match self {
            Split::Frames | Split::Pieces { .. } => true,
            Split::Halves { .. } => {
                shard.count() == 1 || halves::Plan::possible_shard(n, shard, counts)
            }
        }
    }

    /// How many subproblems this split makes of the `n` x `n` board, `None` when no engine of
    /// this binary makes it ([`Split::fits`]); with frames, the frames (pieces are cut from
    /// them as they are counted). Builds the plan: up to 0.4 s for N = 32.
    pub fn subproblems(self, n: usize) -> Option<usize> {
        check_size(n).ok()?;
        Plan::of_split(n, self).map(|plan| plan.counter().len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A split fits a board exactly when its plan is made with that split: the frame splits by
    /// depth, the half-board splits as `halves::Plan::new` makes them (compared with plans
    /// built, for the boards small enough to build every one).
    #[test]
    fn a_split_fits_the_boards_whose_plans_it_names() {
        for n in 1..=32 {
            assert!(Split::Frames.fits(n), "N = {n}");
        }
        assert!(!Split::Frames.fits(0) && !Split::Frames.fits(33));
        assert!(Split::Pieces { depth: 3 }.fits(24) && Split::Pieces { depth: 3 }.fits(5));
        assert!(!Split::Pieces { depth: 3 }.fits(4));
        assert!(!Split::Pieces { depth: 13 }.fits(32));
        for n in 1..=18 {
            for columns in 0..=14 {
                let built = halves::Plan::new(n, columns).pattern_columns.count_ones() as usize;
                assert_eq!(
                    Split::Halves { columns }.fits(n),
                    built == columns,
                    "N = {n}, {columns} columns"
                );
            }
        }
        assert!(Split::Halves { columns: 22 }.fits(24));
        assert!(!Split::Halves { columns: 24 }.fits(24));
        assert!(!Split::Halves { columns: 8 }.fits(25));
    }

    #[test]
    fn the_subproblems_of_a_split_are_those_of_its_plan() {
        let frames = crate::count::subproblems(12).len();
        assert_eq!(Split::Frames.subproblems(12), Some(frames));
        assert_eq!(Split::Pieces { depth: 2 }.subproblems(12), Some(frames));
        let halves = halves::Plan::new(14, 6).len();
        assert_eq!(Split::Halves { columns: 6 }.subproblems(14), Some(halves));
        assert_eq!(Split::Halves { columns: 6 }.subproblems(25), None);
        assert_eq!(Split::Pieces { depth: 3 }.subproblems(4), None);
        assert_eq!(Split::Frames.subproblems(0), None);
    }

    /// Each plan says its own split and engine, and a plan of a split is of that split.
    #[test]
    fn a_plan_of_a_split_has_that_split_and_its_engine() {
        for (split, engine) in [
            (Split::Frames, Engine::Frame),
            (Split::Pieces { depth: 2 }, Engine::Frame),
            (Split::Halves { columns: 4 }, Engine::Halves),
        ] {
            let plan = Plan::of_split(12, split).unwrap();
            assert_eq!((plan.counter().split(), plan.engine()), (split, engine));
        }
        // A frame run resumes any frame split, a half-board run any of its own, neither the
        // other's.
        let frames = Plan::frames(12, 0);
        let halves = Plan::of_split(12, Split::Halves { columns: 4 }).unwrap();
        let pieces = Split::Pieces { depth: 3 };
        assert_eq!(
            frames.resuming(12, pieces).unwrap().counter().split(),
            pieces
        );
        assert!(frames.resuming(12, Split::Halves { columns: 6 }).is_none());
        assert!(halves.resuming(12, Split::Halves { columns: 6 }).is_some());
        assert!(halves.resuming(12, Split::Frames).is_none());
    }
}
