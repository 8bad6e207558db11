//! One solution of a board: the lexicographically first (by any enumerating algorithm), one built
//! by a formula (any N from 4), or one found by min-conflicts local search (reproducible by seed).
//!
//! [`Method`] names the three ways with their limits, and [`Method::default_for`] is the one
//! choice by N that `queens solve` and the web server's `/api/solve` share: the first solution by
//! the bitmask search while that is fast, the construction beyond.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, SizeError};
use crate::search::{Algorithm, SearchOptions};

pub mod construct;
pub mod min_conflicts;

/// The largest N whose lexicographically first solution the bitboard search finds fast: measured
/// in a release build, every N up to 29 takes under 0.1 s, N = 30 a second, N = 32 1.5 s and
/// from N = 34 on more than 3 s (growing without bound).
pub const FAST_FIRST_N: usize = 29;

/// A way to find one solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// The lexicographically first solution, by an enumerating algorithm.
    First(Algorithm),
    /// The explicit construction of [`construct`]: any N >= 4 in O(N), streamed.
    Construct,
    /// Min-conflicts local search ([`min_conflicts`]), reproducible with a seed.
    MinConflicts,
}

impl Method {
    /// Every method, in the order the documentation lists them: the enumerating algorithms
    /// ([`Algorithm::ALL`]), then the construction and min-conflicts.
    pub const ALL: [Method; Method::COUNT] = {
        let mut all = [Method::Construct; Method::COUNT];
        let mut i = 0;
        while i < Algorithm::COUNT {
            all[i] = Method::First(Algorithm::ALL[i]);
            i += 1;
        }
        all[i] = Method::Construct;
        all[i + 1] = Method::MinConflicts;
        all
    };

    /// How many methods there are: one per algorithm, and two more.
    pub const COUNT: usize = Algorithm::COUNT + 2;

    /// The name used on the command line and in the API: an algorithm's name, `construct` or
    /// `min-conflicts`.
    pub fn name(self) -> &'static str {
        match self {
            Method::First(algorithm) => algorithm.name(),
            Method::Construct => "construct",
            Method::MinConflicts => "min-conflicts",
        }
    }

    /// One line on what the method is, for help texts and menus.
    pub fn summary(self) -> &'static str {
        match self {
            Method::First(algorithm) => algorithm.summary(),
            Method::Construct => {
                "An explicit construction (Hoffman-Loessi-Moore): any N >= 4 in O(N), streamed"
            }
            Method::MinConflicts => {
                "Min-conflicts local search (Sosic-Gu), reproducible with a seed; N up to 4294967295"
            }
        }
    }

    /// The names of [`Method::ALL`], in order.
    pub fn names() -> [&'static str; Method::COUNT] {
        Method::ALL.map(Method::name)
    }

    /// The largest board the method accepts.
    pub fn max_n(self) -> usize {
        match self {
            Method::First(algorithm) => algorithm.max_n(),
            Method::Construct => construct::MAX_N,
            Method::MinConflicts => min_conflicts::MAX_N,
        }
    }

    /// The default for the `n` x `n` board: the first solution by bitboard up to
    /// [`FAST_FIRST_N`], the construction above.
    pub fn default_for(n: usize) -> Method {
        if n <= FAST_FIRST_N {
            Method::First(Algorithm::Bitboard)
        } else {
            Method::Construct
        }
    }

    /// Whether the method takes a seed (min-conflicts only).
    pub fn takes_seed(self) -> bool {
        self == Method::MinConflicts
    }

    /// One solution of the `n` x `n` board, or `None` when it has none. `seed` drives
    /// min-conflicts (the others ignore it). The construction is collected here; stream it with
    /// [`construct::columns`] instead for huge boards.
    ///
    /// # Example
    /// ```
    /// use queens_core::solve::Method;
    /// use queens_core::SearchOptions;
    /// let first = Method::default_for(8).solve(8, &SearchOptions::default(), 0).unwrap();
    /// assert_eq!(first, Some(vec![0, 4, 7, 5, 2, 6, 1, 3]));
    /// ```
    pub fn solve(
        self,
        n: usize,
        options: &SearchOptions,
        seed: u64,
    ) -> Result<Option<Vec<usize>>, Error> {
        Ok(match self {
            Method::First(algorithm) => algorithm.first_solution(n, options)?,
            Method::Construct => {
                SizeError::check(n, "the construction", construct::MAX_N)?;
                let needed = (n as u64).saturating_mul(8);
                let what = || format!("the constructed solution of N = {n}, collected");
                Error::check_budget(needed, options.max_memory, what)?;
                match construct::solution(n) {
                    Ok(queens) => queens,
                    // A size it can collect, refused: the allocator had not the memory.
                    Err(_) if n <= construct::MAX_COLLECTED => {
                        return Err(Error::OverBudget {
                            what: what(),
                            needed,
                            budget: options.max_memory,
                        })
                    }
                    Err(err) => return Err(err.into()),
                }
            }
            Method::MinConflicts => {
                // The columns are handed out as `usize`: 8 more bytes per queen.
                min_conflicts::check_size(n)?;
                let needed =
                    min_conflicts::memory_needed(n).saturating_add((n as u64).saturating_mul(8));
                let what = || format!("min-conflicts on N = {n}");
                Error::check_budget(needed, options.max_memory, what)?;
                // Past the size check, what is refused is the memory the allocator had not.
                let refused = || Error::OverBudget {
                    what: what(),
                    needed,
                    budget: options.max_memory,
                };
                match min_conflicts::solve(n, seed).map_err(|_| refused())? {
                    Some(queens) => {
                        let mut wide = crate::alloc::room(n).ok_or_else(refused)?;
                        wide.extend(queens.into_iter().map(|c| c as usize));
                        Some(wide)
                    }
                    None => None,
                }
            }
        })
    }

    /// Checks that `n` is a board size this method can solve.
    pub fn check_size(self, n: usize) -> Result<(), SizeError> {
        match self {
            Method::First(algorithm) => algorithm.check_size(n),
            Method::Construct => SizeError::check(n, "the construction", self.max_n()),
            Method::MinConflicts => min_conflicts::check_size(n),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name of a method that does not exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm '{0}' (expected one of {names})", names = Method::names().join(", "))]
pub struct UnknownMethod(pub String);

impl FromStr for Method {
    type Err = UnknownMethod;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| UnknownMethod(crate::text::shorten(s, 64)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::find_flaw;

    #[test]
    fn every_method_solves_twelve_with_a_valid_placement() {
        for method in Method::ALL {
            let q = method
                .solve(12, &SearchOptions::default(), 3)
                .unwrap()
                .unwrap();
            assert_eq!(q.len(), 12, "{method}");
            assert!(find_flaw(&q).is_none(), "{method}");
        }
    }

    #[test]
    fn names_round_trip_and_the_default_switches_after_the_fast_sizes() {
        for method in Method::ALL {
            assert_eq!(method.name().parse::<Method>(), Ok(method));
        }
        assert!("fast"
            .parse::<Method>()
            .unwrap_err()
            .to_string()
            .contains("min-conflicts"));
        assert_eq!(Method::default_for(29), Method::First(Algorithm::Bitboard));
        assert_eq!(Method::default_for(30), Method::Construct);
    }

    #[test]
    fn an_unknown_name_is_echoed_cut_short_and_escaped() {
        let long = format!("\u{1b}[31m{}", "x".repeat(1 << 20));
        let errors = [
            long.parse::<Method>().unwrap_err().to_string(),
            long.parse::<Algorithm>().unwrap_err().to_string(),
            long.parse::<crate::count::Shard>().unwrap_err().to_string(),
        ];
        for e in errors {
            assert!(
                e.len() < 400 && e.contains(r"\x1b[31m") && !e.contains('\u{1b}'),
                "{e}"
            );
        }
    }

    #[test]
    fn sizes_out_of_range_are_refused_before_any_search() {
        for method in Method::ALL {
            assert!(method.solve(0, &SearchOptions::default(), 1).is_err());
        }
        assert!(Method::First(Algorithm::Bitboard)
            .solve(65, &SearchOptions::default(), 1)
            .is_err());
        // The largest sizes are refused by a check, never by an overflow on the way to it.
        let all = SearchOptions {
            max_memory: u64::MAX,
        };
        for n in [usize::MAX, (1 << 61) + 1] {
            for method in [Method::Construct, Method::MinConflicts] {
                let err = method.solve(n, &SearchOptions::default(), 1).unwrap_err();
                assert!(
                    matches!(err, Error::OverBudget { .. } | Error::Size(_)),
                    "{err}"
                );
            }
            let err = Method::MinConflicts.solve(n, &all, 1).unwrap_err();
            assert!(matches!(err, Error::Size(_)), "{err}");
        }
    }

    #[test]
    fn a_solution_past_the_memory_is_refused_whatever_the_budget() {
        let unlimited = SearchOptions {
            max_memory: u64::MAX,
        };
        let n = min_conflicts::MAX_N;
        if crate::alloc::refuses(8 * n) {
            let err = Method::MinConflicts.solve(n, &unlimited, 0).unwrap_err();
            assert!(
                matches!(err, Error::OverBudget { needed, .. }
                    if needed == min_conflicts::memory_needed(n) + 8 * n as u64),
                "{err}"
            );
        }
        let err = Method::Construct
            .solve(usize::MAX, &unlimited, 0)
            .unwrap_err();
        assert!(
            matches!(err, Error::Size(e) if e.max == construct::MAX_COLLECTED),
            "{err}"
        );
        let n = 1usize << 40;
        if crate::alloc::refuses(n * 8) {
            let err = Method::Construct.solve(n, &unlimited, 0).unwrap_err();
            assert!(
                matches!(err, Error::OverBudget { needed, .. } if needed == 8 << 40),
                "{err}"
            );
        }
    }
}
