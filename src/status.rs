//! The exit statuses of `queens`, in one place.

use std::process::ExitCode;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// 0: the command did what was asked and the answer is "yes".
    Success = 0,
    /// 1: the answer is "no": no solution, or a placement that is not a solution.
    No = 1,
    /// 2: bad usage, malformed input, or another error (for `queens count`, also: the count
    /// is printed but the last save of its checkpoint failed).
    Failure = 2,
    /// 129: stopped by SIGHUP after saving what could be saved.
    HungUp = 129,
    /// 130: interrupted by SIGINT after saving what could be saved.
    Interrupted = 130,
    /// 131: `queens serve` stopped by SIGQUIT, after the requests in flight.
    Quit = 131,
    /// 143: stopped by SIGTERM (a scheduler's time limit or preemption) after saving what
    /// could be saved.
    Terminated = 143,
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> Self {
        ExitCode::from(status as u8)
    }
}
