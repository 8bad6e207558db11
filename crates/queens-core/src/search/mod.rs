//! The search layer: the list of algorithms that enumerate every solution, the tracer they
//! report to, one file per solver, and ranking.
//!
//! Every solver is one file opening with its idea, source and cost. Each has a
//! `for_each_solution_traced` generic over a [`Tracer`]; [`Algorithm::for_each_solution_traced`]
//! is the one dispatch over them, and the untraced search is that dispatch with [`NoTrace`].
//! Each solver's file also carries its facts in one value (its `INFO`: name, summary, source,
//! largest board, memory), and one table here makes [`Algorithm`], [`Algorithm::ALL`] and the
//! dispatch from them: a new solver is one file here and one line of that table.

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
pub(crate) mod solver;
pub(crate) mod tracer;
pub(crate) mod wirth;

pub use backtrack::Backtracker;
pub use solver::MAX_RECURSION_DEPTH;
pub use tracer::{Axis, Board, ConflictLine, EventKind, NoTrace, Step, Tracer};

use solver::{Job, SolverInfo, Visit};

/// Makes [`Algorithm`] from the table of solvers: its variants, [`Algorithm::ALL`], the lookup
/// of each solver's facts (the `INFO` of its file) and the one dispatch to its `search`.
macro_rules! solvers {
    ($($variant:ident = $module:ident,)+) => {
        /// The depth-first and breadth-first solvers that enumerate every solution: one per
        /// line of the table in `search/mod.rs`, each described by its file.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Algorithm {
            $(
                #[doc = concat!(
                    "The `", stringify!($module), "` solver (its file `search/",
                    stringify!($module), ".rs` says the idea, the source and the cost; ",
                    "[`Algorithm::summary`] says it in one line)."
                )]
                $variant,
            )+
        }

        impl Algorithm {
            /// How many algorithms there are.
            pub const COUNT: usize = [$(stringify!($variant)),+].len();

            /// Every algorithm, in the order the documentation lists them.
            pub const ALL: [Algorithm; Algorithm::COUNT] = [$(Algorithm::$variant),+];

            /// The facts the algorithm's file carries.
            pub(crate) const fn info(self) -> &'static SolverInfo {
                match self {
                    $(Algorithm::$variant => &$module::INFO,)+
                }
            }

            /// The algorithm's search, with no check: see [`Algorithm::for_each_solution_traced`].
            fn dispatch<T: Tracer>(
                self,
                n: usize,
                budget: u64,
                tracer: &mut T,
                visit: Visit<'_>,
            ) -> Result<ControlFlow<()>, Error> {
                let job = Job {
                    n,
                    budget,
                    needed: self.memory_needed(n),
                    name: self.name(),
                };
                match self {
                    $(Algorithm::$variant => $module::search(job, tracer, visit),)+
                }
            }
        }
    };
}

// The table of solvers, in the order the documentation lists them: a new solver is its file
// (with its `INFO` and its `search`) and one line here.
solvers! {
    Backtrack = backtrack,
    Iterative = iterative,
    Recursive = recursive,
    Wirth = wirth,
    Bfs = bfs,
    Bitboard = bitboard,
}

impl Algorithm {
    /// Every algorithm, fastest first to find one solution: the order menus offer them in.
    pub const FASTEST_FIRST: [Algorithm; Algorithm::COUNT] = {
        let mut all = Algorithm::ALL;
        // An insertion sort, by the files' speed ranks (a stable sort: ties keep their order).
        let mut i = 1;
        while i < all.len() {
            let mut j = i;
            while j > 0 && all[j - 1].info().speed_rank > all[j].info().speed_rank {
                let earlier = all[j - 1];
                all[j - 1] = all[j];
                all[j] = earlier;
                j -= 1;
            }
            i += 1;
        }
        all
    };

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// One line on what the algorithm is and where it comes from, for help texts and menus.
    pub fn summary(self) -> &'static str {
        self.info().summary
    }

    /// The short label the web page's menus show: the name and, in brackets, what sets the
    /// algorithm apart (`wirth (boolean arrays)`).
    pub fn label(self) -> &'static str {
        self.info().label
    }

    /// Where the algorithm comes from: a book, a paper or a course.
    pub fn source(self) -> &'static str {
        self.info().source
    }

    /// The names of [`Algorithm::ALL`], in order: the one list the command line and the server
    /// offer.
    pub fn names() -> [&'static str; Algorithm::COUNT] {
        Algorithm::ALL.map(Algorithm::name)
    }

    /// The largest board the algorithm accepts. The recursive solvers (`recursive`, `wirth`)
    /// take one stack frame per row, so they stop at [`MAX_RECURSION_DEPTH`].
    pub fn max_n(self) -> usize {
        self.info().max_n
    }

    /// The largest board whose first solution the algorithm finds within about two seconds
    /// (measured in a release build): the largest board the web server hands it for one
    /// solution.
    pub fn quick_max_n(self) -> usize {
        self.info().quick_max_n
    }

    /// The bytes the search of the `n` x `n` board allocates before its first step: its arrays,
    /// plus one copy of a solution for the caller. The breadth-first search's levels are not
    /// counted here: it checks them against the budget level by level.
    pub fn memory_needed(self, n: usize) -> u64 {
        let word = std::mem::size_of::<usize>() as u64;
        let info = self.info();
        // The arrays, and the copy of a solution handed to the caller.
        let per_row = (info.row_words + 1) * word + info.row_bytes;
        per_row.saturating_mul(n as u64)
    }

    /// What the algorithm is called in messages: "the wirth algorithm".
    fn what(self) -> &'static str {
        self.info().what
    }

    /// Checks that `n` is a board size this algorithm can search.
    pub fn check_size(self, n: usize) -> Result<(), SizeError> {
        SizeError::check(n, self.what(), self.max_n())
    }

    /// Checks the size, then that the search's arrays ([`Algorithm::memory_needed`]) fit in
    /// the memory budget of `options`: what every search does before allocating.
    pub fn check_request(self, n: usize, options: &SearchOptions) -> Result<(), Error> {
        self.check_size(n)?;
        Error::check_budget(self.memory_needed(n), options.max_memory, || self.on(n))
    }

    /// The request in messages: "the wirth algorithm on N = 8".
    fn on(self, n: usize) -> String {
        format!("the {} algorithm on N = {n}", self.name())
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
        carrying_break(visit, |v| self.for_each_solution_untraced(n, options, v))
    }

    /// The untraced search, not generic so that it is compiled here, with this crate's
    /// optimisation: the stack frames of the recursive solvers stay the size
    /// [`MAX_RECURSION_DEPTH`] was measured with, whatever the caller's own code is compiled
    /// with, as long as this crate is compiled optimised (a debug build compiles its
    /// dependencies unoptimised unless its profile says otherwise: docs/rust-api.md).
    #[inline(never)]
    fn for_each_solution_untraced(
        self,
        n: usize,
        options: &SearchOptions,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, Error> {
        self.for_each_solution_traced(n, options, &mut NoTrace, visit)
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
        self.check_request(n, options)?;
        self.dispatch(n, options.max_memory, tracer, visit)
    }

    /// [`Algorithm::for_each_solution`] that also hands `report` a [`Progress`] every
    /// [`WATCH_EVERY`] steps, for a sign of life during a long search; `report` breaking
    /// stops the search. Not generic, so compiled here like the untraced search.
    /// The visitor's break value is carried out, as with [`Algorithm::for_each_solution`].
    pub fn for_each_solution_watched<B>(
        self,
        n: usize,
        options: &SearchOptions,
        report: &mut dyn FnMut(Progress) -> ControlFlow<()>,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<B>,
    ) -> Result<ControlFlow<B>, Error> {
        carrying_break(visit, |v| self.watched_untyped(n, options, report, v))
    }

    /// The watched search itself, not generic so that it is compiled here (see
    /// `for_each_solution_untraced`).
    #[inline(never)]
    fn watched_untyped(
        self,
        n: usize,
        options: &SearchOptions,
        report: &mut dyn FnMut(Progress) -> ControlFlow<()>,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, Error> {
        let mut watch = Watch {
            axis: Axis::of(self),
            progress: Progress { steps: 0, depth: 0 },
            report,
        };
        self.for_each_solution_traced(n, options, &mut watch, visit)
    }

    /// The lexicographically first solution, or `None` when the board has none. Memory the
    /// allocator refuses, for the search's arrays or the copy of the solution, is refused as
    /// over the budget ([`Error::OverBudget`]), whatever the budget.
    pub fn first_solution(
        self,
        n: usize,
        options: &SearchOptions,
    ) -> Result<Option<Vec<usize>>, Error> {
        let found = self.for_each_solution(n, options, &mut |q| {
            ControlFlow::Break(crate::alloc::copied(q))
        })?;
        match found.break_value() {
            None => Ok(None),
            Some(Some(queens)) => Ok(Some(queens)),
            Some(None) => Err(Error::OverBudget {
                what: self.on(n),
                needed: self.memory_needed(n),
                budget: options.max_memory,
            }),
        }
    }

    /// Counts the solutions by visiting every one of them.
    pub fn count_by_enumeration(self, n: usize, options: &SearchOptions) -> Result<u64, Error> {
        count_visits(|visit| self.for_each_solution(n, options, visit))
    }

    /// [`Algorithm::count_by_enumeration`], also handing `report` a [`Progress`] every
    /// [`WATCH_EVERY`] steps (see [`Algorithm::for_each_solution_watched`]).
    pub fn count_by_enumeration_watched(
        self,
        n: usize,
        options: &SearchOptions,
        report: &mut dyn FnMut(Progress) -> ControlFlow<()>,
    ) -> Result<u64, Error> {
        count_visits(|visit| self.for_each_solution_watched(n, options, report, visit))
    }

    /// Every solution, in the order the search visits them (lexicographic): for small boards.
    pub fn all_solutions(
        self,
        n: usize,
        options: &SearchOptions,
    ) -> Result<Vec<Vec<usize>>, Error> {
        let mut all = Vec::new();
        let _ = self.for_each_solution(n, options, &mut |q| {
            all.push(q.to_vec());
            ControlFlow::<()>::Continue(())
        })?;
        Ok(all)
    }
}

/// The solutions `search` visits, counted: it runs with the counting visitor it is handed.
fn count_visits(
    search: impl FnOnce(&mut dyn FnMut(&[usize]) -> ControlFlow<()>) -> Result<ControlFlow<()>, Error>,
) -> Result<u64, Error> {
    let mut count = 0u64;
    let _ = search(&mut |_| {
        count += 1;
        ControlFlow::Continue(())
    })?;
    Ok(count)
}

/// Every solution of the `n` x `n` board, by the bitmask search: the list the tests of other
/// modules check against.
#[cfg(test)]
pub(crate) fn every_solution(n: usize) -> Vec<Vec<usize>> {
    Algorithm::Bitboard
        .all_solutions(n, &SearchOptions::default())
        .unwrap()
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
            .ok_or_else(|| UnknownAlgorithm(crate::text::shorten(s, 64)))
    }
}

/// How often a watched search reports: every 2^22 steps (a few milliseconds).
pub const WATCH_EVERY: u64 = 1 << 22;

/// What a watched search says about itself ([`Algorithm::for_each_solution_watched`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Steps taken so far: squares tried, queens placed and removed, backtracks (the
    /// conflicts that a traced search describes are not counted).
    pub steps: u64,
    /// The deepest row (column, for `backtrack`) holding a queen since the last report, from 1.
    pub depth: usize,
}

/// The tracer of watched searches: counts steps and the depth reached, and reports.
struct Watch<'r> {
    axis: Axis,
    progress: Progress,
    report: &'r mut dyn FnMut(Progress) -> ControlFlow<()>,
}

impl Tracer for Watch<'_> {
    const ACTIVE: bool = false;

    #[inline]
    fn step(&mut self, step: &Step<'_>) -> ControlFlow<()> {
        self.progress.steps += 1;
        if step.kind == EventKind::Place {
            let line = match self.axis {
                Axis::Row => step.row,
                Axis::Column => step.col,
            };
            self.progress.depth = self.progress.depth.max(line.map_or(0, |l| l + 1));
        }
        if self.progress.steps.is_multiple_of(WATCH_EVERY) {
            let now = self.progress;
            self.progress.depth = 0;
            (self.report)(now)?;
        }
        ControlFlow::Continue(())
    }
}

/// Settings shared by the searches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOptions {
    /// The memory budget in bytes: every search checks its arrays against it before allocating
    /// ([`Algorithm::memory_needed`]), and the breadth-first search its levels as it goes.
    pub max_memory: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            max_memory: 1 << 30,
        }
    }
}

/// Runs `search` with a visitor that stops it at `visit`'s first break and keeps the break's
/// value, then carries that value out: the untyped searches compiled here break with `()`.
fn carrying_break<B>(
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<B>,
    search: impl FnOnce(&mut dyn FnMut(&[usize]) -> ControlFlow<()>) -> Result<ControlFlow<()>, Error>,
) -> Result<ControlFlow<B>, Error> {
    let mut value = None;
    let _ = search(&mut |q| match visit(q) {
        ControlFlow::Continue(()) => ControlFlow::Continue(()),
        ControlFlow::Break(b) => {
            value = Some(b);
            ControlFlow::Break(())
        }
    })?;
    Ok(value.map_or(ControlFlow::Continue(()), ControlFlow::Break))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Follows the depth a search reaches and the stack it takes, and stops it after a number
    /// of steps.
    struct Depth {
        deepest: usize,
        /// The address of a local of `step` at the first placement, and at the deepest.
        top: usize,
        bottom: usize,
        steps: u64,
        budget: u64,
    }

    impl Tracer for Depth {
        const ACTIVE: bool = false;

        #[inline(never)]
        fn step(&mut self, step: &Step<'_>) -> ControlFlow<()> {
            self.steps += 1;
            let row = step.row.unwrap_or(0);
            if step.kind == EventKind::Place && (self.deepest == 0 || row + 1 > self.deepest) {
                let local = 0u8;
                let at = std::hint::black_box(&local) as *const u8 as usize;
                if self.deepest == 0 {
                    self.top = at;
                }
                self.bottom = at;
                self.deepest = row + 1;
            }
            if self.steps >= self.budget {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
    }

    #[test]
    fn the_recursive_solvers_fit_their_deepest_board_in_a_spawned_threads_stack() {
        for algo in [Algorithm::Wirth, Algorithm::Recursive] {
            let n = MAX_RECURSION_DEPTH;
            // A spawned thread's default stack: 2 MiB, the least a caller gives.
            let depth = std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn(move || {
                    let mut depth = Depth {
                        deepest: 0,
                        top: 0,
                        bottom: 0,
                        steps: 0,
                        budget: 2_000_000,
                    };
                    let options = SearchOptions::default();
                    let _ = algo.for_each_solution_traced(n, &options, &mut depth, &mut |_| {
                        ControlFlow::Break(())
                    });
                    depth
                })
                .unwrap()
                .join()
                .unwrap();
            assert!(depth.deepest > 1000, "{algo} reached row {}", depth.deepest);
            let per_row = (depth.top - depth.bottom) / (depth.deepest - 1);
            assert!(
                per_row * MAX_RECURSION_DEPTH < 7 << 18,
                "{algo}: {per_row} bytes per row"
            );
            eprintln!(
                "{algo}: {per_row} bytes per row, {} rows deep",
                depth.deepest
            );
        }
    }

    #[test]
    fn a_watched_search_reports_its_steps_and_finds_the_same_solutions() {
        for algo in [Algorithm::Bitboard, Algorithm::Backtrack] {
            let mut reports = Vec::new();
            let options = SearchOptions::default();
            let watched = algo
                .count_by_enumeration_watched(12, &options, &mut |p| {
                    reports.push(p);
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert_eq!(watched, 14_200, "{algo}");
            let expected = crate::trace::Trace::new(12, algo)
                .all(true)
                .summarize()
                .unwrap()
                .summary
                .events;
            // Untraced solvers skip describing conflicts, so a watch sees at most the traced
            // events, and exactly them for the solvers that report no conflicts.
            if algo == Algorithm::Bitboard {
                assert_eq!(reports.len() as u64, expected / WATCH_EVERY, "{algo}");
            }
            assert!(reports.len() as u64 <= expected / WATCH_EVERY, "{algo}");
            if algo == Algorithm::Backtrack {
                assert!(!reports.is_empty(), "millions of steps");
            }
            for (i, p) in reports.iter().enumerate() {
                assert_eq!(p.steps, (i as u64 + 1) * WATCH_EVERY);
                assert!((1..=12).contains(&p.depth), "{algo}: {p:?}");
            }
        }
    }

    #[test]
    fn deeper_boards_are_refused_by_the_recursive_solvers_only() {
        let n = MAX_RECURSION_DEPTH + 1;
        let tiny = SearchOptions { max_memory: 1 };
        for algo in [Algorithm::Wirth, Algorithm::Recursive] {
            let err = algo.first_solution(n, &tiny).unwrap_err().to_string();
            assert!(err.contains("stack frame per row"), "{err}");
            assert!(err.contains(&MAX_RECURSION_DEPTH.to_string()), "{err}");
        }
        assert!(Algorithm::Iterative.check_size(n).is_ok());
    }

    #[test]
    fn searches_refuse_arrays_beyond_the_budget_before_allocating() {
        let n = u32::MAX as usize;
        let options = SearchOptions::default();
        for algo in [Algorithm::Backtrack, Algorithm::Iterative] {
            assert!(algo.memory_needed(n) > options.max_memory);
            match algo.first_solution(n, &options) {
                Err(Error::OverBudget { needed, budget, .. }) => {
                    assert_eq!((needed, budget), (algo.memory_needed(n), 1 << 30));
                }
                other => panic!("{algo}: {other:?}"),
            }
        }
        // Within the budget, the same search runs.
        let small = SearchOptions {
            max_memory: Algorithm::Iterative.memory_needed(8),
        };
        assert!(Algorithm::Iterative.first_solution(8, &small).is_ok());
        let smaller = SearchOptions {
            max_memory: Algorithm::Iterative.memory_needed(8) - 1,
        };
        assert!(Algorithm::Iterative.first_solution(8, &smaller).is_err());
    }

    /// The arrays of the solvers that take memory per row (2^32 - 1 rows: 32 GiB an array,
    /// more than the allocator gives here, else the test says it skipped) are over budget when
    /// the allocator refuses them, even past a budget that lets anything through: an error
    /// naming the request, never an abort.
    #[test]
    fn arrays_the_allocator_refuses_are_over_budget_even_with_no_limit() {
        let n = u32::MAX as usize;
        if !crate::alloc::refuses(n * 8) {
            eprintln!("skipped: the allocator gives 32 GiB here");
            return;
        }
        let unlimited = SearchOptions {
            max_memory: u64::MAX,
        };
        for (algorithm, name) in [
            (Algorithm::Backtrack, "backtrack"),
            (Algorithm::Iterative, "iterative"),
        ] {
            let errors = [
                algorithm.first_solution(n, &unlimited).unwrap_err(),
                algorithm.count_by_enumeration(n, &unlimited).unwrap_err(),
            ];
            for err in errors {
                assert!(
                    matches!(&err, crate::Error::OverBudget { needed, budget: u64::MAX, .. }
                        if *needed == algorithm.memory_needed(n)),
                    "{err}"
                );
                let named = format!("the {name} algorithm on N = 4294967295");
                assert!(err.to_string().starts_with(&named), "{err}");
            }
        }
    }
}
