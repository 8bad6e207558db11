//! The rehearsal of a run's memory: every subproblem of a plan listed as the run lists it, on
//! the same threads, in the same order, into the same per-thread buffers, and the buffers of
//! its join made and written as the join would write them, but no join. The process then
//! holds what the run holds, in the time of the listing alone (N = 18 on one thread: 2.9 s
//! against 5.0 s for the count). Its peak is the run's up to which thread happens to take
//! which subproblem, which also makes two whole runs differ (measured against whole runs in
//! `docs/performance.md`). It also gives the exact size of every subproblem, where the
//! forecast (`sample.rs`) has probes.
//! It calls `run.rs` (the order and the threads) and `plan.rs` (to list a subproblem).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::pattern::Listed;
use super::plan::Plan;
use super::run::dearest_first;
use crate::count::types::CountError;

/// Lists the subproblems `todo` of `plan` on `threads` threads as [`super::run`] would count
/// them, without joining: each subproblem listed and its halves, in the order of `todo` (all of
/// them unless `cancel` was raised); [`CountError::OutOfMemory`] when the halves of a
/// subproblem found no memory. `on_listed` hears of each subproblem as soon as it is listed,
/// from the thread that listed it (for a progress line: a long rehearsal is hours).
pub fn rehearse(
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
    use crate::count::halves::pattern::{count_pattern, mirror};
    use crate::count::halves::plan::Part;

    /// The fillings of `rows` of the `n` x `n` board, one queen per row and no two attacking
    /// each other, that use exactly `need` among the columns `cols`, whose row `special.0`
    /// has its queen in `special.1`: a plain search of every filling, checked queen against
    /// queen (nothing of the engine's listing).
    fn fillings(
        n: usize,
        rows: std::ops::Range<usize>,
        cols: u32,
        need: u32,
        special: (usize, u32),
    ) -> u64 {
        fn go<F: Fn(&[(usize, usize)]) -> bool>(
            n: usize,
            r: usize,
            end: usize,
            placed: &mut Vec<(usize, usize)>,
            f: &F,
            special: (usize, u32),
        ) -> u64 {
            if r == end {
                return u64::from(f(placed));
            }
            let mut found = 0;
            for c in 0..n {
                let free = placed
                    .iter()
                    .all(|&(pr, pc)| pc != c && pr.abs_diff(r) != pc.abs_diff(c));
                if free && (r != special.0 || special.1 >> c & 1 == 1) {
                    placed.push((r, c));
                    found += go(n, r + 1, end, placed, f, special);
                    placed.pop();
                }
            }
            found
        }
        let exact = |placed: &[(usize, usize)]| {
            placed.iter().fold(0u32, |acc, &(_, c)| acc | 1 << c) & cols == need
        };
        go(n, rows.start, rows.end, &mut Vec::new(), &exact, special)
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
                let listed = rehearse(&plan, &todo, 2, &AtomicBool::new(false), &on_listed);
                let listed = listed.unwrap();
                let numbers: Vec<usize> = listed.iter().map(|&(i, _)| i).collect();
                assert_eq!(numbers, todo, "N = {n}, k = {k}");
                // Each subproblem heard of once, with the halves returned.
                let mut heard = heard.into_inner().unwrap();
                heard.sort_by_key(|&(i, _)| i);
                assert_eq!(heard, listed, "N = {n}, k = {k}");
                let (h, full, cols) = (n / 2, (1u32 << n) - 1, plan.pattern_columns);
                for (i, halves) in listed {
                    let want = match plan.parts[i] {
                        Part::Fixed => Listed::default(),
                        Part::Pattern { upper, first, .. } => {
                            let pairs = n % 2 == 0
                                && mirror(n, upper) == upper
                                && mirror(n, first) == first;
                            let top = if pairs { full >> h } else { full };
                            Listed {
                                uppers: fillings(n, 0..h, cols, upper, (0, top)),
                                lowers: fillings(n, h..n, cols, cols & !upper, (h, first)),
                            }
                        }
                    };
                    assert_eq!(halves, want, "N = {n}, k = {k}, subproblem {i}");
                }
            }
        }
    }

    /// A rehearsal leaves the thread's buffers fit for the counts that follow it, and lists
    /// nothing more once cancelled.
    #[test]
    fn counts_after_a_rehearsal_are_right_and_a_cancelled_one_stops() {
        let plan = Plan::new(12, 4);
        let todo: Vec<usize> = (0..plan.len()).collect();
        rehearse(&plan, &todo, 1, &AtomicBool::new(false), &|_, _| {}).unwrap();
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
        assert!(rehearse(&plan, &todo, 2, &cancelled, &|_, _| {})
            .unwrap()
            .is_empty());
    }
}
