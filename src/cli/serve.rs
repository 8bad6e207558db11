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
    /// network. An IPv6 address with or without its brackets (`::1` or `[::1]`); the port goes to
    /// --port.
    #[arg(long, value_name = "HOST", default_value = "127.0.0.1",
          value_parser = super::parse::checked(parse_host))]
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

/// `--host`: an address or a name, as the system looks it up, with an IPv6 address also taken
/// in the brackets of a URL (`[::1]`, as the server prints its own address). Refused with a
/// message that says why, instead of the system's "Name or service not known": an empty host,
/// brackets around anything but an IPv6 address, and a host followed by a port
/// (`127.0.0.1:8080`, `[::1]:8080`), whose port belongs to `--port`.
pub fn parse_host(s: &str) -> Result<String, String> {
    use std::net::Ipv6Addr;
    let shown = super::parse::shorten(s);
    if s.is_empty() {
        return Err(
            "the host is empty: give an address (127.0.0.1, 0.0.0.0, ::1) or a name (localhost)"
                .to_string(),
        );
    }
    if let Some(inside) = s.strip_prefix('[') {
        return match inside.split_once(']') {
            Some((address, "")) if address.parse::<Ipv6Addr>().is_ok() => Ok(address.to_string()),
            Some((address, rest))
                if address.parse::<Ipv6Addr>().is_ok() && port_after(rest).is_some() =>
            {
                Err(port_given(&shown, &format!("[{address}]"), rest))
            }
            _ => Err(format!(
                "'{shown}' is not an IPv6 address in brackets (such as [::1])"
            )),
        };
    }
    if s.parse::<Ipv6Addr>().is_err() {
        if let Some((host, rest)) = s.rsplit_once(':') {
            if !host.is_empty() && !host.contains(':') && port_after(&format!(":{rest}")).is_some()
            {
                return Err(port_given(&shown, host, &format!(":{rest}")));
            }
        }
    }
    Ok(s.to_string())
}

/// The port of `rest` when it is `:` and digits.
fn port_after(rest: &str) -> Option<&str> {
    rest.strip_prefix(':')
        .filter(|port| !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()))
}

/// The message for a host given with its port.
fn port_given(shown: &str, host: &str, rest: &str) -> String {
    let port = port_after(rest).unwrap_or_default();
    format!(
        "'{shown}' names a port as well: give the host alone and the port with --port \
         (--host {host} --port {port})"
    )
}

#[cfg(test)]
mod tests {
    use super::parse_host;

    #[test]
    fn a_host_is_taken_as_the_system_looks_it_up_and_ipv6_also_in_brackets() {
        for (given, taken) in [
            ("127.0.0.1", "127.0.0.1"),
            ("0.0.0.0", "0.0.0.0"),
            ("localhost", "localhost"),
            ("::1", "::1"),
            ("::", "::"),
            ("[::1]", "::1"),
            ("[fe80::1]", "fe80::1"),
        ] {
            assert_eq!(parse_host(given).as_deref(), Ok(taken), "{given}");
        }
    }

    #[test]
    fn a_host_that_cannot_be_one_says_why() {
        assert!(parse_host("").unwrap_err().contains("the host is empty"));
        for (given, hint) in [
            ("127.0.0.1:8080", "--host 127.0.0.1 --port 8080"),
            ("localhost:80", "--host localhost --port 80"),
            ("[::1]:8080", "--host [::1] --port 8080"),
        ] {
            let err = parse_host(given).unwrap_err();
            assert!(
                err.contains("names a port") && err.contains(hint),
                "{given}: {err}"
            );
        }
        for given in ["[::1", "[localhost]", "[::1]x", "[]"] {
            let err = parse_host(given).unwrap_err();
            assert!(
                err.contains("not an IPv6 address in brackets"),
                "{given}: {err}"
            );
        }
    }
}
