//! One completion, found the cheapest way that is still exact: a short exact search first, then
//! min-conflicts local search with the given queens fixed (`local.rs`), then the exact search to
//! its end (`exact.rs`), which alone answers that no completion exists.

use super::error::InstanceError;
use super::exact::Search;
use super::instance::{Completion, Instance, DEFAULT_BUDGET};
use super::local;

/// The nodes the first, short exact search may visit before local search gets its turn.
pub(super) const EXACT_PROBE: u64 = 20_000;

/// The fewest free rows worth a local search (smaller residual problems are the exact
/// search's).
pub(super) const LOCAL_FROM: usize = 12;

/// The most free rows for which the short exact search is tried first: each of its nodes
/// costs O(k), so beyond this local search goes first.
pub(super) const PROBE_MAX_FREE: usize = 2_000;

/// Swaps the local search may try per free row before it gives up.
pub(super) const LOCAL_TRIES_PER_ROW: u64 = 2_000;

impl Instance {
    /// One solution containing the given queens, or why there is none.
    ///
    /// # Example
    /// ```
    /// use queens_core::complete::{Completion, Instance};
    /// use queens_core::Square;
    /// let puzzle = Instance { n: 8, fixed: vec![Square { row: 0, col: 3 }] };
    /// let Completion::Found(q) = puzzle.solve().unwrap() else { panic!() };
    /// assert_eq!(q, [3, 0, 4, 7, 1, 6, 2, 5]);
    /// let corner = Instance { n: 4, fixed: vec![Square { row: 0, col: 0 }] };
    /// assert_eq!(corner.solve().unwrap(), Completion::Impossible);
    /// ```
    pub fn solve(&self) -> Result<Completion, InstanceError> {
        self.solve_within(DEFAULT_BUDGET)
    }

    /// [`Instance::solve`] within a memory budget of `budget` bytes, checked before allocating
    /// ([`Instance::memory_needed`]).
    ///
    /// The answer is exact and reproducible: a short exact search first, when its memory fits
    /// the budget (most instances with many given queens end there); then, when a dozen or more rows are free, min-conflicts
    /// local search that keeps the given queens fixed (boards with few given queens, where the
    /// exact search can take minutes, end there in milliseconds), from a fixed seed; then the
    /// exact search to its end, which alone proves that no completion exists. A completion
    /// found by local search is confirmed by [`crate::find_flaw`] before it is returned.
    pub fn solve_within(&self, budget: u64) -> Result<Completion, InstanceError> {
        if let Some(flaw) = self.check()? {
            return Ok(Completion::GivenQueensAttack(flaw));
        }
        let free = self.free_rows();
        let n = self.n;
        // The probe only when the exact search fits the budget: where it does not, local
        // search (far smaller) may still complete the board, and only the exact search to its
        // end, below, is refused for want of memory.
        if free <= PROBE_MAX_FREE && self.check_exact(budget).is_ok() {
            let mut search = Search::new(self)?;
            search.limit = EXACT_PROBE;
            if let Some(answer) = search.first() {
                return Ok(answer);
            }
        }
        if free >= LOCAL_FROM {
            let needed = local::memory_needed(n, free);
            let what =
                || format!("the local search completing the {n}x{n} board with {free} free rows");
            crate::Error::check_budget(needed, budget, what)?;
            let tries = LOCAL_TRIES_PER_ROW.saturating_mul(free as u64).max(1 << 20);
            // Memory the allocator refuses past the check (a budget of u64::MAX) is over it.
            let found =
                local::search(self, 0x5eed, tries).map_err(|_| crate::Error::OverBudget {
                    what: what(),
                    needed,
                    budget,
                })?;
            if let Some(queens) = found {
                if crate::find_flaw(&queens).is_none()
                    && self.fixed.iter().all(|q| queens[q.row] == q.col)
                {
                    return Ok(Completion::Found(queens));
                }
            }
        }
        self.check_exact(budget)?;
        let mut search = Search::new(self)?;
        Ok(search.first().expect("an unlimited search ends"))
    }
}
