//! The thread runner of the half-board engine: the subproblems of a plan, the dearest first,
//! taken one at a time from a shared queue by a pool of threads (or by the calling thread),
//! each recorded in the run's [`Control`]. It calls `plan.rs` and the engine's `Control`.
//! A subproblem whose buffers cannot grow stops the run (the others are cancelled, the tally
//! stays exact) and ends it in [`CountError::OutOfMemory`].

use std::sync::atomic::Ordering;
use std::sync::Mutex;

use super::alloc::AllocError;
use super::plan::Plan;
use crate::count::control::Control;
use crate::count::types::CountError;

impl Control {
    fn work_halves(&self, plan: &Plan, i: usize, failed: &Mutex<Option<AllocError>>) {
        if self.cancelled() || self.tally().is_done(i) {
            return;
        }
        match plan.solve(i, &self.cancel) {
            Ok(Some(part)) => self.tally().record(i, part),
            Ok(None) => {}
            Err(err) => {
                self.cancel.store(true, Ordering::Relaxed);
                let mut failed = failed.lock().unwrap_or_else(|e| e.into_inner());
                failed.get_or_insert(err);
            }
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
    dearest_first(plan, todo, threads, |i| {
        control.work_halves(plan, i, &failed)
    })?;
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
/// queue: the order and the sharing of a run, for [`run`] and for its rehearsal. An error
/// only when the threads cannot start.
pub(super) fn dearest_first(
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
