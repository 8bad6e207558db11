//! What a run and its engines share: the [`Tally`] of the subproblems counted so far (which,
//! each one's contribution, their sum, and the pieces of the frames begun) and the [`Control`]
//! that holds it with the cancel flag, for the counting threads and whoever watches them. The
//! tally is locked once per subproblem counted (a few thousand times per run, never in an inner
//! loop); raising the flag makes every search stop soon, leaving the tally exact for the
//! subproblems it lists as done. It calls the shared types, the shard and the frame engine's
//! record of a frame's pieces.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::frames::pieces::FramePieces;
use super::shard::Shard;
use super::types::Counts;

/// What a run has finished so far: which subproblems, each one's own contribution, and their
/// sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    /// One bit per subproblem of the whole plan, set when it is counted.
    pub done: Vec<u64>,
    /// How many bits of `done` are set.
    pub finished: u64,
    /// The contribution of each subproblem of the plan (zero for those not counted), so that
    /// `counts` is always the sum of its parts and any part can be recounted.
    pub parts: Vec<Counts>,
    /// The sum of the finished subproblems' contributions.
    pub counts: Counts,
    /// For a plan of pieces (see `pieces`): the frames begun but not finished, with the pieces
    /// counted so far and their sum (not in `counts` until the frame is finished).
    pub pieces: BTreeMap<usize, FramePieces>,
}

impl Tally {
    /// An empty tally for a plan of `subproblems` subproblems.
    pub fn new(subproblems: usize) -> Tally {
        Tally {
            done: vec![0; subproblems.div_ceil(64)],
            finished: 0,
            parts: vec![Counts::default(); subproblems],
            counts: Counts::default(),
            pieces: BTreeMap::new(),
        }
    }

    /// With a plan of pieces: how many frames are begun and not finished, and how many of
    /// their pieces (of `shard`) are counted — what a run shows of its progress between two
    /// finished frames.
    pub fn begun(&self, shard: Shard) -> (usize, u64) {
        let pieces = self.pieces.iter().map(|(&f, p)| p.counted(shard, f)).sum();
        (self.pieces.len(), pieces)
    }

    /// Whether subproblem `i` is counted.
    pub fn is_done(&self, i: usize) -> bool {
        self.done[i / 64] >> (i % 64) & 1 == 1
    }

    /// The finished subproblems, in increasing order.
    pub fn finished_subproblems(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.parts.len()).filter(|&i| self.is_done(i))
    }

    /// Adds the contribution of subproblem `i` (once). The sums cannot overflow: every total
    /// of a board of at most 32 columns is far below 2^128 (and a tally loaded from a file is
    /// checked for it).
    pub fn record(&mut self, i: usize, part: Counts) {
        if !self.is_done(i) {
            self.done[i / 64] |= 1 << (i % 64);
            self.finished += 1;
            self.parts[i] = part;
            self.counts.total = self.counts.total.saturating_add(part.total);
            self.counts.unique = self.counts.unique.saturating_add(part.unique);
        }
    }
}

/// Shared between the searching threads and whoever watches them.
#[derive(Debug)]
pub struct Control {
    /// Raise to stop the run soon; the tally stays exact.
    pub cancel: AtomicBool,
    tally: Mutex<Tally>,
}

impl Control {
    /// A control over a tally (empty, or loaded from a checkpoint).
    pub fn new(tally: Tally) -> Control {
        Control {
            cancel: AtomicBool::new(false),
            tally: Mutex::new(tally),
        }
    }

    /// The tally, locked; a copy is cheap enough to write a checkpoint from.
    pub fn tally(&self) -> MutexGuard<'_, Tally> {
        self.tally.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the run was cancelled.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}
