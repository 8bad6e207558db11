//! `GET /api/count`: the number of solutions of a board and of its classes under the board's
//! symmetries, counted by the counting engine on one thread and remembered.

use axum::extract::{RawQuery, State};
use axum::Json;
use serde_json::json;

use crate::serve::admission::{admit, blocking, Work};
use crate::serve::error::{ApiError, JsonAnswer};
use crate::serve::limits::COUNT_MAX_N;
use crate::serve::query::Params;
use crate::serve::AppState;

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

/// The total and the number of classes from the counting engine, for N up to [`COUNT_MAX_N`].
pub(super) fn counted(n: usize) -> Option<(u64, u64)> {
    if n > COUNT_MAX_N {
        return None;
    }
    let counts = queens_core::count::count_sequential(n).ok()?;
    Some((
        u64::try_from(counts.total).ok()?,
        u64::try_from(counts.unique).ok()?,
    ))
}
