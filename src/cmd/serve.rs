//! `queens serve`: listens on the given address and serves the board viewer until a signal
//! (Ctrl-C, SIGTERM, SIGHUP or SIGQUIT) stops it gracefully.

use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio::net::TcpListener;

use crate::cli::{ServeArgs, ServeLimits};
use crate::serve::{self, listen::Connections, Limits};
use crate::signals;
use crate::status::Status;

impl ServeLimits {
    fn work(&self) -> Limits {
        let default = Limits::default();
        Limits {
            steps: self.max_steps,
            heavy: self.max_heavy.unwrap_or(default.heavy),
            answer_bytes: self.max_pending,
        }
    }

    fn connections(&self) -> Connections {
        // At most a day already (`parse_wait`); kept, as `Duration::from_secs_f64` panics on
        // values it cannot hold.
        let seconds = |s: f64| Duration::from_secs_f64(s.min(86_400.0));
        Connections {
            max: self.max_connections,
            header_timeout: seconds(self.header_timeout),
            idle_timeout: seconds(self.idle_timeout),
            shutdown_grace: seconds(self.shutdown_grace),
        }
    }
}

/// Runs `queens serve`. Ctrl-C (SIGINT), SIGTERM (as systemd, Docker and Kubernetes stop a
/// service), SIGHUP or SIGQUIT stops accepting connections, lets the requests in flight finish
/// for at most `--shutdown-grace` seconds, drops the rest and ends with status 130, 143, 129 or
/// 131 (128 + the signal's number); a second signal ends it at once.
pub fn run(args: &ServeArgs) -> anyhow::Result<Status> {
    let limits = args.limits.work();
    // The handlers were installed before the arguments were parsed: a signal caught since then
    // stops the server as soon as it listens.
    let signals = signals::install()?.with_quit()?;
    let runtime = runtime(&limits)?;
    let result = runtime.block_on(serve_until_stopped(args, limits, &signals));
    // A search still running has its step budget; the process need not wait for it.
    runtime.shutdown_background();
    result
}

/// The server's runtime, or an error (status 2) when its threads cannot start (a low `ulimit
/// -u`). Tokio panics when a worker thread cannot start while it is built ("OS can't spawn
/// worker thread"), or waits for ever when the thread of a blocking task (the address's name
/// lookup) cannot start beside one worker: so its workers and one more thread are started
/// first, and a panic while it is built is caught, its message kept from standard error.
fn runtime(limits: &Limits) -> anyhow::Result<tokio::runtime::Runtime> {
    let workers = std::thread::available_parallelism().map_or(1, |p| p.get());
    threads_can_start(workers + 1).context("cannot start the server's threads")?;
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder
        .worker_threads(workers)
        .enable_all()
        // The heavy requests hold at most `heavy` of these; the rest serve cheap ones.
        .max_blocking_threads(limits.heavy.saturating_mul(2).saturating_add(8));
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| builder.build()));
    std::panic::set_hook(hook);
    match built {
        Ok(runtime) => runtime.context("starting the server's runtime"),
        Err(panic) => {
            let why = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("a thread could not start");
            anyhow::bail!("cannot start the server's threads: {why}")
        }
    }
}

/// Starts `count` threads of a small stack, each parked until all have started, then ends
/// them: an error when one cannot start.
fn threads_can_start(count: usize) -> std::io::Result<()> {
    let done = Arc::new(AtomicBool::new(false));
    let mut started = Vec::new();
    let mut failed = None;
    for _ in 0..count {
        let done = Arc::clone(&done);
        let spawned = std::thread::Builder::new()
            .stack_size(64 << 10)
            .spawn(move || {
                while !done.load(Ordering::SeqCst) {
                    std::thread::park();
                }
            });
        match spawned {
            Ok(handle) => started.push(handle),
            Err(err) => {
                failed = Some(err);
                break;
            }
        }
    }
    done.store(true, Ordering::SeqCst);
    for handle in started {
        handle.thread().unpark();
        let _ = handle.join();
    }
    failed.map_or(Ok(()), Err)
}

async fn serve_until_stopped(
    args: &ServeArgs,
    limits: Limits,
    signals: &signals::Caught,
) -> anyhow::Result<Status> {
    let listener = TcpListener::bind((args.host.as_str(), args.port))
        .await
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    let url = page_url(listener.local_addr().context("reading the bound address")?);
    say(format_args!(
        "queens: serving the board viewer at {url} (Ctrl-C to stop)"
    ));
    if args.open {
        // On a thread of its own: some launchers wait for the browser to exit. A missing or
        // broken browser (or a thread that cannot start) is no reason to stop the server.
        let opener = std::thread::Builder::new().spawn({
            let url = url.clone();
            move || {
                if let Err(e) = open::that(&url) {
                    say(format_args!(
                        "queens: could not open a web browser ({e}); open {url} yourself"
                    ));
                }
            }
        });
        if let Err(e) = opener {
            say(format_args!(
                "queens: could not open a web browser ({e}); open {url} yourself"
            ));
        }
    }
    let mut connections = args.limits.connections();
    if let Some((open_files, most)) = serve::listen::descriptor_limit() {
        if connections.max > most {
            let kept = serve::listen::DESCRIPTORS_KEPT;
            if open_files > kept {
                say(format_args!(
                    "queens: at most {most} connections at once, the limit of open files \
                     (ulimit -n, {open_files}) less {kept} for the server itself"
                ));
            } else {
                say(format_args!(
                    "queens: one connection at a time: the limit of open files (ulimit -n, \
                     {open_files}) leaves none beyond the {kept} the server keeps for itself; \
                     raise it for more"
                ));
            }
            connections.max = most;
        }
    }
    let (caught, mut stop) = tokio::sync::watch::channel(0);
    signals.notify(move |signal| {
        let _ = caught.send(signal);
    });
    let grace = connections.shutdown_grace;
    serve::listen::serve(listener, serve::app_with(limits), connections, async move {
        let signal = stopped(&mut stop).await;
        say(format_args!(
            "queens: stopping on {}: no new connections; the requests in flight have {} s to \
             finish",
            signals::name_of(signal),
            grace.as_secs_f64()
        ));
    })
    .await;
    say(format_args!("queens: stopped"));
    Ok(signals
        .caught()
        .map_or(Status::Interrupted, signals::status_of))
}

/// Waits for the signal that stops the server: the one the handlers caught, or off Unix
/// Ctrl-C.
async fn stopped(caught: &mut tokio::sync::watch::Receiver<i32>) -> i32 {
    #[cfg(unix)]
    {
        match caught.wait_for(|&signal| signal != 0).await {
            Ok(signal) => *signal,
            // The handlers' thread is gone: nothing will stop the server but the default.
            Err(_) => std::future::pending().await,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = caught;
        let _ = tokio::signal::ctrl_c().await;
        2
    }
}

/// A message for people on standard error; a closed standard error must not stop the server.
fn say(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// The address to type in a browser: a wildcard address is reached through the loopback one.
fn page_url(addr: SocketAddr) -> String {
    let ip = addr.ip();
    match ip {
        std::net::IpAddr::V4(v4) if v4.is_unspecified() => {
            format!("http://127.0.0.1:{}/", addr.port())
        }
        std::net::IpAddr::V6(v6) if v6.is_unspecified() => {
            format!("http://[::1]:{}/", addr.port())
        }
        _ => format!("http://{addr}/"),
    }
}
