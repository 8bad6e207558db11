//! Which requests need one of the heavy slots, and running their work: a request that may take
//! more than a few milliseconds or a few megabytes ([`is_heavy`]) takes one of
//! [`super::Limits::heavy`] slots for as long as it works, or is answered 503 with
//! `Retry-After` ([`admit`]); its search then runs on the blocking pool ([`blocking`]).
//!
//! Work and memory, per request: the step budget [`super::Limits::steps`] bounds
//! `/api/solutions` (a 422 past it): the ranking walk counts its steps; the listing behind
//! `unique=true` is refused up front when its page lies deeper than the budget reaches
//! ([`super::limits::UNIQUE_STEPS_PER_CLASS`]). `/api/solve` is bounded by each method's
//! largest board (at most about half a second each, measured), `/api/count` by
//! [`super::limits::COUNT_MAX_N`], `/api/trace` by its event limit and
//! [`super::limits::TRACE_BYTES_MAX`] bytes of answer, built straight into bytes (no tree of
//! JSON values). Cheap requests (the page, `/api/config`, boards up to [`CHEAP_MAX_N`], the
//! construction, small traces) never wait for a slot.

use queens_core::solve::Method;

use super::error::ApiError;
use super::AppState;

/// Boards up to this size are cheap on every endpoint (14,200 solutions at N = 12, listed or
/// counted in milliseconds).
pub const CHEAP_MAX_N: usize = 12;
/// A trace is cheap when its event limit times N is at most this (the page's default of 20,000
/// events on the 8x8 board: about 3 MB of answer).
pub const CHEAP_TRACE_CELLS: u64 = 20_000 * 8;
/// `bfs` is cheap up to this board: it builds every level of partial placements before it
/// answers, 20 ms and 8 MB at N = 12 (under 10 ms at 11), enough for a client that asks for it
/// over and over on every connection to keep them all busy.
pub const CHEAP_BFS_N: usize = 11;
/// `min-conflicts` is cheap up to this board (a few milliseconds).
pub const CHEAP_MIN_CONFLICTS_N: usize = 1000;
/// A whole counted trace (`/api/summary`) is cheap up to this board: every solver's whole
/// search of N = 10 takes under 5 ms; N = 11 about 30 ms, N = 12 up to 0.17 s (`wirth`).
pub const CHEAP_SUMMARY_N: usize = 10;

/// What a request asks for, as far as its cost goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// A page of `/api/solutions` (or its unique listing).
    Solutions { n: usize },
    /// `/api/count`, when the counts are not remembered yet.
    Count { n: usize },
    /// `/api/solve` with a method.
    Solve { n: usize, method: Method },
    /// `/api/trace` with at most `limit` events.
    Trace { n: usize, limit: u64 },
    /// A whole listing of the board's solutions (`/api/index`).
    Walk { n: usize },
    /// A whole counted trace (`/api/summary`).
    Summary { n: usize },
}

/// Whether a request needs one of the heavy slots: anything that may take more than a few
/// milliseconds or a few megabytes.
pub fn is_heavy(work: Work) -> bool {
    match work {
        Work::Solutions { n } | Work::Count { n } => n > CHEAP_MAX_N,
        Work::Solve { method, n } => match method {
            Method::Construct => false,
            Method::MinConflicts => n > CHEAP_MIN_CONFLICTS_N,
            Method::First(queens_core::Algorithm::Bfs) => n > CHEAP_BFS_N,
            Method::First(_) => n > CHEAP_MAX_N,
        },
        Work::Trace { n, limit } => limit.saturating_mul(n as u64) > CHEAP_TRACE_CELLS,
        Work::Walk { n } => n > CHEAP_MAX_N,
        Work::Summary { n } => n > CHEAP_SUMMARY_N,
    }
}

/// A heavy slot when `work` needs one (held until the answer is built), or a 503.
pub(super) fn admit(
    state: &AppState,
    work: Work,
    what: &str,
) -> Result<Option<tokio::sync::OwnedSemaphorePermit>, ApiError> {
    if is_heavy(work) {
        state.admit_heavy(what).map(Some)
    } else {
        Ok(None)
    }
}

/// Runs a search on the blocking pool.
pub(super) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::internal(format!("the search failed: {e}")))?
}
