//! Starting `queens serve` for the suites that speak to it (the CLI's HTTP tests and the
//! browser tests): on a free loopback port, with the address read from the first line the
//! server prints on standard error.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// `command` (the binary, or a wrapper whose last argument is the binary) made to run
/// `serve --port 0` with standard input and output closed and standard error piped, where the
/// server announces its address. Flags added after this come after `--port 0`.
pub fn on_a_free_port(command: &mut Command) -> &mut Command {
    // The server starts with the default handling of the signals it stops on, whatever the
    // tests' own parent ignores: a shell's background job starts its children with SIGINT and
    // SIGQUIT ignored, which the server (as `nohup` asks) would then keep ignoring.
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec the closure calls only `signal`, which is
        // async-signal-safe.
        unsafe {
            command.pre_exec(|| {
                for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
                    libc::signal(signal, libc::SIG_DFL);
                }
                Ok(())
            });
        }
    }
    command
        .args(["serve", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
}

/// The `http://` address on the first line `server` printed on standard error, as printed.
pub fn announced_url(server: &mut Child) -> String {
    let mut line = String::new();
    BufReader::new(server.stderr.take().expect("stderr is piped"))
        .read_line(&mut line)
        .expect("queens serve prints its address");
    line.split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in '{line}'"))
        .to_string()
}
