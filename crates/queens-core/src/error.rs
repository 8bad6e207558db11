//! The library's error type: every way a request to the engine can be refused.

use thiserror::Error;

/// Why the engine refused a request. A search that finds no solution is not an error: it
/// returns `None` or visits nothing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// The board size was zero.
    #[error("N must be at least 1 (got 0)")]
    ZeroSize,
    /// The board is wider than the chosen algorithm supports.
    #[error("N = {n} is too large for the {algorithm} algorithm, which handles N up to {max}")]
    TooLarge {
        /// The requested size.
        n: usize,
        /// The algorithm's name.
        algorithm: &'static str,
        /// The largest size it supports.
        max: usize,
    },
    /// The breadth-first search would need more memory than its budget allows.
    #[error(
        "the breadth-first search of N = {n} needs {needed} bytes at level {level} ({states} \
         partial boards), more than the memory budget of {budget} bytes; raise --max-memory or \
         use a depth-first algorithm such as bitboard"
    )]
    MemoryBudget {
        /// The board size.
        n: usize,
        /// The level (number of rows placed) that would not fit.
        level: usize,
        /// How many partial boards that level holds.
        states: u64,
        /// The bytes the two live levels would need together.
        needed: u64,
        /// The budget in bytes.
        budget: u64,
    },
}
