//! `queens`: the command-line face of the `queens-core` engine.
//!
//! `main` parses the arguments, runs one subcommand and turns its outcome into an exit status:
//! 0 success, 1 when the answer is "no", 2 for bad usage, malformed input or any other error,
//! 130 when interrupted by SIGINT, and for `count`, `complete --count` and `serve` 143 (SIGTERM)
//! and 129 (SIGHUP), for `serve` 131 (SIGQUIT). A closed standard output
//! (`queens list 14 | head -1`) ends the program quietly with status 0. The signal handlers are
//! installed before anything else ([`signals::early`]), and given back to the default handling
//! once the command is known not to stop gracefully on them.

#![deny(clippy::print_stdout, clippy::print_stderr)]

mod browse;
mod cli;
mod cmd;
mod color;
mod format;
mod hint;
mod json;
mod lock;
mod memory;
mod output;
mod serve;
mod signals;
mod status;
mod svg;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::cli::{Cli, Command};
use crate::output::note;
use crate::status::Status;

fn main() -> ExitCode {
    // Before any thread starts: an address-space cap too small to start is refused, and
    // under one the allocator keeps one heap arena.
    if let Err(why) = memory::fit_address_space() {
        let _ = writeln!(io::stderr(), "queens: error: {why}");
        return Status::Failure.into();
    }
    // First of all, so that a signal sent while the arguments are parsed is not lost.
    signals::early();
    // Nothing runs on the main thread, whose stack may be small (`ulimit -s 128`): the
    // arguments are parsed on a thread of a main thread's usual 8 MiB, and the command runs on
    // one whose stack is sized from N (the recursive solvers take one frame per row).
    match on_thread("the arguments", BASE_STACK, parse_and_run) {
        Ok(code) => code,
        Err(err) => report(err),
    }
}

/// The stack of the thread that parses the arguments, and the least of the command's.
const BASE_STACK: usize = 8 << 20;

/// Runs `work` on a thread of `stack` bytes: a thread that cannot start is an error, a panic
/// keeps the status a panic has (its hook has printed the message).
fn on_thread<T: Send + 'static>(
    what: &str,
    stack: usize,
    work: impl FnOnce() -> T + Send + 'static,
) -> anyhow::Result<T> {
    let handle = std::thread::Builder::new()
        .name("queens".into())
        .stack_size(stack)
        .spawn(work)
        .map_err(|err| {
            anyhow::anyhow!(
                "cannot start the thread that runs {what} (a stack of {}): {err}",
                queens_core::bytes(stack as u64)
            )
        })?;
    handle.join().or_else(|_| std::process::exit(101))
}

fn parse_and_run() -> ExitCode {
    let args: Vec<_> = std::env::args_os().collect();
    // Clap's help and usage errors follow `--color` too: the flag is read before clap parses.
    // An argument with characters a terminal would obey (ESC, BEL, ...): clap echoes it as it
    // came in its errors, so they are printed plain and escaped (see `clap_exit`).
    let hostile = args
        .iter()
        .skip(1)
        .any(|a| queens_core::text::escape(&a.to_string_lossy()) != a.to_string_lossy());
    let command = Cli::command().color(color::for_clap(color::from_args(&args)));
    let matches = command
        .try_get_matches_from(args)
        .unwrap_or_else(|err| clap_exit(&err, hostile));
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|err| clap_exit(&err, hostile));
    if !stops_gracefully(&cli.command) {
        signals::release(matches!(cli.command, Command::Count(_)));
    }
    color::set(cli.color);
    let signs = matches!(cli.command, Command::Count(_) | Command::Merge(_));
    if let Err(err) = use_key(signs) {
        return report(err);
    }
    fit_budget(&mut cli, &matches);
    let stack = stack_size(cli.command.board_size());
    let outcome = on_thread("the command", stack, move || run(cli)).and_then(|r| r);
    match outcome {
        Ok(status) => status.into(),
        Err(err) => report(err),
    }
}

/// Ends the process as clap's `Error::exit` does, with two differences. Help and version that
/// cannot be written (a full disk) are an error, status 2, not a silent 0 (a closed pipe still
/// ends quietly). When an argument holds characters a terminal would obey (`hostile`: clap
/// echoes an unknown argument or an invalid choice as it came), the error is printed without
/// colours (clap's, and any the argument asked for) and with the rest escaped, so that input is
/// shown, never obeyed.
fn clap_exit(err: &clap::Error, hostile: bool) -> ! {
    if !err.use_stderr() {
        let code = match err.print() {
            Ok(()) => err.exit_code(),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
            Err(e) => {
                note!("queens: error: cannot write to standard output: {e}");
                2
            }
        };
        std::process::exit(code);
    }
    if hostile {
        let raw = without_colours(&err.render().ansi().to_string());
        let escaped = queens_core::text::escape_lines(&raw);
        let _ = io::stderr().write_all(escaped.as_bytes());
        std::process::exit(err.exit_code());
    }
    err.exit()
}

/// `text` without its colour sequences (`ESC [ digits and ; m`, all that clap's styles are).
fn without_colours(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let params = after
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(after.len());
        if after[params..].starts_with('m') {
            rest = &after[params + 1..];
        } else {
            out.push_str("\x1b[");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The key of `QUEENS_KEY`, when set: every shard result and checkpoint is then written with a
/// MAC, and one read without a matching MAC is refused (docs/integrity.md). Set but empty, it
/// is refused: an empty key would sign with nothing secret; one shorter than 16 bytes gets a
/// warning from the commands that sign or check with it (`signs`).
fn use_key(signs: bool) -> anyhow::Result<()> {
    let Some(key) = std::env::var_os("QUEENS_KEY") else {
        return Ok(());
    };
    #[cfg(unix)]
    let bytes = std::os::unix::ffi::OsStrExt::as_bytes(key.as_os_str()).to_vec();
    #[cfg(not(unix))]
    let bytes = key.to_string_lossy().into_owned().into_bytes();
    if bytes.is_empty() {
        anyhow::bail!(
            "QUEENS_KEY is set but empty: give it a secret (at least 16 random bytes, the same \
             on every machine of the run), or unset it"
        );
    }
    if signs && bytes.len() < 16 {
        note!(
            "queens: warning: QUEENS_KEY is {} byte{} long, short enough to be guessed: use at \
             least 16 random bytes (docs/integrity.md)",
            bytes.len(),
            if bytes.len() == 1 { "" } else { "s" }
        );
    }
    queens_core::count::mac::use_key(&bytes);
    Ok(())
}

/// Whether the command stops gracefully on SIGINT, SIGTERM and SIGHUP (it claims them with
/// [`signals::install`]): a count that saves its checkpoint, the server that finishes its
/// requests in flight, the terminal viewer that gives the terminal back as it found it. The
/// others end at once, as with no handler; `complete --count` among them until its instance is
/// read, when it claims them for its search (src/cmd/complete.rs).
fn stops_gracefully(command: &Command) -> bool {
    match command {
        Command::Count(args) => args.algo.is_none() && !args.estimating(),
        Command::Serve(_) | Command::Browse(_) => true,
        _ => false,
    }
}

/// Prints the error (nothing for a closed pipe, status 0) and returns status 2.
fn report(err: anyhow::Error) -> ExitCode {
    if output::is_broken_pipe(&err) {
        return Status::Success.into();
    }
    // Whatever part of the message quotes input (a file name, a line read) is shown, never
    // obeyed by the terminal: control characters are escaped, line breaks kept.
    let message = format!("{err:#}{}", hint::for_error(&err));
    let _ = writeln!(
        io::stderr(),
        "queens: {} {}",
        color::error_word("error:", color::on_stderr()),
        queens_core::text::escape_lines(&message)
    );
    Status::Failure.into()
}

/// The stack of the thread that runs the command: 8 MiB (a main thread's usual stack) and 1 KiB
/// per row of the board up to the recursive solvers' deepest (5 times the 210 bytes a traced
/// row was measured to take).
fn stack_size(n: Option<usize>) -> usize {
    let rows = n.unwrap_or(0).min(queens_core::search::MAX_RECURSION_DEPTH);
    BASE_STACK + rows * 1024
}

/// Lowers the memory budget of the command to what the process can have (`memory`), saying so
/// when the user gave it.
fn fit_budget(cli: &mut Cli, matches: &clap::ArgMatches) {
    let explicit = matches.subcommand().is_some_and(|(_, sub)| {
        sub.try_get_raw("max_memory").is_ok()
            && sub.value_source("max_memory") == Some(clap::parser::ValueSource::CommandLine)
    });
    if let Some(search) = cli.command.search_mut() {
        let (budget, note) = memory::fit(search.max_memory, explicit, memory::ceiling());
        if let Some(note) = note {
            note!("{note}");
        }
        search.max_memory = budget;
    }
}

fn run(cli: Cli) -> anyhow::Result<Status> {
    match cli.command {
        Command::Solve(args) => cmd::solve::run(&args),
        Command::List(args) => cmd::list::run(&args),
        Command::Count(args) => cmd::count::run(&args),
        Command::Verify(args) => cmd::verify::run(&args),
        Command::Browse(args) => cmd::browse::run(&args),
        Command::Trace(args) => cmd::trace::run(&args),
        Command::Merge(args) => cmd::merge::run(&args),
        Command::Complete(args) => cmd::complete::run(&args),
        Command::Serve(args) => cmd::serve::run(&args),
        Command::Completions(args) => cmd::completions::run(&args),
        Command::Man(a) => cmd::completions::man(&a),
    }
}
