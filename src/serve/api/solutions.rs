//! `GET /api/solutions`: a page of a board's solutions in lexicographic order, or of the
//! representatives of its symmetry classes, with the total when it is known or cheap to count.

use std::ops::ControlFlow;

use axum::extract::{RawQuery, State};
use axum::Json;
use queens_core::count;
use queens_core::search::rank::{self, RankError};
use serde::Serialize;
use serde_json::json;

use super::count::counted;
use crate::serve::admission::{admit, blocking, Work};
use crate::serve::error::{ApiError, JsonAnswer};
use crate::serve::limits::{PAGE_MAX, SOLUTIONS_MAX_N, UNIQUE_MAX_N, UNIQUE_STEPS_PER_CLASS};
use crate::serve::query::Params;
use crate::serve::AppState;

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
    let limit = asked.limit;
    let page = rank::solutions_from(n, offset, limit, asked.steps).map_err(|e| match e {
        RankError::OverBudget(_) => ApiError::too_much_work(format!(
            "offset {offset} of the {n}x{n} board is too deep to reach quickly: {e}"
        )),
        RankError::PageOverBudget { .. } => ApiError::too_much_work(format!(
            "a page of {limit} solutions from offset {offset} of the {n}x{n} board is too long \
             to list quickly: {e}; ask for fewer (limit)"
        )),
        RankError::Size(_) => ApiError::bad_request(e.to_string()),
    })?;
    let total = known.or(page.total).or_else(|| counted(n).map(|c| c.0));
    Ok((page.solutions, total))
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
