//! The counting engine: the exact number of solutions (OEIS A000170) and of symmetry classes
//! (OEIS A002562) of the N x N board, on every core, in shards, resumable.
//!
//! The layers, each a file or a folder, top-down:
//! - `run.rs`: a [`Run`] holds the engine's plan, the shard, the threads and the tally, and
//!   executes it, whatever the engine.
//! - `plan.rs`: the one place that maps an [`Engine`] to its code: the plan a run holds, one
//!   variant per engine, each a `Counter` (`counter.rs`, the seam a run drives).
//! - `frames/`: the frame engine. The board's outer frame is pre-placed in one canonical way
//!   per symmetry orbit; each frame is a [`Subproblem`], cut into pieces on large boards
//!   ([`pieces`]), searched by a tight bitmask loop with its last rows joined from a table.
//! - `halves/`: the half-board engine (from N = 12 to 24 by default).
//! - `control.rs`: what a run and its engines share: the [`Tally`] of the subproblems counted
//!   and the cancel flag ([`Control`]).
//! - `shard.rs` and `checkpoint/`: one [`Shard`] of the plan, and the saved state of a run.
//! - `invariants.rs`: what every complete count obeys (an even total, classes between an
//!   eighth and a half of it), checked on merge and resume whatever the checksums say.
//! - `split.rs`: the typed [`Split`] of a board into subproblems, and its names.
//! - `shard_result/`: the one-line result of a shard, written and read back.
//! - `merge.rs`: the shard results of a count added up, once every shard is there once
//!   ([`merge()`]).
//! - `estimate.rs`: the Monte Carlo estimate of a count too large to run.
//! - `kaplan_meier.rs`: the mean of a sample some of whose counts were stopped, which both
//!   engines' estimates take.
//! - `sampling.rs`: how long an estimate samples, within which bound, and by which clock it
//!   times its counts.
//! - `types.rs`: [`Counts`], [`CountError`] and [`MAX_N`], which every layer imports.
//! - `fixed.rs`: the solutions fixed by the half and quarter turns, so that Burnside's lemma
//!   can check the classes independently, and the class representatives in order.
//!
//! A run is assembled by [`Run`]: N, the shard, the threads, the state to resume from.
//!
//! # Example
//! ```
//! let counts = queens_core::count::count(8).unwrap();
//! assert_eq!((counts.total, counts.unique), (92, 12));
//! ```

pub(crate) mod checkpoint;
pub(crate) mod checksum;
pub(crate) mod control;
mod counter;
pub(crate) mod estimate;
pub(crate) mod fixed;
pub(crate) mod frames;
pub mod gpu;
pub mod halves;
mod invariants;
mod kaplan_meier;
pub mod mac;
mod merge;
mod plan;
mod run;
pub(crate) mod sampling;
pub(crate) mod shard;
pub mod shard_result;
mod split;
mod types;

pub use checkpoint::{
    is_temporary_of, remove_stale_temporaries, Checkpoint, Spent, MAX_SUBPROBLEMS,
};
pub use checksum::{checksum, fnv1a64};
pub use control::{Control, Tally};
pub use estimate::{estimate, probe_nodes, Estimate};
pub use fixed::{
    classes_from_fixed, count_fixed_by_half_turn, count_fixed_by_quarter_turn, for_each_canonical,
};
pub use frames::frame::{subproblems, Subproblem};
pub use frames::pieces;
pub use invariants::{check_complete, classes_of_eighths, Impossible};
pub use merge::{merge, MergeError, Merged, MISSING_NAMED};
pub use plan::{Engine, HALVES_FROM};
pub use run::{Run, MAX_THREADS};
pub use sampling::Sampling;
pub use shard::{Shard, MAX_SHARDS};
pub use split::{Split, UnknownSplit, SPLIT};
pub use types::{add_counts, check_size, CountError, Counts, MAX_N, MAX_RUN_SECONDS};

/// Counts total and classes of the `n` x `n` board on the calling thread alone.
///
/// # Example
/// ```
/// let counts = queens_core::count::count_sequential(10).unwrap();
/// assert_eq!((counts.total, counts.unique), (724, 92));
/// ```
pub fn count_sequential(n: usize) -> Result<Counts, CountError> {
    Run::new(n)?.threads(1).execute()
}

/// Counts total and classes of the `n` x `n` board on `threads` threads (0: one per core; at
/// most [`MAX_THREADS`], and no more than the board has subproblems: see [`Run::execute`]).
///
/// # Example
/// ```
/// let counts = queens_core::count::count_parallel(10, 2).unwrap();
/// assert_eq!((counts.total, counts.unique), (724, 92));
/// ```
pub fn count_parallel(n: usize, threads: usize) -> Result<Counts, CountError> {
    Run::new(n)?.threads(threads).execute()
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
mod audit_tests;

#[cfg(test)]
mod tests {
    use super::frames::engine::{run_parallel, run_sequential};
    use super::*;

    /// Known answers (OEIS A000170 and A002562): rows of `(n, total, unique)`.
    pub(crate) fn known() -> Vec<(usize, u128, u128)> {
        crate::reference::known()
            .into_iter()
            .map(|k| (k.n, k.total, k.unique))
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
            cpu_seconds: None,
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
    fn pieces_count_the_known_totals_and_classes_at_every_depth_shard_and_thread_count() {
        for (n, total, unique) in known().into_iter().filter(|k| (5..=12).contains(&k.0)) {
            for depth in 1..=3 {
                let run = Run::with_depth(n, depth).unwrap().threads(1);
                assert_eq!(run.split(), format!("frame1-rows{depth}-v1"));
                let whole = run.execute().unwrap();
                assert_eq!(
                    (whole.total, whole.unique),
                    (total, unique),
                    "n = {n}, depth {depth}"
                );
                for (m, threads) in [(2, 2), (3, 1), (7, 2)] {
                    let mut sum = Counts::default();
                    for i in 0..m {
                        let shard = Shard::new(i, m).unwrap();
                        let run = Run::with_depth(n, depth)
                            .unwrap()
                            .shard(shard)
                            .threads(threads);
                        let part = run.execute().unwrap();
                        assert!(run.is_complete());
                        sum = add_counts(sum, part).unwrap();
                    }
                    assert_eq!(sum.total, total, "n = {n}, depth {depth}, {m} shards");
                    assert_eq!(sum.unique, 8 * unique, "eighths, n = {n}, {m} shards");
                }
            }
        }
    }

    #[test]
    fn large_boards_cut_their_frames_and_small_ones_keep_the_first_split() {
        assert_eq!(Run::new(21).unwrap().split(), SPLIT);
        assert_eq!(Run::new(22).unwrap().split(), "frame1-rows2-v1");
        assert_eq!(Run::new(27).unwrap().split(), "frame1-rows6-v1");
        let pieces: Split = "frame1-rows6-v1".parse().unwrap();
        assert_eq!(pieces.subproblems(27), Some(subproblems(27).len()));
        assert_eq!(Split::Frames.subproblems(27), Some(subproblems(27).len()));
        assert!(Split::Pieces { depth: 7 }.unique_in_eighths());
        assert!(!Split::Frames.unique_in_eighths());
    }

    /// Runs `run` on two threads and cancels it after `delay`; returns its checkpoint.
    fn interrupted(run: Run, delay: std::time::Duration) -> Checkpoint {
        let run = std::sync::Arc::new(run);
        let watcher = {
            let run = std::sync::Arc::clone(&run);
            std::thread::spawn(move || {
                std::thread::sleep(delay);
                run.cancel();
            })
        };
        run.execute().unwrap();
        watcher.join().unwrap();
        run.checkpoint(Spent::default())
    }

    #[test]
    fn a_piece_run_cancelled_at_any_moment_resumes_from_its_text_to_the_exact_count() {
        let (n, depth) = (13, 3);
        let exact = count_sequential(n).unwrap();
        let mut begun = 0;
        for (shards, ms) in [(1, 0), (1, 3), (1, 10), (1, 30), (3, 5), (3, 20)] {
            let mut sum = Counts::default();
            for i in 0..shards {
                let shard = Shard::new(i, shards).unwrap();
                let fresh = || Run::with_depth(n, depth).unwrap().shard(shard).threads(2);
                let saved = interrupted(fresh(), std::time::Duration::from_millis(ms));
                begun += saved.tally.pieces.len();
                let text = saved.to_text();
                let path = std::path::Path::new("t");
                let loaded = Checkpoint::from_text(path, &text).unwrap();
                assert_eq!(loaded, saved);
                let (run, _) = fresh().resume(loaded, path).unwrap();
                let part = run.execute().unwrap();
                assert!(run.is_complete());
                assert!(run.control().tally().pieces.is_empty());
                sum = add_counts(sum, part).unwrap();
            }
            let unique = if shards == 1 {
                exact.unique
            } else {
                8 * exact.unique
            };
            assert_eq!(
                (sum.total, sum.unique),
                (exact.total, unique),
                "{shards} shards, {ms} ms"
            );
        }
        assert!(
            begun > 0,
            "no run was interrupted with a frame half counted"
        );
    }

    #[test]
    fn a_checkpoint_of_whole_frames_resumes_with_whole_frames() {
        // A file of the first split (as binaries before pieces wrote at every N) keeps working.
        let n = 12;
        let saved = interrupted(Run::with_depth(n, 0).unwrap(), std::time::Duration::ZERO);
        assert_eq!(saved.split, SPLIT);
        let path = std::path::Path::new("t");
        let (run, _) = Run::with_depth(n, 2).unwrap().resume(saved, path).unwrap();
        assert_eq!((run.split(), run.depth()), (SPLIT.to_string(), 0));
        assert_eq!(run.execute().unwrap(), count_sequential(n).unwrap());
        // A checkpoint of pieces resumes with its own depth.
        let saved = interrupted(Run::with_depth(n, 3).unwrap(), std::time::Duration::ZERO);
        let (run, _) = Run::with_depth(n, 0).unwrap().resume(saved, path).unwrap();
        assert_eq!(run.depth(), 3);
        assert_eq!(run.execute().unwrap(), count_sequential(n).unwrap());
    }

    #[test]
    fn a_piece_recount_agrees_and_a_tampered_piece_sum_is_refused() {
        let (n, depth) = (11, 2);
        let shard = Shard::new(1, 3).unwrap();
        let run = Run::with_depth(n, depth).unwrap().shard(shard).threads(2);
        run.execute().unwrap();
        let tally = run.control().tally().clone();
        for i in (0..tally.parts.len()).step_by(5) {
            assert_eq!(run.recount(i), Some(tally.parts[i]), "frame {i}");
        }
        // A begun frame whose pieces' sum no frame can have.
        let mut saved = interrupted(
            Run::with_depth(13, 3).unwrap(),
            std::time::Duration::from_millis(5),
        );
        let Some((_, fp)) = saved.tally.pieces.iter_mut().next() else {
            return; // the run ended before the cancel (a very fast machine)
        };
        fp.counts.total += 1;
        let err = Run::with_depth(13, 3)
            .unwrap()
            .resume(saved, std::path::Path::new("t"))
            .unwrap_err();
        assert!(err.to_string().contains("its pieces so far"), "{err}");
    }

    #[test]
    fn a_cancel_raised_in_the_middle_of_a_long_subproblem_stops_it_unrecorded() {
        // The first frame of N = 21 takes seconds; a flag raised after 20 ms must end it.
        let n = 21;
        let run = std::sync::Arc::new(Run::new(n).unwrap().threads(1));
        let watcher = {
            let run = std::sync::Arc::clone(&run);
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(20));
                run.cancel();
            })
        };
        let counts = run.execute().unwrap();
        watcher.join().unwrap();
        let tally = run.control().tally();
        assert_eq!(
            tally.finished, 0,
            "a cancelled subproblem is never recorded"
        );
        assert_eq!(counts, Counts::default());
    }

    #[test]
    fn recounts_by_the_plain_search_agree_with_the_engine() {
        for n in [12, 15, 16] {
            let run = Run::new(n).unwrap().threads(2);
            run.execute().unwrap();
            let tally = run.control().tally().clone();
            let plan = subproblems(n);
            for i in (0..plan.len()).step_by(plan.len() / 17 + 1) {
                assert_eq!(
                    run.recount(i),
                    Some(tally.parts[i]),
                    "n = {n}, subproblem {i}"
                );
            }
            // Some of those frames are fixed by a symmetry, some are not.
            assert!(plan.iter().any(|s| !s.fixed_by.is_empty()));
            assert_eq!(run.recount(plan.len()), None);
        }
    }

    #[test]
    fn a_saved_part_that_its_frame_cannot_have_is_refused_on_resume() {
        let n = 10;
        let run = Run::new(n).unwrap().threads(1);
        run.execute().unwrap();
        let good = run.checkpoint(Spent::default());
        let path = std::path::Path::new("r.ckpt");
        assert!(Run::new(n).unwrap().resume(good.clone(), path).is_ok());
        let plan = subproblems(n);
        let free = plan.iter().position(|s| s.fixed_by.is_empty()).unwrap();
        let mut bad = good.clone();
        let part = &mut bad.tally.parts[free];
        part.total += 8;
        bad.tally.counts.total += 8;
        let text = bad.to_text();
        // The file itself is consistent (parts add up, checksum right) but the frame cannot
        // have those counts: 8 more solutions without one more class.
        let loaded = Checkpoint::from_text(path, &text).unwrap();
        let err = Run::new(n)
            .unwrap()
            .resume(loaded, path)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("subproblem {free} cannot have")),
            "{err}"
        );
    }

    #[test]
    fn burnside_agrees_with_the_classes_counted_by_the_engine() {
        for n in 1..=12 {
            let c = count(n).unwrap();
            let half = u128::from(fixed::count_fixed_by_half_turn(n).unwrap());
            let quarter = u128::from(fixed::count_fixed_by_quarter_turn(n).unwrap());
            assert_eq!(
                fixed::classes_from_fixed(n, c.total, half, quarter),
                c.unique
            );
        }
    }

    fn halves_run(n: usize, threads: usize) -> Run {
        let run = Run::with_engine(n, Engine::Halves, threads, 1 << 30).unwrap();
        assert_eq!(run.engine(), Engine::Halves);
        run
    }

    #[test]
    fn the_half_board_engine_counts_the_known_totals_and_classes_on_one_and_two_threads() {
        for (n, total, unique) in known().into_iter().filter(|k| k.0 <= 16) {
            for threads in [1, 2] {
                let c = halves_run(n, threads).execute().unwrap();
                assert_eq!(
                    (c.total, c.unique),
                    (total, unique),
                    "n = {n}, {threads} threads"
                );
            }
        }
    }

    #[test]
    fn the_half_board_engine_counts_seventeen() {
        let (_, total, unique) = known().into_iter().find(|k| k.0 == 17).unwrap();
        let c = halves_run(17, 2).execute().unwrap();
        assert_eq!((c.total, c.unique), (total, unique));
    }

    #[test]
    fn the_half_board_shards_add_up_to_the_whole_and_their_eighths_to_the_classes() {
        for n in [9, 12, 14, 15] {
            let (_, total, unique) = known().into_iter().find(|k| k.0 == n).unwrap();
            for m in [1, 2, 5, 13] {
                let mut sum = Counts::default();
                for i in 0..m {
                    let run = halves_run(n, 2).shard(Shard::new(i, m).unwrap());
                    let part = run.execute().unwrap();
                    assert!(run.is_complete());
                    sum.total += part.total;
                    sum.unique += part.unique;
                }
                let classes = if m == 1 { sum.unique } else { sum.unique / 8 };
                assert_eq!((sum.total, classes), (total, unique), "n = {n}, {m} shards");
            }
        }
    }

    #[test]
    fn a_cancelled_half_board_run_resumed_from_its_checkpoint_gives_the_exact_count() {
        let n = 14;
        let first = halves_run(n, 1);
        let third = first.subproblems() / 3;
        // First session: a third of the subproblems (as a shard would), then a cancelled run.
        let todo: Vec<usize> = (0..third).collect();
        let plan = first.plan.halves().expect("a half-board run");
        halves::run(plan, &todo, 1, first.control()).unwrap();
        first.cancel();
        first.execute().unwrap();
        assert!(!first.is_complete());
        let spent = Spent {
            seconds: 1.5,
            cpu_seconds: Some(2.75),
        };
        let saved = first.checkpoint(spent);
        assert_eq!(saved.tally.finished, third as u64);
        assert_eq!(saved.split, first.split());
        // Second session: load the text and finish on two threads.
        let loaded = Checkpoint::from_text(std::path::Path::new("t"), &saved.to_text()).unwrap();
        let (second, resumed) = halves_run(n, 2)
            .resume(loaded.clone(), std::path::Path::new("t"))
            .unwrap();
        assert_eq!(resumed, spent);
        let c = second.execute().unwrap();
        assert!(second.is_complete());
        assert_eq!(c, count_sequential(n).unwrap());
        // A checkpoint of the other engine, or of another board, is refused.
        let frames = Run::new(n).unwrap();
        let err = frames
            .resume(loaded.clone(), std::path::Path::new("t"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("split"), "{err}");
        let other = Run::with_engine(13, Engine::Halves, 1, 1 << 30).unwrap();
        let err = other
            .resume(loaded, std::path::Path::new("t"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("N = 14, not N = 13"), "{err}");
    }

    #[test]
    fn a_raised_cancel_flag_stops_a_half_board_count() {
        let run = halves_run(15, 1);
        run.cancel();
        run.execute().unwrap();
        assert_eq!(run.control().tally().finished, 0);
    }

    #[test]
    fn a_memory_budget_too_small_for_any_split_is_refused_clearly() {
        let err = Run::with_engine(18, Engine::Halves, 2, 1 << 20).unwrap_err();
        assert!(matches!(err, CountError::MemoryBudget { .. }), "{err}");
        let text = err.to_string();
        assert!(text.contains("N = 18") && !text.contains("--"), "{text}");
        // A budget that fits a finer split than the default is used, under another name.
        let fine = Run::with_engine(18, Engine::Halves, 2, 64 << 20).unwrap();
        let coarse = Run::with_engine(18, Engine::Halves, 2, 1 << 30).unwrap();
        assert_ne!(fine.split(), coarse.split());
        assert!(fine.subproblems() > coarse.subproblems());
    }

    #[test]
    fn auto_chooses_the_half_board_engine_from_twelve_on() {
        for n in [1, 8, 11, 25, 32] {
            assert_eq!(
                Run::with_engine(n, Engine::Auto, 1, 1 << 30)
                    .unwrap()
                    .engine(),
                Engine::Frame
            );
        }
        for n in [12, 16, 24] {
            assert_eq!(
                Run::with_engine(n, Engine::Auto, 1, 1 << 30)
                    .unwrap()
                    .engine(),
                Engine::Halves
            );
        }
        // Too little memory for the half-board engine: auto falls back, an explicit choice is
        // refused.
        assert_eq!(
            Run::with_engine(18, Engine::Auto, 2, 1 << 20)
                .unwrap()
                .engine(),
            Engine::Frame
        );
    }

    #[test]
    fn sizes_past_the_masks_are_refused_clearly() {
        assert!(matches!(count(0), Err(CountError::Size(_))));
        let err = count(33).unwrap_err().to_string();
        assert!(err.contains("N = 33") && err.contains("up to 32"), "{err}");
    }
}
