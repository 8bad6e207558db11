//! `queens serve`: the board viewer as a web page and the JSON API it reads.
//!
//! [`app`] builds the whole router, apart from any socket, so tests drive it with `oneshot`.
//! The page (`assets/`: `app.js` and the ES modules it imports from `assets/js/`) is embedded in
//! the binary and needs no network; it reads its limits and algorithm lists from `/api/config`.
//! Every API handler checks its parameters into plain values first (a 400 naming the bad one),
//! then runs the search on the blocking pool with a step budget, so one request cannot hold a
//! core for minutes.

mod api;
mod background;
mod config;
mod error;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

pub use error::ApiError;

/// How much work the API does for one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most search steps (nodes of the search tree) one request may take.
    pub steps: u64,
}

impl Default for Limits {
    fn default() -> Self {
        // About two to three seconds of one core (measured: roughly 100 to 150 million steps a
        // second); enough for the first solutions of every board up to 32x32.
        Limits { steps: 300_000_000 }
    }
}

/// What the handlers share: the limits and the totals already counted.
#[derive(Debug, Clone, Default)]
pub struct AppState {
    limits: Limits,
    totals: Arc<Mutex<HashMap<(usize, bool), u64>>>,
}

impl AppState {
    fn known_total(&self, n: usize, unique: bool) -> Option<u64> {
        self.totals.lock().ok()?.get(&(n, unique)).copied()
    }

    fn remember_total(&self, n: usize, unique: bool, total: u64) {
        if let Ok(mut totals) = self.totals.lock() {
            totals.insert((n, unique), total);
        }
    }
}

/// The viewer with the default limits.
pub fn app() -> Router {
    app_with(Limits::default())
}

/// The viewer with the given limits.
pub fn app_with(limits: Limits) -> Router {
    let state = AppState {
        limits,
        ..AppState::default()
    };
    Router::new()
        .route("/", get(index))
        .route("/app.js", get(script))
        .route("/js/{name}", get(module))
        .route("/style.css", get(style))
        .route("/api/config", get(config::config))
        .route("/api/solutions", get(api::solutions))
        .route("/api/count", get(api::count))
        .route("/api/solve", get(api::solve))
        .route("/api/trace", get(api::trace))
        .route("/api/total", get(background::total))
        .route("/api/index", get(background::index))
        .route("/api/summary", get(background::summary))
        .fallback(not_found)
        .with_state(state)
}

const INDEX: &str = include_str!("../../assets/index.html");
const SCRIPT: &str = include_str!("../../assets/app.js");
const STYLE: &str = include_str!("../../assets/style.css");

/// The ES modules `app.js` imports, served at `/js/<name>`; any other name there is a 404.
const MODULES: [(&str, &str); 7] = [
    ("api.js", include_str!("../../assets/js/api.js")),
    ("board.js", include_str!("../../assets/js/board.js")),
    ("browse.js", include_str!("../../assets/js/browse.js")),
    ("code.js", include_str!("../../assets/js/code.js")),
    ("dom.js", include_str!("../../assets/js/dom.js")),
    ("learn.js", include_str!("../../assets/js/learn.js")),
    ("solve.js", include_str!("../../assets/js/solve.js")),
];

const JAVASCRIPT: &str = "text/javascript; charset=utf-8";

async fn index() -> impl IntoResponse {
    asset("text/html; charset=utf-8", INDEX)
}

async fn script() -> impl IntoResponse {
    asset(JAVASCRIPT, SCRIPT)
}

async fn module(Path(name): Path<String>) -> Response {
    match MODULES.iter().find(|(known, _)| *known == name) {
        Some((_, body)) => asset(JAVASCRIPT, body).into_response(),
        None => ApiError::not_found(format!("there is no module /js/{name}")).into_response(),
    }
}

async fn style() -> impl IntoResponse {
    asset("text/css; charset=utf-8", STYLE)
}

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!("there is nothing at {}", uri.path()))
}
