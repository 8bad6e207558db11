//! `queens browse` is interactive: without a terminal it refuses clearly instead of drawing
//! escape codes into a pipe. (Its screen and keys are tested on ratatui's `TestBackend` in
//! `src/browse`.)

use crate::common::*;

#[test]
fn browse_refuses_to_run_when_standard_output_is_not_a_terminal() {
    queens()
        .args(["browse", "8"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("needs a terminal"));
}

#[test]
fn browse_refuses_boards_above_its_limit_naming_the_size() {
    queens()
        .args(["browse", "15"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("N = 15"));
}

#[test]
fn browse_refuses_a_size_of_zero() {
    queens()
        .args(["browse", "0"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("at least 1"));
}
