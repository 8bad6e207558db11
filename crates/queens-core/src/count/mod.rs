//! The counting engine: the exact number of solutions (OEIS A000170) and of symmetry classes
//! (OEIS A002562) of the N x N board, on every core, in shards, resumable.
//!
//! The board's outer frame is pre-placed in one canonical way per symmetry orbit
//! ([`frame`]), each frame is a subproblem searched by a tight bitmask loop ([`kernel`]), and
//! the subproblems run on one thread or a pool ([`engine`]), optionally only one shard of them
//! ([`shard`]) and recorded in a checkpoint file ([`checkpoint`]). The total and the number of
//! classes come out of the same search; [`symmetry`] also counts the solutions fixed by the
//! half and quarter turns, so that Burnside's lemma can check the classes independently.
//!
//! # Example
//! ```
//! let counts = queens_core::count::count(8).unwrap();
//! assert_eq!((counts.total, counts.unique), (92, 12));
//! ```

pub mod checkpoint;
pub mod engine;
pub mod frame;
pub mod join;
pub mod kernel;
pub mod shard;
pub mod symmetry;

use thiserror::Error;

pub use checkpoint::Checkpoint;
pub use engine::{run_parallel, run_sequential, Control, Tally};
pub use frame::{subproblems, Subproblem};
pub use shard::Shard;

/// The widest board the engine counts: its masks are 32-bit words. (Totals are exact 128-bit
/// numbers; the count of N = 27 is the largest known, so the limit is not the practical one.)
pub const MAX_N: usize = kernel::MAX_N;

/// The name of the way the engine splits a board into subproblems. Shards and checkpoints
/// carry it, so that results of a different split are never summed together.
pub const SPLIT: &str = "frame1-v1";

/// The number of solutions and of symmetry classes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Every solution (OEIS A000170).
    pub total: u128,
    /// The solutions distinct under rotations and reflections (OEIS A002562).
    pub unique: u128,
}

/// Why the counting engine refused or stopped.
#[derive(Debug, Error)]
pub enum CountError {
    /// N was zero.
    #[error("N must be at least 1 (got 0)")]
    ZeroSize,
    /// N is past what the engine's masks hold.
    #[error(
        "N = {0} is too large for the counting engine, whose 32-bit masks handle N up to {max}",
        max = MAX_N
    )]
    TooLarge(usize),
    /// A shard specification was malformed.
    #[error("bad shard '{0}': use I/M with 0 <= I < M, for example 0/4")]
    BadShard(String),
    /// The thread pool could not be built.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
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
    match n {
        0 => Err(CountError::ZeroSize),
        n if n > MAX_N => Err(CountError::TooLarge(n)),
        _ => Ok(()),
    }
}

/// Counts total and classes of the `n` x `n` board on the calling thread alone.
///
/// # Example
/// ```
/// let counts = queens_core::count::count_sequential(10).unwrap();
/// assert_eq!((counts.total, counts.unique), (724, 92));
/// ```
pub fn count_sequential(n: usize) -> Result<Counts, CountError> {
    check_size(n)?;
    let plan = subproblems(n);
    let control = Control::new(Tally::new(plan.len()));
    let todo: Vec<usize> = (0..plan.len()).collect();
    run_sequential(n, &plan, &todo, &control);
    let counts = control.tally().counts;
    Ok(counts)
}

/// Counts total and classes of the `n` x `n` board on `threads` threads (0: one per core).
///
/// # Example
/// ```
/// let counts = queens_core::count::count_parallel(10, 2).unwrap();
/// assert_eq!((counts.total, counts.unique), (724, 92));
/// ```
pub fn count_parallel(n: usize, threads: usize) -> Result<Counts, CountError> {
    check_size(n)?;
    let plan = subproblems(n);
    let control = Control::new(Tally::new(plan.len()));
    let todo: Vec<usize> = (0..plan.len()).collect();
    run_parallel(n, &plan, &todo, threads, &control)?;
    let counts = control.tally().counts;
    Ok(counts)
}

/// Counts total and classes of the `n` x `n` board on every core.
pub fn count(n: usize) -> Result<Counts, CountError> {
    count_parallel(n, 0)
}

/// The number of solutions of the `n` x `n` board (OEIS A000170), on every core.
pub fn count_total(n: usize) -> Result<u128, CountError> {
    Ok(count(n)?.total)
}

/// The number of solutions distinct under rotations and reflections (OEIS A002562), on every
/// core.
pub fn count_unique(n: usize) -> Result<u128, CountError> {
    Ok(count(n)?.unique)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Known answers from `shared/data/queens-counts.tsv` (OEIS A000170 and A002562): rows of
    /// `(n, total, unique)`. Fails clearly when the file is missing.
    pub(crate) fn known() -> Vec<(usize, u128, u128)> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/data/queens-counts.tsv"
        );
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("the known counts must be at {path}: {e}"));
        text.lines()
            .skip(1)
            .map(|line| {
                let f: Vec<&str> = line.split('\t').collect();
                (
                    f[0].parse().unwrap(),
                    f[1].parse().unwrap(),
                    f[2].parse().unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn sequential_counts_equal_the_known_totals_and_classes() {
        for (n, total, unique) in known().into_iter().filter(|k| k.0 <= 12) {
            let c = count_sequential(n).unwrap();
            assert_eq!((c.total, c.unique), (total, unique), "n = {n}");
        }
    }

    #[test]
    fn parallel_counts_equal_the_known_totals_and_classes_up_to_fifteen() {
        for (n, total, unique) in known().into_iter().filter(|k| k.0 <= 15) {
            let c = count(n).unwrap();
            assert_eq!((c.total, c.unique), (total, unique), "n = {n}");
        }
    }

    #[test]
    fn any_number_of_threads_gives_the_same_counts_as_one() {
        for n in [1, 4, 6, 9, 11] {
            let one = count_sequential(n).unwrap();
            for threads in [1, 2, 3, 7] {
                assert_eq!(
                    count_parallel(n, threads).unwrap(),
                    one,
                    "n = {n}, {threads}"
                );
            }
        }
    }

    #[test]
    fn the_shards_of_a_board_add_up_to_the_whole() {
        let n = 11;
        let plan = subproblems(n);
        let whole = count_sequential(n).unwrap();
        for m in [1, 2, 5, 13] {
            let mut sum = Counts::default();
            for i in 0..m {
                let control = Control::new(Tally::new(plan.len()));
                let todo = Shard::new(i, m).unwrap().select(plan.len());
                run_parallel(n, &plan, &todo, 2, &control).unwrap();
                let part = control.tally().counts;
                sum.total += part.total;
                sum.unique += part.unique;
            }
            assert_eq!(sum, whole, "{m} shards");
        }
    }

    #[test]
    fn a_cancelled_run_resumed_from_its_checkpoint_gives_the_exact_count() {
        let n = 12;
        let plan = subproblems(n);
        let todo: Vec<usize> = (0..plan.len()).collect();
        // First session: count a third, then cancel.
        let control = Control::new(Tally::new(plan.len()));
        run_sequential(n, &plan, &todo[..plan.len() / 3], &control);
        control
            .cancel
            .store(true, std::sync::atomic::Ordering::SeqCst);
        run_parallel(n, &plan, &todo, 2, &control).unwrap();
        let saved = Checkpoint {
            n,
            split: SPLIT.to_string(),
            subproblems: plan.len(),
            shard: Shard::WHOLE,
            tally: control.tally().clone(),
            seconds: 0.0,
        };
        assert_eq!(saved.tally.finished, (plan.len() / 3) as u64);
        // Second session: load the text and finish.
        let text = saved.to_text();
        let loaded = Checkpoint::from_text(std::path::Path::new("t"), &text).unwrap();
        let control = Control::new(loaded.tally);
        run_parallel(n, &plan, &todo, 2, &control).unwrap();
        let tally = control.tally();
        assert_eq!(tally.finished, plan.len() as u64);
        assert_eq!(tally.counts, count_sequential(n).unwrap());
    }

    #[test]
    fn burnside_agrees_with_the_classes_counted_by_the_engine() {
        for n in 1..=12 {
            let c = count(n).unwrap();
            let half = u128::from(symmetry::count_fixed_by_half_turn(n));
            let quarter = u128::from(symmetry::count_fixed_by_quarter_turn(n));
            assert_eq!(
                symmetry::classes_from_fixed(n, c.total, half, quarter),
                c.unique
            );
        }
    }

    #[test]
    fn sizes_past_the_masks_are_refused_clearly() {
        assert!(matches!(count(0), Err(CountError::ZeroSize)));
        let err = count(33).unwrap_err().to_string();
        assert!(err.contains("N = 33") && err.contains("up to 32"), "{err}");
    }
}
