//! What a checkpoint holds: the saved state of a run ([`Checkpoint`]) and the time it has
//! taken ([`Spent`]), with the constants of the file's format that its writer (`write.rs`),
//! its parser (`parse.rs`) and its size bound (`bound.rs`) share.
//!
//! The format itself is described in the folder's `mod.rs`.

use crate::count::control::Tally;
use crate::count::frames::pieces;
use crate::count::shard::Shard;

pub(super) const MAGIC: &str = "queens-count-checkpoint";
pub(super) const VERSION: &str = "2";

/// The most subproblems a checkpoint may list (the plan of N = 32 has about 60,000); a file
/// saying more is refused before anything proportional to it is allocated.
pub const MAX_SUBPROBLEMS: usize = 1 << 24;

/// The saved state of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// The board size.
    pub n: usize,
    /// The name of the split, as the file says it (see [`crate::count::Split`]; a name no split has is
    /// read, and refused when the checkpoint is resumed).
    pub split: String,
    /// How many subproblems the whole board has.
    pub subproblems: usize,
    /// Which shard the run counts.
    pub shard: Shard,
    /// What is counted so far.
    pub tally: Tally,
    /// Seconds spent counting so far, over every session of the run.
    pub seconds: f64,
    /// Processor seconds spent so far (every thread, user and system), over every session of
    /// the run; `None` when a session's are not known (see the module's documentation).
    pub cpu_seconds: Option<f64>,
}

/// The time a run has taken, over every session that counted it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Spent {
    /// Wall seconds.
    pub seconds: f64,
    /// Processor seconds, every thread, user and system; `None` when not known.
    pub cpu_seconds: Option<f64>,
}

/// Whether the split named `split` of the `n` x `n` board deals pieces (a `pieces` line).
pub(super) fn has_pieces(n: usize, split: &str) -> bool {
    pieces::depth_of_split(n, split).is_some_and(|d| d > 0)
}

/// At most 60 characters of `s`, for error messages.
pub(super) fn shorten(s: &str) -> String {
    crate::text::shorten(s, 60)
}
