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
