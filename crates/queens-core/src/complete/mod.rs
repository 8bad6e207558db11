//! N-Queens Completion: the solutions of a board that contain some given queens.
//!
//! Completion is NP-complete (Gent, Jefferson and Nightingale, "Complexity of n-Queens
//! Completion", JAIR 2017), so this is an exact search, made small first: the rows, columns and
//! diagonals of the given queens are struck out, leaving k free rows and k free columns. Each
//! free row keeps a bitset of the free columns it may still take (its *domain*). The search
//! then picks the unplaced row with the fewest choices (most constrained first), tries its
//! columns in increasing order, and after each placement removes the attacked squares from the
//! domains of the rows still unplaced (forward checking, undone from a trail on the way back).
//! A row left with an empty domain, or a free column that no open row can take any more, ends
//! the branch at once, so "no completion" is proved by exhausting a small tree, and a board of
//! thousands with a dozen queens missing costs about as much as a 12-queen problem.
//!
//! Cost: O(k^2) bits for the domains and up to 8 k^2 bytes of trail (the exact search refuses
//! more than [`MAX_FREE`] free rows, and whatever exceeds the memory budget), O(k) per search
//! node, and a tree that is exponential in k at worst.
//!
//! A board with few given queens is the opposite case: easy for local search, while the exact
//! search can wander for minutes (a single corner queen on 91 x 91 took it over 10 s). So
//! [`Instance::solve`] runs a short exact search first, then min-conflicts local search with the
//! given queens fixed (`local.rs`), then the exact search to its end; only the exact search
//! answers "no completion", and [`Instance::count`] is the exact search alone.
//!
//! Instances are read (in `csplib.rs`) in the CSPLib problem 79 parameter format (`letting n = 8`,
//! `letting init = [[r, c], ...]`, 0-based as in the CSPLib generators) or as a drawn board.
//!
//! One job per file: `instance.rs` (the problem, its answers and the checks of its given
//! queens), `error.rs` ([`InstanceError`]), `exact.rs` (the exact search and the count),
//! `local.rs` (the local search), `solve.rs` (the three phases of [`Instance::solve`]),
//! `csplib.rs` (the reader) and `located.rs` (the lines of a file that gave each queen, to
//! name a square given twice or two queens that attack by them); this file only declares and
//! re-exports them.

mod csplib;
mod error;
mod exact;
mod instance;
mod local;
mod located;
mod solve;

#[cfg(test)]
mod tests;

pub use csplib::{
    parse_instance, parse_instance_within, InstanceParseError, BYTES_PER_GIVEN_QUEEN, MAX_NESTING,
};
pub use error::InstanceError;
pub use exact::MAX_FREE;
pub use instance::{Completion, CountEnd, Counted, Instance, DEFAULT_BUDGET, MAX_N};
pub use located::{read_instance_within, GivenAttack, InstanceFile};
