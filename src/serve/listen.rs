//! The accept loop: HTTP/1.1 connections served by hyper with every wait bounded.
//!
//! - At most [`Connections::max`] connections are open at once. When a new one arrives and the
//!   table is full, the connection that has been quiet the longest without a request in its
//!   handler is closed to make room (a half-open connection is quiet from its start), so clients
//!   that open sockets and send nothing cannot lock others out. When every connection is inside
//!   a handler, the new one waits in the kernel's backlog until one ends.
//! - A request head must arrive within [`Connections::header_timeout`] of the moment the server
//!   starts reading it (this also closes keep-alive connections idle that long between requests).
//! - A connection that moves no byte either way for [`Connections::idle_timeout`] while no handler
//!   runs for it (a client that stops reading its answer, or stops sending a body) is closed.
//! - When the process runs out of file descriptors anyway, the quietest connection is closed and
//!   the loop tries again at once (50 ms later when none could be closed), instead of spinning or
//!   stalling. `queens serve` also lowers the connection bound to [`descriptor_limit`].
//! - hyper answers a request head it cannot read (400 malformed, 414 URI too long, 431 head past
//!   [`HEAD_MAX_BYTES`]) by itself, with an empty body and no hook to change it (`Server::on_error`
//!   in hyper 1's `proto/h1/role.rs`). The socket wrapper recognizes that answer as it is written
//!   (one of those statuses, `content-length: 0` and no `content-type`, which every answer of the
//!   app has) and sends instead the same head with an `{"error": "..."}` body, as every other answer.
//! - On shutdown the loop stops accepting, closes at once every connection that has not sent a
//!   whole request head yet (a half-open one would otherwise hold the shutdown until its header
//!   timeout), asks the others to finish the answer they are sending (a large answer is sent
//!   whole) and close, which closes idle keep-alive connections at once, waits at most
//!   [`Connections::shutdown_grace`], then drops whatever remains.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify, Semaphore};
use tokio::task::JoinSet;
use tower::ServiceExt;

/// The bounds on connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Connections {
    /// The most connections open at once.
    pub max: usize,
    /// The longest wait for a request head, from the moment the server starts reading it.
    pub header_timeout: Duration,
    /// The longest a connection may stay without moving a byte while no handler runs for it.
    pub idle_timeout: Duration,
    /// How long shutdown waits for the requests in flight before dropping the connections.
    pub shutdown_grace: Duration,
}

impl Default for Connections {
    fn default() -> Self {
        Connections {
            max: 512,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// The largest request head (request line and headers) a connection buffers, in bytes.
pub const HEAD_MAX_BYTES: usize = 64 * 1024;

/// What the accept loop knows of one open connection.
struct Entry {
    activity: Arc<Activity>,
    evict: Arc<Notify>,
}

/// When a connection last moved a byte, how many of its requests are inside a handler, and how
/// many requests it has made.
struct Activity {
    /// Milliseconds since the server's start.
    last: AtomicU64,
    busy: AtomicUsize,
    requests: AtomicU64,
}

/// Every open connection, by number.
#[derive(Default)]
struct Table {
    next: u64,
    open: HashMap<u64, Entry>,
}

/// A monotonic clock in milliseconds since the server started.
#[derive(Clone, Copy)]
struct Clock(Instant);

impl Clock {
    fn now(self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

type Shared = Arc<Mutex<Table>>;

/// Closes the connection that has been quiet the longest with no request in a handler; whether
/// there was one.
fn evict_quietest(table: &Shared) -> bool {
    let Ok(table) = table.lock() else {
        return false;
    };
    let quietest = table
        .open
        .values()
        .filter(|e| e.activity.busy.load(Ordering::Relaxed) == 0)
        .min_by_key(|e| e.activity.last.load(Ordering::Relaxed));
    match quietest {
        Some(entry) => {
            entry.evict.notify_one();
            true
        }
        None => false,
    }
}

/// The descriptors the server keeps for itself (the listener, the runtime, standard streams)
/// below the process's limit of open files.
pub const DESCRIPTORS_KEPT: usize = 32;

/// The process's limit of open files (`ulimit -n`), when it can be read (`/proc/self/limits` on
/// Linux), and the most connections it allows: that limit less [`DESCRIPTORS_KEPT`], at least 1.
pub fn descriptor_limit() -> Option<(usize, usize)> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let soft: usize = line.split_whitespace().nth(3)?.parse().ok()?;
    Some((soft, soft.saturating_sub(DESCRIPTORS_KEPT).max(1)))
}

/// Whether an accept error means the process is out of file descriptors.
fn out_of_descriptors(e: &io::Error) -> bool {
    // EMFILE and ENFILE on Linux and the BSDs.
    matches!(e.raw_os_error(), Some(23 | 24))
}

/// Serves `app` on `listener` until `shutdown` completes, then drains as [`Connections`] says.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Connections,
    shutdown: impl Future<Output = ()>,
) {
    let clock = Clock(Instant::now());
    let table: Shared = Arc::default();
    let slots = Arc::new(Semaphore::new(limits.max.max(1)));
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(HEAD_MAX_BYTES)
        // A client may shut its side once the request is sent (`nc -N`, scripts): it is
        // still answered.
        .half_close(true)
        .keep_alive(true);
    let http = Arc::new(http);
    let mut tasks = JoinSet::new();
    tokio::pin!(shutdown);

    loop {
        let stream = tokio::select! {
            () = &mut shutdown => break,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) if out_of_descriptors(&e) => {
                    let pause = if evict_quietest(&table) { 1 } else { 50 };
                    tokio::time::sleep(Duration::from_millis(pause)).await;
                    continue;
                }
                // A connection reset before it was accepted, and the like: not the loop's
                // business.
                Err(_) => continue,
            },
        };
        let permit = match slots.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                evict_quietest(&table);
                tokio::select! {
                    () = &mut shutdown => break,
                    permit = slots.clone().acquire_owned() => match permit {
                        Ok(permit) => permit,
                        Err(_) => break,
                    },
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let activity = Arc::new(Activity {
            last: AtomicU64::new(clock.now()),
            busy: AtomicUsize::new(0),
            requests: AtomicU64::new(0),
        });
        let evict = Arc::new(Notify::new());
        let id = match table.lock() {
            Ok(mut table) => {
                let id = table.next;
                table.next += 1;
                table.open.insert(
                    id,
                    Entry {
                        activity: activity.clone(),
                        evict: evict.clone(),
                    },
                );
                id
            }
            Err(_) => continue,
        };
        let guard = Registered {
            table: table.clone(),
            id,
            _permit: permit,
        };
        let connection = Connection {
            stream,
            clock,
            activity,
            evict,
            stop: stop_rx.clone(),
            app: app.clone(),
            http: http.clone(),
            idle_timeout: limits.idle_timeout,
        };
        tasks.spawn(async move {
            let _guard = guard;
            connection.run().await;
        });
    }

    drop(listener);
    let _ = stop_tx.send(true);
    let drained = tokio::time::timeout(limits.shutdown_grace, async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tasks.shutdown().await;
    }
}

/// Takes a connection out of the table and frees its slot when its task ends, however it ends.
struct Registered {
    table: Shared,
    id: u64,
    _permit: tokio::sync::OwnedSemaphorePermit,
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Ok(mut table) = self.table.lock() {
            table.open.remove(&self.id);
        }
    }
}

/// One accepted connection and what it needs to serve itself.
struct Connection {
    stream: TcpStream,
    clock: Clock,
    activity: Arc<Activity>,
    evict: Arc<Notify>,
    stop: watch::Receiver<bool>,
    app: Router,
    http: Arc<hyper::server::conn::http1::Builder>,
    idle_timeout: Duration,
}

impl Connection {
    async fn run(mut self) {
        let io = TokioIo::new(Watched {
            inner: self.stream,
            clock: self.clock,
            activity: self.activity.clone(),
            replaced: None,
        });
        let app = self.app;
        let activity = self.activity.clone();
        let service = hyper::service::service_fn(move |request: Request<Incoming>| {
            let busy = Busy::enter(activity.clone());
            let app = app.clone();
            async move {
                let _busy = busy;
                app.oneshot(request.map(axum::body::Body::new)).await
            }
        });
        let connection = self.http.serve_connection(io, service);
        tokio::pin!(connection);
        let mut stopping = false;
        let idle_ms = self.idle_timeout.as_millis() as u64;
        loop {
            let quiet = self
                .clock
                .now()
                .saturating_sub(self.activity.last.load(Ordering::Relaxed));
            let check = Duration::from_millis(idle_ms.saturating_sub(quiet).max(50));
            tokio::select! {
                _ = connection.as_mut() => return,
                () = self.evict.notified() => return,
                changed = self.stop.changed(), if !stopping => {
                    stopping = true;
                    if changed.is_ok() {
                        // No request yet (a connection half-open with part of a head, or
                        // none): nothing to finish, closed now rather than at the end of the
                        // grace period. hyper closes the idle ones that have made requests.
                        if self.activity.requests.load(Ordering::SeqCst) == 0 {
                            return;
                        }
                        connection.as_mut().graceful_shutdown();
                    }
                }
                () = tokio::time::sleep(check) => {
                    let quiet = self
                        .clock
                        .now()
                        .saturating_sub(self.activity.last.load(Ordering::Relaxed));
                    if quiet >= idle_ms && self.activity.busy.load(Ordering::Relaxed) == 0 {
                        return;
                    }
                }
            }
        }
    }
}

/// Counts a request as inside its handler for as long as it lives (and among the connection's
/// requests from its start).
struct Busy(Arc<Activity>);

impl Busy {
    fn enter(activity: Arc<Activity>) -> Busy {
        activity.requests.fetch_add(1, Ordering::SeqCst);
        activity.busy.fetch_add(1, Ordering::Relaxed);
        Busy(activity)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A socket that notes the time of every byte it moves, and gives hyper's own error answers a
/// JSON body.
struct Watched {
    inner: TcpStream,
    clock: Clock,
    activity: Arc<Activity>,
    /// The JSON answer sent in place of hyper's, and how much of it is sent.
    replaced: Option<(Vec<u8>, usize)>,
}

impl Watched {
    fn moved(&self) {
        self.activity
            .last
            .store(self.clock.now(), Ordering::Relaxed);
    }

    /// `polled`, the outcome of a write, noted as activity when it wrote something.
    fn wrote(&self, polled: Poll<io::Result<usize>>) -> Poll<io::Result<usize>> {
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.moved();
        }
        polled
    }

    /// Sends what is left of the replacement answer; ready when all of it is sent.
    fn poll_replaced(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, sent)) = &mut self.replaced {
            if *sent == bytes.len() {
                self.replaced = None;
                break;
            }
            match Pin::new(&mut self.inner).poll_write(cx, &bytes[*sent..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    *sent += n;
                    self.moved();
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Whether `buf`, about to be written, is hyper's own error answer; if so it is taken in
    /// whole and replaced.
    fn replace(&mut self, buf: &[u8]) -> bool {
        match json_error_answer(buf) {
            Some(answer) => {
                self.replaced = Some((answer, 0));
                true
            }
            None => false,
        }
    }
}

/// The answer with a JSON body for `head`, when it is one hyper writes by itself for a request
/// head it could not read: status 400, 414 or 431, `content-length: 0`, no `content-type`.
fn json_error_answer(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let rest = text
        .strip_prefix("HTTP/1.1 ")
        .or_else(|| text.strip_prefix("HTTP/1.0 "))?;
    let message = match rest.get(..4)? {
        "400 " => "the request is not valid HTTP/1.1: its request line or a header is malformed",
        "414 " => "the request's URI is too long",
        "431 " => "the request's head (request line and headers) is too large: the server reads about 64 KiB",
        _ => return None,
    };
    let end = text.find("\r\n\r\n")?;
    let lines = &text[..end + 2];
    let lower = lines.to_ascii_lowercase();
    if end + 4 != text.len()
        || !lower.contains("\r\ncontent-length: 0\r\n")
        || lower.contains("\r\ncontent-type:")
    {
        return None;
    }
    let body = serde_json::json!({ "error": message }).to_string();
    let start = lower.find("\r\ncontent-length: 0\r\n")?;
    // hyper's answer says `connection: close` already (it closes the connection after it): the
    // header is added only where it is missing, so that it is never given twice.
    let close = if lower.contains("\r\nconnection: close\r\n") {
        ""
    } else {
        "\r\nconnection: close"
    };
    let mut answer = String::with_capacity(lines.len() + body.len() + 64);
    answer.push_str(&lines[..start]);
    answer.push_str(&format!(
        "\r\ncontent-type: application/json\r\ncontent-length: {}{close}",
        body.len()
    ));
    answer.push_str(&lines[start + "\r\ncontent-length: 0".len()..]);
    answer.push_str("\r\n");
    answer.push_str(&body);
    Some(answer.into_bytes())
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.moved();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        std::task::ready!(self.poll_replaced(cx))?;
        if self.replace(buf) {
            return Poll::Ready(Ok(buf.len()));
        }
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.wrote(polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        std::task::ready!(self.poll_replaced(cx))?;
        let mut nonempty = bufs.iter().filter(|b| !b.is_empty());
        if let (Some(head), None) = (nonempty.next(), nonempty.next()) {
            if self.replace(head) {
                return Poll::Ready(Ok(head.len()));
            }
        }
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.wrote(polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.poll_replaced(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.poll_replaced(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::json_error_answer;

    /// The head of `answer` as its lines, lower case, the status line first.
    fn head_lines(answer: &[u8]) -> Vec<String> {
        let text = std::str::from_utf8(answer).expect("text");
        let (head, _) = text.split_once("\r\n\r\n").expect("a head");
        head.lines().map(str::to_ascii_lowercase).collect()
    }

    #[test]
    fn hypers_error_answer_gets_a_json_body_and_each_header_once() {
        // As hyper writes it for a malformed head: `connection: close` already there.
        let hyper = b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\ndate: Mon, 07 Dec 2026 21:04:39 GMT\r\n\r\n";
        let answer = json_error_answer(hyper).expect("replaced");
        let lines = head_lines(&answer);
        for name in ["connection:", "content-type:", "content-length:", "date:"] {
            let given = lines.iter().filter(|l| l.starts_with(name)).count();
            assert_eq!(given, 1, "{name} in {lines:?}");
        }
        assert!(
            lines.contains(&"connection: close".to_string()),
            "{lines:?}"
        );
        // Without it, the answer says it.
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n";
        let lines = head_lines(&json_error_answer(bare).expect("replaced"));
        assert!(
            lines.contains(&"connection: close".to_string()),
            "{lines:?}"
        );
        // The app's own answers (a body, a content type) are left alone.
        let app = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n";
        assert!(json_error_answer(app).is_none());
    }
}
