//! The size bound of a checkpoint file: the most bytes a checkpoint of a given split of a board
//! can take, and the reading of a long file's first lines (its version, board and split) that
//! fixes that bound before the rest is read, so that a file of any size is read within a
//! budget. Cost: arithmetic on the number of subproblems of the split.

use std::path::Path;

use super::state::{shorten, Checkpoint, MAGIC, VERSION};
use crate::count::split::Split;
use crate::count::types::CountError;

/// The bytes of a checkpoint read before its size is bounded: more than any header (the
/// lines up to `seconds` take at most about 250 bytes), so a shorter file is read whole.
pub(super) const HEAD_BYTES: u64 = 4096;

/// The most `above` ranges of pieces a checkpoint of a split into pieces may list over all its
/// frames begun: each of at most 1024 threads leaves at most one gap in at most as many frames.
const MAX_PIECE_RANGES: u64 = 1 << 21;

/// The most bytes a checkpoint of the split `split` of the `n` x `n` board can take, every
/// subproblem finished with counts of 39 digits (`None` for a split this binary does not make
/// of `n`): the bound [`Checkpoint::load`] reads within.
pub(super) fn max_bytes(n: usize, split: &str) -> Option<u64> {
    let split: Split = split.parse().ok()?;
    let subproblems = split.subproblems(n)? as u64;
    // `done`: 16 digits per 64; `parts`: " index:total/unique" of at most 1 + 20 + 1 + 39 +
    // 1 + 39 bytes; the header, the checksum line and the MAC line: under 1 KiB.
    let mut bytes = 1024 + subproblems.div_ceil(64) * 16 + subproblems * 101;
    if split.has_pieces() {
        // `pieces`: " index@next:total/unique" (at most 1 + 20 + 1 + 20 + 1 + 39 + 1 + 39
        // bytes) per frame, and "+start-end" (at most 42) per range.
        bytes += subproblems * 122 + MAX_PIECE_RANGES * 42;
    }
    Some(bytes)
}

/// What the first lines of a long checkpoint say is wrong.
pub(super) enum HeadProblem {
    Malformed(String),
    OtherBoard(usize),
}

/// The bound [`max_bytes`] of the checkpoint whose first [`HEAD_BYTES`] are `head`, for a run
/// of `n`: its version line, `n` and `split` lines must be there and name a split of `n`.
pub(super) fn head_limit(head: &str, n: usize) -> Result<u64, HeadProblem> {
    let mut lines = head.split('\n');
    let first = lines.next().unwrap_or("");
    if first != format!("{MAGIC} {VERSION}") {
        // The version's own messages (an old file, a carriage return, ...) come from the
        // parser, which needs no more than the first line for them.
        return Err(HeadProblem::Malformed(
            match Checkpoint::from_text(Path::new(""), &format!("{first}\n")) {
                Err(CountError::CheckpointMalformed { reason, .. }) => reason,
                _ => format!("its first line should be '{MAGIC} {VERSION}'"),
            },
        ));
    }
    let malformed = |what: &str| HeadProblem::Malformed(format!("its {what} line is malformed"));
    let m: usize = lines
        .next()
        .and_then(|l| l.strip_prefix("n "))
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| malformed("'n'"))?;
    if m != n {
        return Err(HeadProblem::OtherBoard(m));
    }
    let split = lines
        .next()
        .and_then(|l| l.strip_prefix("split "))
        .ok_or_else(|| malformed("'split'"))?;
    max_bytes(n, split).ok_or_else(|| {
        HeadProblem::Malformed(format!(
            "its split '{}' is not one this binary makes of N = {n}",
            shorten(split)
        ))
    })
}
