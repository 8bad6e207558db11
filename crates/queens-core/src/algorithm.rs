//! The choice of solver, and one entry point that runs any of them.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

use crate::error::Error;
use crate::{backtrack, bfs, bitboard, iterative, recursive, wirth};

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

    /// The largest board the algorithm accepts.
    pub fn max_n(self) -> usize {
        match self {
            Algorithm::Bitboard => bitboard::MAX_N,
            Algorithm::Bfs => bfs::MAX_N,
            _ => u32::MAX as usize,
        }
    }

    /// Checks that `n` is a board size this algorithm can search.
    pub fn check_size(self, n: usize) -> Result<(), Error> {
        if n == 0 {
            Err(Error::ZeroSize)
        } else if n > self.max_n() {
            Err(Error::TooLarge {
                n,
                algorithm: self.name(),
                max: self.max_n(),
            })
        } else {
            Ok(())
        }
    }

    /// Visits every solution of the `n` x `n` board in lexicographic order until `visit` breaks.
    /// Returns `Break` when the visitor stopped the search early.
    ///
    /// # Example
    /// ```
    /// use queens_core::{Algorithm, SearchOptions};
    /// use std::ops::ControlFlow;
    /// let mut first = Vec::new();
    /// Algorithm::Wirth
    ///     .for_each_solution(8, &SearchOptions::default(), &mut |q| {
    ///         first = q.to_vec();
    ///         ControlFlow::Break(())
    ///     })
    ///     .unwrap();
    /// assert_eq!(first, [0, 4, 7, 5, 2, 6, 1, 3]);
    /// ```
    pub fn for_each_solution(
        self,
        n: usize,
        options: &SearchOptions,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, Error> {
        self.check_size(n)?;
        Ok(match self {
            Algorithm::Backtrack => backtrack::for_each_solution(n, visit),
            Algorithm::Iterative => iterative::for_each_solution(n, visit),
            Algorithm::Recursive => recursive::for_each_solution(n, visit),
            Algorithm::Wirth => wirth::for_each_solution(n, visit),
            Algorithm::Bfs => bfs::for_each_solution(n, options.max_memory, visit)?,
            Algorithm::Bitboard => bitboard::for_each_solution(n, visit),
        })
    }

    /// The lexicographically first solution, or `None` when the board has none.
    pub fn first_solution(
        self,
        n: usize,
        options: &SearchOptions,
    ) -> Result<Option<Vec<usize>>, Error> {
        let mut found = None;
        let _ = self.for_each_solution(n, options, &mut |q| {
            found = Some(q.to_vec());
            ControlFlow::Break(())
        })?;
        Ok(found)
    }

    /// Counts the solutions by visiting every one of them.
    pub fn count_by_enumeration(self, n: usize, options: &SearchOptions) -> Result<u64, Error> {
        let mut count = 0u64;
        let _ = self.for_each_solution(n, options, &mut |_| {
            count += 1;
            ControlFlow::Continue(())
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
#[error("unknown algorithm '{0}' (expected one of backtrack, iterative, recursive, wirth, bfs, bitboard)")]
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
