//! The thread runner of the half-board engine: the subproblems of a plan, the dearest first,
//! taken one at a time from a shared queue by a pool of threads (or by the calling thread),
//! each recorded in the run's [`Control`]. It calls `plan.rs` and the engine's `Control`.

use std::sync::atomic::Ordering;

use super::plan::Plan;
use crate::count::engine::Control;
use crate::count::CountError;

impl Control {
    fn work_halves(&self, plan: &Plan, i: usize) {
        if self.cancelled() || self.tally().is_done(i) {
            return;
        }
        if let Some(part) = plan.solve(i, &self.cancel) {
            self.tally().record(i, part);
        }
    }
}

/// Counts the subproblems `todo` of `plan` on `threads` threads (1: the calling thread; 0: one
/// per core), recording each in `control`. The threads take the subproblems one at a time from
/// a shared queue, the dearest first (by [`Plan::cost`]), so that none is left alone with a
/// large one at the end.
pub fn run(
    plan: &Plan,
    todo: &[usize],
    threads: usize,
    control: &Control,
) -> Result<(), CountError> {
    let mut order = todo.to_vec();
    order.sort_by(|&a, &b| plan.cost(b).total_cmp(&plan.cost(a)).then(a.cmp(&b)));
    if threads == 1 {
        for &i in &order {
            control.work_halves(plan, i);
        }
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
        control.work_halves(plan, i);
    });
    Ok(())
}
