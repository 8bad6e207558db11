//! `GET /api/solve`: one solution of a board, by the method asked for or by the default for
//! its size, as `queens solve` chooses.

use axum::extract::{RawQuery, State};
use axum::Json;
use queens_core::solve::{Method, UnknownMethod};
use queens_core::SearchOptions;
use serde_json::json;

use crate::serve::admission::{admit, blocking, Work};
use crate::serve::error::{ApiError, JsonAnswer};
use crate::serve::limits::{solve_method_max_n, SOLVE_BIG_MAX_N};
use crate::serve::query::{shorten, Params};
use crate::serve::AppState;

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
