//! The GPU engine's plan, as a run holds it: a CPU engine's plan of the board, the frame
//! engine's (the same canonical frames cut at the same rows) or the half-board engine's (the
//! same patterns), so the same split, checkpoints and shard results, and the device that
//! counts them. The run drives it as a [`Counter`] like any other: the count goes to the
//! device ([`super::run`] for frames, [`super::halves::run`] for halves), and everything that
//! judges saved parts (the independent recount, the classes, the impossible parts) is the CPU
//! engine's own, so that a part counted here is checked exactly as one counted on the CPU.
//! Which split a board gets: [`asked_split`]. It calls the CPU engines' plans and the
//! device ([`Kernel`]).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::{FramePlan, GpuError, Kernel};
use crate::count::control::{Control, Tally};
use crate::count::counter::{Counted, Counter};
use crate::count::frames;
use crate::count::halves;
use crate::count::shard::Shard;
use crate::count::split::Split;
use crate::count::types::Counts;

/// The environment variable that names the device: unset or `cuda`, the NVIDIA GPUs of the
/// machine; `twin`, the kernel's CPU twin ([`super::CpuTwin`]), which runs the whole GPU
/// pipeline (tasks, launches, records) without a GPU, one task after another: for tests, and
/// for checking the pipeline on a machine without one. Slow: for small boards only.
pub const DEVICE_VAR: &str = "QUEENS_GPU_DEVICE";

/// The environment variable that chooses the split a GPU counts: `frames` or `halves`; unset
/// or empty, the split `--engine auto` takes ([`asked_split`]).
pub const SPLIT_VAR: &str = "QUEENS_GPU_SPLIT";

/// Which CPU engine's split a GPU counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuSplit {
    /// The frame engine's: each frame's tasks searched to the last row (`queens_count_tasks`).
    Frames,
    /// The half-board engine's: each pattern's groups listed and joined (`queens_count_groups`).
    Halves,
}

/// The split [`SPLIT_VAR`] asks the GPU to count by; `None` when unset or empty: then the
/// GPU counts the split `--engine auto` takes on the CPU (the half-board split from N = 12
/// to 24 when it fits the memory budget, the frames elsewhere). That default comes from the
/// work each split does, not yet from a time measured on a GPU (`scripts/gpu-check` times
/// both): for N = 20, 2.5 x 10^14 pairs of halves on complementary columns, a quarter of
/// them counted by symmetry and about 4.5 % of those tested after the key sort (2.8 x 10^12
/// tests, each one AND in a loop all threads run alike), against 6.8 x 10^11 nodes of the
/// frames' search, each a branching step that sets a GPU's threads apart. Refuses a value it
/// does not know.
pub fn asked_split() -> Result<Option<GpuSplit>, GpuError> {
    match crate::count::gpu::env_text(SPLIT_VAR).as_deref() {
        Some("frames") => Ok(Some(GpuSplit::Frames)),
        Some("halves") => Ok(Some(GpuSplit::Halves)),
        Some("") | None => Ok(None),
        Some(other) => Err(GpuError::UnknownSplit {
            name: other.to_string(),
        }),
    }
}

/// A CPU engine's plan of a board, as a device counts it.
#[derive(Debug)]
enum Work {
    Frames(frames::Plan),
    Halves(halves::Plan),
}

/// The subproblems of a board by a CPU engine's split, counted on a device.
pub struct Plan {
    work: Work,
    kernel: Arc<dyn Kernel>,
}

impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("gpu::Plan")
            .field("work", &self.work)
            .field("device", &self.kernel.describe())
            .finish()
    }
}

impl Plan {
    /// The frame plan `frames` counted on the device [`open`] opens.
    pub fn open(frames: frames::Plan) -> Result<Plan, GpuError> {
        Ok(Plan::on(frames, open()?))
    }

    /// The half-board plan `plan` counted on the device [`open`] opens.
    pub fn open_halves(plan: halves::Plan) -> Result<Plan, GpuError> {
        Ok(Plan::halves_on(plan, open()?))
    }

    /// The frame plan `frames` counted on `kernel`.
    pub fn on(frames: frames::Plan, kernel: Arc<dyn Kernel>) -> Plan {
        Plan {
            work: Work::Frames(frames),
            kernel,
        }
    }

    /// The half-board plan `plan` counted on `kernel`.
    pub fn halves_on(plan: halves::Plan, kernel: Arc<dyn Kernel>) -> Plan {
        Plan {
            work: Work::Halves(plan),
            kernel,
        }
    }

    /// The same device counting another frame plan (of another split, to resume a checkpoint).
    pub fn with_frames(&self, frames: frames::Plan) -> Plan {
        Plan::on(frames, Arc::clone(&self.kernel))
    }

    /// The same device counting another half-board plan (to resume a checkpoint).
    pub fn with_halves(&self, plan: halves::Plan) -> Plan {
        Plan::halves_on(plan, Arc::clone(&self.kernel))
    }

    /// The half-board plan this device counts, when it counts that split.
    pub fn halves(&self) -> Option<&halves::Plan> {
        match &self.work {
            Work::Halves(plan) => Some(plan),
            Work::Frames(_) => None,
        }
    }

    /// The CPU engine's plan this device counts, as that engine's [`Counter`]: what judges
    /// saved parts.
    fn cpu(&self) -> &dyn Counter {
        match &self.work {
            Work::Frames(plan) => plan,
            Work::Halves(plan) => plan,
        }
    }

    /// The device, in words.
    pub fn device(&self) -> String {
        self.kernel.describe()
    }
}

/// Opens the device [`DEVICE_VAR`] names: every visible NVIDIA GPU (feature `cuda`), or the
/// CPU twin. Refuses with what is missing: [`GpuError::NotBuilt`] in a build without the
/// feature, else what
#[cfg_attr(feature = "cuda", doc = "[`Cuda::open`](super::cuda::Cuda::open)")]
#[cfg_attr(not(feature = "cuda"), doc = "`Cuda::open` (feature `cuda`)")]
/// finds missing; and a value of [`super::groups::JOIN_VAR`] it does not know, whatever the
/// device.
pub fn open() -> Result<Arc<dyn Kernel>, GpuError> {
    let join = super::groups::Join::asked()?;
    match crate::count::gpu::env_text(DEVICE_VAR).as_deref() {
        Some("twin") => Ok(Arc::new(super::CpuTwin)),
        Some("cuda") | Some("") | None => open_cuda(join),
        Some(other) => Err(GpuError::UnknownDevice {
            name: other.to_string(),
        }),
    }
}

#[cfg(feature = "cuda")]
fn open_cuda(join: super::groups::Join) -> Result<Arc<dyn Kernel>, GpuError> {
    Ok(Arc::new(super::cuda::Cuda::open_joining(join)?))
}

#[cfg(not(feature = "cuda"))]
fn open_cuda(_join: super::groups::Join) -> Result<Arc<dyn Kernel>, GpuError> {
    Err(GpuError::NotBuilt)
}

impl Counter for Plan {
    fn split(&self) -> Split {
        self.cpu().split()
    }

    fn len(&self) -> usize {
        self.cpu().len()
    }

    /// The host's memory is a launch's work list whatever the split: no budget applies.
    fn subproblem_bytes(&self) -> Option<u64> {
        None
    }

    fn count(&self, todo: &[usize], shard: Shard, threads: usize, control: &Control) -> Counted {
        match &self.work {
            Work::Frames(frames) => {
                let plan = FramePlan {
                    n: frames.n(),
                    frames: frames.frames(),
                    depth: frames.depth(),
                    shard,
                };
                super::run(&*self.kernel, plan, todo, threads, control)
            }
            Work::Halves(plan) => super::halves::run(&*self.kernel, plan, todo, threads, control),
        }
    }

    /// The CPU engine's recount: its plain search, independent of the device.
    fn recount(&self, i: usize, shard: Shard, cancel: &AtomicBool) -> Option<Counts> {
        self.cpu().recount(i, shard, cancel)
    }

    fn classes(&self, sum: u128) -> u128 {
        self.cpu().classes(sum)
    }

    fn impossible(&self, tally: &Tally, shard: Shard) -> Option<String> {
        self.cpu().impossible(tally, shard)
    }
}
