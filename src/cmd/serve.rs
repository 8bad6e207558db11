//! `queens serve`: listens on the given address and serves the board viewer until Ctrl-C.

use std::io::Write;
use std::net::SocketAddr;

use anyhow::Context;
use tokio::net::TcpListener;

use crate::cli::ServeArgs;
use crate::serve;
use crate::status::Status;

/// Runs `queens serve`. Ctrl-C stops accepting connections, lets the requests in flight finish
/// and ends with status 130.
pub fn run(args: &ServeArgs) -> anyhow::Result<Status> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the server's runtime")?;
    runtime.block_on(serve_until_interrupted(args))
}

async fn serve_until_interrupted(args: &ServeArgs) -> anyhow::Result<Status> {
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
    axum::serve(listener, serve::app())
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("serving")?;
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
