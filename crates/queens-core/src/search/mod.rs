//! The search layer: the list of algorithms that enumerate every solution, the tracer they
//! report to, one file per solver, and ranking.
//!
//! Every solver is one file opening with its idea, source and cost. Each has a
//! `for_each_solution_traced` generic over a [`Tracer`]; [`Algorithm::for_each_solution_traced`]
//! is the one dispatch over them, and the untraced search is that dispatch with [`NoTrace`].
//! A new solver is one file here, one variant of [`Algorithm`] and one match arm.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

use crate::error::{Error, SizeError};

pub(crate) mod backtrack;
pub(crate) mod bfs;
pub(crate) mod bitboard;
pub(crate) mod iterative;
pub mod rank;
pub(crate) mod recursive;
pub(crate) mod tracer;
pub(crate) mod wirth;

pub use backtrack::Backtracker;
pub use tracer::{Axis, Board, ConflictLine, EventKind, NoTrace, Step, Tracer};

/// The depth-first and breadth-first solvers that enumerate every solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Column-by-column backtracking with explicit state (the COMP 333 project).
    Backtrack,
    /// The textbook loop with `find_position` and `is_valid`.
    Iterative,
    /// Recursive backtracking (Horowitz and Sahni).
    Recursive,
    /// Recursive backtracking with O(1) tests on boolean arrays (Wirth).
    Wirth,
    /// Breadth-first search over partial boards, level by level.
    Bfs,
    /// Depth-first search on bitmasks: the fast default.
    Bitboard,
}

impl Algorithm {
    /// Every algorithm, in the order the documentation lists them.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Backtrack,
        Algorithm::Iterative,
        Algorithm::Recursive,
        Algorithm::Wirth,
        Algorithm::Bfs,
        Algorithm::Bitboard,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Backtrack => "backtrack",
            Algorithm::Iterative => "iterative",
            Algorithm::Recursive => "recursive",
            Algorithm::Wirth => "wirth",
            Algorithm::Bfs => "bfs",
            Algorithm::Bitboard => "bitboard",
        }
    }

    /// One line on what the algorithm is and where it comes from, for help texts and menus.
    pub fn summary(self) -> &'static str {
        match self {
            Algorithm::Backtrack => "Column-by-column backtracking with explicit state (COMP 333)",
            Algorithm::Iterative => "The textbook loop with find_position / is_valid",
            Algorithm::Recursive => "Recursive backtracking (Horowitz-Sahni)",
            Algorithm::Wirth => "Recursive backtracking with O(1) boolean-array tests (Wirth)",
            Algorithm::Bfs => {
                "Breadth-first search over partial boards (bounded by the memory budget)"
            }
            Algorithm::Bitboard => "Depth-first search on bitmasks (fast; N up to 64)",
        }
    }

    /// The names of [`Algorithm::ALL`], in order: the one list the command line and the server
    /// offer.
    pub fn names() -> [&'static str; 6] {
        Algorithm::ALL.map(Algorithm::name)
    }

    /// The largest board the algorithm accepts.
    pub fn max_n(self) -> usize {
        match self {
            Algorithm::Bitboard => bitboard::MAX_N,
            Algorithm::Bfs => bfs::MAX_N,
            _ => u32::MAX as usize,
        }
    }

    /// What the algorithm is called in messages: "the wirth algorithm".
    fn what(self) -> &'static str {
        match self {
            Algorithm::Backtrack => "the backtrack algorithm",
            Algorithm::Iterative => "the iterative algorithm",
            Algorithm::Recursive => "the recursive algorithm",
            Algorithm::Wirth => "the wirth algorithm",
            Algorithm::Bfs => "the bfs algorithm",
            Algorithm::Bitboard => "the bitboard algorithm",
        }
    }

    /// Checks that `n` is a board size this algorithm can search.
    pub fn check_size(self, n: usize) -> Result<(), SizeError> {
        SizeError::check(n, self.what(), self.max_n())
    }

    /// Visits every solution of the `n` x `n` board in lexicographic order until `visit` breaks,
    /// and returns what it broke with (`Continue` when the search ran to its end).
    ///
    /// # Example
    /// ```
    /// use queens_core::{Algorithm, SearchOptions};
    /// use std::ops::ControlFlow;
    /// // The first solution with its rank among the solutions: the break value carries it out.
    /// let found = Algorithm::Wirth
    ///     .for_each_solution(8, &SearchOptions::default(), &mut |q| ControlFlow::Break(q.to_vec()))
    ///     .unwrap();
    /// assert_eq!(found, ControlFlow::Break(vec![0, 4, 7, 5, 2, 6, 1, 3]));
    /// ```
    pub fn for_each_solution<B>(
        self,
        n: usize,
        options: &SearchOptions,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<B>,
    ) -> Result<ControlFlow<B>, Error> {
        let mut value = None;
        let _ =
            self.for_each_solution_traced(n, options, &mut NoTrace, &mut |q| match visit(q) {
                ControlFlow::Continue(()) => ControlFlow::Continue(()),
                ControlFlow::Break(b) => {
                    value = Some(b);
                    ControlFlow::Break(())
                }
            })?;
        Ok(value.map_or(ControlFlow::Continue(()), ControlFlow::Break))
    }

    /// The one dispatch: runs the algorithm on the `n` x `n` board with `tracer` watching every
    /// step, visiting every solution in lexicographic order until `visit` or the tracer breaks.
    /// The untraced search is this with [`NoTrace`], which compiles away.
    pub fn for_each_solution_traced<T: Tracer>(
        self,
        n: usize,
        options: &SearchOptions,
        tracer: &mut T,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, Error> {
        self.check_size(n)?;
        Ok(match self {
            Algorithm::Backtrack => backtrack::for_each_solution_traced(n, tracer, visit),
            Algorithm::Iterative => iterative::for_each_solution_traced(n, tracer, visit),
            Algorithm::Recursive => recursive::for_each_solution_traced(n, tracer, visit),
            Algorithm::Wirth => wirth::for_each_solution_traced(n, tracer, visit),
            Algorithm::Bfs => bfs::for_each_solution_traced(n, options.max_memory, tracer, visit)?,
            Algorithm::Bitboard => bitboard::for_each_solution_traced(n, tracer, visit),
        })
    }

    /// The lexicographically first solution, or `None` when the board has none.
    pub fn first_solution(
        self,
        n: usize,
        options: &SearchOptions,
    ) -> Result<Option<Vec<usize>>, Error> {
        Ok(self
            .for_each_solution(n, options, &mut |q| ControlFlow::Break(q.to_vec()))?
            .break_value())
    }

    /// Counts the solutions by visiting every one of them.
    pub fn count_by_enumeration(self, n: usize, options: &SearchOptions) -> Result<u64, Error> {
        let mut count = 0u64;
        let _ = self.for_each_solution(n, options, &mut |_| {
            count += 1;
            ControlFlow::<()>::Continue(())
        })?;
        Ok(count)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name of an algorithm that does not exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm '{0}' (expected one of {names})", names = Algorithm::names().join(", "))]
pub struct UnknownAlgorithm(pub String);

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| UnknownAlgorithm(s.to_string()))
    }
}

/// Settings shared by the searches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOptions {
    /// The most memory, in bytes, the breadth-first search may hold.
    pub max_memory: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            max_memory: 1 << 30,
        }
    }
}
