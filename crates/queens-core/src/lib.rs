//! The engine of the `queens` toolkit: every classic N-Queens solver, checks and counters.
//!
//! A *placement* is the column of the queen in each row, 0-based, rows top to bottom:
//! `[0, 4, 7, 5, 2, 6, 1, 3]` is the first solution of the 8x8 board. Every depth-first solver
//! produces solutions in lexicographic order of that array and hands each one to a visitor, so a
//! caller can stream millions of solutions without holding them.
//!
//! This crate has no argument parser and no terminal or web dependencies; the `queens` binary
//! builds its command line on top of it.
#![deny(missing_docs)]

pub mod algorithm;
pub mod backtrack;
pub mod bfs;
pub mod bitboard;
pub mod check;
pub mod complete;
pub mod construct;
pub mod count;
pub mod error;
pub mod iterative;
pub mod min_conflicts;
pub mod parse;
pub mod rank;
pub mod recursive;
pub mod trace;
pub mod wirth;

pub use algorithm::{Algorithm, SearchOptions};
pub use check::{find_flaw, find_flaw_in_squares, Flaw, Line, Square};
pub use error::Error;

/// Re-exports of the verbs most callers need.
pub mod prelude {
    pub use crate::algorithm::{Algorithm, SearchOptions};
    pub use crate::check::{find_flaw, Flaw};
    pub use crate::error::Error;
    pub use std::ops::ControlFlow;
}
