//! The GPU engine's plan, as a run holds it: the frame engine's plan of the board (the same
//! canonical frames cut at the same rows, so the same split, checkpoints and shard results)
//! and the device that counts them. The run drives it as a [`Counter`] like any other: the
//! count goes to the device ([`super::run`]), and everything that judges saved parts (the
//! independent recount, the classes, the impossible parts) is the frame engine's own, so that a
//! part counted here is checked exactly as one counted on the CPU. It calls the frame engine's
//! plan and the device ([`Kernel`]).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::{FramePlan, GpuError, Kernel};
use crate::count::control::{Control, Tally};
use crate::count::counter::{Counted, Counter};
use crate::count::frames;
use crate::count::shard::Shard;
use crate::count::split::Split;
use crate::count::types::Counts;

/// The environment variable that names the device: unset or `cuda`, the NVIDIA GPUs of the
/// machine; `twin`, the kernel's CPU twin ([`super::CpuTwin`]), which runs the whole GPU
/// pipeline (tasks, launches, records) without a GPU, one task after another: for tests, and
/// for checking the pipeline on a machine without one. Slow: for small boards only.
pub const DEVICE_VAR: &str = "QUEENS_GPU_DEVICE";

/// The frames of a board, counted on a device.
pub struct Plan {
    frames: frames::Plan,
    kernel: Arc<dyn Kernel>,
}

impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("gpu::Plan")
            .field("frames", &self.frames)
            .field("device", &self.kernel.describe())
            .finish()
    }
}

impl Plan {
    /// The frame plan `frames` counted on the device [`open`] opens.
    pub fn open(frames: frames::Plan) -> Result<Plan, GpuError> {
        Ok(Plan::on(frames, open()?))
    }

    /// The frame plan `frames` counted on `kernel`.
    pub fn on(frames: frames::Plan, kernel: Arc<dyn Kernel>) -> Plan {
        Plan { frames, kernel }
    }

    /// The same device counting another frame plan (of another split, to resume a checkpoint).
    pub fn with_frames(&self, frames: frames::Plan) -> Plan {
        Plan::on(frames, Arc::clone(&self.kernel))
    }

    /// The device, in words.
    pub fn device(&self) -> String {
        self.kernel.describe()
    }
}

/// Opens the device [`DEVICE_VAR`] names: every visible NVIDIA GPU (feature `cuda`), or the
/// CPU twin. Refuses with what is missing: [`GpuError::NotBuilt`] in a build without the
/// feature, else what [`super::cuda::Cuda::open`] finds missing.
pub fn open() -> Result<Arc<dyn Kernel>, GpuError> {
    match std::env::var(DEVICE_VAR).ok().as_deref() {
        Some("twin") => Ok(Arc::new(super::CpuTwin)),
        Some("cuda") | Some("") | None => open_cuda(),
        Some(other) => Err(GpuError::UnknownDevice {
            name: other.to_string(),
        }),
    }
}

#[cfg(feature = "cuda")]
fn open_cuda() -> Result<Arc<dyn Kernel>, GpuError> {
    Ok(Arc::new(super::cuda::Cuda::open()?))
}

#[cfg(not(feature = "cuda"))]
fn open_cuda() -> Result<Arc<dyn Kernel>, GpuError> {
    Err(GpuError::NotBuilt)
}

impl Counter for Plan {
    fn split(&self) -> Split {
        self.frames.split()
    }

    fn len(&self) -> usize {
        self.frames.len()
    }

    fn count(&self, todo: &[usize], shard: Shard, threads: usize, control: &Control) -> Counted {
        let plan = FramePlan {
            n: self.frames.n(),
            frames: self.frames.frames(),
            depth: self.frames.depth(),
            shard,
        };
        super::run(&*self.kernel, plan, todo, threads, control)
    }

    /// The frame engine's recount: the plain search on the CPU, independent of the device.
    fn recount(&self, i: usize, shard: Shard, cancel: &AtomicBool) -> Option<Counts> {
        self.frames.recount(i, shard, cancel)
    }

    fn classes(&self, sum: u128) -> u128 {
        self.frames.classes(sum)
    }

    fn impossible(&self, tally: &Tally) -> Option<String> {
        self.frames.impossible(tally)
    }
}
