//! The engine of the `queens` toolkit: every classic N-Queens solver, checks, counters,
//! completion and traces.
//!
//! A *placement* is the column of the queen in each row, 0-based, rows top to bottom:
//! `[0, 4, 7, 5, 2, 6, 1, 3]` is the first solution of the 8x8 board. Every depth-first solver
//! produces solutions in lexicographic order of that array and hands each one to a visitor, so a
//! caller can stream millions of solutions without holding them.
//!
//! # What you want, and what to call
//!
//! | you want | call |
//! |---|---|
//! | one solution (the first, a built one, a random one) | [`solve::Method::solve`], or [`Algorithm::first_solution`] |
//! | every solution, streamed in order | [`Algorithm::for_each_solution`] |
//! | solutions K.. K+L-1 without the K before them | [`search::rank::solutions_from`] |
//! | the number of solutions and of classes, on every core | [`count::count`], [`count::count_parallel`] |
//! | one representative per symmetry class | [`count::for_each_canonical`], [`board::representative`] |
//! | one shard of a count, resumable | [`count::Run`] with [`count::Shard`] and [`count::Checkpoint`] |
//! | whether a placement is a solution, and why not | [`find_flaw`], [`find_flaw_in_squares`] |
//! | complete a partly filled board | [`complete::Instance::solve`], [`complete::parse_instance`] |
//! | count its completions, stoppable | [`complete::Instance::count`], [`complete::Instance::count_within_until`] |
//! | every step of a search, as events | [`trace::Trace`]: [`run`](trace::Trace::run), [`record`](trace::Trace::record), [`summarize`](trace::Trace::summarize) |
//! | a solution of a million queens | [`solve::construct::columns`] (streamed), [`solve::min_conflicts::solve`] |
//! | read placements and boards from text | [`parse::EntryReader`], [`parse::parse_entries`] |
//! | the known counts (OEIS A000170, A002562) | [`reference::known`] |
//!
//! # Layers
//!
//! Every dependency points down this list; no module imports one above it:
//! 1. [`board`]: squares, lines, the O(N) check, the eight symmetries. Depends on nothing.
//! 2. [`search`]: the [`Algorithm`] list and its one dispatch, the [`search::Tracer`] interface,
//!    one file per solver, ranking.
//! 3. Built on those, each independent of the others: [`trace`] (the recorder the viewers use),
//!    [`solve`] (one solution), [`count`] (the counting engine), [`complete`] (completion), and
//!    [`parse`] (placements and boards from text).
//!
//! The size of every request is checked first, with one error type, [`SizeError`], shared by
//! every layer. `docs/architecture.md` in the repository says where a new solver, format or
//! endpoint goes.
//!
//! This crate has no argument parser and no terminal or web dependencies; the `queens` binary
//! builds its command line on top of it.
#![deny(missing_docs)]

mod alloc;
pub mod board;
pub mod complete;
pub mod count;
mod error;
pub mod parse;
pub mod random;
pub mod reference;
pub mod search;
pub mod solve;
pub mod text;
pub mod trace;

pub use board::{find_flaw, find_flaw_in_squares, Flaw, Line, Square};
pub use error::{bytes, Error, SizeError};
pub use search::{Algorithm, SearchOptions};

/// Re-exports of the verbs most callers need.
pub mod prelude {
    pub use crate::board::{find_flaw, Flaw, Square};
    pub use crate::error::{Error, SizeError};
    pub use crate::search::{Algorithm, SearchOptions};
    pub use crate::solve::Method;
    pub use std::ops::ControlFlow;
}

/// Internals the benchmarks measure one by one, and the measuring rigs of the examples. Not
/// part of the API: they may change at any time.
#[doc(hidden)]
pub mod internals;
