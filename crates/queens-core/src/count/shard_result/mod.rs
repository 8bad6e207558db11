//! Shard results: the one-line JSON object `queens count --shard I/M --json` writes and
//! `queens merge` reads, written and read here so that both always agree.
//!
//! The idea: a result is a flat JSON object of ten fields (eleven with a MAC), numbers and
//! strings only — `{"n":12,"total":4748,"unique":601,"seconds":0.021,"shard":0,"shards":3,
//! "split":"frame1-v1","subproblems":130,"unique_unit":"classes","checksum":"fnv1a64:..."}` —
//! so a strict reader of that shape needs no JSON library: every field is required (`shard`,
//! `shards` and `checksum` may be absent or `null`, to be refused with a message of their own;
//! `unique_unit` may be absent, as in the lines written before issue 39), none unknown or
//! repeated, no nesting, integers
//! whole and up to 2^128 - 1, the line at most [`MAX_LINE`] bytes. The checksum is the FNV-1a
//! hash (see `checksum.rs`) of the line `queens-count-result 2 n=N total=T unique=U seconds=S
//! shard=I shards=M split=NAME subproblems=K` (`-` for an absent shard), so it does not depend
//! on how the JSON is spaced or ordered. `unique_unit` ([`UniqueUnit`]: `classes`, or `eighths`
//! in a shard of more than one of a split that sums classes in eighths) is not in that line: it
//! follows from the split and the shard, and is checked against them, so results written before
//! it existed keep their checksums and MACs and still merge. A line that passes is then checked alone: its
//! checksum, its board (1 to [`MAX_N`](crate::count::MAX_N)), its counts, its time, its shard (below
//! [`MAX_SHARDS`](crate::count::MAX_SHARDS) shards) and its split (one this binary makes of that board, of that many
//! subproblems). What needs several results — same board, no shard twice, none missing — is
//! the merge's. Source: the JSON grammar of RFC 8259, restricted. Cost: one pass over the line;
//! checking a split builds its plan (up to 0.4 s for N = 32), once per split a [`Parser`] meets.
//!
//! # Files
//! - `check.rs`: a line read and checked alone ([`Parser`], [`ShardResult::parse`]).
//! - `write.rs`: a result's line and what its checksum covers ([`result_line`], [`Covered`]).
//! - `json.rs`: the strict reader of the flat JSON object, before any check of its meaning.
//! - `error.rs`: why a line is not a result ([`ShardResultError`], [`Syntax`]).

mod check;
mod error;
mod json;
mod write;

pub use check::Parser;
pub use error::{ShardResultError, Syntax, MAX_LINE};
pub use write::{result_line, Covered, ShardResult, UniqueUnit};

#[cfg(test)]
mod tests;
