//! `queens browse` is interactive: without a terminal it refuses clearly instead of drawing
//! escape codes into a pipe. (Its screen and keys are tested on ratatui's `TestBackend` in
//! `src/browse`.)

use crate::common::*;

#[test]
fn browse_refuses_to_run_when_standard_output_is_not_a_terminal() {
    fails_with("browse 8", 2, &["needs a terminal"]).stdout_is("");
}

#[test]
fn browse_refuses_boards_above_its_limit_naming_the_size() {
    fails_with("browse 15", 2, &["N = 15"]).stdout_is("");
}

#[test]
fn browse_refuses_a_size_of_zero() {
    fails_with("browse 0", 2, &["at least 1"]);
}
