//! Checkpoint files: which subproblems of a run are counted, what each one contributed, and
//! their sum, saved atomically and checked when read.
//!
//! The idea: a run's state between subproblems is small — one bit per subproblem, each
//! finished subproblem's two counts and their sums — so it is written whole, as a short text
//! file, to a new temporary file beside the target (created exclusively, so never through a
//! symlink nor over another run's file), flushed to the disk (`fsync`) and renamed over the
//! target. A rename is atomic on POSIX file systems, so the file is always either the previous
//! or the new state, never a torn one, and a run killed at any moment loses at most the work
//! since the last save. The same command run again loads the file, skips the subproblems it
//! lists and adds the rest, so the final count is exact.
//!
//! A file that does not say exactly what a run saved is refused, never resumed: its last line
//! is a checksum of every line before it (see `checksum.rs`), and every field is checked
//! against the others — the number of finished subproblems against the bits, the bits against
//! the plan and the shard, each part against the list of bits, the totals against the sum of
//! the parts. Source: the write-to-temporary-then-rename pattern of durable file updates (as in
//! maildir and most databases' control files). Cost: O(subproblems) bytes per save, about 30
//! per finished subproblem (under 2 MB for N = 27).
//!
//! The format (version 2), one `key value` per line, in this order, each exactly once:
//!
//! ```text
//! queens-count-checkpoint 2
//! n 12
//! split frame1-v1
//! subproblems 130
//! shard 0/1
//! finished 2
//! total 24
//! unique 3
//! seconds 1.5
//! cpu-seconds 2.9
//! done 000000000000000100000000000000000000000000000002
//! parts 0:16/2 129:8/1
//! checksum fnv1a64:0123456789abcdef (the real one is computed)
//! ```
//!
//! `seconds` and `cpu-seconds` are the wall time and the processor time (every thread, user and
//! system) the run has taken so far, over every session that counted it. `cpu-seconds` came
//! later than the rest of version 2: a file without it (written by an older `queens`) is read,
//! and the run resumed from it does not know its processor time, so it writes no such line
//! either.
//!
//! `done` is the bit set of finished subproblems, 16 hexadecimal digits per 64 subproblems
//! (word `k` holds subproblems `64k..64k+63`, lowest bit first). `parts` lists each finished
//! subproblem as `index:total/unique`, in increasing order. `checksum` is the FNV-1a hash of
//! every byte before its line.
//!
//! A split that cuts frames into pieces (`frame1-rowsD-v1`, see `pieces`) has one more line,
//! after `parts`: `pieces`, the frames begun and not finished, in increasing order, each as
//! `index@next:total/unique` followed by `+start-end` for each range of pieces counted above
//! the watermark `next` (for example `pieces 17@5:48/48+8-14+20-20`). There `unique` and the
//! parts' classes are in eighths, and every frame belongs to every shard (its pieces are
//! dealt over the shards). `total` and `unique` are the sums of the finished frames' parts; the
//! pieces' sums are added when their frame is finished.
//!
//! Version 1 (no parts, no checksum), written by the first `queens` binaries, is refused with a
//! message that says so: such a file cannot be told from a damaged one.
//!
//! One job per file: `state.rs` (what a checkpoint holds, and the format's constants),
//! `write.rs` (its text), `parse.rs` (its text read back and checked), `bound.rs` (the most
//! bytes a file of a split can take), `file.rs` (load, atomic save, temporary files) and
//! `matches.rs` (a checkpoint against the run that would resume it).

mod bound;
mod file;
mod matches;
mod parse;
mod state;
mod write;

#[cfg(test)]
mod tests;

pub use file::{is_temporary_of, remove_stale_temporaries};
pub use state::{Checkpoint, Spent, MAX_SUBPROBLEMS};
