//! What a run asks of its engine: the [`Counter`] trait, the one seam between the run
//! (`run.rs`, engine-blind) and the engines' folders (`frames/`, `halves/`), each of which
//! implements it for its plan. `plan.rs` maps a plan to its counter, so a new engine is a
//! folder with a type implementing this trait, and its variant there. It calls only the types
//! every engine shares: the tally and control, the shard, the split and the counts.

use std::fmt;
use std::sync::atomic::AtomicBool;

use super::control::{Control, Tally};
use super::shard::Shard;
use super::split::Split;
use super::types::{CountError, Counts};

/// What [`Counter::count`] returns: done or cancelled (the tally says which), or an error the
/// run cannot go on from.
pub(crate) type Counted = Result<(), CountError>;

/// An engine's plan of one board, as a run drives it: the subproblems, numbered from 0 (a
/// [`Tally`] has one part per subproblem, a [`Shard`] chooses among them by number), how to
/// count them, how to count one again independently, and which saved parts are possible.
pub(crate) trait Counter: fmt::Debug + Send + Sync {
    /// The split this plan makes: what its checkpoints and shard results are of. Engines that
    /// count the same subproblems the same way share a split (so their parts mix).
    fn split(&self) -> Split;

    /// How many subproblems the whole board has.
    fn len(&self) -> usize;

    /// The bytes one subproblem may hold while it is counted, by the engine's memory model:
    /// the run counts at most as many at once as fit in its budget. `None` when that memory is
    /// small whatever N (the run then takes every thread asked for), as it is unless an engine
    /// says otherwise.
    fn subproblem_bytes(&self) -> Option<u64> {
        None
    }

    /// The bytes one worker thread may hold while it counts, by the engine's memory model
    /// (its buffers and its stack): the run counts on at most as many threads as fit in its
    /// budget at once. By default one subproblem's bytes ([`Counter::subproblem_bytes`]).
    fn worker_bytes(&self) -> Option<u64> {
        self.subproblem_bytes()
    }

    /// Counts the subproblems `todo` (of `shard`, those of the tally not yet done) on
    /// `threads` threads (1: the calling thread; 0: one per core), recording each in
    /// `control`'s tally as soon as it is counted (with pieces, each frame begun in
    /// [`Tally::pieces`]), until done or until [`Control::cancel`] is raised. The tally stays
    /// exact whenever it stops; an error is one the run cannot go on from (threads that do not
    /// start, memory not found), raised after cancelling.
    fn count(&self, todo: &[usize], shard: Shard, threads: usize, control: &Control) -> Counted;

    /// Subproblem `i` (of `shard`, for a split that deals pieces) counted again on the calling
    /// thread by a search independent of [`Counter::count`]'s (no join, no listing), giving
    /// the part `count` records; `None` when `i` is past the plan or `cancel` was raised.
    fn recount(&self, i: usize, shard: Shard, cancel: &AtomicBool) -> Option<Counts>;

    /// The classes of the whole board from the sum of the `unique` parts of all its
    /// subproblems: the sum itself when parts count whole classes, else the sum of eighths
    /// divided by 8.
    fn classes(&self, sum: u128) -> u128;

    /// Why the parts of `tally` (finished subproblems, and pieces of those begun) cannot have
    /// been counted by this plan in `shard`, whatever a checksum says: the first impossible
    /// part, named by its subproblem (a piece the frame does not have, counts no part can
    /// have); `None` when every part is possible.
    fn impossible(&self, tally: &Tally, shard: Shard) -> Option<String>;
}
