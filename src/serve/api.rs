//! The JSON endpoints. Each handler checks its query into plain values (400 on anything wrong),
//! runs the search on the blocking pool and answers JSON.
//!
//! Limits on N, per endpoint (a larger N is a 400 that says the limit):
//! - `/api/solutions`: N up to 32, the largest board the page draws; `limit` up to 100 per page;
//!   with `unique=true`, N up to [`UNIQUE_MAX_N`] since the representatives are found by listing
//!   every solution. The total is given when N is at most [`COUNT_MAX_N`] or the page reached
//!   the end of the list. Reaching a deep offset of a large board may need more than the step
//!   budget: that is a 422.
//! - `/api/count`: N up to [`COUNT_MAX_N`] (the total and the number of symmetry classes, both
//!   counted by the counting engine on one thread, then remembered).
//! - `/api/solve`: N up to each algorithm's limit in [`solve_max_n`].
//! - `/api/trace`: N up to [`TRACE_MAX_N`], at most [`TRACE_EVENTS_MAX`] events (default
//!   [`TRACE_EVENTS_DEFAULT`]); the trace stops at the first solution unless `all=true`.
//!
//! `/api/config` (in `config.rs`) reports these limits and the algorithm lists to the page.
//!
//! Work and memory, per request:
//! - The step budget [`super::Limits::steps`] bounds `/api/solutions` (a 422 past it): the
//!   ranking walk counts its steps; the listing behind `unique=true` is refused up front when
//!   its page lies deeper than the budget reaches ([`UNIQUE_STEPS_PER_CLASS`]). `/api/solve` is
//!   bounded by each method's largest board (at most about half a second each, measured),
//!   `/api/count` by [`COUNT_MAX_N`], `/api/trace` by its event limit and [`TRACE_BYTES_MAX`]
//!   bytes of answer, built straight into bytes (no tree of JSON values).
//! - A heavy request takes one of [`super::Limits::heavy`] slots for as long as it works, or is
//!   answered 503 with `Retry-After`. Cheap requests (the page, `/api/config`, boards up to
//!   [`CHEAP_MAX_N`], the construction, small traces) never wait for a slot: see [`is_heavy`].
//! - Each parameter may be given once; names and values are echoed cut to 24 characters.

use std::collections::HashMap;
use std::ops::ControlFlow;

use axum::extract::{RawQuery, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use queens_core::count;
use queens_core::search::rank::{self, RankError};
use queens_core::solve::{Method, UnknownMethod};
use queens_core::{trace as tracing, Algorithm, SearchOptions};
use serde::Serialize;
use serde_json::json;

use super::error::{ApiError, JsonAnswer};
use super::AppState;
use crate::json::{event_json, summary_json};

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

/// Boards up to this size are cheap on every endpoint (14,200 solutions at N = 12, listed or
/// counted in milliseconds).
pub const CHEAP_MAX_N: usize = 12;
/// A trace is cheap when its event limit times N is at most this (the page's default of 20,000
/// events on the 8x8 board: about 3 MB of answer).
pub const CHEAP_TRACE_CELLS: u64 = 20_000 * 8;
/// `min-conflicts` is cheap up to this board (a few milliseconds).
pub const CHEAP_MIN_CONFLICTS_N: usize = 1000;

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
    /// A whole listing of the board's solutions (`/api/index`) or a whole counted trace
    /// (`/api/summary`).
    Walk { n: usize },
}

/// Whether a request needs one of the heavy slots: anything that may take more than a few
/// milliseconds or a few megabytes.
pub fn is_heavy(work: Work) -> bool {
    match work {
        Work::Solutions { n } | Work::Count { n } => n > CHEAP_MAX_N,
        Work::Solve { method, n } => match method {
            Method::Construct => false,
            Method::MinConflicts => n > CHEAP_MIN_CONFLICTS_N,
            Method::First(_) => n > CHEAP_MAX_N,
        },
        Work::Trace { n, limit } => limit.saturating_mul(n as u64) > CHEAP_TRACE_CELLS,
        Work::Walk { n } => n > CHEAP_MAX_N,
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

/// The query of one request, checked parameter by parameter.
pub(super) struct Params {
    endpoint: String,
    map: HashMap<String, String>,
}

impl Params {
    /// Decodes the query: every name must be one of `known`, and given once.
    pub(super) fn new(
        endpoint: impl Into<String>,
        query: Option<&str>,
        known: &[&str],
    ) -> Result<Self, ApiError> {
        let endpoint = endpoint.into();
        let mut map: HashMap<String, String> = HashMap::new();
        for (name, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            if !known.contains(&name.as_ref()) {
                return Err(ApiError::bad_request(format!(
                    "unknown parameter '{}' for {endpoint} (expected {})",
                    shorten(&name),
                    known.join(", ")
                )));
            }
            if let Some(first) = map.get(name.as_ref() as &str) {
                return Err(ApiError::bad_request(format!(
                    "parameter {name} is given twice ('{}' and '{}'): give it once",
                    shorten(first),
                    shorten(&value)
                )));
            }
            map.insert(name.into_owned(), value.into_owned());
        }
        Ok(Params { endpoint, map })
    }

    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.map.get(name).map(|v| v.trim())
    }

    pub(super) fn number(&self, name: &str, value: &str) -> Result<u64, ApiError> {
        value.parse().map_err(|_| {
            ApiError::bad_request(format!(
                "{name} must be a whole number, not '{}'",
                shorten(value)
            ))
        })
    }

    /// The board size: required, 1..=max.
    pub(super) fn n(&self, max: usize) -> Result<usize, ApiError> {
        let endpoint = &self.endpoint;
        let value = self.get("n").ok_or_else(|| {
            ApiError::bad_request(format!(
                "missing parameter n (the board size, a whole number from 1 to {max})"
            ))
        })?;
        let n = self.number("n", value)?;
        if n == 0 {
            return Err(ApiError::bad_request("n must be at least 1 (got 0)"));
        }
        if n > max as u64 {
            return Err(ApiError::bad_request(format!(
                "n = {n} is above the limit of {max} for {endpoint}"
            )));
        }
        Ok(n as usize)
    }

    pub(super) fn optional_number(&self, name: &str, default: u64) -> Result<u64, ApiError> {
        match self.get(name) {
            None => Ok(default),
            Some(value) => self.number(name, value),
        }
    }

    pub(super) fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.get(name) {
            None | Some("false" | "0" | "no") => Ok(false),
            Some("" | "true" | "1" | "yes") => Ok(true),
            Some(other) => Err(ApiError::bad_request(format!(
                "{name} must be true or false, not '{}'",
                shorten(other)
            ))),
        }
    }

    pub(super) fn algorithm(&self, default: Algorithm) -> Result<Algorithm, ApiError> {
        match self.get("algo") {
            None | Some("") => Ok(default),
            Some(name) => name.parse().map_err(|_| {
                let e = queens_core::search::UnknownAlgorithm(shorten(name));
                ApiError::bad_request(format!("algo: {e}"))
            }),
        }
    }
}

/// `value` cut to its first 24 characters (with `...`), for echoing in an error.
pub fn shorten(value: &str) -> String {
    queens_core::text::shorten(value, 24)
}

/// Runs a search on the blocking pool.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::internal(format!("the search failed: {e}")))?
}

/// One solution and its 0-based index in the list.
#[derive(Debug, Serialize)]
struct Indexed {
    index: u64,
    queens: Vec<usize>,
}

/// `GET /api/solutions?n=N&offset=K&limit=L&unique=BOOL`: solutions K..K+L-1 in lexicographic
/// order (of the symmetry-class representatives when `unique` is true).
pub async fn solutions(State(state): State<AppState>, RawQuery(query): RawQuery) -> JsonAnswer {
    let params = Params::new(
        "/api/solutions",
        query.as_deref(),
        &["n", "offset", "limit", "unique"],
    )?;
    let unique = params.flag("unique")?;
    let n = params.n(if unique {
        UNIQUE_MAX_N
    } else {
        SOLUTIONS_MAX_N
    })?;
    let offset = params.optional_number("offset", 0)?;
    let limit = params.optional_number("limit", 1)?;
    if limit == 0 {
        return Err(ApiError::bad_request("limit must be at least 1 (got 0)"));
    }
    if limit > PAGE_MAX {
        return Err(ApiError::bad_request(format!(
            "limit = {limit} is above the limit of {PAGE_MAX} solutions per request"
        )));
    }
    let limit = limit as usize;
    let steps = state.limits.steps;
    let known = state.known_total(n, unique);
    let _slot = admit(&state, Work::Solutions { n }, "a page of a large board")?;
    let asked = PageAsked {
        n,
        offset,
        limit,
        steps,
    };
    let (found, total) = blocking(move || {
        if unique {
            unique_page(asked, known)
        } else {
            ranked_page(asked, known)
        }
    })
    .await?;
    if let Some(total) = total {
        state.remember_total(n, unique, total);
    }
    if found.is_empty() {
        let what = if unique {
            "classes of solutions"
        } else {
            "solutions"
        };
        let message = match total {
            Some(total) => format!(
                "offset {offset} is past the last solution: the {n}x{n} board has {total} {what}"
            ),
            None => format!("offset {offset} is past the last solution of the {n}x{n} board"),
        };
        return Err(ApiError::not_found(message));
    }
    let solutions: Vec<Indexed> = found
        .into_iter()
        .zip(offset..)
        .map(|(queens, index)| Indexed { index, queens })
        .collect();
    Ok(Json(json!({
        "n": n,
        "offset": offset,
        "unique": unique,
        "total": total,
        "solutions": solutions,
    })))
}

type Found = (Vec<Vec<usize>>, Option<u64>);

/// A page `/api/solutions` asks for: `limit` solutions of the `n` x `n` board from `offset`,
/// within `steps` search steps.
#[derive(Debug, Clone, Copy)]
struct PageAsked {
    n: usize,
    offset: u64,
    limit: usize,
    steps: u64,
}

impl PageAsked {
    /// The empty page, when the `total` is known and the offset is past it.
    fn past_the_end(self, total: Option<u64>) -> Option<Found> {
        let total = total.filter(|&total| self.offset >= total)?;
        Some((Vec::new(), Some(total)))
    }
}

/// The solutions of the page, in lexicographic order, and the total when it is `known` or the
/// walk or the counting engine learns it.
fn ranked_page(asked: PageAsked, known: Option<u64>) -> Result<Found, ApiError> {
    if let Some(empty) = asked.past_the_end(known) {
        return Ok(empty);
    }
    let (n, offset) = (asked.n, asked.offset);
    let page = rank::solutions_from(n, offset, asked.limit, asked.steps).map_err(|e| match e {
        RankError::OverBudget(_) => ApiError::too_much_work(format!(
            "offset {offset} of the {n}x{n} board is too deep to reach quickly: {e}"
        )),
        RankError::Size(_) => ApiError::bad_request(e.to_string()),
    })?;
    let total = known.or(page.total).or_else(|| counted(n).map(|c| c.0));
    Ok((page.solutions, total))
}

/// The total and the number of classes from the counting engine, for N up to [`COUNT_MAX_N`].
fn counted(n: usize) -> Option<(u64, u64)> {
    if n > COUNT_MAX_N {
        return None;
    }
    let counts = count::count_sequential(n).ok()?;
    Some((
        u64::try_from(counts.total).ok()?,
        u64::try_from(counts.unique).ok()?,
    ))
}

/// The representatives of the symmetry classes, in lexicographic order: the engine lists every
/// solution and keeps each that comes first among its images, and the walk stops once the page
/// is full. The number of classes comes from the counting engine (N is at most
/// [`UNIQUE_MAX_N`]), so an offset past it is answered without a search; a page deeper than the
/// step budget reaches (at [`UNIQUE_STEPS_PER_CLASS`]) is refused, also without a search.
fn unique_page(asked: PageAsked, known: Option<u64>) -> Result<Found, ApiError> {
    let total = known.or_else(|| counted(asked.n).map(|c| c.1));
    if let Some(empty) = asked.past_the_end(total) {
        return Ok(empty);
    }
    let (n, offset, limit, steps) = (asked.n, asked.offset, asked.limit, asked.steps);
    let end = offset.saturating_add(limit as u64);
    let passed = total.map_or(end, |t| t.min(end));
    let needed = passed.saturating_mul(UNIQUE_STEPS_PER_CLASS);
    if needed > steps {
        return Err(ApiError::too_much_work(format!(
            "offset {offset} of the symmetry classes of the {n}x{n} board is too deep to reach \
             quickly: listing that far takes about {needed} search steps, more than the budget \
             of {steps}"
        )));
    }
    let mut found = Vec::new();
    let mut seen = 0u64;
    let _ = count::for_each_canonical(n, &mut |q| {
        if seen >= offset {
            found.push(q.to_vec());
        }
        seen += 1;
        if found.len() >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok((found, total.or(Some(seen))))
}

/// `GET /api/count?n=N`: the number of solutions and of classes under the board's symmetries.
pub async fn count(State(state): State<AppState>, RawQuery(query): RawQuery) -> JsonAnswer {
    let params = Params::new("/api/count", query.as_deref(), &["n"])?;
    let n = params.n(COUNT_MAX_N)?;
    let (total, unique) = match (state.known_total(n, false), state.known_total(n, true)) {
        (Some(total), Some(unique)) => (total, unique),
        _ => {
            let _slot = admit(&state, Work::Count { n }, "counting a large board")?;
            blocking(move || {
                counted(n).ok_or_else(|| ApiError::internal(format!("cannot count N = {n}")))
            })
            .await?
        }
    };
    state.remember_total(n, false, total);
    state.remember_total(n, true, unique);
    Ok(Json(json!({ "n": n, "total": total, "unique": unique })))
}

/// `GET /api/solve?n=N&algo=A&seed=S`: one solution (`queens` is null when the board has
/// none). Without `algo`: bitboard up to N = 29, the construction above (as `queens solve`).
/// `seed` is only for min-conflicts; without it a seed is drawn and returned. The work is
/// bounded by each method's largest board ([`solve_method_max_n`]).
pub async fn solve(State(state): State<AppState>, RawQuery(query): RawQuery) -> JsonAnswer {
    let mut params = Params::new("/api/solve", query.as_deref(), &["n", "algo", "seed"])?;
    let solver = match params.get("algo") {
        None | Some("") => None,
        Some(name) => Some(name.parse::<Method>().map_err(|_| {
            ApiError::bad_request(format!("algo: {}", UnknownMethod(shorten(name))))
        })?),
    };
    let n = match solver {
        Some(solver) => {
            params.endpoint = format!("/api/solve with algo={}", solver.name());
            params.n(solve_method_max_n(solver))?
        }
        None => params.n(SOLVE_BIG_MAX_N)?,
    };
    let solver = solver.unwrap_or(Method::default_for(n));
    let seed = match (solver, params.get("seed")) {
        (Method::MinConflicts, None) => Some(queens_core::random::random_seed()),
        (Method::MinConflicts, Some(value)) => Some(params.number("seed", value)?),
        (_, None) => None,
        (_, Some(_)) => {
            return Err(ApiError::bad_request(
                "seed only applies to algo=min-conflicts",
            ))
        }
    };
    let work = Work::Solve { n, method: solver };
    let _slot = admit(&state, work, "solving a large board")?;
    let queens = blocking(move || {
        solver
            .solve(n, &SearchOptions::default(), seed.unwrap_or(0))
            .map_err(|e| ApiError::too_much_work(e.to_string()))
    })
    .await?;
    let mut answer = json!({ "n": n, "algo": solver.name(), "queens": queens });
    if let Some(seed) = seed {
        answer["seed"] = json!(seed);
    }
    Ok(Json(answer))
}

/// `GET /api/trace?n=N&algo=A&limit=S&all=BOOL`: the events of `queens trace --format json`,
/// up to the first solution (the whole search with `all=true`), at most `limit` of them and at
/// most [`TRACE_BYTES_MAX`] bytes (`cut` says whether the trace stopped short). The answer is
/// written event by event straight into its bytes, so it holds no more than its own size.
pub async fn trace(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::new(
        "/api/trace",
        query.as_deref(),
        &["n", "algo", "limit", "all"],
    )?;
    let algorithm = params.algorithm(Algorithm::Backtrack)?;
    let n = params.n(TRACE_MAX_N)?;
    let all = params.flag("all")?;
    let limit = params.optional_number("limit", TRACE_EVENTS_DEFAULT)?;
    if limit == 0 {
        return Err(ApiError::bad_request("limit must be at least 1 (got 0)"));
    }
    if limit > TRACE_EVENTS_MAX {
        return Err(ApiError::bad_request(format!(
            "limit = {limit} is above the limit of {TRACE_EVENTS_MAX} events per request"
        )));
    }
    let _slot = admit(&state, Work::Trace { n, limit }, "a long trace")?;
    let body =
        blocking(move || trace_bytes(n, algorithm, all, limit as usize, TRACE_BYTES_MAX)).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// The JSON answer of `/api/trace`, at most about `max_bytes` long.
pub(super) fn trace_bytes(
    n: usize,
    algorithm: Algorithm,
    all: bool,
    limit: usize,
    max_bytes: usize,
) -> Result<Vec<u8>, ApiError> {
    let failed = |e: serde_json::Error| ApiError::internal(format!("writing the trace: {e}"));
    // The events first, straight into the answer's bytes; the fields before them (known only at
    // the end) are put in front afterwards, so the answer keeps the order of `queens trace`.
    let mut out = b"[".to_vec();
    let mut full = false;
    let mut error = None;
    let outcome = tracing::run(
        n,
        algorithm,
        &SearchOptions::default(),
        all,
        Some(limit),
        &mut |event| {
            if out.len() > 1 {
                out.push(b',');
            }
            if let Err(e) = serde_json::to_writer(&mut out, &event_json(event)) {
                error = Some(e);
                return ControlFlow::Break(());
            }
            if out.len() >= max_bytes {
                full = true;
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        },
    )
    .map_err(|e| ApiError::too_much_work(e.to_string()))?;
    if let Some(e) = error {
        return Err(failed(e));
    }
    out.extend_from_slice(b"]}");
    let head = json!({
        "n": n,
        "algo": algorithm.name(),
        "all": all,
        "positions_by": tracing::Axis::of(algorithm).name(),
        "cut": outcome.cut || full,
        "summary": summary_json(algorithm, n, all, &outcome.summary),
    });
    let mut head = serde_json::to_vec(&head).map_err(failed)?;
    // Reopen the object for the events.
    head.pop();
    head.extend_from_slice(b",\"events\":");
    out.splice(0..0, head);
    Ok(out)
}
