//! The algorithms' own code, as the web page's Learn view shows it: short pseudo-code in the
//! vocabulary of each solver's source, and the line each kind of step runs. The listings are one
//! file, `assets/code.json`, read by the page (through the server) and by the terminal browser.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Deserialize;

/// One algorithm's listing.
#[derive(Debug, Clone, Deserialize)]
pub struct Listing {
    /// What the code is, for the panel's title.
    pub title: String,
    /// The lines, indented with spaces.
    pub lines: Vec<String>,
    /// The line each kind of step runs (`try`, `conflict`, ..., `nosolution`).
    pub at: HashMap<String, usize>,
    /// Every line a kind of step runs, where one step runs several (the column-wise loop's
    /// `place` runs `setPosition(col, row)`, the conflict test and `col ← col + 1`).
    #[serde(default)]
    pub runs: HashMap<String, Vec<usize>>,
}

impl Listing {
    /// The line a step of `kind` runs, if the listing names one.
    pub fn line_of(&self, kind: &str) -> Option<usize> {
        self.at.get(kind).copied().filter(|&l| l < self.lines.len())
    }

    /// Every line a step of `kind` runs: its `runs`, else its one line of `at`.
    pub fn lines_of(&self, kind: &str) -> Vec<usize> {
        match self.runs.get(kind) {
            Some(lines) => lines
                .iter()
                .copied()
                .filter(|&l| l < self.lines.len())
                .collect(),
            None => self.line_of(kind).into_iter().collect(),
        }
    }
}

/// Every listing, by algorithm name (empty when the file could not be read, which a test
/// rules out).
fn listings() -> &'static HashMap<String, Listing> {
    static LISTINGS: OnceLock<HashMap<String, Listing>> = OnceLock::new();
    LISTINGS.get_or_init(|| {
        serde_json::from_str(include_str!("../../assets/code.json")).unwrap_or_default()
    })
}

/// The listing of `algorithm` (its command-line name).
pub fn listing(algorithm: &str) -> Option<&'static Listing> {
    listings().get(algorithm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::Algorithm;

    #[test]
    fn every_algorithm_has_a_listing_whose_lines_exist() {
        for algorithm in Algorithm::ALL {
            let l = listing(algorithm.name()).unwrap_or_else(|| panic!("{algorithm}"));
            assert!(!l.lines.is_empty());
            for (kind, &line) in &l.at {
                assert!(line < l.lines.len(), "{algorithm} {kind}");
            }
            assert!(l.line_of("try").is_some(), "{algorithm}");
        }
        let backtrack = listing("backtrack").unwrap();
        let conflict = backtrack.line_of("conflict").unwrap();
        assert!(backtrack.lines[conflict].contains("hasConflictCumulative"));
        // A placement runs the line that writes positions[col] and the one that moves col on.
        let place: Vec<&str> = backtrack
            .lines_of("place")
            .into_iter()
            .map(|l| backtrack.lines[l].trim())
            .collect();
        assert!(place.contains(&"setPosition(col, row)"), "{place:?}");
        assert!(place.contains(&"col ← col + 1"), "{place:?}");
        for (kind, lines) in &backtrack.runs {
            assert!(lines.iter().all(|&l| l < backtrack.lines.len()), "{kind}");
        }
        assert_eq!(listing("iterative").unwrap().lines_of("try").len(), 1);
    }
}
