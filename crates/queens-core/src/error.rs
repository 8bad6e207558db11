//! The engine's errors: one size error shared by every module, and the error of the searches.
//!
//! Messages speak of the engine's own terms (N, algorithms, the counting engine, bytes); they
//! never name a command-line flag or subcommand, which the binary adds where it knows them.

use thiserror::Error;

/// A board size outside what the part of the engine asked can handle. Every entry point that
/// takes N checks it first and returns this, so no request allocates or searches before its size
/// is known to be in range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("{}", self.describe())]
pub struct SizeError {
    /// The requested size.
    pub n: usize,
    /// What was asked, as a noun phrase: "the wirth algorithm", "the counting engine".
    pub what: &'static str,
    /// The largest size it handles (every part handles sizes from 1).
    pub max: usize,
}

impl SizeError {
    /// Checks that `n` is in `1..=max` for `what`.
    pub fn check(n: usize, what: &'static str, max: usize) -> Result<(), SizeError> {
        if n == 0 || n > max {
            Err(SizeError { n, what, max })
        } else {
            Ok(())
        }
    }

    fn describe(&self) -> String {
        if self.n == 0 {
            "N must be at least 1 (got 0)".to_string()
        } else {
            format!(
                "N = {} is too large for {}, which handles N up to {}",
                self.n, self.what, self.max
            )
        }
    }
}

/// Why a search refused a request. A search that finds no solution is not an error: it returns
/// `None` or visits nothing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// The board size is out of the algorithm's range.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// The breadth-first search would need more memory than its budget allows.
    #[error(
        "the breadth-first search of N = {n} needs {} at level {level} ({states} partial \
         boards), more than the memory budget of {}",
        bytes(*needed),
        bytes(*budget)
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
    /// A request would allocate more memory than the budget allows; refused before allocating.
    #[error("{what} needs {}, more than the memory budget of {}", bytes(*needed), bytes(*budget))]
    OverBudget {
        /// What would need the memory: "the iterative algorithm on N = 4294967295".
        what: String,
        /// The bytes it would need (a lower bound where the exact figure is not known).
        needed: u64,
        /// The budget in bytes.
        budget: u64,
    },
}

impl Error {
    /// Checks that `needed` bytes fit in `budget`; `what` names the request for the message.
    pub fn check_budget(
        needed: u64,
        budget: u64,
        what: impl FnOnce() -> String,
    ) -> Result<(), Error> {
        if needed > budget {
            Err(Error::OverBudget {
                what: what(),
                needed,
                budget,
            })
        } else {
            Ok(())
        }
    }
}

/// A byte count for messages: `8589934592 bytes (8.0 GiB)`.
pub fn bytes(count: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = count as f64;
    let mut unit = None;
    for u in UNITS {
        if value < 1024.0 {
            break;
        }
        value /= 1024.0;
        unit = Some(u);
    }
    match unit {
        None if count == 1 => "1 byte".to_string(),
        None => format!("{count} bytes"),
        Some(u) => format!("{count} bytes ({value:.1} {u})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_and_too_large_say_what_and_the_limit() {
        assert_eq!(
            SizeError::check(0, "the wirth algorithm", 9)
                .unwrap_err()
                .to_string(),
            "N must be at least 1 (got 0)"
        );
        assert_eq!(
            SizeError::check(10, "the wirth algorithm", 9)
                .unwrap_err()
                .to_string(),
            "N = 10 is too large for the wirth algorithm, which handles N up to 9"
        );
        assert!(SizeError::check(9, "the wirth algorithm", 9).is_ok());
    }

    #[test]
    fn budget_errors_name_the_request_and_both_sizes() {
        assert!(Error::check_budget(10, 10, || unreachable!()).is_ok());
        let err = Error::check_budget(8 << 30, 1 << 30, || "the thing".into()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the thing needs 8589934592 bytes (8.0 GiB), more than the memory budget of \
             1073741824 bytes (1.0 GiB)"
        );
        assert_eq!(bytes(1000), "1000 bytes");
        assert_eq!(
            (bytes(1), bytes(0)),
            ("1 byte".to_string(), "0 bytes".to_string())
        );
    }
}
