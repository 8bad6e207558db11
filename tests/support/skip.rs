//! The one convention of the test suite for a test whose outside tool is missing (GNU parallel,
//! Slurm, curl, tmux): under CI it fails, naming what to install; elsewhere it is reported as
//! ignored, with the reason, in the test's own summary line (`test NAME ... ignored (needs
//! ...)` and `N ignored`), never as a silent pass. The tests that use it run under the
//! `libtest-mimic` harness, which can ignore a test at run time. See docs/development.md,
//! "Skipped tests".

use std::process::{Command, Stdio};

use libtest_mimic::{Completion, Failed};

/// Whether this run is CI's: `CI` set to anything but the empty string, `0` or `false`.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// The programs of `names` that are not on the PATH.
pub fn missing<'a>(names: &[&'a str]) -> Vec<&'a str> {
    names
        .iter()
        .copied()
        .filter(|t| {
            !Command::new("sh")
                .args(["-c", &format!("command -v {t}")])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .collect()
}

/// The outcome of a test that cannot run: `reason` says what is missing and how to get it.
/// A failure under CI, an ignored test with the reason elsewhere.
pub fn cannot_run(reason: String) -> Result<Completion, Failed> {
    if in_ci() {
        Err(format!("{reason}; CI is set, so this test must run (.ci/run installs it)").into())
    } else {
        Ok(Completion::ignored_with(reason))
    }
}

/// `Some(outcome)` when a tool of `names` is missing: `install` names the packages to install.
pub fn needs(names: &[&str], install: &str) -> Option<Result<Completion, Failed>> {
    let gone = missing(names);
    if gone.is_empty() {
        None
    } else {
        Some(cannot_run(format!(
            "needs {} (install {install})",
            gone.join(", ")
        )))
    }
}
