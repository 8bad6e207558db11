//! Helpers shared by the CLI tests.

use assert_cmd::Command;

/// The `queens` binary under test.
pub fn queens() -> Command {
    Command::cargo_bin("queens").expect("the queens binary is built")
}

/// Whether `queens` (as `[row] = column`) is a solution, by comparing every pair of queens:
/// an independent check that shares no code with the library.
pub fn is_solution(queens: &[usize]) -> bool {
    let n = queens.len();
    queens.iter().all(|&c| c < n)
        && (0..n).all(|i| {
            (i + 1..n).all(|j| queens[i] != queens[j] && queens[i].abs_diff(queens[j]) != j - i)
        })
}

/// Parses a `positions` line.
pub fn positions(line: &str) -> Vec<usize> {
    line.split(' ')
        .map(|w| w.parse().expect("a column"))
        .collect()
}

/// The standard output of a successful run of `queens` with `args`.
pub fn stdout_of(args: &[&str]) -> String {
    let out = queens().args(args).output().expect("queens runs");
    assert!(out.status.success(), "queens {args:?} failed: {out:?}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The one JSON object printed by a successful run of `queens` with `args`.
pub fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(stdout_of(args).trim()).expect("one JSON object")
}

/// `(n, total, unique)` rows of the reference table (OEIS A000170 and A002562), from the
/// engine's one reader of its data file.
pub fn known() -> Vec<(usize, u128, u128)> {
    queens_core::reference::known()
        .into_iter()
        .map(|k| (k.n, k.total, k.unique))
        .collect()
}

/// `(total, unique)` of N from the reference table.
pub fn known_for(n: usize) -> (u128, u128) {
    let row = known().into_iter().find(|k| k.0 == n).expect("a known row");
    (row.1, row.2)
}

/// A whole number of a JSON result.
pub fn number(v: &serde_json::Value) -> u128 {
    v.as_u64().expect("a whole number") as u128
}
