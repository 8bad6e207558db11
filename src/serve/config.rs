//! `GET /api/config`: what the page needs to know about the API before it asks anything, built
//! from the very values the handlers enforce, so the page repeats none of them.
//!
//! ```json
//! {
//!   "steps": 300000000,
//!   "browse": { "max_n": 32, "page_max": 100, "unique_max_n": 15, "count_max_n": 15 },
//!   "learn": { "max_n": 12, "events_default": 20000, "events_max": 100000,
//!              "algorithms": ["backtrack", "iterative", "recursive", "wirth", "bfs", "bitboard"],
//!              "labels": { "backtrack": "backtrack (column-wise, COMP 333)", ... } },
//!   "solve": { "max_n": 10000,
//!              "automatic": { "small": "bitboard", "up_to": 29, "large": "construct" },
//!              "algorithms": [{ "name": "construct", "max_n": 10000 }, ...] }
//! }
//! ```
//!
//! - `steps`: the step budget of one request ([`super::Limits::steps`]).
//! - `browse`: `/api/solutions` (`max_n`, `page_max` solutions per request, `unique_max_n` with
//!   `unique=true`) and `/api/count` (`count_max_n`).
//! - `learn`: `/api/trace`: its largest board, its event limits, the algorithms it traces and
//!   the label the page's menus show for each ([`Algorithm::label`], from the solver's file).
//! - `solve`: `/api/solve`: `max_n` without `algo`, the solver it then picks (`small` up to `up_to`,
//!   `large` above), and every `algo` it takes with its own largest board, in the page's order.

use axum::extract::State;
use axum::Json;
use queens_core::Algorithm;
use serde_json::{json, Map, Value};

use queens_core::solve::{Method, FAST_FIRST_N};

use super::limits::{
    solve_method_max_n, COUNT_MAX_N, PAGE_MAX, SOLUTIONS_MAX_N, SOLVE_BIG_MAX_N,
    TRACE_EVENTS_DEFAULT, TRACE_EVENTS_MAX, TRACE_MAX_N, UNIQUE_MAX_N,
};
use super::AppState;

/// `GET /api/config`: the limits and the algorithm lists, as JSON (see the module's doc).
pub async fn config(State(state): State<AppState>) -> Json<Value> {
    let cut = FAST_FIRST_N;
    let algorithms: Vec<Value> = super::limits::SOLVE_OFFERED
        .iter()
        .map(|&s| json!({ "name": s.name(), "max_n": solve_method_max_n(s) }))
        .collect();
    let labels: Map<String, Value> = Algorithm::ALL
        .iter()
        .map(|a| (a.name().to_string(), json!(a.label())))
        .collect();
    Json(json!({
        "steps": state.limits.steps,
        "browse": {
            "max_n": SOLUTIONS_MAX_N,
            "page_max": PAGE_MAX,
            "unique_max_n": UNIQUE_MAX_N,
            "count_max_n": COUNT_MAX_N,
        },
        "learn": {
            "max_n": TRACE_MAX_N,
            "events_default": TRACE_EVENTS_DEFAULT,
            "events_max": TRACE_EVENTS_MAX,
            "algorithms": Algorithm::ALL.map(Algorithm::name),
            "labels": labels,
        },
        "solve": {
            "max_n": SOLVE_BIG_MAX_N,
            "automatic": {
                "small": Method::default_for(cut).name(),
                "up_to": cut,
                "large": Method::default_for(cut + 1).name(),
            },
            "algorithms": algorithms,
        },
    }))
}
