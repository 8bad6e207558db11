//! The GPU engine's CUDA kernel (`crates/queens-core/src/count/gpu/kernel.cu`), compiled for
//! the host by the C++ compiler through a shim that runs the grid's threads one after another,
//! as a [`Kernel`] the engine can count with.
//!
//! CI has no GPU: this crate is how the kernel's own source, not a Rust copy of it, is checked
//! there against the known counts (its tests), and how its layout is checked against the Rust
//! side's. It is a test fixture, not part of the `queens` binary.

use queens_core::count::gpu::join::{Halves, JoinTask, Joiner, Launched, JOIN_LOWERS};
use queens_core::count::gpu::{FrameRows, GpuError, GroupTask, Kernel, Task, BLOCK};

extern "C" {
    fn queens_kernel_host_launch(
        frames: *const FrameRows,
        tasks: *const Task,
        count: u32,
        out: *mut u64,
    );
    fn queens_kernel_host_join(
        uppers: *const u64,
        lowers: *const u64,
        tasks: *const JoinTask,
        count: u32,
        threads: u32,
        out: *mut u64,
    );
    fn queens_kernel_host_groups(
        groups: *const GroupTask,
        count: u32,
        n: u32,
        capacity: u32,
        narrow: u32,
        sliced: u32,
        scratch: *mut u64,
        blocks: u32,
        threads: u32,
        key_halves: u32,
        out: *mut u64,
    ) -> u64;
    fn queens_kernel_host_sliced(
        uppers: *const u32,
        count: u32,
        lowers: *const u32,
        left: u32,
        lane_fit: *mut u32,
    );
    fn queens_kernel_host_sizeof_join_task() -> u32;
    fn queens_kernel_host_sizeof_group() -> u32;
    fn queens_kernel_host_block() -> u32;
    fn queens_kernel_host_sizeof_frame() -> u32;
    fn queens_kernel_host_sizeof_task() -> u32;
}

/// The kernel compiled for the host.
#[derive(Debug, Default, Clone, Copy)]
pub struct HostKernel;

/// The kernel's block size and the sizes of its two structures, as the C++ compiler saw them.
pub fn layout() -> (u32, u32, u32) {
    // SAFETY: the three functions take nothing and return a constant.
    unsafe {
        (
            queens_kernel_host_block(),
            queens_kernel_host_sizeof_frame(),
            queens_kernel_host_sizeof_task(),
        )
    }
}

impl Kernel for HostKernel {
    fn count(&self, frames: &[FrameRows], tasks: &[Task], out: &mut [u64]) -> Result<(), GpuError> {
        assert_eq!(tasks.len(), out.len(), "one count per task");
        assert!(
            tasks.iter().all(|t| (t.frame as usize) < frames.len()),
            "every task names a frame of the launch"
        );
        assert_eq!(layout().0, BLOCK, "the kernel's block size");
        let count = u32::try_from(tasks.len()).expect("a launch holds fewer than 2^32 tasks");
        // SAFETY: `frames`, `tasks` and `out` are valid for the lengths the kernel reads and
        // writes (every task's frame index is in range, checked above; it writes out[i] for
        // i < count only), and the two structures have the kernel's layout (checked by this
        // crate's tests).
        unsafe {
            queens_kernel_host_launch(frames.as_ptr(), tasks.as_ptr(), count, out.as_mut_ptr())
        };
        Ok(())
    }

    fn max_tasks(&self) -> usize {
        1 << 14
    }

    /// The groups kernel as a launch of [`HOST_GROUP_BLOCKS`] blocks of [`HOST_GROUP_THREADS`]
    /// threads, joining as the device's launches do (chunks of at least
    /// [`SLICED_FROM`](queens_core::count::gpu::groups::SLICED_FROM) packed lower halves
    /// bit-sliced, which the small boards tested here seldom have: the tests of launches
    /// slice every chunk).
    fn count_groups(&self, n: usize, groups: &[GroupTask], room: u32, out: &mut [u64]) -> Launched {
        let launch = GroupLaunch {
            blocks: HOST_GROUP_BLOCKS,
            threads: HOST_GROUP_THREADS,
            narrow: true,
            sliced: queens_core::count::gpu::groups::SLICED_FROM,
            key_halves: 1,
        };
        count_groups(n, groups, room, launch, out);
        Ok(())
    }

    /// Little room, so that the engine's launches of larger groups again are tried too.
    fn group_capacity(&self, _n: usize) -> u32 {
        HOST_GROUP_CAPACITY
    }

    fn describe(&self) -> String {
        "the GPU kernel compiled for the host".to_string()
    }
}

/// The size of the join's task as the C++ compiler laid it out.
pub fn join_task_size() -> u32 {
    // SAFETY: takes nothing and returns a constant.
    unsafe { queens_kernel_host_sizeof_join_task() }
}

/// The join kernel (`queens_join_pairs` of kernel.cu) compiled for the host, launched with
/// `threads` threads a block (the engine's launch uses [`JOIN_LOWERS`]; fewer make each thread
/// take several lower halves of a task).
#[derive(Debug, Clone, Copy)]
pub struct HostJoiner {
    /// Threads per block.
    pub threads: u32,
}

impl Default for HostJoiner {
    fn default() -> HostJoiner {
        HostJoiner {
            threads: JOIN_LOWERS,
        }
    }
}

impl Joiner for HostJoiner {
    fn join(&self, halves: Halves<'_>, tasks: &[JoinTask], out: &mut [u64]) -> Launched {
        let Halves { uppers, lowers } = halves;
        assert_eq!(tasks.len(), out.len(), "one count per task");
        assert!(
            tasks
                .iter()
                .all(|t| (t.upper + t.uppers) as usize <= uppers.len()
                    && (t.lower + t.lowers) as usize <= lowers.len()),
            "every task's halves are in the launch"
        );
        assert!(self.threads > 0, "a block has a thread");
        let count = u32::try_from(tasks.len()).expect("a launch holds fewer than 2^32 tasks");
        out.fill(0);
        // SAFETY: every task reads halves within `uppers` and `lowers` (checked above), the
        // kernel writes out[t] for t < count only, and JoinTask has the kernel's layout
        // (checked by this crate's tests).
        unsafe {
            queens_kernel_host_join(
                uppers.as_ptr(),
                lowers.as_ptr(),
                tasks.as_ptr(),
                count,
                self.threads,
                out.as_mut_ptr(),
            )
        };
        Ok(())
    }
}

/// The blocks of [`HostKernel`]'s groups launches (run one after another).
pub const HOST_GROUP_BLOCKS: u32 = 3;

/// The threads of a block of [`HostKernel`]'s groups launches (host threads at once): two warps.
pub const HOST_GROUP_THREADS: u32 = 64;

/// The halves a side of a group may have in [`HostKernel`]'s first groups launch: fewer than
/// the largest groups of N = 12 have, so that those are launched again with more room.
pub const HOST_GROUP_CAPACITY: u32 = 64;

/// The size of a group as the C++ compiler laid it out.
pub fn group_size() -> u32 {
    // SAFETY: takes nothing and returns a constant.
    unsafe { queens_kernel_host_sizeof_group() }
}

/// The shape of a groups launch on the host.
#[derive(Debug, Clone, Copy)]
pub struct GroupLaunch {
    /// Blocks, run one after another.
    pub blocks: u32,
    /// Threads a block, run at once: a multiple of 32, as the kernel's warps need, and at most
    /// the device's block ([`GROUP_BLOCK`](queens_core::count::gpu::groups::GROUP_BLOCK)).
    pub threads: u32,
    /// Whether the join may pack the bits it reads into 32-bit words (the device's launches
    /// do); `false` keeps the masks whole, as some groups past N = 23 need.
    pub narrow: bool,
    /// The fewest packed lower halves of a chunk joined bit-sliced, 1 to 32 (the device's
    /// launches take [`SLICED_FROM`](queens_core::count::gpu::groups::SLICED_FROM)); 0: none.
    pub sliced: u32,
    /// The halves of the smaller side a key value keeps, as a power of 2: 1 gives the small
    /// groups tested here keys of many lengths; the device's 5 gives larger groups whole
    /// chunks of lower halves a key.
    pub key_halves: u32,
}

/// The groups kernel (`queens_count_groups` of kernel.cu) compiled for the host, over `groups`
/// of the `n` x `n` board with `capacity` halves a side, as a launch of the shape `launch`
/// would run it. Returns the warp votes it cast: 32 for each chunk joined bit-sliced.
pub fn count_groups(
    n: usize,
    groups: &[GroupTask],
    capacity: u32,
    launch: GroupLaunch,
    out: &mut [u64],
) -> u64 {
    let GroupLaunch {
        blocks,
        threads,
        narrow,
        sliced,
        key_halves,
    } = launch;
    // The kernel shifts a count of halves by up to key_halves + 11 bits.
    assert!(key_halves <= 20);
    assert_eq!(groups.len(), out.len(), "one count per group");
    assert!((1..=queens_core::count::gpu::groups::MAX_N).contains(&n));
    assert!(threads > 0 && threads % 32 == 0 && blocks > 0);
    assert!(threads <= queens_core::count::gpu::groups::GROUP_BLOCK);
    let count = u32::try_from(groups.len()).expect("a launch holds fewer than 2^32 groups");
    let words = queens_core::count::gpu::groups::scratch_words(capacity);
    let mut scratch = vec![0u64; blocks as usize * words as usize];
    out.fill(0);
    // SAFETY: the scratch holds scratch_words(capacity) for each of `blocks` blocks, the kernel
    // reads groups[g] and writes out[g] for g < count only, and GroupTask has the kernel's
    // layout (checked by this crate's tests).
    unsafe {
        queens_kernel_host_groups(
            groups.as_ptr(),
            count,
            n as u32,
            capacity,
            u32::from(narrow),
            sliced,
            scratch.as_mut_ptr(),
            blocks,
            threads,
            key_halves,
            out.as_mut_ptr(),
        )
    }
}

/// The bit-sliced join of one chunk (`queens_join_sliced` of kernel.cu) as one warp runs it:
/// the 1 to 32 `lowers` against the `uppers`, all of one key, so that every mask may use all
/// 32 bits; each lane's count of fitting pairs.
pub fn join_sliced(uppers: &[u32], lowers: &[u32]) -> [u32; 32] {
    assert!((1..=32).contains(&lowers.len()));
    let count = u32::try_from(uppers.len()).expect("fewer than 2^32 uppers");
    let mut lane_fit = [0u32; 32];
    // SAFETY: the kernel reads uppers[0..count] and lowers[0..left] and each lane writes its
    // own lane_fit entry, 32 of them.
    unsafe {
        queens_kernel_host_sliced(
            uppers.as_ptr(),
            count,
            lowers.as_ptr(),
            lowers.len() as u32,
            lane_fit.as_mut_ptr(),
        )
    };
    lane_fit
}
