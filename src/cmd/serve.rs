//! `queens serve`: listens on the given address and serves the board viewer until Ctrl-C.

use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use tokio::net::TcpListener;

use crate::cli::{ServeArgs, ServeLimits};
use crate::serve::{self, listen::Connections, Limits};
use crate::status::Status;

impl ServeLimits {
    fn work(&self) -> Limits {
        let default = Limits::default();
        Limits {
            steps: self.max_steps,
            heavy: self.max_heavy.unwrap_or(default.heavy),
        }
    }

    fn connections(&self) -> Connections {
        // Capped at a day: `Duration::from_secs_f64` panics on values it cannot hold.
        let seconds = |s: f64| Duration::from_secs_f64(s.min(86_400.0));
        Connections {
            max: self.max_connections,
            header_timeout: seconds(self.header_timeout),
            idle_timeout: seconds(self.idle_timeout),
            shutdown_grace: seconds(self.shutdown_grace),
        }
    }
}

/// Runs `queens serve`. Ctrl-C stops accepting connections, lets the requests in flight finish
/// for at most `--shutdown-grace` seconds, drops the rest and ends with status 130.
pub fn run(args: &ServeArgs) -> anyhow::Result<Status> {
    let limits = args.limits.work();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // The heavy requests hold at most `heavy` of these; the rest serve cheap ones.
        .max_blocking_threads(limits.heavy.saturating_mul(2).saturating_add(8))
        .build()
        .context("starting the server's runtime")?;
    let result = runtime.block_on(serve_until_interrupted(args, limits));
    // A search still running has its step budget; the process need not wait for it.
    runtime.shutdown_background();
    result
}

async fn serve_until_interrupted(args: &ServeArgs, limits: Limits) -> anyhow::Result<Status> {
    let listener = TcpListener::bind((args.host.as_str(), args.port))
        .await
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    let url = page_url(listener.local_addr().context("reading the bound address")?);
    say(format_args!(
        "queens: serving the board viewer at {url} (Ctrl-C to stop)"
    ));
    if args.open {
        // On a thread of its own: some launchers wait for the browser to exit. A missing or
        // broken browser is no reason to stop the server.
        let url = url.clone();
        std::thread::spawn(move || {
            if let Err(e) = open::that(&url) {
                say(format_args!(
                    "queens: could not open a web browser ({e}); open {url} yourself"
                ));
            }
        });
    }
    let mut connections = args.limits.connections();
    if let Some(most) = serve::listen::descriptor_limit() {
        if connections.max > most {
            say(format_args!(
                "queens: at most {most} connections at once, the limit of open files \
                 (ulimit -n) minus {} for the server itself",
                serve::listen::DESCRIPTORS_KEPT
            ));
            connections.max = most;
        }
    }
    serve::listen::serve(listener, serve::app_with(limits), connections, async {
        let _ = tokio::signal::ctrl_c().await;
        say(format_args!("queens: stopping"));
    })
    .await;
    say(format_args!("queens: stopped"));
    Ok(Status::Interrupted)
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
