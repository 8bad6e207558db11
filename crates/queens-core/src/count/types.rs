//! What every layer of the counter shares: the counts ([`Counts`]), the errors ([`CountError`])
//! and the largest board ([`MAX_N`], from the kernel's 32-bit masks). It calls only the kernel
//! (for its limit) and the crate's size error; every other file of `count/` may import it.

use thiserror::Error;

use super::frames::kernel;
use crate::error::SizeError;

/// The widest board the engine counts: its masks are 32-bit words. (Totals are exact 128-bit
/// numbers; the count of N = 27 is the largest known, so the limit is not the practical one.)
pub const MAX_N: usize = kernel::MAX_N;

/// The longest time a shard result or a checkpoint may record, in seconds: 10^12, about 31,700
/// years. More is no run's, only an edited file's, and would print as a number of 300 digits.
pub const MAX_RUN_SECONDS: f64 = 1e12;

/// `seconds` as a shard result or a checkpoint records it: within 0 to [`MAX_RUN_SECONDS`],
/// what their readers accept, so that a writer never writes what they refuse. A time that is
/// not a number or is negative (a clock set back) is written as 0, a longer one (or an
/// infinite one) as [`MAX_RUN_SECONDS`].
pub(crate) fn recordable_seconds(seconds: f64) -> f64 {
    if seconds.is_nan() {
        0.0
    } else {
        // `+ 0.0` turns -0 into 0.
        seconds.clamp(0.0, MAX_RUN_SECONDS) + 0.0
    }
}

/// Times a reader would refuse (not a number, negative, infinite, past [`MAX_RUN_SECONDS`]) or
/// that sit on its bound, each with what a writer records for it: the cases the shard result's
/// and the checkpoint's round-trip tests share.
#[cfg(test)]
pub(crate) const TIMES_TO_RECORD: [(f64, f64); 7] = [
    (f64::NAN, 0.0),
    (-1.0, 0.0),
    (-0.0, 0.0),
    (f64::NEG_INFINITY, 0.0),
    (f64::INFINITY, MAX_RUN_SECONDS),
    (1e300, MAX_RUN_SECONDS),
    (MAX_RUN_SECONDS, MAX_RUN_SECONDS),
];

/// The number of solutions and of symmetry classes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Every solution (OEIS A000170).
    pub total: u128,
    /// The solutions distinct under rotations and reflections (OEIS A002562).
    pub unique: u128,
}

/// Adds two counts, or `None` past 2^128 - 1.
pub fn add_counts(a: Counts, b: Counts) -> Option<Counts> {
    Some(Counts {
        total: a.total.checked_add(b.total)?,
        unique: a.unique.checked_add(b.unique)?,
    })
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
    /// The GPU engine could not run (see [`GpuError`](super::gpu::error::GpuError)).
    #[error(transparent)]
    Gpu(#[from] super::gpu::error::GpuError),
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
        "the half-board engine needs about {} for N = {n} with its finest split, more than \
         the budget of {}",
        crate::error::bytes(*need), crate::error::bytes(*budget)
    )]
    MemoryBudget {
        /// The board size.
        n: usize,
        /// The bytes one subproblem of the finest split needs.
        need: u64,
        /// The budget.
        budget: u64,
    },
    /// A buffer of the half-board engine could not grow during the run: the process has less
    /// memory than the budget checked before it assumed.
    #[error(
        "out of memory: the half-board engine could not allocate {} for the halves of a \
         subproblem of N = {n}; this process can have less memory than the budget allowed for",
        crate::error::bytes(*bytes)
    )]
    OutOfMemory {
        /// The board size.
        n: usize,
        /// The bytes the buffer asked for in all.
        bytes: u64,
    },
    /// A checkpoint's recorded half-board split does not fit in the memory budget.
    #[error(
        "checkpoint file {path} records the split {split}, whose subproblems need about {} MiB \
         each, more than the budget of {}",
        need.div_ceil(1 << 20), crate::error::bytes(*budget)
    )]
    CheckpointMemory {
        /// The file.
        path: String,
        /// The split it records.
        split: String,
        /// The bytes one of its subproblems needs.
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

/// Checks that `n` is a size the engine counts.
pub fn check_size(n: usize) -> Result<(), CountError> {
    Ok(SizeError::check(n, "the counting engine", MAX_N)?)
}
