//! The arguments of `queens serve`: the address and the server's bounds.
//!
//! May call: [`super::parse`].

use clap::Args;

use super::parse::{parse_bytes, parse_connections, parse_heavy, parse_port, parse_wait};

/// `queens serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one (the address is printed on standard error).
    #[arg(long, short, value_name = "PORT", default_value_t = 8080,
          value_parser = super::parse::checked(parse_port))]
    pub port: u16,
    /// The address to listen on: the default serves only this machine; 0.0.0.0 serves the
    /// network.
    #[arg(long, value_name = "HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the default web browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// The server's bounds on connections and work (docs/server-limits.md).
    #[command(flatten)]
    pub limits: ServeLimits,
}

/// The bounds of `queens serve`, every one with its default (docs/server-limits.md).
#[derive(Debug, Clone, Args)]
pub struct ServeLimits {
    /// The most connections open at once (1 to 1048576); when full, the connection quiet the
    /// longest (with no request being worked on) is closed to let a new one in.
    #[arg(long, value_name = "COUNT", default_value_t = 512, value_parser = super::parse::checked(parse_connections))]
    pub max_connections: usize,
    /// The most heavy requests (large boards, long traces) worked on at once (1 to 1024); the
    /// others are answered 503 with Retry-After. Default: the number of cores.
    #[arg(long, value_name = "COUNT", value_parser = super::parse::checked(parse_heavy))]
    pub max_heavy: Option<usize>,
    /// The most memory the answers of over 64 KiB (listings, traces) may hold at once until
    /// their clients read them; an answer beyond waits (a 503 with Retry-After), one larger
    /// than the whole is a 422. Bytes, or a number with K, M, G or T, at least 1M.
    #[arg(long, value_name = "SIZE", default_value = "128M", value_parser = super::parse::checked(parse_pending))]
    pub max_pending: u64,
    /// The most search steps the ranking walk of one /api/solutions request may take (a 422
    /// beyond); the other endpoints are bounded by their N and limits (docs/server-limits.md).
    #[arg(long, value_name = "STEPS", default_value_t = 300_000_000,
          value_parser = super::parse::checked(super::parse::parse_positive))]
    pub max_steps: u64,
    /// The longest wait for a request's head (request line and headers); also closes keep-alive
    /// connections idle that long. Above 0 and at most 86400 (a day).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = super::parse::checked(parse_wait))]
    pub header_timeout: f64,
    /// A connection that moves no byte for this long while no request is worked on is closed.
    /// Above 0 and at most 86400 (a day).
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = super::parse::checked(parse_wait))]
    pub idle_timeout: f64,
    /// On Ctrl-C, SIGTERM, SIGHUP or SIGQUIT, how long the requests in flight may take to finish
    /// (new connections are refused meanwhile) before every connection is dropped. Above 0
    /// and at most 86400 (a day).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = super::parse::checked(parse_wait))]
    pub shutdown_grace: f64,
}

/// `--max-pending`: a size of at least 1 MiB.
fn parse_pending(s: &str) -> Result<u64, String> {
    match parse_bytes(s)? {
        bytes if bytes >= 1 << 20 => Ok(bytes),
        _ => Err(format!(
            "'{}' is less than 1M: the server needs room for one answer",
            super::parse::shorten(s)
        )),
    }
}
