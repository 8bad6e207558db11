//! Why a line is not a shard result: one error per check, each naming the line, and the
//! syntax errors of its text with their byte offsets. It calls nothing.

use thiserror::Error;

use crate::count::shard::MAX_SHARDS;
use crate::count::split::{Split, SPLIT};
use crate::count::types::MAX_N;

use super::write::UniqueUnit;

/// The longest result line read, in bytes (a real one has about 200).
pub const MAX_LINE: usize = 4096;

/// How much of a string taken from the input an error message repeats.
const ECHO: usize = 64;

/// line (a file, or a file and a line number).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ShardResultError {
    /// The line is not the JSON object a result is.
    #[error("{name} is not a shard result: {syntax}")]
    Malformed {
        /// The line's name.
        name: String,
        /// What is wrong and where.
        syntax: Syntax,
    },
    /// The line has no checksum, as written before results carried one.
    #[error(
        "{name} has no checksum: it was written by a queens binary from before shard results \
         carried one, and cannot be told from a damaged or edited one; count that shard again"
    )]
    NoChecksum {
        /// The line's name.
        name: String,
    },
    /// The checksum does not match the content.
    #[error(
        "{name}: its checksum says {claimed} but its content gives {actual}: the result was \
         damaged or edited"
    )]
    Checksum {
        /// The line's name.
        name: String,
        /// The checksum the line carries (cut short).
        claimed: String,
        /// The checksum of its content.
        actual: String,
    },
    /// A key is set (`QUEENS_KEY`) and the result carries no MAC.
    #[error(
        "{name} has no MAC, but QUEENS_KEY is set: under a key every part must be signed; it \
         was written without the key (count that shard again with QUEENS_KEY set), or unset \
         QUEENS_KEY to merge unsigned parts, checked by their checksums only"
    )]
    NoMac {
        /// The line's name.
        name: String,
    },
    /// A key is set and the result's MAC is not the one of its content under that key.
    #[error(
        "{name}: its MAC does not match its content under QUEENS_KEY: the result was edited, \
         or signed with another key"
    )]
    BadMac {
        /// The line's name.
        name: String,
    },
    /// N is outside what the counting engine counts.
    #[error("{name} is for N = {n}, but the counting engine counts N from 1 to {MAX_N}")]
    Size {
        /// The line's name.
        name: String,
        /// The N it claims.
        n: usize,
    },
    /// A half-board shard whose eighths of classes no shard of its split can have: they equal
    /// its total, except in shard 0, which adds the fixed-point subproblem's even sum.
    #[error(
        "{name} cannot have {unique} eighths of classes for {total} solutions: a half-board \
         shard's eighths equal its total, plus in shard 0 an even number (the solutions fixed \
         by the turns)"
    )]
    HalvesEighths {
        /// The line's name.
        name: String,
        /// The eighths it claims.
        unique: u128,
        /// The total it claims.
        total: u128,
    },
    /// More classes than solutions (impossible but for the half-board engine's eighths).
    #[error("{name} has more classes ({unique}) than solutions ({total})")]
    MoreClasses {
        /// The line's name.
        name: String,
        /// The classes it claims.
        unique: u128,
        /// The solutions it claims.
        total: u128,
    },
    /// The time is negative or past [`crate::count::MAX_RUN_SECONDS`].
    #[error("{name} has a time no run takes (negative, or over 10^12 seconds)")]
    Time {
        /// The line's name.
        name: String,
    },
    /// More shards than a count may have.
    #[error(
        "{name} says the count has {shards} shards, more than the {MAX_SHARDS} a count may have"
    )]
    TooManyShards {
        /// The line's name.
        name: String,
        /// The number of shards it claims.
        shards: u64,
    },
    /// No shard, or a shard index not below the number of shards: a whole count's result.
    #[error("{name} is not a shard result: it has no valid \"shard\" and \"shards\"")]
    NotSharded {
        /// The line's name.
        name: String,
    },
    /// A split this binary does not make of the board.
    #[error(
        "{name} is of the split {split}, which this binary does not make of N = {n} (it makes \
         {SPLIT}, the frame1-rowsD-v1 and the halvesK-v1 splits): parts of different splits \
         cannot be added"
    )]
    UnknownSplit {
        /// The line's name.
        name: String,
        /// The split it names (cut short).
        split: String,
        /// The board size.
        n: usize,
    },
    /// A `unique_unit` other than the one the split and the shard give (issue 39).
    #[error(
        "{name} says its unique_unit is {claimed}, but its split and shard make it {unit}: the \
         result was damaged or edited"
    )]
    UniqueUnit {
        /// The line's name.
        name: String,
        /// The unit it claims (cut short).
        claimed: String,
        /// The unit its split and shard give.
        unit: UniqueUnit,
    },
    /// A known split, but of another number of subproblems than this binary makes.
    #[error(
        "{name} is of the split {split} of {subproblems} subproblems, but this binary splits \
         N = {n} that way into {plan}: parts of different splits cannot be added"
    )]
    Plan {
        /// The line's name.
        name: String,
        /// The split it names.
        split: Split,
        /// The subproblems it claims.
        subproblems: usize,
        /// The board size.
        n: usize,
        /// The subproblems this binary makes.
        plan: usize,
    },
}

/// What is wrong with the text of a line; `at` is a byte offset from 1.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Syntax {
    /// The line is longer than [`MAX_LINE`].
    #[error("the line has {len} bytes, more than the {MAX_LINE} a result has")]
    TooLong {
        /// Its length.
        len: usize,
    },
    /// Something else than the grammar allows.
    #[error("expected {what} at byte {at}")]
    Expected {
        /// What was expected.
        what: &'static str,
        /// Where.
        at: usize,
    },
    /// Text after the object.
    #[error("trailing characters at byte {at}")]
    Trailing {
        /// Where.
        at: usize,
    },
    /// A field that results do not have.
    #[error("unknown field `{field}`")]
    UnknownField {
        /// Its name (cut short).
        field: String,
    },
    /// A field given twice.
    #[error("duplicate field `{0}`")]
    DuplicateField(&'static str),
    /// A required field not given.
    #[error("missing field `{0}`")]
    MissingField(&'static str),
    /// A field of the wrong type.
    #[error("field `{field}` must be {expected}")]
    WrongType {
        /// The field.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// A number too large for its field.
    #[error("field `{field}` is out of range")]
    OutOfRange {
        /// The field.
        field: &'static str,
    },
}

/// `s`, cut to [`ECHO`] characters.
pub(super) fn cut(s: &str) -> String {
    match s.char_indices().nth(ECHO) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}
