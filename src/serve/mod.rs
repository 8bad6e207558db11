//! `queens serve`: the board viewer as a web page and the JSON API it reads.
//!
//! [`app`] builds the whole router, apart from any socket, so tests drive it with `oneshot`.
//! The page (`assets/`: `app.js` and the ES modules it imports from `assets/js/`) is embedded in
//! the binary and needs no network; it reads its limits and algorithm lists from `/api/config`.
//! Every API handler checks its parameters into plain values first (a 400 naming the bad one),
//! then runs the search on the blocking pool with a step budget, so one request cannot hold a
//! core for minutes. A request that may take real work (see `admission.rs`) needs one of
//! [`Limits::heavy`] slots, or is answered 503 at once; an answer of over 64 KiB holds its size
//! from [`Limits::answer_bytes`] until it is read (`answers.rs`), or is answered 503; the
//! connections themselves are bounded by [`listen`]. Every bound and its default is listed in
//! `docs/server-limits.md`.

mod admission;
mod answers;
mod api;
mod background;
mod config;
mod error;
mod limits;
pub mod listen;
mod query;

#[cfg(test)]
mod algorithm_lists;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::Path;
use axum::http::{header, Method, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

pub use error::ApiError;

/// How much work the API does for one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most search steps (nodes of the search tree) one request may take.
    pub steps: u64,
    /// The most heavy requests (see `admission.rs`) worked on at once; the others get a 503.
    pub heavy: usize,
    /// The most bytes of answers larger than 64 KiB held at once until their clients read them
    /// (see `answers.rs`); an answer beyond gets a 503.
    pub answer_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            // At most about two to three seconds of one core for the ranking walk (measured:
            // roughly 110 to 170 million steps a second; the plain listings run 4 to 6 times
            // faster); enough for the first solution of every board up to 32x32.
            steps: 300_000_000,
            // One heavy request per core.
            heavy: std::thread::available_parallelism().map_or(2, |n| n.get()),
            // Five of the largest traces (24 MiB), or forty of the page's default one.
            answer_bytes: ANSWER_BYTES,
        }
    }
}

/// The default of [`Limits::answer_bytes`]: 128 MiB.
pub const ANSWER_BYTES: u64 = 128 << 20;

/// What the handlers share: the limits, the heavy slots, the budget of answers not yet read
/// and the totals already counted.
#[derive(Debug, Clone)]
pub struct AppState {
    limits: Limits,
    heavy: Arc<Semaphore>,
    answers: Arc<Semaphore>,
    totals: Arc<Mutex<HashMap<(usize, bool), u64>>>,
}

impl Default for AppState {
    fn default() -> Self {
        AppState::new(Limits::default())
    }
}

impl AppState {
    fn new(limits: Limits) -> Self {
        AppState {
            limits,
            heavy: Arc::new(Semaphore::new(limits.heavy.max(1))),
            answers: Arc::new(Semaphore::new(answers::permits(limits.answer_bytes))),
            totals: Arc::default(),
        }
    }

    /// A heavy slot for as long as the permit lives, or a 503 when all are taken.
    fn admit_heavy(&self, what: &str) -> Result<OwnedSemaphorePermit, ApiError> {
        self.heavy.clone().try_acquire_owned().map_err(|_| {
            ApiError::busy(format!(
                "the server is busy with {} other heavy requests; {what} is one too: try again shortly",
                self.limits.heavy.max(1)
            ))
        })
    }

    fn known_total(&self, n: usize, unique: bool) -> Option<u64> {
        self.totals.lock().ok()?.get(&(n, unique)).copied()
    }

    fn remember_total(&self, n: usize, unique: bool, total: u64) {
        if let Ok(mut totals) = self.totals.lock() {
            totals.insert((n, unique), total);
        }
    }
}

/// The viewer with the default limits (the tests' router; `queens serve` passes its flags).
#[cfg_attr(not(test), allow(dead_code))]
pub fn app() -> Router {
    app_with(Limits::default())
}

/// The viewer with the given limits.
pub fn app_with(limits: Limits) -> Router {
    app_of(AppState::new(limits))
}

/// The viewer on `state` (a test may hold its heavy slots).
fn app_of(state: AppState) -> Router {
    // One route a line; `method_not_allowed_fallback` must come after every route.
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
        .method_not_allowed_fallback(method_not_allowed)
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            answers::bounded,
        ))
        .with_state(state)
}

const INDEX: &str = include_str!("../../assets/index.html");
const SCRIPT: &str = include_str!("../../assets/app.js");
const STYLE: &str = include_str!("../../assets/style.css");

/// The ES modules `app.js` imports, served at `/js/<name>`; any other name there is a 404.
const MODULES: [(&str, &str); 10] = [
    ("api.js", include_str!("../../assets/js/api.js")),
    ("board.js", include_str!("../../assets/js/board.js")),
    ("browse.js", include_str!("../../assets/js/browse.js")),
    ("code.js", include_str!("../../assets/js/code.js")),
    ("dom.js", include_str!("../../assets/js/dom.js")),
    ("learn.js", include_str!("../../assets/js/learn.js")),
    (
        "learn-state.js",
        include_str!("../../assets/js/learn-state.js"),
    ),
    (
        "learn-track.js",
        include_str!("../../assets/js/learn-track.js"),
    ),
    ("learn-why.js", include_str!("../../assets/js/learn-why.js")),
    ("solve.js", include_str!("../../assets/js/solve.js")),
];

const JAVASCRIPT: &str = "text/javascript; charset=utf-8";

async fn index() -> impl IntoResponse {
    asset("text/html; charset=utf-8", INDEX)
}

async fn script() -> impl IntoResponse {
    asset(JAVASCRIPT, SCRIPT)
}

/// The listings of the algorithms' code (assets/code.json, shared with the terminal browser),
/// as the module `/js/code-data.js` that `code.js` imports.
pub const CODE_DATA: &str = "code-data.js";

fn code_module() -> &'static str {
    static MODULE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    MODULE.get_or_init(|| {
        format!(
            "// Generated by the server from assets/code.json.\nexport const CODE = {};\n",
            include_str!("../../assets/code.json").trim()
        )
    })
}

async fn module(name: Result<Path<String>, axum::extract::rejection::PathRejection>) -> Response {
    // A name that is not UTF-8 (`/js/%FF`) is a JSON error as every other, not axum's text.
    let Ok(Path(name)) = name else {
        return ApiError::bad_request("a module's name is text (UTF-8), such as /js/app.js")
            .into_response();
    };
    if name == CODE_DATA {
        return asset(JAVASCRIPT, code_module()).into_response();
    }
    match MODULES.iter().find(|(known, _)| *known == name) {
        Some((_, body)) => asset(JAVASCRIPT, body).into_response(),
        None => ApiError::not_found(format!("there is no module /js/{}", query::shorten(&name)))
            .into_response(),
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

async fn not_found(uri: Uri) -> ApiError {
    ApiError::not_found(format!(
        "there is nothing at {}",
        query::shorten(uri.path())
    ))
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::method_not_allowed(format!(
        "{} answers only GET and HEAD, not {}",
        query::shorten(uri.path()),
        query::shorten(method.as_str())
    ))
}
