//! The frame engine's plan, as a run holds it: the canonical frames of the board and the rows
//! they are cut at (0: whole frames), and the [`Counter`] a run drives: the count on one
//! thread or a pool (`engine.rs`), the recount of a frame by the plain search, and which saved
//! parts a frame can have. It calls `frame.rs` (the frames), `pieces.rs` and `engine.rs`.

use std::sync::atomic::AtomicBool;

use super::engine;
use super::frame::{subproblems, Subproblem};
use super::pieces::{self, MAX_DEPTH};
use crate::count::control::{Control, Tally};
use crate::count::counter::{Counted, Counter};
use crate::count::shard::Shard;
use crate::count::split::Split;
use crate::count::types::{add_counts, check_size, Counts};

/// The frames of a board and the rows they are cut at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    n: usize,
    frames: Vec<Subproblem>,
    depth: usize,
}

impl Plan {
    /// The frames of the `n` x `n` board (checked by the caller) cut at `depth` rows (0: whole
    /// frames); a depth past [`MAX_DEPTH`] or the frames' free rows cuts them at their last.
    pub fn new(n: usize, depth: usize) -> Plan {
        Plan {
            n,
            frames: subproblems(n),
            depth: depth.min(MAX_DEPTH).min(n.saturating_sub(2)),
        }
    }

    /// Whether this engine splits the `n` x `n` board by `split` (no plan is built).
    pub fn fits(n: usize, split: Split) -> bool {
        check_size(n).is_ok()
            && match split {
                Split::Frames => true,
                Split::Pieces { depth } => pieces::depth_fits(n, depth),
                Split::Halves { .. } => false,
            }
    }

    /// The plan of `split` of the `n` x `n` board, when this engine makes it.
    pub fn of_split(n: usize, split: Split) -> Option<Plan> {
        Plan::fits(n, split).then(|| Plan::new(n, split.depth()))
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The canonical frames, in the plan's order.
    pub fn frames(&self) -> &[Subproblem] {
        &self.frames
    }

    /// The rows the frames are cut at (0: whole frames).
    pub fn depth(&self) -> usize {
        self.depth
    }
}

impl Counter for Plan {
    fn split(&self) -> Split {
        Split::of_frames(self.depth)
    }

    fn len(&self) -> usize {
        self.frames.len()
    }

    fn worker_bytes(&self) -> Option<u64> {
        Some(super::join::thread_bytes(self.n))
    }

    fn count(&self, todo: &[usize], shard: Shard, threads: usize, control: &Control) -> Counted {
        let (n, frames) = (self.n, &self.frames[..]);
        if self.depth > 0 {
            engine::run_pieces(n, frames, todo, self.depth, shard, threads, control)
        } else if threads == 1 {
            engine::run_sequential(n, frames, todo, control);
            Ok(())
        } else {
            engine::run_parallel(n, frames, todo, threads, control)
        }
    }

    /// The frame by the plain search (the kernel over every free row, never the join); with
    /// pieces, the shard's pieces of it, each by the plain search.
    fn recount(&self, i: usize, shard: Shard, cancel: &AtomicBool) -> Option<Counts> {
        let sub = self.frames.get(i)?;
        if self.depth == 0 {
            return engine::solve_searched(self.n, sub, cancel);
        }
        let mut sum = Counts::default();
        for (p, queens) in pieces::PieceIter::new(self.n, sub, self.depth) {
            if pieces::in_shard(shard, i, p) {
                let piece = pieces::piece_subproblem(sub, &queens);
                let c = engine::solve_piece(self.n, &piece, cancel, true)?;
                sum = add_counts(sum, c)?;
            }
        }
        Some(sum)
    }

    /// With pieces the parts are eighths of classes (see `pieces.rs`).
    fn classes(&self, sum: u128) -> u128 {
        if self.depth > 0 {
            sum / 8
        } else {
            sum
        }
    }

    /// A total that is not a multiple of the frame's orbit, or (for a frame no symmetry fixes)
    /// not its classes times the orbit, cannot have been counted; with pieces, nor can eighths
    /// outside the orbit times 1 to the frame's stabilizer per completion. The pieces so far of
    /// a frame begun are checked alike.
    fn impossible(&self, tally: &Tally, shard: Shard) -> Option<String> {
        // A frame begun counts pieces it has: its watermark at most the shard's first piece
        // past its last (the watermark of a frame whose every piece is counted but which is
        // not yet recorded as finished), every range within its pieces.
        for (&f, begun) in &tally.pieces {
            let Some(sub) = self.frames.get(f) else {
                return Some(format!(
                    "subproblem {f} is past the plan's {}",
                    self.frames.len()
                ));
            };
            let have = pieces::PieceIter::new(self.n, sub, self.depth).count() as u64;
            let highest = begun.above.last_key_value().map(|(_, &end)| end);
            let past = |p: u64| p >= have;
            if begun.next >= have.saturating_add(shard.count()) || highest.is_some_and(past) {
                let claimed = highest.map_or(begun.next, |end| end.max(begun.next));
                return Some(format!(
                    "subproblem {f} has {have} pieces, but its pieces counted so far go up to \
                     piece {claimed}"
                ));
            }
        }
        let finished = tally
            .finished_subproblems()
            .map(|i| (i, tally.parts[i], ""));
        let begun = tally
            .pieces
            .iter()
            .map(|(&i, p)| (i, p.counts, " (its pieces so far)"));
        for (i, part, what) in finished.chain(begun) {
            let sub = &self.frames[i];
            let orbit = u128::from(sub.orbit_size());
            let possible = if self.depth > 0 {
                // Eighths of classes: the orbit times the stabilizer sum, which is from 1 to
                // the frame's stabilizer times the completions.
                let stab = 1 + sub.fixed_by.len() as u128;
                let (found, sum) = (part.total / orbit, part.unique / orbit);
                part.total.is_multiple_of(orbit)
                    && part.unique.is_multiple_of(orbit)
                    && sum >= found
                    && sum <= found.saturating_mul(stab)
            } else if sub.fixed_by.is_empty() {
                part.unique.checked_mul(orbit) == Some(part.total)
            } else {
                // `found` completions in classes of 1 to `stab` of them each.
                let found = part.total / orbit;
                let stab = 1 + sub.fixed_by.len() as u128;
                part.total.is_multiple_of(orbit)
                    && part.unique <= found
                    && part.unique.saturating_mul(stab) >= found
            };
            if !possible {
                return Some(format!(
                    "subproblem {i}{what} cannot have {} solutions in {} {} (its frame's orbit \
                     has {orbit} frames)",
                    part.total,
                    part.unique,
                    if self.depth > 0 {
                        "eighths of classes"
                    } else {
                        "classes"
                    }
                ));
            }
        }
        None
    }
}
