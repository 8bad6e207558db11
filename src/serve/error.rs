//! The API's one error type: an HTTP status and a sentence, answered as `{"error": "..."}`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// The `Retry-After` of a 503, in seconds: about the time a heavy request takes.
pub const RETRY_AFTER_SECONDS: u32 = 2;

/// What a JSON endpoint answers: its body, or why there is none.
pub type JsonAnswer = Result<Json<serde_json::Value>, ApiError>;

/// Why an API request got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status: 400 for bad parameters, 404 for an offset past the end, 422 for a request
    /// that would take too much work, 500 when the server itself failed.
    pub status: StatusCode,
    /// What was wrong, in one sentence that names the parameter and its value.
    pub message: String,
}

impl ApiError {
    /// 400: a parameter is missing or malformed.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: nothing there, such as an offset past the last solution.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }

    /// 422: a well-formed request the server will not do because it takes too much work.
    pub fn too_much_work(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 405: the path exists but answers only GET (and HEAD).
    pub fn method_not_allowed(message: impl Into<String>) -> Self {
        Self::new(StatusCode::METHOD_NOT_ALLOWED, message)
    }

    /// 503: too many heavy requests in flight; answered with `Retry-After`.
    pub fn busy(message: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// 500: the server failed.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Json(serde_json::json!({ "error": self.message }));
        let mut response = (self.status, body).into_response();
        let headers = response.headers_mut();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECONDS));
        }
        if self.status == StatusCode::METHOD_NOT_ALLOWED {
            headers.insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        }
        response
    }
}
