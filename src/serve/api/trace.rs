//! `GET /api/trace`: the events of a traced search, as `queens trace --format json` writes
//! them, written event by event straight into the answer's bytes.

use std::ops::ControlFlow;

use axum::extract::{RawQuery, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use queens_core::{trace as tracing, Algorithm};
use serde_json::json;

use crate::json::{event_json, summary_json};
use crate::serve::admission::{admit, blocking, Work};
use crate::serve::error::ApiError;
use crate::serve::limits::{TRACE_BYTES_MAX, TRACE_EVENTS_DEFAULT, TRACE_EVENTS_MAX, TRACE_MAX_N};
use crate::serve::query::Params;
use crate::serve::AppState;

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
pub(in crate::serve) fn trace_bytes(
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
    let outcome = tracing::Trace::new(n, algorithm)
        .all(all)
        .limit(limit)
        .run(&mut |event| {
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
        })
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
