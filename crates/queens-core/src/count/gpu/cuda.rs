//! The GPU engine's device: every NVIDIA GPU the CUDA driver shows (`CUDA_VISIBLE_DEVICES`
//! respected, as the driver does), through the driver API loaded at run time by `cudarc`, so
//! that one binary builds and runs on every machine and finds out only when asked whether a GPU
//! is there.
//!
//! Opening it loads the driver library, creates a context on each device, compiles the
//! kernel's source with NVRTC to the machine code of the device's compute capability (or reads
//! it from the cache, see `nvrtc.rs`) and loads it. A launch is shared by the devices, one host
//! thread each, a piece at a time (a faster device takes more pieces), and waits for all. The
//! bindings are cudarc's for CUDA 12.0, the oldest driver API this engine supports; drivers are
//! backward compatible, so CUDA 12 and 13 drivers both run it. Source: NVIDIA, "CUDA Driver
//! API". Cost: opening takes the driver's start-up (tens to hundreds of milliseconds) plus, the
//! first time, a compile; a launch moves 28 bytes per task across the bus.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, DeviceRepr, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;

use super::groups::{scratch_words, GroupTask, Join, GROUPS_NAME, GROUP_BLOCK};
use super::join::{Halves, JoinTask, Joiner, Launched, JOIN_LOWERS, JOIN_NAME};
use super::nvrtc::{cubin_cached, cubin_fresh, Nvrtc};
use super::{FrameRows, GpuError, Kernel, Task, BLOCK, KERNEL_NAME, KERNEL_SOURCE};

// SAFETY: both are #[repr(C)] structures of u32 fields, laid out as kernel.cu declares them
// (checked against the C++ compiler's layout by crates/queens-kernel-host's tests).
unsafe impl DeviceRepr for FrameRows {}
// SAFETY: as above.
unsafe impl DeviceRepr for Task {}
// SAFETY: as above (QueensJoinTask in kernel.cu).
unsafe impl DeviceRepr for JoinTask {}
// SAFETY: as above (QueensGroup in kernel.cu).
unsafe impl DeviceRepr for GroupTask {}

/// The most halves a side of a group gets in a first launch, whatever the memory.
const MOST_GROUP_CAPACITY: u64 = 1 << 26;

/// Bytes of device memory one task takes in a launch: itself and its count.
const BYTES_PER_TASK: u64 = (std::mem::size_of::<Task>() + 8) as u64;

/// The most tasks one launch gives one device, whatever its memory.
const MOST_TASKS_PER_DEVICE: u64 = 1 << 26;

/// One GPU, ready to launch the kernel.
struct Device {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    function: CudaFunction,
    /// The half-board join (`queens_join_pairs`).
    join: CudaFunction,
    /// The half-board groups (`queens_count_groups`).
    groups: CudaFunction,
    /// Its multiprocessors.
    sms: u64,
    /// The blocks of the groups kernel one multiprocessor runs at once (the driver's
    /// occupancy of the compiled kernel): a launch has that many per multiprocessor, each
    /// holding [`scratch_words`] of scratch.
    group_blocks_per_sm: u64,
    /// The scratch of the last groups launch, kept for the next one: it is a large share of
    /// the device's memory, which is not allocated again for every launch.
    scratch: Mutex<Option<CudaSlice<u64>>>,
    name: String,
    total: u64,
    free: u64,
}

/// Every GPU the driver shows, with the kernel loaded.
pub struct Cuda {
    devices: Vec<Device>,
    nvrtc: String,
    /// How the groups kernel joins ([`Join::asked`]).
    join: Join,
}

impl std::fmt::Debug for Cuda {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// The driver's functions the engine calls through cudarc (its calls and those of cudarc's own
/// types), which cudarc looks up by name at the first call of each and panics on one the
/// library lacks: [`Cuda::open`] looks them all up before the first. The stand-in driver of
/// the tests (`tests/fixtures/fake-libcuda.cpp`) defines the same ones, and `tests/gpu.rs`
/// keeps the two lists equal. Every NVIDIA driver of CUDA 12 and later has them all.
pub const DRIVER_FUNCTIONS: [&str; 48] = [
    "cuCtxGetCurrent",
    "cuCtxGetDevice",
    "cuCtxGetFlags",
    "cuCtxPopCurrent_v2",
    "cuCtxPushCurrent_v2",
    "cuCtxSetCurrent",
    "cuCtxSynchronize",
    "cuDeviceGet",
    "cuDeviceGetAttribute",
    "cuDeviceGetCount",
    "cuDeviceGetName",
    "cuDevicePrimaryCtxRelease_v2",
    "cuDevicePrimaryCtxRetain",
    "cuDeviceTotalMem_v2",
    "cuDriverGetVersion",
    "cuEventCreate",
    "cuEventDestroy_v2",
    "cuEventQuery",
    "cuEventRecord",
    "cuEventSynchronize",
    "cuFuncGetAttribute",
    "cuGetErrorName",
    "cuGetErrorString",
    "cuGetExportTable",
    "cuInit",
    "cuLaunchKernel",
    "cuMemAllocAsync",
    "cuMemAlloc_v2",
    "cuMemFreeAsync",
    "cuMemFree_v2",
    "cuMemGetInfo_v2",
    "cuMemcpyDtoHAsync_v2",
    "cuMemcpyDtoH_v2",
    "cuMemcpyHtoDAsync_v2",
    "cuMemcpyHtoD_v2",
    "cuMemsetD8Async",
    "cuMemsetD8_v2",
    "cuModuleGetFunction",
    "cuModuleLoadData",
    "cuModuleUnload",
    "cuOccupancyMaxActiveBlocksPerMultiprocessor",
    "cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "cuPointerGetAttribute",
    "cuStreamCreate",
    "cuStreamDestroy_v2",
    "cuStreamQuery",
    "cuStreamSynchronize",
    "cuStreamWaitEvent",
];

/// The functions of [`DRIVER_FUNCTIONS`] that the driver library cudarc loaded lacks.
fn missing_functions() -> Vec<String> {
    // SAFETY: as in `Cuda::open_joining`, which calls this once the library is found; looking
    // a name up runs nothing of the library.
    let lib = unsafe { cudarc::driver::sys::culib() };
    DRIVER_FUNCTIONS
        .iter()
        // SAFETY: the symbol is only looked up, never called through this type.
        .filter(|name| unsafe { lib.get::<unsafe extern "C" fn()>(name.as_bytes()) }.is_err())
        .map(|name| name.to_string())
        .collect()
}

fn driver(call: &str) -> impl Fn(cudarc::driver::DriverError) -> GpuError + '_ {
    move |e| GpuError::Driver {
        call: call.to_string(),
        message: e.to_string(),
    }
}

impl Cuda {
    /// Opens every visible GPU: the driver library, a context on each device, the kernel
    /// compiled for its architecture and loaded; the groups kernel joins as
    /// [`super::groups::JOIN_VAR`] asks. Refuses with what is missing.
    pub fn open() -> Result<Cuda, GpuError> {
        Cuda::open_joining(Join::asked()?)
    }

    /// [`Cuda::open`], the groups kernel joining as `join` says.
    pub fn open_joining(join: Join) -> Result<Cuda, GpuError> {
        // cudarc panics when it cannot load the driver: look for it first.
        // SAFETY: loading the driver library runs its initialisers, which have no
        // preconditions.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(GpuError::NoDriver {
                looked_for: "libcuda.so, libcuda.so.1".to_string(),
            });
        }
        // And when a function is missing from it (a partial library, a stand-in).
        let missing = missing_functions();
        if !missing.is_empty() {
            return Err(GpuError::DriverLacks { missing });
        }
        let count = CudaContext::device_count().map_err(|e| {
            // cuInit fails with "no device" when none is visible.
            if format!("{e:?}").contains("NO_DEVICE") {
                GpuError::NoDevice {
                    visible: super::env_text("CUDA_VISIBLE_DEVICES"),
                }
            } else {
                driver("cuInit")(e)
            }
        })?;
        if count <= 0 {
            return Err(GpuError::NoDevice {
                visible: super::env_text("CUDA_VISIBLE_DEVICES"),
            });
        }
        let nvrtc = Nvrtc::load()?;
        let mut devices = Vec::new();
        for ordinal in 0..count as usize {
            let ctx = CudaContext::new(ordinal).map_err(driver("cuCtxCreate"))?;
            let (major, minor) = ctx
                .compute_capability()
                .map_err(driver("cuDeviceGetAttribute"))?;
            // The device's own machine code, not PTX: a driver older than the NVRTC that wrote
            // a PTX refuses it (NVRTC 12.9's PTX needs a driver of CUDA 12.9), where a cubin
            // loads on every driver of NVRTC's CUDA major version (nvrtc.rs, compile_cubin).
            let arch = format!("sm_{major}{minor}");
            let (cubin, cached) = cubin_cached(&nvrtc, KERNEL_SOURCE, &arch)?;
            // A cubin from the cache that the driver refuses (a damaged file) is compiled anew
            // once; one just compiled is not (the driver would refuse it again), and the
            // driver's error is the one given when the new compile fails too.
            let module = match ctx.load_module(Ptx::from_binary(cubin)) {
                Err(e) if cached => match cubin_fresh(&nvrtc, KERNEL_SOURCE, &arch) {
                    Ok(fresh) => ctx.load_module(Ptx::from_binary(fresh)),
                    Err(_) => Err(e),
                },
                loaded => loaded,
            };
            let module = module.map_err(|e| GpuError::Driver {
                call: "cuModuleLoadData".to_string(),
                message: format!(
                    "{e} ({})",
                    load_refused(
                        &arch,
                        nvrtc.version().unwrap_or((0, 0)),
                        &nvrtc.path,
                        driver_cuda_version()
                    )
                ),
            })?;
            let function = module
                .load_function(KERNEL_NAME)
                .map_err(driver("cuModuleGetFunction"))?;
            let join = module
                .load_function(JOIN_NAME)
                .map_err(driver("cuModuleGetFunction"))?;
            let groups = module
                .load_function(GROUPS_NAME)
                .map_err(driver("cuModuleGetFunction"))?;
            let resident = groups
                .occupancy_max_active_blocks_per_multiprocessor(GROUP_BLOCK, 0, None)
                .map_err(driver("cuOccupancyMaxActiveBlocksPerMultiprocessor"))?;
            let sms = ctx
                .attribute(
                    cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                )
                .map_err(driver("cuDeviceGetAttribute"))?;
            let name = ctx.name().map_err(driver("cuDeviceGetName"))?;
            let (free, total) = ctx.mem_get_info().map_err(driver("cuMemGetInfo"))?;
            let stream = ctx.default_stream();
            devices.push(Device {
                ctx,
                stream,
                function,
                join,
                groups,
                sms: sms.max(1) as u64,
                group_blocks_per_sm: u64::from(resident.max(1)),
                scratch: Mutex::new(None),
                name,
                total: total as u64,
                free: free as u64,
            });
        }
        let cuda = Cuda {
            devices,
            nvrtc: nvrtc.path,
            join,
        };
        cuda.check_memory()?;
        Ok(cuda)
    }

    /// How many devices take part.
    pub fn devices(&self) -> usize {
        self.devices.len()
    }

    /// The tasks one device takes per launch: half its free memory at opening, at most
    /// [`MOST_TASKS_PER_DEVICE`].
    fn tasks_per_device(&self) -> u64 {
        self.devices
            .iter()
            .map(|d| d.free / 2 / BYTES_PER_TASK)
            .min()
            .unwrap_or(0)
            .min(MOST_TASKS_PER_DEVICE)
    }

    /// Checks that each device can take a launch of at least `BLOCK` tasks.
    fn check_memory(&self) -> Result<(), GpuError> {
        let need = u64::from(BLOCK) * BYTES_PER_TASK * 2 + (1 << 20);
        match self.devices.iter().find(|d| d.free < need) {
            Some(d) => Err(GpuError::Memory { free: d.free, need }),
            None => Ok(()),
        }
    }
}

/// The CUDA version of the driver, `(major, minor)` such as `(12, 4)`; `None` when it does not
/// say.
fn driver_cuda_version() -> Option<(i32, i32)> {
    let mut version = 0;
    // SAFETY: cuDriverGetVersion writes one int; the driver library is loaded (Cuda::open
    // checked it is there before any call).
    let status = unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) };
    (status == cudarc::driver::sys::CUresult::CUDA_SUCCESS && version > 0)
        .then_some((version / 1000, version % 1000 / 10))
}

/// What is said of a module the driver refused: the code's architecture and compiler, the
/// driver's CUDA version, and, only where the driver's CUDA major version is older than
/// NVRTC's (or unknown), that an NVRTC of the driver's major version is needed: a driver of
/// NVRTC's major version or newer loads its cubin, so there the compiler is not the cause.
fn load_refused(arch: &str, nvrtc: (i32, i32), path: &str, driver: Option<(i32, i32)>) -> String {
    let compiled = format!(
        "the kernel was compiled for {arch} by NVRTC {}.{} from {path}",
        nvrtc.0, nvrtc.1
    );
    match driver {
        Some((major, minor)) if major >= nvrtc.0 => {
            format!("{compiled}; the driver is of CUDA {major}.{minor}")
        }
        _ => format!(
            "{compiled}; the driver is of CUDA {}: a driver loads the code of an NVRTC of its \
             CUDA major version or older only, so point QUEENS_NVRTC at an NVRTC of the \
             driver's CUDA major version",
            driver.map_or_else(
                || "unknown version".to_string(),
                |(major, minor)| format!("{major}.{minor}")
            )
        ),
    }
}

impl Device {
    /// `e` with the device named, for an error on one of several.
    fn named(&self, e: GpuError) -> GpuError {
        match e {
            GpuError::Driver { call, message } => GpuError::Driver {
                call: format!("{call} on GPU {} ({})", self.ctx.ordinal(), self.name),
                message,
            },
            other => other,
        }
    }

    /// Makes this device's context the calling thread's.
    fn bind(&self) -> Result<(), GpuError> {
        self.ctx.bind_to_thread().map_err(driver("cuCtxSetCurrent"))
    }

    /// A copy of `host` in the device's memory.
    fn upload<T: DeviceRepr>(&self, host: &[T]) -> Result<CudaSlice<T>, GpuError> {
        self.stream.clone_htod(host).map_err(driver("cuMemcpyHtoD"))
    }

    /// `len` counters on the device, all 0.
    fn counters(&self, len: usize) -> Result<CudaSlice<u64>, GpuError> {
        self.stream.alloc_zeros(len).map_err(driver("cuMemAlloc"))
    }

    /// The device's counters copied back into `out`, once the launches before are done.
    fn download(&self, counters: &CudaSlice<u64>, out: &mut [u64]) -> Result<(), GpuError> {
        self.stream
            .memcpy_dtoh(counters, out)
            .map_err(driver("cuMemcpyDtoH"))
    }

    fn count(&self, frames: &[FrameRows], tasks: &[Task], out: &mut [u64]) -> Result<(), GpuError> {
        if tasks.is_empty() {
            return Ok(());
        }
        self.bind()?;
        let (frames_dev, tasks_dev) = (self.upload(frames)?, self.upload(tasks)?);
        let mut out_dev = self.counters(tasks.len())?;
        let count = tasks.len() as u32;
        let config = LaunchConfig {
            grid_dim: (count.div_ceil(BLOCK), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut launch = self.stream.launch_builder(&self.function);
        launch.arg(&frames_dev).arg(&tasks_dev).arg(&count);
        launch.arg(&mut out_dev);
        // SAFETY: the kernel's parameters are (frames, tasks, count, out) with the layouts
        // above; every task's frame index is below frames.len() (the engine builds them so),
        // and the kernel writes out[i] for i < count only.
        unsafe { launch.launch(config) }.map_err(driver("cuLaunchKernel"))?;
        self.download(&out_dev, out)
    }

    /// The join of `tasks` on this device: both sides' halves copied over, one block of
    /// [`JOIN_LOWERS`] threads per task.
    fn join(&self, batch: Halves<'_>, tasks: &[JoinTask], out: &mut [u64]) -> Result<(), GpuError> {
        if tasks.is_empty() {
            return Ok(());
        }
        self.bind()?;
        // The driver takes no empty copy: an empty side is one word that no task reads.
        let side = |v: &[u64]| if v.is_empty() { vec![0u64] } else { v.to_vec() };
        let uppers_dev = self.upload(&side(batch.uppers))?;
        let lowers_dev = self.upload(&side(batch.lowers))?;
        let tasks_dev = self.upload(tasks)?;
        let mut out_dev = self.counters(tasks.len())?;
        let count = u32::try_from(tasks.len()).map_err(|_| GpuError::Driver {
            call: "cuLaunchKernel".to_string(),
            message: format!("{} join tasks in one launch", tasks.len()),
        })?;
        let blocks = LaunchConfig {
            grid_dim: (count, 1, 1),
            block_dim: (JOIN_LOWERS, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut launch = self.stream.launch_builder(&self.join);
        launch.arg(&uppers_dev).arg(&lowers_dev).arg(&tasks_dev);
        launch.arg(&count).arg(&mut out_dev);
        // SAFETY: the kernel's parameters are (uppers, lowers, tasks, count, out) with the
        // layouts above; every task reads halves within the two arrays (JoinBatch builds them
        // so) and block t adds to out[t] only, t < count.
        unsafe { launch.launch(blocks) }.map_err(driver("cuLaunchKernel"))?;
        self.download(&out_dev, out)
    }
}

impl Device {
    /// The blocks of a groups launch of `groups` groups with `capacity` halves a side: as many
    /// as the multiprocessors run at once, fewer where their scratch would take more than half
    /// of `available` bytes.
    fn group_blocks(&self, groups: usize, capacity: u32, available: u64) -> u64 {
        let per_block = 8 * scratch_words(capacity);
        (available / 2 / per_block)
            .min(self.sms * self.group_blocks_per_sm)
            .min(groups as u64)
    }

    /// The groups kernel over `groups`: the group list copied over, each block given
    /// [`scratch_words`] of scratch, the blocks fetching groups from a shared counter.
    fn groups(
        &self,
        n: usize,
        groups: &[GroupTask],
        capacity: u32,
        sliced: u32,
        out: &mut [u64],
    ) -> Result<(), GpuError> {
        if groups.is_empty() {
            return Ok(());
        }
        self.bind()?;
        let mut kept = self.scratch.lock().unwrap_or_else(|e| e.into_inner());
        // What the device has free now, and the scratch kept from the last launch, which this
        // one may take again.
        let (free, _) = self.ctx.mem_get_info().map_err(driver("cuMemGetInfo"))?;
        let kept_bytes = kept.as_ref().map_or(0, |s| 8 * s.len() as u64);
        let available = free as u64 + kept_bytes;
        let blocks = self.group_blocks(groups.len(), capacity, available);
        if blocks == 0 {
            return Err(GpuError::Memory {
                free: available,
                need: 2 * 8 * scratch_words(capacity),
            });
        }
        let groups_dev = self.upload(groups)?;
        let scratch_len = (blocks * scratch_words(capacity)) as usize;
        if kept.as_ref().is_none_or(|s| s.len() < scratch_len) {
            // The old scratch goes first, so that both never hold memory at once. Where the
            // device has memory pools, cudarc frees it in stream order (cuMemFreeAsync), and
            // the pool hands the memory back only at a synchronisation: wait for it here, or a
            // new scratch of about half the memory would not fit beside the old one.
            *kept = None;
            self.stream
                .synchronize()
                .map_err(driver("cuStreamSynchronize"))?;
            // SAFETY: the kernel writes every word of the scratch it reads (each block its
            // own `scratch_words(capacity)`, below the counts it keeps).
            let made = unsafe { self.stream.alloc::<u64>(scratch_len) };
            *kept = Some(made.map_err(driver("cuMemAlloc"))?);
        }
        let scratch = kept.as_mut().expect("the scratch was just made");
        let mut next = self
            .stream
            .alloc_zeros::<u32>(1)
            .map_err(driver("cuMemAlloc"))?;
        let mut out_dev = self.counters(groups.len())?;
        let count = u32::try_from(groups.len()).map_err(|_| GpuError::Driver {
            call: "cuLaunchKernel".to_string(),
            message: format!("{} groups in one launch", groups.len()),
        })?;
        let n32 = n as u32;
        // The join packs the bits a pair's test reads into 32-bit words where they fit.
        let narrow = 1u32;
        let config = LaunchConfig {
            grid_dim: (blocks as u32, 1, 1),
            block_dim: (GROUP_BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut launch = self.stream.launch_builder(&self.groups);
        launch
            .arg(&groups_dev)
            .arg(&count)
            .arg(&n32)
            .arg(&capacity)
            .arg(&narrow)
            // Chunks of at least `sliced` packed lower halves are joined bit-sliced (0: none).
            .arg(&sliced);
        launch.arg(scratch).arg(&mut next).arg(&mut out_dev);
        // SAFETY: the kernel's parameters are (groups, count, n, capacity, narrow, sliced,
        // scratch, next, out) with the layouts above; the scratch holds
        // scratch_words(capacity) for each of the `blocks` blocks, `next` starts at 0, and
        // block b writes out[g] only for the groups g < count it fetched.
        unsafe { launch.launch(config) }.map_err(driver("cuLaunchKernel"))?;
        self.download(&out_dev, out)
    }
}

/// How many pieces a launch is cut into for each device when there are several.
const PIECES_PER_DEVICE: usize = 4;

/// Runs `work` on the devices over `tasks` and `out`, one host thread each. With several, the
/// launch is cut into [`PIECES_PER_DEVICE`] pieces a device; each device starts on a piece of
/// its own, then takes the next piece as it finishes one: a faster device, or one whose piece
/// held cheaper tasks, takes more, where an even split would make every device wait for the
/// slowest at each launch.
fn on_every_device<T: Sync>(
    devices: &[Device],
    tasks: &[T],
    out: &mut [u64],
    work: impl Fn(&Device, &[T], &mut [u64]) -> Result<(), GpuError> + Sync,
) -> Result<(), GpuError> {
    if devices.len() == 1 {
        return work(&devices[0], tasks, out);
    }
    let per = tasks
        .len()
        .div_ceil(devices.len() * PIECES_PER_DEVICE)
        .max(1);
    let mut pieces = tasks.chunks(per).zip(out.chunks_mut(per));
    let firsts: Vec<_> = pieces.by_ref().take(devices.len()).collect();
    let pieces = Mutex::new(pieces);
    // Set when a device fails: the launch has failed, and no device takes another piece.
    let failed = AtomicBool::new(false);
    let (work, pieces, failed) = (&work, &pieces, &failed);
    std::thread::scope(|scope| {
        let runs: Vec<_> = devices
            .iter()
            .zip(firsts)
            .map(|(d, first)| {
                scope.spawn(move || {
                    let mut next = Some(first);
                    while let Some((t, o)) = next {
                        if failed.load(Ordering::Relaxed) {
                            break;
                        }
                        work(d, t, o).map_err(|e| {
                            failed.store(true, Ordering::Relaxed);
                            d.named(e)
                        })?;
                        next = pieces.lock().unwrap_or_else(|e| e.into_inner()).next();
                    }
                    Ok(())
                })
            })
            .collect();
        runs.into_iter().try_for_each(|r| {
            r.join().unwrap_or_else(|_| {
                Err(GpuError::Driver {
                    call: "a launch".to_string(),
                    message: "its host thread stopped".to_string(),
                })
            })
        })
    })
}

impl Joiner for Cuda {
    fn join(&self, halves: Halves<'_>, tasks: &[JoinTask], out: &mut [u64]) -> Launched {
        on_every_device(&self.devices, tasks, out, |d, t, o| d.join(halves, t, o))
    }
}

impl Kernel for Cuda {
    fn count(&self, frames: &[FrameRows], tasks: &[Task], out: &mut [u64]) -> Result<(), GpuError> {
        on_every_device(&self.devices, tasks, out, |d, t, o| d.count(frames, t, o))
    }

    fn count_groups(&self, n: usize, groups: &[GroupTask], room: u32, out: &mut [u64]) -> Launched {
        on_every_device(&self.devices, groups, out, |d, g, o| {
            d.groups(n, g, room, self.join.sliced(n), o)
        })
    }

    /// A quarter of the smallest free memory (when opened) shared by the blocks the
    /// multiprocessors run at once, each holding four sides; no more than a side of the board
    /// can have (`(N - N/2)!` halves).
    fn group_capacity(&self, n: usize) -> u32 {
        let most_halves = (1..=(n - n / 2) as u64).try_fold(1u64, |p, r| p.checked_mul(r));
        self.devices
            .iter()
            .map(|d| d.free / 4 / (d.sms * d.group_blocks_per_sm) / 32)
            .min()
            .unwrap_or(0)
            .min(MOST_GROUP_CAPACITY)
            .min(most_halves.unwrap_or(u64::MAX))
            .max(1) as u32
    }

    fn max_tasks(&self) -> usize {
        let per = self.tasks_per_device().max(u64::from(BLOCK));
        usize::try_from(per.saturating_mul(self.devices.len() as u64)).unwrap_or(usize::MAX)
    }

    fn describe(&self) -> String {
        let names: Vec<String> = self
            .devices
            .iter()
            .map(|d| format!("{} ({})", d.name, crate::error::bytes(d.total)))
            .collect();
        format!(
            "{} (kernel compiled by NVRTC from {})",
            names.join(", "),
            self.nvrtc
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a driver (CI, most laptops), opening says so and does not panic; with one, it
    /// opens or names what else is missing.
    #[test]
    fn opening_names_what_is_missing() {
        // SAFETY: as in Cuda::open.
        let present = unsafe { cudarc::driver::sys::is_culib_present() };
        match Cuda::open() {
            Ok(cuda) => assert!(present && cuda.devices() > 0),
            Err(GpuError::NoDriver { looked_for }) => {
                assert!(!present);
                assert!(looked_for.contains("libcuda"));
            }
            Err(other) => assert!(present, "{other}"),
        }
    }

    /// A refused module points at NVRTC only where the driver's CUDA major version is older
    /// than NVRTC's (or unknown): a CUDA 13 driver loads NVRTC 12.9's cubin, so its refusal
    /// (a damaged file, no memory) has another cause.
    #[test]
    fn a_refused_module_blames_nvrtc_only_past_the_drivers_major_version() {
        let path = "/x/libnvrtc.so.12";
        for (driver, blamed) in [
            (Some((12, 0)), false),
            (Some((13, 0)), false),
            (Some((11, 8)), true),
            (None, true),
        ] {
            let said = load_refused("sm_90", (12, 9), path, driver);
            assert!(
                said.starts_with("the kernel was compiled for sm_90 by NVRTC 12.9 from /x/"),
                "{said}"
            );
            assert_eq!(said.contains("point QUEENS_NVRTC at"), blamed, "{said}");
        }
        assert!(load_refused("sm_90", (12, 9), path, Some((12, 4)))
            .ends_with("the driver is of CUDA 12.4"));
        assert!(load_refused("sm_90", (12, 9), path, None).contains("CUDA unknown version"));
    }
}
