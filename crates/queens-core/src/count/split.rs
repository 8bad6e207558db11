//! The names of the splits the engine makes of a board (`frame1-v1`, `frame1-rowsD-v1`,
//! `halvesK-v1`) and how many subproblems each makes, so that shard results and checkpoints of
//! different splits are never summed. It calls the plans of `frame.rs`, `pieces.rs` and
//! `halves/`.

use super::frames::frame::subproblems;
use super::frames::pieces::{self, SPLIT};
use super::halves;
use super::types::check_size;

/// How many subproblems the split named `split` makes of the `n` x `n` board, when this binary
/// knows the split: `frame1-v1` or `frame1-rowsD-v1` (the frame engine, whole frames or pieces
/// of D rows; the subproblems are the frames) or `halvesK-v1` (the half-board engine with K
/// pattern columns); `None` for another name or an N out of range. `queens merge` checks parts
/// against it, so that results of different splits are never summed.
pub fn split_subproblems(n: usize, split: &str) -> Option<usize> {
    if check_size(n).is_ok() && pieces::depth_of_split(n, split).is_some() {
        return Some(subproblems(n).len());
    }
    halves_plan_of_split(n, split).map(|p| p.len())
}

/// The half-board plan named `split` of the `n` x `n` board (`halvesK-v1`), if this binary
/// makes it.
pub(crate) fn halves_plan_of_split(n: usize, split: &str) -> Option<halves::Plan> {
    let k: usize = split
        .strip_prefix("halves")?
        .strip_suffix("-v1")?
        .parse()
        .ok()?;
    let plan = (1..=halves::MAX_N).contains(&n) && k <= halves::MAX_PATTERN_COLUMNS;
    plan.then(|| halves::Plan::new(n, k))
        .filter(|p| p.split() == split)
}

/// Whether the parts of `split` count classes in eighths (summed, then divided by 8 for the
/// whole board): the half-board engine's splits and the frame splits cut into pieces.
pub fn unique_in_eighths(split: &str) -> bool {
    split.starts_with("halves") || (split.starts_with("frame1-rows") && split != SPLIT)
}
