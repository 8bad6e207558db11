//! The limits of the JSON endpoints, per endpoint: the largest N each takes (a larger N is a
//! 400 that says the limit), the most solutions or events one request returns, and the work a
//! page of symmetry classes may take. The handlers enforce these values and `/api/config`
//! reports the very same ones to the page.
//!
//! - `/api/solutions`: N up to 32, the largest board the page draws; `limit` up to 100 per page;
//!   with `unique=true`, N up to [`UNIQUE_MAX_N`] since the representatives are found by listing
//!   every solution. The total is given when N is at most [`COUNT_MAX_N`] or the page reached
//!   the end of the list. Reaching a deep offset of a large board may need more than the step
//!   budget: that is a 422.
//! - `/api/count`: N up to [`COUNT_MAX_N`] (the total and the number of symmetry classes, both
//!   counted by the counting engine on one thread, then remembered).
//! - `/api/solve`: N up to each method's limit in [`solve_method_max_n`]: for an enumerating
//!   algorithm, the largest board its file says it solves quickly ([`solve_max_n`]); the
//!   methods are offered in the order of [`SOLVE_OFFERED`], made from the engine's table.
//! - `/api/trace`: N up to [`TRACE_MAX_N`], at most [`TRACE_EVENTS_MAX`] events (default
//!   [`TRACE_EVENTS_DEFAULT`]) and [`TRACE_BYTES_MAX`] bytes of answer; the trace stops at the
//!   first solution unless `all=true`.

use queens_core::solve::Method;
use queens_core::Algorithm;

/// The largest board `/api/solutions` lists.
pub const SOLUTIONS_MAX_N: usize = 32;
/// The most solutions one `/api/solutions` request returns.
pub const PAGE_MAX: u64 = 100;
/// The largest board `/api/count` counts, and whose total `/api/solutions` gives: the counting
/// engine takes about 0.7 s for N = 15 on one thread, 4 s for N = 16.
pub const COUNT_MAX_N: usize = 15;
/// The largest board whose symmetry classes `/api/solutions?unique=true` lists (by listing
/// every solution: 2.3 million for N = 15).
pub const UNIQUE_MAX_N: usize = 15;
/// The largest board `/api/trace` traces.
pub const TRACE_MAX_N: usize = 12;
/// The most events one `/api/trace` request returns.
pub const TRACE_EVENTS_MAX: u64 = 100_000;
/// The events `/api/trace` returns when `limit` is not given.
pub const TRACE_EVENTS_DEFAULT: u64 = 20_000;

/// The largest answer `/api/trace` builds, in bytes: the trace is cut there (`cut` is true).
/// 100,000 events of a 12x12 board take about 17 MB.
pub const TRACE_BYTES_MAX: usize = 24 * 1024 * 1024;

/// The search steps the listing behind `unique=true` takes per symmetry class it passes, on
/// average (measured for N = 14 and 15: 109 and 684 million steps for 45,752 and 285,053
/// classes). A page that would pass more classes than the step budget allows at this rate is
/// refused before any search: with the default budget, 125,000 classes.
pub const UNIQUE_STEPS_PER_CLASS: u64 = 2_400;

/// The largest board `/api/solve` hands to each enumerating algorithm: its file's
/// [`Algorithm::quick_max_n`], up to where the first solution comes within about two seconds
/// (measured; N = 30 and 32 take ten times longer than N = 29 and 31 for the array-based
/// solvers, and breadth-first search holds whole levels in memory).
pub fn solve_max_n(algorithm: Algorithm) -> usize {
    algorithm.quick_max_n()
}

/// The largest board `/api/solve` builds with `construct` or `min-conflicts`: the page still
/// draws ten thousand queens smoothly, and the answer stays under 60 KB.
pub const SOLVE_BIG_MAX_N: usize = 10_000;

/// Every method `/api/solve` takes, in the order the page offers them: the two that build boards
/// of any size, then the enumerating algorithms, fastest first ([`Algorithm::FASTEST_FIRST`]).
pub const SOLVE_OFFERED: [Method; Method::COUNT] = {
    let mut offered = [Method::Construct; Method::COUNT];
    offered[1] = Method::MinConflicts;
    let mut i = 0;
    while i < Algorithm::COUNT {
        offered[i + 2] = Method::First(Algorithm::FASTEST_FIRST[i]);
        i += 1;
    }
    offered
};

/// The largest board `/api/solve` hands to each method: [`solve_max_n`] for the enumerating
/// ones, [`SOLVE_BIG_MAX_N`] for the construction and min-conflicts.
pub fn solve_method_max_n(method: Method) -> usize {
    match method {
        Method::First(algorithm) => solve_max_n(algorithm),
        Method::Construct | Method::MinConflicts => SOLVE_BIG_MAX_N,
    }
}
