//! The run's plan against the machine, and the audits whatever engine counted: a half-board
//! checkpoint resumes with the split it records on any threads (or says the memory it needs),
//! its parts are recounted by the plain search, and impossible parts or complete counts are
//! refused whatever their checksums say.

use std::path::Path;

use super::*;
use crate::reference;

fn known(n: usize) -> Counts {
    let k = reference::known().into_iter().find(|k| k.n == n).unwrap();
    Counts {
        total: k.total,
        unique: k.unique,
    }
}

/// The checkpoint of the whole `n` x `n` board by `split`, with every `keep`-th subproblem
/// counted (from a complete run), as an interrupted run would have saved it.
fn partial(n: usize, split: &str, keep: usize) -> Checkpoint {
    let run = Run::of_split(n, split, Shard::WHOLE).unwrap().threads(2);
    run.execute().unwrap();
    let full = run.checkpoint(Spent::default());
    let mut tally = Tally::new(full.subproblems);
    for i in (0..full.subproblems).step_by(keep) {
        tally.record(i, full.tally.parts[i]);
    }
    Checkpoint { tally, ..full }
}

#[test]
fn a_half_board_checkpoint_resumes_with_its_own_split_on_any_number_of_threads() {
    let n = 14;
    // The split this binary makes of N = 14 is halves6; the file records halves8.
    let default = Run::with_engine(n, Engine::Halves, 1, 1 << 30).unwrap();
    assert_eq!(default.split(), "halves6-v1");
    for threads in [1, 2, 16] {
        let saved = partial(n, "halves8-v1", 3);
        let run = Run::with_engine(n, Engine::Halves, threads, 1 << 30)
            .unwrap()
            .threads(threads);
        let (run, _) = run.resume(saved, Path::new("t")).unwrap();
        assert_eq!(run.split(), "halves8-v1");
        assert_eq!(run.execute().unwrap(), known(n), "{threads} threads");
    }
}

/// The frame engine's threads fit in the budget at once as the half-board engine's
/// subproblems do, by its memory model (a thread's stack and join buffers), one at least; a
/// board it does not join has nothing but stacks to fit.
#[test]
fn the_frame_engines_threads_fit_in_the_budget_at_once() {
    let one = frames::join::thread_bytes(17);
    for (budget, workers) in [(u64::MAX, 8), (4 * one, 4), (one, 1), (1024, 1)] {
        let run = Run::with_engine(17, Engine::Frame, 8, 1 << 30)
            .unwrap()
            .memory_at_once(budget);
        assert_eq!(run.worker_bytes(), Some(one));
        assert_eq!(run.workers(), workers, "budget {budget}");
    }
    let small = Run::with_engine(12, Engine::Frame, 8, 1 << 30).unwrap();
    assert_eq!(small.memory_at_once(20 << 20).workers(), 8);
    // Either way the count is exact.
    let run = Run::with_engine(15, Engine::Frame, 4, 1 << 30)
        .unwrap()
        .memory_at_once(1024);
    assert_eq!(run.workers(), 1);
    assert_eq!(run.execute().unwrap(), known(15));
}

#[test]
fn the_split_depends_on_the_board_and_the_budget_never_on_the_threads() {
    for (n, budget) in [(16, 32 << 20), (17, 32 << 20), (19, 1 << 30), (20, 1 << 30)] {
        let splits: Vec<String> = [0, 1, 2, 3, 16, 64]
            .iter()
            .map(|&t| {
                Run::with_engine(n, Engine::Halves, t, budget)
                    .unwrap()
                    .split()
            })
            .collect();
        assert!(
            splits.iter().all(|s| *s == splits[0]),
            "N = {n}: {splits:?}"
        );
    }
}

#[test]
fn a_recorded_split_that_does_not_fit_the_budget_says_the_memory_it_needs() {
    let n = 17;
    let saved = partial(n, "halves8-v1", 50);
    let need = halves::bytes_per_thread(n, 8);
    let budget = need / 2;
    let run = Run::with_engine(n, Engine::Halves, 1, budget).unwrap();
    assert_ne!(run.split(), "halves8-v1");
    let err = run.resume(saved, Path::new("t")).unwrap_err();
    assert!(matches!(err, CountError::CheckpointMemory { .. }), "{err}");
    let message = err.to_string();
    // The engine's words: the memory in MiB, no flag (the binary adds `--max-memory NM`).
    let asked = format!("about {} MiB each", need.div_ceil(1 << 20));
    assert!(
        message.contains(&asked) && message.contains("halves8-v1") && !message.contains("--"),
        "{message}"
    );
}

#[test]
fn every_half_board_subproblem_recounted_by_the_plain_search_agrees() {
    for (n, split) in [(12, "halves4-v1"), (13, "halves6-v1"), (14, "halves6-v1")] {
        let run = Run::of_split(n, split, Shard::WHOLE).unwrap().threads(2);
        run.execute().unwrap();
        let tally = run.control().tally().clone();
        for i in 0..run.subproblems() {
            assert_eq!(
                run.recount(i),
                Some(tally.parts[i]),
                "N = {n}, subproblem {i}"
            );
        }
        assert_eq!(run.recount(run.subproblems()), None);
        // A shard's recount is its count, eighths of classes and all.
        let shard = Shard::new(1, 3).unwrap();
        let part = Run::of_split(n, split, shard).unwrap().threads(1);
        assert_eq!(part.recount_shard(), Some(part.execute().unwrap()));
        let whole = Run::of_split(n, split, Shard::WHOLE).unwrap();
        assert_eq!(whole.recount_shard(), Some(known(n)));
    }
}

#[test]
fn a_shard_recounted_in_parallel_agrees_with_its_recount_on_one_thread() {
    for (n, split) in [
        (12, "frame1-v1"),
        (13, "halves6-v1"),
        (12, "frame1-rows1-v1"),
    ] {
        for shard in [Shard::WHOLE, Shard::new(2, 5).unwrap()] {
            let run = Run::of_split(n, split, shard).unwrap();
            let one = run.recount_shard();
            assert!(one.is_some(), "N = {n}, {split}, {shard}");
            for threads in [1, 2, 3] {
                assert_eq!(
                    run.recount_shard_parallel(threads).unwrap(),
                    one,
                    "N = {n}, {split}, shard {shard}, {threads} threads"
                );
            }
        }
    }
}

#[test]
fn a_half_board_part_no_subproblem_can_have_is_refused() {
    let n = 13;
    let mut saved = partial(n, "halves6-v1", 2);
    let i = saved.tally.finished_subproblems().nth(1).unwrap();
    saved.tally.parts[i].unique += 1;
    let run = Run::of_split(n, "halves6-v1", Shard::WHOLE).unwrap();
    let err = run.resume(saved, Path::new("t")).unwrap_err();
    assert!(
        err.to_string().contains(&format!("subproblem {i} cannot")),
        "{err}"
    );
}

#[test]
fn a_complete_checkpoint_whose_count_is_impossible_is_refused() {
    // Every part possible alone, the sum not: a pattern of weight 2 given two more solutions
    // makes the eighths 4 more, not a multiple of 8.
    let n = 12;
    let mut saved = partial(n, "halves4-v1", 1);
    let run = Run::of_split(n, "halves4-v1", Shard::WHOLE).unwrap();
    let plan = run.plan.halves().unwrap().clone();
    let i = (0..plan.len())
        .find(|&i| matches!(plan.parts[i], halves::Part::Pattern { weight: 2, .. }))
        .unwrap();
    let extra = Counts {
        total: 2,
        unique: 2,
    };
    saved.tally.parts[i] = add_counts(saved.tally.parts[i], extra).unwrap();
    saved.tally.counts = add_counts(saved.tally.counts, extra).unwrap();
    let err = run.resume(saved, Path::new("t")).unwrap_err();
    assert!(err.to_string().contains("not a multiple of 8"), "{err}");
    // The same file untouched resumes complete.
    let saved = partial(n, "halves4-v1", 1);
    let run = Run::of_split(n, "halves4-v1", Shard::WHOLE).unwrap();
    let (run, _) = run.resume(saved, Path::new("t")).unwrap();
    assert_eq!(run.execute().unwrap(), known(n));
}

#[test]
fn a_begun_frame_given_pieces_it_does_not_have_is_refused() {
    use crate::count::frames::{frame, pieces};
    let (n, split, f) = (10, "frame1-rows2-v1", 1);
    let have = pieces::PieceIter::new(n, &frame::subproblems(n)[f], 2).count() as u64;
    assert!(have > 2);
    let saved = |next: u64, above: Option<(u64, u64)>| {
        let mut saved = partial(n, split, 2);
        let mut begun = pieces::FramePieces::new(Shard::WHOLE, f);
        begun.next = next;
        begun.above.extend(above);
        saved.tally = Tally::new(saved.subproblems);
        saved.tally.pieces.insert(f, begun);
        let run = Run::of_split(n, split, Shard::WHOLE).unwrap();
        run.resume(saved, Path::new("t")).map(|(run, _)| run)
    };
    // A frame begun, nothing of it counted yet, resumes to the whole count; so does one whose
    // every piece is counted (its watermark just past the last) before it was recorded.
    assert_eq!(saved(0, None).unwrap().execute().unwrap(), known(n));
    assert!(saved(have, None).is_ok());
    // Past the frame's pieces: its watermark, or the end of a range above it.
    for (next, above) in [(have + 1, None), (1000, None), (0, Some((2, have)))] {
        let err = saved(next, above).map(|_| ()).unwrap_err().to_string();
        assert!(
            err.contains(&format!("subproblem {f} has {have} pieces")),
            "{next} {above:?}: {err}"
        );
    }
}
