//! The frame engine: count by searching, for one canonical pre-placement of the board's outer
//! frame per symmetry orbit, every completion of the rows it leaves free, the last few rows
//! joined from a table instead of searched.
//!
//! # Files
//! Each file does one job; the arrows point down this list.
//! - `plan.rs`: the plan a run holds (the frames and the rows they are cut at) and its
//!   `Counter` (`count/counter.rs`): the count, the recount of a frame, the parts possible.
//! - `engine.rs`: the runs on one thread or a pool, each subproblem recorded in the run's
//!   `Control` (`count/control.rs`), and the choice between join and plain search per frame.
//! - `pieces.rs`: on large boards, each frame cut into pieces by the queens of its first free
//!   rows, so that no subproblem is more than about a minute of one core.
//! - `join.rs`: the join of a frame's last rows from a table of bottoms, on top of the kernel.
//! - `kernel.rs`: the leaf, a tight bitmask loop that fills a frame's free rows.
//! - `frame.rs`: the subproblems, the canonical frames ([`frame::Subproblem`]).

pub(crate) mod engine;
pub(crate) mod frame;
pub(crate) mod join;
pub(crate) mod kernel;
pub mod pieces;
mod plan;

pub use plan::Plan;
