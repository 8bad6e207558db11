//! The half-board split counted on a device: the subproblems of a half-board plan (patterns)
//! as launches of their groups (`groups.rs`), the fixed-point subproblem on the host's threads
//! meanwhile.
//!
//! The idea: a pattern's solutions are the fitting pairs of its groups times its factor, so a
//! launch takes the groups of whole patterns, in the plan's order of cost, dearest first, and
//! each pattern is recorded, exactly as the half-board engine records it, once the launch
//! that holds its groups is back. Launches aim at a quarter of a second, as the frame split's
//! do, so a raised cancel flag is seen within well under two seconds and the tally stays
//! exact. The fixed-point subproblem (the solutions the half and quarter turns keep, for the
//! classes) is a search of its own: the host counts it while the device counts the patterns.
//! Cost: the groups' (see `groups.rs`); the host lists the groups of a pattern (16 bytes each)
//! and adds up the counts.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::groups::{count_groups, shares, GroupTask};
use super::Kernel;
use crate::count::control::Control;
use crate::count::halves::{self, AllocError};
use crate::count::types::CountError;

/// The tasks (groups, or shares of groups) of the first launch, before launches are timed.
const FIRST_LAUNCH: usize = 1 << 10;

/// The time one launch aims at (as the frame split's launches do).
const LAUNCH_TARGET: Duration = Duration::from_millis(250);

/// Counts the subproblems `todo` of `plan` not yet done in `control`'s tally: the patterns on
/// `kernel`, the fixed-point subproblem on the calling thread meanwhile; each recorded as the
/// half-board engine records it. `_threads` is the host's share, which one search takes.
pub fn run(
    kernel: &dyn Kernel,
    plan: &halves::Plan,
    todo: &[usize],
    _threads: usize,
    control: &Control,
) -> Result<(), CountError> {
    let mut left: Vec<usize> = {
        let tally = control.tally();
        todo.iter()
            .copied()
            .filter(|&i| !tally.is_done(i))
            .collect()
    };
    left.sort_by(|&a, &b| plan.cost(b).total_cmp(&plan.cost(a)).then(a.cmp(&b)));
    let (fixed, patterns): (Vec<usize>, Vec<usize>) = left
        .into_iter()
        .partition(|&i| matches!(plan.parts[i], halves::Part::Fixed));
    let host = || {
        for &i in &fixed {
            match plan.solve(i, &control.cancel) {
                Ok(Some(counts)) => control.tally().record(i, counts),
                Ok(None) => {}
                Err(AllocError { bytes }) => {
                    control.cancel.store(true, Ordering::SeqCst);
                    return Err(CountError::OutOfMemory { n: plan.n(), bytes });
                }
            }
        }
        Ok(())
    };
    let parts = shares(plan.n());
    super::alongside(control, host, || {
        launches(kernel, plan, &patterns, parts, control)
    })
}

/// The patterns `todo` of `plan`, counted on `kernel` in launches of whole patterns' groups,
/// each group cut into `parts` shares.
fn launches(
    kernel: &dyn Kernel,
    plan: &halves::Plan,
    todo: &[usize],
    parts: u32,
    control: &Control,
) -> Result<(), CountError> {
    let n = plan.n();
    let most = kernel.max_tasks().max(1);
    let mut aim = FIRST_LAUNCH.min(most);
    let mut next = todo.iter().copied().peekable();
    while next.peek().is_some() {
        if control.cancelled() {
            return Ok(());
        }
        // Whole patterns, until the launch holds `aim` tasks; each pattern's number, its first
        // task and the factor of its pairs.
        let mut tasks: Vec<GroupTask> = Vec::new();
        let mut patterns: Vec<(usize, usize, u64)> = Vec::new();
        while tasks.len() < aim {
            let Some(i) = next.next() else { break };
            let sets = plan.column_sets(i).expect("the patterns have column sets");
            patterns.push((i, tasks.len(), sets.factor));
            tasks.extend(GroupTask::of(&sets, parts));
        }
        let mut out = vec![0u64; tasks.len()];
        let start = Instant::now();
        count_groups(kernel, n, &tasks, &mut out).map_err(CountError::Gpu)?;
        let took = start.elapsed();
        for (at, &(i, first, factor)) in patterns.iter().enumerate() {
            let end = patterns.get(at + 1).map_or(tasks.len(), |p| p.1);
            let found = out[first..end].iter().sum::<u64>() * factor;
            let counts = plan.counts_of(i, found).expect("a pattern's counts");
            control.tally().record(i, counts);
        }
        // The next launch aims at LAUNCH_TARGET, growing at most fourfold at a time.
        let per_task = took.as_secs_f64() / tasks.len().max(1) as f64;
        let timed = if per_task > 0.0 {
            (LAUNCH_TARGET.as_secs_f64() / per_task) as usize
        } else {
            aim * 4
        };
        aim = timed.clamp(1, aim.saturating_mul(4)).min(most);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::control::Tally;
    use crate::count::gpu::CpuTwin;

    /// The half-board split counted on the twin of the device records every subproblem as
    /// the half-board engine does, for every N from 1 to 12 with two splits each, its groups
    /// whole or cut into shares (cancelled runs and a broken device: `gpu/tests.rs`).
    #[test]
    fn the_device_records_each_pattern_as_the_half_board_engine_does() {
        for n in 1..=12 {
            for k in [0, halves::default_pattern_columns(n)] {
                let plan = halves::Plan::new(n, k);
                let todo: Vec<usize> = (0..plan.len()).collect();
                let want = Control::new(Tally::new(plan.len()));
                halves::run(&plan, &todo, 1, &want).unwrap();
                let got = Control::new(Tally::new(plan.len()));
                run(&CpuTwin, &plan, &todo, 1, &got).unwrap();
                assert_eq!(got.tally().parts, want.tally().parts, "N = {n}, k = {k}");
                // Groups cut into shares (as from N = 21) record the same parts.
                let patterns: Vec<usize> = todo[1..].to_vec();
                let shared = Control::new(Tally::new(plan.len()));
                launches(&CpuTwin, &plan, &patterns, 3, &shared).unwrap();
                assert_eq!(shared.tally().parts[1..], want.tally().parts[1..]);
            }
        }
    }
}
