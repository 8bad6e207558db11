//! The page's slower questions, answered apart from the request that asks them:
//!
//! - `GET /api/total?n=N`: the number of solutions of a board too large to count within one
//!   request (N above [`super::limits::COUNT_MAX_N`], up to [`TOTAL_MAX_N`]). The first request
//!   starts the counting engine on one background thread; every request answers at once with
//!   `{ "n", "done", "counting", "max_n", "progress" }` (`progress`: the share of the engine's
//!   subproblems counted, 0 to 1), and with `"total"` and `"unique"` once it is done. For a board
//!   the viewer lists but above `max_n`, `counting` is false and `why` says so. The totals are remembered (in the state the
//!   other handlers read, so `/api/solutions` gives the total too) and the counting runs once.
//! - `GET /api/index?n=N&queens=C0,C1,...&unique=BOOL`: the 0-based index of a solution in the
//!   lexicographic list of every solution, or, with `unique=true`, of the symmetry classes'
//!   representatives (the page asks it for the representative of the board it shows, so the
//!   unique toggle keeps that board's class in view). Up to [`super::limits::UNIQUE_MAX_N`].
//! - `GET /api/summary?n=N&algo=A&all=BOOL`: the counts of a whole trace up to the first
//!   solution (or of the whole search with `all=true`), without its events, for a trace
//!   `/api/trace` had to cut (`queens trace --summary [--all]`).

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, OnceLock};

use axum::extract::{RawQuery, State};
use axum::Json;
use queens_core::board::{find_flaw_in_columns, is_canonical};
use queens_core::count::{self, Run};
use queens_core::{trace as tracing, Algorithm, SearchOptions};
use serde_json::json;

use super::admission::{admit, Work};
use super::error::{ApiError, JsonAnswer};
use super::limits::{SOLUTIONS_MAX_N, TRACE_MAX_N, UNIQUE_MAX_N};
use super::query::Params;
use super::AppState;
use crate::json::summary_json;

/// The largest board `/api/total` counts: N = 18 takes minutes on one core, N = 19 hours.
pub const TOTAL_MAX_N: usize = 18;

/// The counts running or done, by board size.
fn jobs() -> &'static Mutex<HashMap<usize, Arc<Run>>> {
    static JOBS: OnceLock<Mutex<HashMap<usize, Arc<Run>>>> = OnceLock::new();
    JOBS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// `GET /api/total?n=N`: starts or follows the background count of the board (module doc).
pub async fn total(State(state): State<AppState>, RawQuery(query): RawQuery) -> JsonAnswer {
    let params = Params::new("/api/total", query.as_deref(), &["n"])?;
    let n = params.n(SOLUTIONS_MAX_N)?;
    if n > TOTAL_MAX_N {
        return Ok(Json(json!({
            "n": n,
            "done": false,
            "counting": false,
            "max_n": TOTAL_MAX_N,
            "why": format!(
                "counting the {n}x{n} board would take too long (the page counts up to {TOTAL_MAX_N}x{TOTAL_MAX_N})"
            ),
        })));
    }
    if let (Some(total), Some(unique)) = (state.known_total(n, false), state.known_total(n, true)) {
        return Ok(Json(
            json!({ "n": n, "done": true, "counting": true, "max_n": TOTAL_MAX_N, "progress": 1.0, "total": total, "unique": unique }),
        ));
    }
    let run = {
        let mut jobs = jobs()
            .lock()
            .map_err(|_| ApiError::internal("the background counts are unavailable"))?;
        match jobs.get(&n) {
            Some(run) => Arc::clone(run),
            None => {
                let run = Arc::new(
                    Run::new(n)
                        .map_err(|e| ApiError::bad_request(e.to_string()))?
                        .threads(1),
                );
                let (job, state) = (Arc::clone(&run), state.clone());
                // A thread that cannot start (a low `ulimit -u`) is a 503, not a panic.
                std::thread::Builder::new()
                    .name(format!("count {n}"))
                    .spawn(move || {
                        if let Ok(counts) = job.execute() {
                            if job.is_complete() {
                                if let (Ok(total), Ok(unique)) =
                                    (u64::try_from(counts.total), u64::try_from(counts.unique))
                                {
                                    state.remember_total(n, false, total);
                                    state.remember_total(n, true, unique);
                                }
                            }
                        }
                    })
                    .map_err(|e| {
                        ApiError::busy(format!("cannot start the background count: {e}"))
                    })?;
                jobs.insert(n, Arc::clone(&run));
                run
            }
        }
    };
    let finished = run.control().tally().finished;
    let todo = run.todo().max(1) as f64;
    if let (Some(total), Some(unique)) = (state.known_total(n, false), state.known_total(n, true)) {
        return Ok(Json(
            json!({ "n": n, "done": true, "counting": true, "max_n": TOTAL_MAX_N, "progress": 1.0, "total": total, "unique": unique }),
        ));
    }
    Ok(Json(json!({
        "n": n,
        "done": false,
        "counting": true,
        "max_n": TOTAL_MAX_N,
        "progress": (finished as f64 / todo).min(1.0),
    })))
}

/// `GET /api/index?n=N&queens=...&unique=BOOL`: where a solution stands in the list (module doc).
pub async fn index(State(state): State<AppState>, RawQuery(query): RawQuery) -> JsonAnswer {
    let params = Params::new("/api/index", query.as_deref(), &["n", "queens", "unique"])?;
    let n = params.n(UNIQUE_MAX_N)?;
    let unique = params.flag("unique")?;
    let text = params
        .get("queens")
        .ok_or_else(|| ApiError::bad_request("missing parameter queens (columns, row by row)"))?
        .to_string();
    // Digits only, as every number of the API (no sign, no space).
    let column = |c: &str| {
        queens_core::text::decimal(c)
            .ok()
            .and_then(|c| usize::try_from(c).ok())
    };
    let queens: Vec<usize> = text
        .split(',')
        .map(column)
        .collect::<Option<_>>()
        .ok_or_else(|| ApiError::bad_request("queens must be columns separated by commas"))?;
    if queens.len() != n || queens.iter().any(|&c| c >= n) {
        return Err(ApiError::bad_request(format!(
            "queens must name {n} columns from 0 to {}",
            n - 1
        )));
    }
    // A board that is no solution has no place: said at once, without a walk of the list.
    let columns: Vec<u32> = queens.iter().map(|&c| c as u32).collect();
    let solution = find_flaw_in_columns(&columns).is_none();
    let _slot = solution
        .then(|| admit(&state, Work::Walk { n }, "finding a solution's place"))
        .transpose()?;
    let found = tokio::task::spawn_blocking(move || {
        if !solution {
            return None;
        }
        let mut index = 0u64;
        let mut found = None;
        let mut visit = |q: &[usize]| {
            if q == queens.as_slice() {
                found = Some(index);
                return ControlFlow::Break(());
            }
            if q > queens.as_slice() {
                return ControlFlow::Break(());
            }
            index += 1;
            ControlFlow::Continue(())
        };
        if unique {
            if is_canonical(&queens) {
                let _ = count::for_each_canonical(n, &mut visit);
            }
        } else {
            let _ = Algorithm::Bitboard.for_each_solution(n, &SearchOptions::default(), &mut visit);
        }
        found
    })
    .await
    .map_err(|e| ApiError::internal(format!("the search failed: {e}")))?;
    match found {
        Some(index) => Ok(Json(json!({ "n": n, "unique": unique, "index": index }))),
        None => Err(ApiError::not_found(format!(
            "{} is not {} of the {n}x{n} board",
            super::query::shorten(&text),
            if unique {
                "a representative of the classes"
            } else {
                "a solution"
            }
        ))),
    }
}

/// `GET /api/summary?n=N&algo=A&all=BOOL`: the counts of the whole trace up to the first
/// solution, or of the whole search with `all=true`.
pub async fn summary(State(state): State<AppState>, RawQuery(query): RawQuery) -> JsonAnswer {
    let params = Params::new("/api/summary", query.as_deref(), &["n", "algo", "all"])?;
    let n = params.n(TRACE_MAX_N)?;
    let algorithm = params.algorithm(Algorithm::Backtrack)?;
    let all = params.flag("all")?;
    let _slot = admit(&state, Work::Summary { n }, "a whole counted trace")?;
    tokio::task::spawn_blocking(move || {
        let outcome = tracing::Trace::new(n, algorithm)
            .all(all)
            .summarize()
            .map_err(|e| ApiError::too_much_work(e.to_string()))?;
        Ok(Json(summary_json(algorithm, n, all, &outcome.summary)))
    })
    .await
    .map_err(|e| ApiError::internal(format!("the search failed: {e}")))?
}

#[cfg(test)]
mod tests {
    use axum::http::StatusCode;
    use serde_json::Value;

    use super::super::tests::get_from as get;

    #[tokio::test]
    async fn the_page_endpoints_refuse_repeated_and_unknown_parameters_briefly() {
        let app = super::super::app();
        for uri in [
            "/api/total?n=8&n=9",
            "/api/index?n=8&n=9&queens=0",
            "/api/summary?n=4&algo=wirth&algo=bfs",
        ] {
            let (status, body) = get(app.clone(), uri).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
            assert!(
                body["error"].as_str().unwrap().contains("twice"),
                "{uri}: {body}"
            );
        }
        let long = "x".repeat(20_000);
        let (status, body) = get(app, &format!("/api/summary?n=4&{long}=1")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body["error"].as_str().unwrap().len() < 200, "{body}");
    }

    #[tokio::test]
    async fn index_takes_columns_in_digits_only() {
        let app = super::super::app();
        for queens in [
            "%2B3,5,7,1,6,0,2,4",
            "%203,5,7,1,6,0,2,4",
            "3,5,7,1,6,0,2,",
            "3,,5",
        ] {
            let uri = format!("/api/index?n=8&queens={queens}");
            let (status, body) = get(app.clone(), &uri).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
            assert!(
                body["error"].as_str().unwrap().contains("columns"),
                "{body}"
            );
        }
    }

    #[tokio::test]
    async fn index_finds_a_solution_and_a_representative() {
        let app = super::super::app();
        let (status, body) = get(app.clone(), "/api/index?n=8&queens=3,5,7,1,6,0,2,4").await;
        assert_eq!((status, &body["index"]), (StatusCode::OK, &Value::from(37)));
        let (status, body) = get(
            app.clone(),
            "/api/index?n=8&queens=0,4,7,5,2,6,1,3&unique=true",
        )
        .await;
        assert_eq!((status, &body["index"]), (StatusCode::OK, &Value::from(0)));
        // Not a solution, and a solution that is not its class's representative.
        let (status, _) = get(app.clone(), "/api/index?n=8&queens=0,1,2,3,4,5,6,7").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = get(
            app.clone(),
            "/api/index?n=8&queens=7,3,0,2,5,1,6,4&unique=true",
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, body) = get(app, "/api/index?n=8&queens=0,4").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    }

    #[tokio::test]
    async fn summary_counts_the_whole_trace() {
        let (status, body) = get(super::super::app(), "/api/summary?n=8&algo=iterative").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            (&body["tries"], &body["placements"]),
            (&Value::from(876), &Value::from(113))
        );
        // The whole search: 2,056 placements and 92 solutions.
        let (status, body) = get(
            super::super::app(),
            "/api/summary?n=8&algo=iterative&all=true",
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            (&body["placements"], &body["solutions"]),
            (&Value::from(2056), &Value::from(92))
        );
    }

    #[tokio::test]
    async fn total_counts_in_the_background_and_refuses_boards_too_large() {
        let (status, body) = get(super::super::app(), "/api/total?n=20").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["counting"], Value::Bool(false), "{body}");
        let (status, _) = get(super::super::app(), "/api/total?n=33").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
    }
}
