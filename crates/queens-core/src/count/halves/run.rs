//! The half-board engine as a run drives it: the [`Counter`] of its [`Plan`], whose count is
//! this file's thread runner: the subproblems of a plan, the dearest first, taken one at a time
//! from a shared queue by a pool of threads (or by the calling thread), each recorded in the
//! run's [`Control`]. It calls `plan.rs`, `memory.rs` and the run's `Control`.
//! A subproblem whose buffers cannot grow stops the run (the others are cancelled, the tally
//! stays exact) and ends it in [`CountError::OutOfMemory`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::alloc::AllocError;
use super::memory::bytes_per_thread;
use super::plan::{Part, Plan};
use crate::count::control::{Control, Tally};
use crate::count::counter::{Counted, Counter};
use crate::count::shard::Shard;
use crate::count::split::Split;
use crate::count::types::{CountError, Counts};

impl Counter for Plan {
    fn split(&self) -> Split {
        self.halves_split()
    }

    fn len(&self) -> usize {
        Plan::len(self)
    }

    /// [`bytes_per_thread`] of the plan's pattern columns.
    fn subproblem_bytes(&self) -> Option<u64> {
        let k = self.pattern_columns.count_ones() as usize;
        Some(bytes_per_thread(self.n(), k))
    }

    fn count(&self, todo: &[usize], _shard: Shard, threads: usize, control: &Control) -> Counted {
        run(self, todo, threads, control)
    }

    fn recount(&self, i: usize, _shard: Shard, cancel: &AtomicBool) -> Option<Counts> {
        Plan::recount(self, i, cancel)
    }

    fn classes(&self, sum: u128) -> u128 {
        Plan::classes(self, sum)
    }

    /// A part that [`Plan::possible`] refuses.
    fn impossible(&self, tally: &Tally, _shard: Shard) -> Option<String> {
        let i = tally
            .finished_subproblems()
            .find(|&i| !self.possible(i, tally.parts[i]))?;
        let part = tally.parts[i];
        Some(format!(
            "subproblem {i} cannot have {} solutions in {} eighths of classes ({})",
            part.total,
            part.unique,
            match self.parts[i] {
                Part::Fixed => {
                    "the fixed-point subproblem has no total and an even sum".to_string()
                }
                Part::Pattern { weight, .. } => format!(
                    "a pattern's eighths equal its total, a multiple of its weight {weight}"
                ),
            }
        ))
    }
}

/// Counts subproblem `i` of `plan` unless it is counted or the run cancelled, and records it;
/// a subproblem without memory raises the cancel flag and is kept in `failed`.
fn work(control: &Control, plan: &Plan, i: usize, failed: &Mutex<Option<AllocError>>) {
    if control.cancelled() || control.tally().is_done(i) {
        return;
    }
    match plan.solve(i, &control.cancel) {
        Ok(Some(part)) => control.tally().record(i, part),
        Ok(None) => {}
        Err(err) => {
            control.cancel.store(true, Ordering::Relaxed);
            let mut failed = failed.lock().unwrap_or_else(|e| e.into_inner());
            failed.get_or_insert(err);
        }
    }
}

/// Counts the subproblems `todo` of `plan` on `threads` threads (1: the calling thread; 0: one
/// per core), recording each in `control`. The threads take the subproblems one at a time from
/// a shared queue, the dearest first (by [`Plan::cost`]), so that none is left alone with a
/// large one at the end. A subproblem that finds no memory for its halves raises the cancel
/// flag and ends the run in [`CountError::OutOfMemory`].
pub fn run(
    plan: &Plan,
    todo: &[usize],
    threads: usize,
    control: &Control,
) -> Result<(), CountError> {
    let failed = Mutex::new(None);
    dearest_first(plan, todo, threads, |i| work(control, plan, i, &failed))?;
    match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(err) => Err(CountError::OutOfMemory {
            n: plan.n(),
            bytes: err.bytes,
        }),
        None => Ok(()),
    }
}

/// Calls `work` on every subproblem of `todo`, the dearest first (by [`Plan::cost`]), on
/// `threads` threads (1: the calling thread) that take them one at a time from a shared
/// queue: the order and the sharing of a run, for [`run`] and for its rehearsal
/// (`queens_core::internals`). An error
/// only when the threads cannot start.
pub(crate) fn dearest_first(
    plan: &Plan,
    todo: &[usize],
    threads: usize,
    work: impl Fn(usize) + Sync,
) -> Result<(), CountError> {
    let mut order = todo.to_vec();
    order.sort_by(|&a, &b| plan.cost(b).total_cmp(&plan.cost(a)).then(a.cmp(&b)));
    if threads == 1 {
        order.into_iter().for_each(work);
        return Ok(());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CountError::Threads(e.to_string()))?;
    let next = std::sync::atomic::AtomicUsize::new(0);
    pool.broadcast(|_| loop {
        let at = next.fetch_add(1, Ordering::Relaxed);
        let Some(&i) = order.get(at) else { break };
        work(i);
    });
    Ok(())
}
