//! The rehearsal of a run's memory, a measuring rig and no part of counting: every subproblem
//! of a half-board run listed as the run lists it, on the same threads, in the same order, into
//! the same per-thread buffers, and the buffers of its join made and written as the join would
//! write them, but no join. The process then holds what the run holds, in the time of the
//! listing alone (N = 18 on one thread: 2.9 s against 5.0 s for the count). Its peak is the
//! run's up to which thread happens to take which subproblem, which also makes two whole runs
//! differ (measured against whole runs in `docs/performance.md`). It also gives the exact size
//! of every subproblem, where the forecast (`count/halves/sample.rs`) has probes. Used by
//! `examples/rehearse_memory.rs` and `scripts/rehearse-pieces`; it calls the half-board
//! engine's listing (`Plan::list`), its order and threads (`dearest_first`) and the ceiling of
//! its buffers (`buffers_ceiling`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::count::halves::{self, dearest_first, Listed, Plan};
use crate::count::{CountError, Run};

/// Rehearses `run`'s memory with the half-board engine: the subproblems left to count listed
/// on the run's threads, in its order, into its buffers, without the join, so that the process
/// reaches the run's peak memory in the time of the listing. Each subproblem listed and its
/// halves, by number (all those of the shard not yet counted, unless [`Run::cancel`] was
/// called); `on_listed` hears of each as it is listed. `None` when the run uses another engine
/// (the frame engine's memory is small whatever N).
pub fn rehearse(
    run: &Run,
    on_listed: &(dyn Fn(usize, Listed) + Sync),
) -> Option<Result<Vec<(usize, Listed)>, CountError>> {
    let plan = run.plan.halves()?;
    let left = run.left();
    Some(rehearse_plan(
        plan,
        &left,
        run.workers(),
        &run.control().cancel,
        on_listed,
    ))
}

/// The most bytes the half-board engine's buffers can hold room for on `run`'s threads when
/// the largest of its subproblems have the sizes `most` (each its own largest, as [`rehearse`]
/// gives them): [`halves::buffers_ceiling`] on each thread. With the sizes of every
/// subproblem, a bound on the room of the run's buffers whichever of its threads takes which,
/// on threads that start with empty buffers (as in `queens count`; on one thread a run lists on
/// the calling thread, whose buffers may keep more from an earlier run); the rest of the
/// process (the plan, the program, what the allocator keeps) comes on top. `None` for another
/// engine.
pub fn buffers_ceiling(run: &Run, most: Listed) -> Option<u64> {
    let plan = run.plan.halves()?;
    let k = plan.pattern_columns.count_ones() as usize;
    Some(run.workers() as u64 * halves::buffers_ceiling(run.n(), k, most))
}

/// Lists the subproblems `todo` of `plan` on `threads` threads as `halves::run` would count
/// them, without joining: each subproblem listed and its halves, in the order of `todo` (all of
/// them unless `cancel` was raised); [`CountError::OutOfMemory`] when the halves of a
/// subproblem found no memory. `on_listed` hears of each subproblem as soon as it is listed,
/// from the thread that listed it (for a progress line: a long rehearsal is hours).
fn rehearse_plan(
    plan: &Plan,
    todo: &[usize],
    threads: usize,
    cancel: &AtomicBool,
    on_listed: &(dyn Fn(usize, Listed) + Sync),
) -> Result<Vec<(usize, Listed)>, CountError> {
    let listed = Mutex::new(vec![None; plan.len()]);
    let failed = Mutex::new(None);
    dearest_first(plan, todo, threads, |i| {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        match plan.list(i, cancel) {
            Ok(Some(halves)) => {
                listed.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(halves);
                on_listed(i, halves);
            }
            Ok(None) => {}
            Err(err) => {
                cancel.store(true, Ordering::Relaxed);
                failed
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(err);
            }
        }
    })?;
    if let Some(err) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(CountError::OutOfMemory {
            n: plan.n(),
            bytes: err.bytes,
        });
    }
    let listed = listed.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(todo.iter().filter_map(|&i| Some((i, listed[i]?))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::halves::{count_pattern, Part, Plan};
    use crate::count::{Engine, Shard};

    /// The mirror image of a column mask of the `n` x `n` board.
    fn mirror(n: usize, mask: u32) -> u32 {
        mask.reverse_bits() >> (32 - n)
    }

    /// The fillings of `rows` of the `n` x `n` board, one queen per row and no two attacking
    /// each other, that use exactly `need` among the columns `cols`, whose row `special.0`
    /// has its queen in `special.1`: the columns each uses, by a plain search of every filling
    /// checked queen against queen (nothing of the engine's listing).
    fn fillings(
        n: usize,
        rows: std::ops::Range<usize>,
        cols: u32,
        need: u32,
        special: (usize, u32),
    ) -> Vec<u32> {
        fn go(
            n: usize,
            r: usize,
            end: usize,
            placed: &mut Vec<(usize, usize)>,
            allowed: u32,
            special: (usize, u32),
            out: &mut Vec<u32>,
        ) {
            if r == end {
                out.push(placed.iter().fold(0, |acc, &(_, c)| acc | 1 << c));
                return;
            }
            for c in 0..n {
                let free = placed
                    .iter()
                    .all(|&(pr, pc)| pc != c && pr.abs_diff(r) != pc.abs_diff(c));
                if free && allowed >> c & 1 == 1 && (r != special.0 || special.1 >> c & 1 == 1) {
                    placed.push((r, c));
                    go(n, r + 1, end, placed, allowed, special, out);
                    placed.pop();
                }
            }
        }
        // The pattern columns not needed are never used.
        let allowed = !(cols & !need);
        let mut out = Vec::new();
        go(
            n,
            rows.start,
            rows.end,
            &mut Vec::new(),
            allowed,
            special,
            &mut out,
        );
        out.retain(|&used| used & cols == need);
        out
    }

    /// The halves a plain search finds for subproblem `part` of `plan`, and the lengths of
    /// the copies its join sorts: the largest pair of complementary groups (by the columns a
    /// half uses between the pattern columns) of at least 512 halves against at least 64.
    fn plain_listed(plan: &Plan, part: Part) -> Listed {
        let Part::Pattern { upper, first, .. } = part else {
            return Listed::default();
        };
        let (n, cols) = (plan.n(), plan.pattern_columns);
        let (h, full) = (n / 2, (1u32 << n) - 1);
        let pairs = n % 2 == 0 && mirror(n, upper) == upper && mirror(n, first) == first;
        let top = if pairs { full >> h } else { full };
        let uppers = fillings(n, 0..h, cols, upper, (0, top));
        let lowers = fillings(n, h..n, cols, cols & !upper, (h, first));
        // The pattern columns are the k/2 leftmost and the k/2 rightmost.
        let (from, middle) = (cols.count_ones() / 2, n as u32 - cols.count_ones());
        let group = |halves: &[u32]| {
            let mut sizes = vec![0u64; 1 << middle];
            for used in halves {
                sizes[(used >> from & ((1 << middle) - 1)) as usize] += 1;
            }
            sizes
        };
        let (up, low) = (group(&uppers), group(&lowers));
        let mut copied = (0, 0);
        for key in 0..up.len() {
            let (a, b) = (up[key], low[up.len() - 1 - key]);
            let (big, small) = (a.max(b), a.min(b));
            if big >= 512 && small >= 64 {
                copied = (copied.0.max(big), copied.1.max(small));
            }
        }
        Listed {
            uppers: uppers.len() as u64,
            lowers: lowers.len() as u64,
            copied,
        }
    }

    /// Every subproblem of several splits of the boards of 6 to 11, rehearsed on two threads:
    /// each listed once, with as many halves on each side as a plain search finds (the upper
    /// ones with the queen of row 0 in the left half when the mirror keeps the subproblem).
    #[test]
    fn a_rehearsal_lists_every_subproblem_with_the_halves_a_plain_search_finds() {
        for n in 6..=11 {
            for k in [2, 4] {
                let plan = Plan::new(n, k);
                let todo: Vec<usize> = (0..plan.len()).collect();
                let heard = Mutex::new(Vec::new());
                let on_listed = |i, halves| heard.lock().unwrap().push((i, halves));
                let listed = rehearse_plan(&plan, &todo, 2, &AtomicBool::new(false), &on_listed);
                let listed = listed.unwrap();
                let numbers: Vec<usize> = listed.iter().map(|&(i, _)| i).collect();
                assert_eq!(numbers, todo, "N = {n}, k = {k}");
                // Each subproblem heard of once, with the halves returned.
                let mut heard = heard.into_inner().unwrap();
                heard.sort_by_key(|&(i, _)| i);
                assert_eq!(heard, listed, "N = {n}, k = {k}");
                for (i, halves) in listed {
                    let want = plain_listed(&plan, plan.parts[i]);
                    assert_eq!(halves, want, "N = {n}, k = {k}, subproblem {i}");
                }
            }
        }
    }

    /// On a board whose joins sort copies (N = 16 with 12 pattern columns: 16 groups a side),
    /// the copies a rehearsal reports are those the plain search's groups call for, for the
    /// few subproblems that have none and a sample of the others (897 of 904 have some).
    #[test]
    fn a_rehearsal_reports_the_copies_the_join_sorts() {
        let plan = Plan::new(16, 12);
        let todo: Vec<usize> = (0..plan.len()).collect();
        let listed = rehearse_plan(&plan, &todo, 2, &AtomicBool::new(false), &|_, _| {}).unwrap();
        let copying: Vec<usize> = (listed.iter())
            .filter(|(_, h)| h.copied != (0, 0))
            .map(|&(i, _)| i)
            .collect();
        assert!(
            copying.len() >= 4,
            "{} subproblems sort copies",
            copying.len()
        );
        assert!(
            copying.len() < listed.len(),
            "every subproblem sorts copies"
        );
        for (i, halves) in listed {
            // Each copy holds one group: the larger no more than the larger side, the smaller
            // no more than the smaller (so the copies never cost more than the two sides).
            let (c, d) = halves.copied;
            assert!(
                c <= halves.uppers.max(halves.lowers),
                "subproblem {i}: {halves:?}"
            );
            assert!(
                d <= halves.uppers.min(halves.lowers),
                "subproblem {i}: {halves:?}"
            );
            if !copying.contains(&i) || i % 64 == 0 {
                assert_eq!(halves, plain_listed(&plan, plan.parts[i]), "subproblem {i}");
            }
        }
    }

    /// A rehearsal leaves the thread's buffers fit for the counts that follow it, and lists
    /// nothing more once cancelled.
    #[test]
    fn counts_after_a_rehearsal_are_right_and_a_cancelled_one_stops() {
        let plan = Plan::new(12, 4);
        let todo: Vec<usize> = (0..plan.len()).collect();
        rehearse_plan(&plan, &todo, 1, &AtomicBool::new(false), &|_, _| {}).unwrap();
        let mut total = 0u128;
        for part in &plan.parts {
            if let Part::Pattern {
                upper,
                first,
                weight,
            } = *part
            {
                let found = count_pattern(
                    12,
                    plan.pattern_columns,
                    upper,
                    first,
                    &AtomicBool::new(false),
                );
                total += u128::from(found.unwrap().unwrap()) * u128::from(weight);
            }
        }
        assert_eq!(total, 14_200);
        let cancelled = AtomicBool::new(true);
        assert!(rehearse_plan(&plan, &todo, 2, &cancelled, &|_, _| {})
            .unwrap()
            .is_empty());
    }

    fn halves_run(n: usize, threads: usize) -> Run {
        Run::with_engine(n, Engine::Halves, threads, 1 << 30).unwrap()
    }

    #[test]
    fn a_rehearsal_lists_what_the_run_has_left_and_the_frame_engine_has_none() {
        let whole = halves_run(14, 2);
        let listed = rehearse(&whole, &|_, _| {}).unwrap().unwrap();
        let numbers: Vec<usize> = listed.iter().map(|&(i, _)| i).collect();
        assert_eq!(numbers, (0..whole.subproblems()).collect::<Vec<_>>());
        // The fixed-point part (the first) lists no halves, the patterns many.
        assert_eq!(listed[0].1, Listed::default());
        assert!(
            listed
                .iter()
                .map(|&(_, h)| h.uppers + h.lowers)
                .sum::<u64>()
                > 10_000
        );
        let shard = Shard::new(1, 3).unwrap();
        let part = halves_run(14, 1).shard(shard);
        let listed = rehearse(&part, &|_, _| {}).unwrap().unwrap();
        let numbers: Vec<usize> = listed.iter().map(|&(i, _)| i).collect();
        assert_eq!(numbers, shard.select(part.subproblems()));
        // Once counted, nothing is left to rehearse.
        part.execute().unwrap();
        assert!(rehearse(&part, &|_, _| {}).unwrap().unwrap().is_empty());
        let frames = Run::with_engine(14, Engine::Frame, 2, 1 << 30).unwrap();
        assert!(rehearse(&frames, &|_, _| {}).is_none());
    }

    /// The ceiling of a run's buffers is one thread's times its threads, grows with the sizes
    /// of its subproblems, and covers at least the halves of the largest (8 bytes each); the
    /// frame engine has none.
    #[test]
    fn the_ceiling_of_a_runs_buffers_counts_its_threads_and_its_sizes() {
        let (one, two) = (halves_run(14, 1), halves_run(14, 2));
        let listed = rehearse(&two, &|_, _| {}).unwrap().unwrap();
        let most = (listed.iter()).fold(Listed::default(), |m, &(_, h)| m.each_max(h));
        let ceiling = buffers_ceiling(&one, most).unwrap();
        assert_eq!(buffers_ceiling(&two, most), Some(2 * ceiling));
        assert!(
            ceiling >= 8 * (most.uppers + most.lowers),
            "{ceiling} bytes"
        );
        let more = Listed {
            lowers: 2 * most.lowers,
            ..most
        };
        assert!(buffers_ceiling(&one, more).unwrap() > ceiling);
        let frames = Run::with_engine(14, Engine::Frame, 2, 1 << 30).unwrap();
        assert_eq!(buffers_ceiling(&frames, most), None);
    }
}
