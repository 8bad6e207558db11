//! The memory of answers waiting to be read. An answer is built whole before it is sent (a
//! trace of up to [`super::limits::TRACE_BYTES_MAX`] bytes), and a client that does not read it
//! keeps it in the server's memory: 40 unread traces of the 12x12 board held 660 MB. So every
//! answer larger than [`SMALL`] bytes takes its size from a budget shared by all the
//! connections, [`super::Limits::answer_bytes`], and gives it back only once its last chunk
//! has gone to the connection; an answer that does not fit in what is left is replaced by a 503
//! with `Retry-After`, as a heavy request without a slot is.
//!
//! The answer is handed to the connection in chunks of [`CHUNK`] bytes, each a copy, and hyper
//! asks for the next only when it has room for it (its write buffer holds at most about 1 MiB),
//! so the budget is given back when all but that last part has been written, and that part no
//! longer holds the whole answer. Answers of at most [`SMALL`] bytes (the page's files, every
//! JSON answer but the listings and the traces) are not counted: they take at most that much a
//! connection.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::{Frame, SizeHint};
use tokio::sync::OwnedSemaphorePermit;

use super::error::ApiError;
use super::AppState;

/// Answers up to this many bytes are not counted against the budget.
pub const SMALL: u64 = 64 * 1024;

/// The size of the pieces an answer is handed to the connection in.
const CHUNK: usize = 64 * 1024;

/// The budget's unit: one permit of the semaphore is a KiB.
const UNIT: u64 = 1024;

/// The permits of a budget of `bytes` (a tokio semaphore holds fewer than 2^61).
pub fn permits(bytes: u64) -> usize {
    usize::try_from(bytes.div_ceil(UNIT))
        .unwrap_or(usize::MAX)
        .min(tokio::sync::Semaphore::MAX_PERMITS)
}

/// The layer: every answer larger than [`SMALL`] bytes holds its size from the budget until it
/// has been handed to the connection, or is replaced by a 503 when the budget cannot hold it.
pub async fn bounded(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let Some(len) = response.body().size_hint().exact() else {
        return response;
    };
    if len <= SMALL {
        return response;
    }
    let mib = |bytes: u64| bytes as f64 / f64::from(1 << 20);
    let need = u32::try_from(len.div_ceil(UNIT)).unwrap_or(u32::MAX);
    if need as usize > permits(state.limits.answer_bytes) {
        return ApiError::too_much_work(format!(
            "this answer ({:.1} MiB) is larger than all the memory the server gives answers \
             waiting to be read (--max-pending, {:.1} MiB)",
            mib(len),
            mib(state.limits.answer_bytes)
        ))
        .into_response();
    }
    let Ok(permit) = state.answers.clone().try_acquire_many_owned(need) else {
        return ApiError::busy(format!(
            "the server holds as many answers as it may ({:.1} MiB, --max-pending) until their \
             clients read them; this one ({:.1} MiB) must wait: try again shortly",
            mib(state.limits.answer_bytes),
            mib(len)
        ))
        .into_response();
    };
    let (parts, body) = response.into_parts();
    match axum::body::to_bytes(body, usize::MAX).await {
        Ok(bytes) => Response::from_parts(
            parts,
            Body::new(Held {
                bytes,
                sent: 0,
                _permit: permit,
            }),
        ),
        Err(e) => ApiError::internal(format!("the answer could not be built: {e}")).into_response(),
    }
}

/// An answer that holds its share of the budget until its last chunk is handed over.
struct Held {
    bytes: Bytes,
    sent: usize,
    _permit: OwnedSemaphorePermit,
}

impl hyper::body::Body for Held {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        let rest = &this.bytes[this.sent..];
        if rest.is_empty() {
            return Poll::Ready(None);
        }
        // A copy, so that what hyper still holds once the last chunk is handed over is not
        // the whole answer.
        let chunk = Bytes::copy_from_slice(&rest[..rest.len().min(CHUNK)]);
        this.sent += chunk.len();
        Poll::Ready(Some(Ok(Frame::data(chunk))))
    }

    fn is_end_stream(&self) -> bool {
        self.sent == self.bytes.len()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact((self.bytes.len() - self.sent) as u64)
    }
}
