//! What one solver is, in one value: [`SolverInfo`], the `INFO` each solver's file carries
//! (its name, its summary, the label menus show, its source, its largest board, the memory it
//! takes, how fast it finds a first solution), and [`Visit`], the visitor every search calls.
//!
//! The table in `search/mod.rs` reads these values to make [`super::Algorithm`] and its
//! methods; nothing else lists the solvers. This file sits below the solvers and the table, so
//! both import from it and every arrow points down.

use std::ops::ControlFlow;

use super::tracer::Axis;
use crate::error::Error;

/// The visitor a search hands each solution to; breaking stops the search.
pub(crate) type Visit<'a> = &'a mut dyn FnMut(&[usize]) -> ControlFlow<()>;

/// What the table hands a solver's `search`: the board and the memory budget, checked already.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Job {
    /// The board size.
    pub n: usize,
    /// The bytes the search may hold (only the searches that grow with the board read it).
    pub budget: u64,
    /// The bytes its arrays take (`Algorithm::memory_needed`), checked against the budget.
    pub needed: u64,
    /// The solver's name, for the error of an allocation refused.
    pub name: &'static str,
}

impl Job {
    /// `len` copies of `value`: an array of the search, allocated fallibly. The budget check
    /// let it through, but a budget of `u64::MAX` lets through what the allocator cannot give;
    /// then the request is refused as over the budget ([`Error::OverBudget`]), never by an
    /// abort of the process.
    pub fn filled<T: Clone>(&self, len: usize, value: T) -> Result<Vec<T>, Error> {
        crate::alloc::filled(len, value).ok_or_else(|| Error::OverBudget {
            what: format!("the {} algorithm on N = {}", self.name, self.n),
            needed: self.needed,
            budget: self.budget,
        })
    }
}

/// What a solver's `search` returns: how the visit ended, or why the search stopped short.
pub(crate) type Searched = Result<ControlFlow<()>, Error>;

/// The deepest recursion of the recursive solvers (`recursive`, `wirth`), which keep the
/// textbook shape of one call per row: the largest N they accept. A row takes 80 bytes of stack
/// untraced and up to about 210 with a tracer (measured; the test
/// `the_recursive_solvers_fit_their_deepest_board_in_a_spawned_threads_stack` checks it), so
/// 5,000 rows take at most about 1 MB, half of the 2 MiB Rust gives a spawned thread. The
/// lexicographically first solution of such a board is out of reach of these searches anyway.
pub const MAX_RECURSION_DEPTH: usize = 5_000;

/// The largest board a solver takes when nothing in it sets a tighter limit (`backtrack`,
/// `iterative`): far beyond any board whose arrays fit in the memory budget.
pub(crate) const UNBOUNDED: usize = u32::MAX as usize;

/// The facts of one solver, each read by one method of [`super::Algorithm`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct SolverInfo {
    /// The name on the command line and in the API: `wirth`.
    pub name: &'static str,
    /// One line on what the solver is and where it comes from, for help texts and menus.
    pub summary: &'static str,
    /// The short label the web page's menus show: `wirth (boolean arrays)`.
    pub label: &'static str,
    /// Where the idea comes from (a book, a paper, a course).
    pub source: &'static str,
    /// What the solver is called in messages: `the wirth algorithm`.
    pub what: &'static str,
    /// The largest board it accepts.
    pub max_n: usize,
    /// How its positions array is indexed.
    pub axis: Axis,
    /// The machine words per row its arrays take before the first step (a copy of a solution
    /// for the caller is counted apart).
    pub row_words: u64,
    /// The bytes per row its arrays take beside those words.
    pub row_bytes: u64,
    /// The machine words per row of the snapshot each traced event carries.
    pub snapshot_words: u64,
    /// The largest board whose first solution it finds within about two seconds (measured in a
    /// release build): the largest board the web server's `/api/solve` hands it.
    pub quick_max_n: usize,
    /// Its place when the solvers are listed fastest first, to find one solution (smaller is
    /// faster; the values leave gaps, so that a new solver fits between two others).
    pub speed_rank: u16,
}
