//! How an estimate samples, and how it times each count: the sample's length, the wall-clock
//! bound of the whole estimate, and the clock (the processor time of the counting thread where
//! the binary gives one, so that a busy machine does not make the counts look slower). Both
//! engines' estimates (`estimate.rs`, `halves/sample.rs`) take a [`Sampling`] and time their
//! counts by its [`Stopwatch`]. Cost: two clock reads a count.

use std::time::{Duration, Instant};

/// The share of [`Sampling::bound`] the probes may take before the counts: past it, no new
/// round of probes starts.
const PROBES_SHARE: f64 = 0.3;

/// How an estimate samples: how long it counts subproblems whole, the wall-clock bound of the
/// whole estimate, and the clock that times each count.
#[derive(Debug, Clone, Copy)]
pub struct Sampling {
    /// How long the counts go on (wall time): per board tried by the frame engine's estimate;
    /// for the half-board engine's forecast, at least this long, and past it while it has too
    /// few draws.
    pub budget: Duration,
    /// The most wall time the estimate takes from its start: counts still running then are
    /// stopped (within milliseconds), and the estimate is made from what it has, the counts
    /// stopped kept as censored observations (each took at least its time so far) by both
    /// the frame estimate and the half-board forecast.
    /// The probes before the counts (both engines') begin no round past 30 % of it.
    pub bound: Duration,
    /// The processor time the calling thread has used so far, when the platform tells it:
    /// each count is timed by it, so that the time other processes take on a busy machine does
    /// not count. `None` (or [`Sampling::new`]'s clock) times the counts by the wall clock.
    pub thread_time: fn() -> Option<Duration>,
}

impl Sampling {
    /// Counts for `budget`, all within `bound`, timed by the wall clock (see
    /// [`Sampling::timed_by`]).
    pub fn new(budget: Duration, bound: Duration) -> Sampling {
        Sampling {
            budget,
            bound,
            thread_time: || None,
        }
    }

    /// Times the counts by `clock`, the processor time of the calling thread (`queens` reads
    /// `CLOCK_THREAD_CPUTIME_ID`).
    pub fn timed_by(self, clock: fn() -> Option<Duration>) -> Sampling {
        Sampling {
            thread_time: clock,
            ..self
        }
    }

    /// When the probes of an estimate that began at `start` start no new round: past 30 % of
    /// the bound (both engines' probes, before their counts).
    pub(crate) fn probes_until(&self, start: Instant) -> Instant {
        start + self.bound.mul_f64(PROBES_SHARE)
    }

    /// Starts timing a count on the calling thread.
    pub(crate) fn stopwatch(&self) -> Stopwatch {
        Stopwatch {
            wall: Instant::now(),
            cpu: (self.thread_time)(),
            clock: self.thread_time,
        }
    }
}

/// One count being timed, on the thread that started it.
pub(crate) struct Stopwatch {
    wall: Instant,
    cpu: Option<Duration>,
    clock: fn() -> Option<Duration>,
}

impl Stopwatch {
    /// The seconds since the start: processor time of this thread when the clock told it at
    /// both ends (`true`), else wall time (`false`).
    pub(crate) fn seconds(&self) -> (f64, bool) {
        match (self.cpu, (self.clock)()) {
            (Some(start), Some(now)) => (now.saturating_sub(start).as_secs_f64(), true),
            _ => (self.wall.elapsed().as_secs_f64(), false),
        }
    }
}
