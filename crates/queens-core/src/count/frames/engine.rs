//! Running the subproblems: one thread or many, with a shared tally, progress and cancellation.
//!
//! The idea: the subproblems (canonical frames, see `frame`) are independent, so they are
//! handed out one at a time — to a plain loop in [`run_sequential`], to a rayon pool that
//! steals work at the granularity of one subproblem in [`run_parallel`]. Each finished
//! subproblem is recorded in the run's [`Tally`](crate::count::control::Tally), which the caller may read at
//! any moment to show progress or to write a checkpoint; raising [`Control::cancel`] makes
//! every search stop soon, leaving the tally exact for the subproblems it lists as done.
//! Source: the usual fork-join decomposition of parallel backtracking; rayon's work stealing
//! (Blumofe and Leiserson, 1999). Cost: the searches themselves; memory is the plan (tens of
//! bytes per subproblem) and one fixed stack per thread.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard, PoisonError};

use rayon::iter::ParallelBridge;
use rayon::prelude::*;

use super::frame::{Square, Subproblem};
use super::pieces::{self, FramePieces, PieceIter};
use super::{join, kernel};
use crate::count::control::Control;
use crate::count::shard::Shard;
use crate::count::types::{CountError, Counts};

/// Counts the completions of a frame: by the join where it applies (N from 15 to 31, frames with
/// enough free rows), else by the search alone. This is the engine's one choice between the two;
/// `kernel` is the leaf both use. Returns `None` when `cancel` was raised before the end.
pub fn count_completions(n: usize, sub: &Subproblem, cancel: &AtomicBool) -> Option<u64> {
    join::count_completions_joining(n, sub, join::join_rows(n), cancel)
}

/// The contribution of one subproblem to the total and to the number of classes, or `None`
/// when cancelled.
pub fn solve(n: usize, sub: &Subproblem, cancel: &AtomicBool) -> Option<Counts> {
    solve_with(n, sub, cancel, count_completions)
}

/// [`solve`] by the plain search alone (no join), to recount a subproblem independently.
pub fn solve_searched(n: usize, sub: &Subproblem, cancel: &AtomicBool) -> Option<Counts> {
    solve_with(n, sub, cancel, kernel::count_completions_searched)
}

fn solve_with(
    n: usize,
    sub: &Subproblem,
    cancel: &AtomicBool,
    completions: impl Fn(usize, &Subproblem, &AtomicBool) -> Option<u64>,
) -> Option<Counts> {
    let (found, stab_sum) = found_and_stabilizers(n, sub, cancel, completions)?;
    // Over a whole frame the stabilizer sum divides by the frame's own stabilizer (1 when no
    // symmetry fixes it, where the sum is the number of completions).
    let frame_stab = 1 + sub.fixed_by.len() as u64;
    debug_assert_eq!(stab_sum % frame_stab, 0);
    Some(Counts {
        total: u128::from(found) * u128::from(sub.orbit_size()),
        unique: u128::from(stab_sum / frame_stab),
    })
}

/// The completions of `sub`, and the sum over them of how many symmetries of the whole group
/// fix each: `completions` counts them when no symmetry fixes the frame (the sum is then the
/// count), the slower walk that records each solution otherwise.
fn found_and_stabilizers(
    n: usize,
    sub: &Subproblem,
    cancel: &AtomicBool,
    completions: impl Fn(usize, &Subproblem, &AtomicBool) -> Option<u64>,
) -> Option<(u64, u64)> {
    if sub.fixed_by.is_empty() {
        let found = completions(n, sub, cancel)?;
        Some((found, found))
    } else {
        kernel::count_with_stabilizers(n, sub, cancel)
    }
}

/// The contribution of one piece of a frame (see `pieces`): its solutions, and its classes in
/// *eighths* (the orbit times the sum, over its completions, of the symmetries fixing them),
/// which add up over the pieces and the shards of a frame. `searched_only` counts by the plain
/// search alone (to recount independently). `None` when cancelled.
pub fn solve_piece(
    n: usize,
    piece: &Subproblem,
    cancel: &AtomicBool,
    searched_only: bool,
) -> Option<Counts> {
    let (found, stab_sum) = if searched_only {
        found_and_stabilizers(n, piece, cancel, kernel::count_completions_searched)?
    } else {
        found_and_stabilizers(n, piece, cancel, count_completions)?
    };
    let orbit = u128::from(piece.orbit_size());
    Some(Counts {
        total: u128::from(found) * orbit,
        unique: u128::from(stab_sum) * orbit,
    })
}

/// A run over the pieces of the frames `todo`: hands out, in order, every piece of the shard
/// not yet counted, and records a frame once its last piece is counted.
struct PieceRun<'a> {
    n: usize,
    plan: &'a [Subproblem],
    depth: usize,
    shard: Shard,
    control: &'a Control,
    /// For each frame being handed out or counted: pieces handed out and not yet counted, and
    /// whether all its pieces are handed out. Locked before the tally, never after.
    open: Mutex<HashMap<usize, (u64, bool)>>,
}

impl PieceRun<'_> {
    fn open(&self) -> MutexGuard<'_, HashMap<usize, (u64, bool)>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Every piece still to count, frame after frame (lazily: one frame's pieces at a time).
    fn pieces<'b>(
        &'b self,
        todo: &'b [usize],
    ) -> impl Iterator<Item = (usize, u64, Vec<Square>)> + 'b {
        todo.iter()
            .copied()
            .take_while(|_| !self.control.cancelled())
            .filter(|&f| !self.control.tally().is_done(f))
            .flat_map(move |f| {
                let before = self.control.tally().pieces.get(&f).cloned();
                self.open().insert(f, (0, false));
                let mut list = PieceIter::new(self.n, &self.plan[f], self.depth);
                let mut listed = false;
                std::iter::from_fn(move || {
                    if listed {
                        return None;
                    }
                    while !self.control.cancelled() {
                        let Some((p, queens)) = list.next() else {
                            break;
                        };
                        if !pieces::in_shard(self.shard, f, p)
                            || before.as_ref().is_some_and(|b| b.is_counted(p))
                        {
                            continue;
                        }
                        if let Some(entry) = self.open().get_mut(&f) {
                            entry.0 += 1;
                        }
                        return Some((f, p, queens));
                    }
                    listed = true;
                    if !self.control.cancelled() {
                        self.listed(f);
                    }
                    None
                })
            })
    }

    /// Every piece of frame `f` is handed out: finish it now if none is still being counted.
    fn listed(&self, f: usize) {
        let mut open = self.open();
        let Some(entry) = open.get_mut(&f) else {
            return;
        };
        entry.1 = true;
        if entry.0 == 0 {
            open.remove(&f);
            self.finish(f);
        }
    }

    /// Records frame `f` as finished, with the sum of its pieces.
    fn finish(&self, f: usize) {
        let mut tally = self.control.tally();
        let counts = tally
            .pieces
            .remove(&f)
            .map(|p| p.counts)
            .unwrap_or_default();
        tally.record(f, counts);
    }

    fn work(&self, (f, p, queens): (usize, u64, Vec<Square>)) {
        if self.control.cancelled() {
            return;
        }
        let piece = pieces::piece_subproblem(&self.plan[f], &queens);
        let Some(counts) = solve_piece(self.n, &piece, &self.control.cancel, false) else {
            return;
        };
        let mut open = self.open();
        let last = match open.get_mut(&f) {
            Some(entry) => {
                entry.0 -= 1;
                entry.0 == 0 && entry.1
            }
            None => false,
        };
        if last {
            open.remove(&f);
        }
        let mut tally = self.control.tally();
        let shard = self.shard;
        tally
            .pieces
            .entry(f)
            .or_insert_with(|| FramePieces::new(shard, f))
            .record(p, shard.count(), counts);
        drop(tally);
        if last {
            self.finish(f);
        }
    }
}

/// Counts the pieces cut at `depth` rows (see `pieces`) of the frames `todo` of `plan` that
/// belong to `shard`, on `threads` threads (1: the calling thread; 0: one per core), recording
/// each in `control` and each frame once all its pieces are counted.
pub fn run_pieces(
    n: usize,
    plan: &[Subproblem],
    todo: &[usize],
    depth: usize,
    shard: Shard,
    threads: usize,
    control: &Control,
) -> Result<(), CountError> {
    let run = PieceRun {
        n,
        plan,
        depth,
        shard,
        control,
        open: Mutex::new(HashMap::new()),
    };
    if threads == 1 {
        run.pieces(todo).for_each(|piece| run.work(piece));
        return Ok(());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CountError::Threads(e.to_string()))?;
    pool.install(|| {
        run.pieces(todo)
            .par_bridge()
            .for_each(|piece| run.work(piece))
    });
    Ok(())
}

/// Counts subproblem `i` of `plan` unless it is counted or the run cancelled, and records it.
fn work(control: &Control, n: usize, plan: &[Subproblem], i: usize) {
    if control.cancelled() || control.tally().is_done(i) {
        return;
    }
    if let Some(part) = solve(n, &plan[i], &control.cancel) {
        control.tally().record(i, part);
    }
}

/// Counts the subproblems `todo` of `plan` on the calling thread, recording each in `control`.
pub fn run_sequential(n: usize, plan: &[Subproblem], todo: &[usize], control: &Control) {
    for &i in todo {
        work(control, n, plan, i);
    }
}

/// Counts the subproblems `todo` of `plan` on a pool of `threads` threads (0: one per core),
/// recording each in `control`.
pub fn run_parallel(
    n: usize,
    plan: &[Subproblem],
    todo: &[usize],
    threads: usize,
    control: &Control,
) -> Result<(), CountError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CountError::Threads(e.to_string()))?;
    pool.install(|| {
        todo.par_iter()
            .with_max_len(1)
            .for_each(|&i| work(control, n, plan, i));
    });
    Ok(())
}
