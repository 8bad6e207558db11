//! The pair join on a GPU: all pairs of given groups of halves tested on the device, a
//! building block timed by `examples/gpu_join.rs` (`scripts/gpu-check`'s join check);
//! `queens count` counts the half-board split with the groups kernel instead (`groups.rs`),
//! which lists the halves on the device too and meets only the pairs whose keys allow a fit.
//!
//! The idea: the groups of one or more subproblems go to the device as two arrays of masks and
//! a list of [`JoinTask`]s, each a slice of at most [`JOIN_LOWERS`] lower halves against a
//! slice of at most [`JOIN_UPPERS`] upper halves (so that every task is about the same work and
//! a large group spreads over the whole device), and the kernel `queens_join_pairs` of
//! `kernel.cu` counts each task's pairs. [`Joiner`] is its device seam: the CUDA driver
//! (`cuda.rs`), the kernel's own source compiled for the host (`crates/queens-kernel-host`),
//! or [`CpuTwin`], the same loop in Rust. Source: the meet-in-the-middle join of the half-board
//! engine, here as a brute-force pair count. Cost: one AND and one compare per pair on the
//! device; 8 bytes a half and 16 a task across the bus.

use super::GpuError;

/// The most lower halves in one task: one per thread of a block.
pub const JOIN_LOWERS: u32 = 128;

/// The most upper halves in one task: each thread of the task tests its lower half against
/// this many.
pub const JOIN_UPPERS: u32 = 4096;

/// The name of the join's entry point in [`super::KERNEL_SOURCE`].
pub const JOIN_NAME: &str = "queens_join_pairs";

/// One task of a join launch: the lower halves `lowers[lower..lower + lowers]` against the
/// upper halves `uppers[upper..upper + uppers]` (`QueensJoinTask` in `kernel.cu`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct JoinTask {
    /// The first lower half.
    pub lower: u32,
    /// How many lower halves.
    pub lowers: u32,
    /// The first upper half.
    pub upper: u32,
    /// How many upper halves.
    pub uppers: u32,
}

/// The two sides of a join launch: every upper and every lower half its tasks read, by index.
#[derive(Debug, Clone, Copy)]
pub struct Halves<'a> {
    /// The upper halves' masks.
    pub uppers: &'a [u64],
    /// The lower halves' masks.
    pub lowers: &'a [u64],
}

/// What a launch returns: its counters are filled in, or the device said why not.
pub type Launched = Result<(), GpuError>;

/// A device that counts, for each task, the pairs of its lower and upper halves whose masks
/// share no bit.
pub trait Joiner: Send + Sync {
    /// Counts each of `tasks` (over `halves`) into `out`, as long as `tasks`; blocks until done.
    fn join(&self, halves: Halves<'_>, tasks: &[JoinTask], out: &mut [u64])
        -> Result<(), GpuError>;
}

/// `len` masks of `bits` bits (at most 64) with up to `set` bits each, drawn from `seed`: the
/// stand-ins for a subproblem's halves in the join's tests and measurements (the halves of
/// N = 20 have 10 queens a side, each on two diagonals: about 20 of 40 bits).
pub fn sample_masks(seed: u64, len: usize, bits: u32, set: u32) -> Vec<u64> {
    let mut rng = crate::random::Rng::new(seed);
    (0..len)
        .map(|_| (0..set).fold(0, |m, _| m | 1u64 << rng.below(bits as usize)))
        .collect()
}

/// The join kernel's loop on the CPU, one task after another.
#[derive(Debug, Default, Clone, Copy)]
pub struct CpuTwin;

impl Joiner for CpuTwin {
    fn join(&self, halves: Halves<'_>, tasks: &[JoinTask], out: &mut [u64]) -> Launched {
        for (t, o) in tasks.iter().zip(out.iter_mut()) {
            let ups = &halves.uppers[t.upper as usize..(t.upper + t.uppers) as usize];
            let lows = &halves.lowers[t.lower as usize..(t.lower + t.lowers) as usize];
            *o = lows
                .iter()
                .map(|&l| ups.iter().filter(|&&u| u & l == 0).count() as u64)
                .sum();
        }
        Ok(())
    }
}

/// The groups of a join laid out for a launch: both sides' masks end to end, and the tasks.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct JoinBatch {
    /// Every upper half, group after group.
    pub uppers: Vec<u64>,
    /// Every lower half, group after group.
    pub lowers: Vec<u64>,
    /// The tasks: each pair of groups cut into slices of at most [`JOIN_LOWERS`] x
    /// [`JOIN_UPPERS`] halves.
    pub tasks: Vec<JoinTask>,
}

impl JoinBatch {
    /// The batch of `pairs`, each an upper group and the lower group it is joined with (empty
    /// groups make no task). Panics past 2^32 halves a side: a launch holds fewer.
    pub fn of<'a>(pairs: impl IntoIterator<Item = (&'a [u64], &'a [u64])>) -> JoinBatch {
        let mut batch = JoinBatch::default();
        for (ups, lows) in pairs {
            if ups.is_empty() || lows.is_empty() {
                continue;
            }
            let at = |v: &Vec<u64>| u32::try_from(v.len()).expect("fewer than 2^32 halves");
            let (upper, lower) = (at(&batch.uppers), at(&batch.lowers));
            batch.uppers.extend_from_slice(ups);
            batch.lowers.extend_from_slice(lows);
            let (ups, lows) = (at(&batch.uppers) - upper, at(&batch.lowers) - lower);
            for l in (0..lows).step_by(JOIN_LOWERS as usize) {
                for u in (0..ups).step_by(JOIN_UPPERS as usize) {
                    batch.tasks.push(JoinTask {
                        lower: lower + l,
                        lowers: JOIN_LOWERS.min(lows - l),
                        upper: upper + u,
                        uppers: JOIN_UPPERS.min(ups - u),
                    });
                }
            }
        }
        batch
    }

    /// The two sides, as a launch reads them.
    pub fn halves(&self) -> Halves<'_> {
        Halves {
            uppers: &self.uppers,
            lowers: &self.lowers,
        }
    }

    /// The fitting pairs of each task, counted by `joiner`.
    pub fn per_task(&self, joiner: &dyn Joiner) -> Result<Vec<u64>, GpuError> {
        let mut out = vec![0u64; self.tasks.len()];
        joiner.join(self.halves(), &self.tasks, &mut out)?;
        Ok(out)
    }

    /// The number of fitting pairs of the whole batch, counted by `joiner`.
    pub fn count(&self, joiner: &dyn Joiner) -> Result<u64, GpuError> {
        Ok(self.per_task(joiner)?.iter().sum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Masks of `bits` bits, sparse enough that many pairs fit.
    fn masks(seed: u64, len: usize, bits: u32) -> Vec<u64> {
        sample_masks(seed, len, bits, 4)
    }

    fn brute(ups: &[u64], lows: &[u64]) -> u64 {
        let mut n = 0;
        for &u in ups {
            for &l in lows {
                n += u64::from(u & l == 0);
            }
        }
        n
    }

    /// Groups of every awkward size (empty, one, one past a task's width, several tasks each
    /// way) count on the twin what every pair tested counts, and the tasks cover each pair of
    /// each group once.
    #[test]
    fn the_batch_counts_every_pair_of_its_groups_once() {
        let sizes = [0usize, 1, 127, 128, 129, 300, 4095, 4097, 9000];
        let mut groups = Vec::new();
        for (i, &u) in sizes.iter().enumerate() {
            let l = sizes[(i * 5 + 3) % sizes.len()];
            groups.push((masks(i as u64 + 7, u, 36), masks(i as u64 + 99, l, 36)));
        }
        let batch = JoinBatch::of(groups.iter().map(|(u, l)| (&u[..], &l[..])));
        let want: u64 = groups.iter().map(|(u, l)| brute(u, l)).sum();
        assert!(want > 0);
        assert_eq!(batch.count(&CpuTwin).unwrap(), want);
        let covered: u64 = batch
            .tasks
            .iter()
            .map(|t| u64::from(t.lowers) * u64::from(t.uppers))
            .sum();
        let pairs: u64 = groups.iter().map(|(u, l)| (u.len() * l.len()) as u64).sum();
        assert_eq!(covered, pairs);
        assert!(batch
            .tasks
            .iter()
            .all(|t| t.lowers <= JOIN_LOWERS && t.uppers <= JOIN_UPPERS && t.lowers > 0));
    }
}
