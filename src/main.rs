//! `queens`: the command-line face of the `queens-core` engine.
//!
//! `main` parses the arguments, runs one subcommand and turns its outcome into an exit status:
//! 0 success, 1 when the answer is "no", 2 for bad usage, malformed input or any other error,
//! 130 when interrupted by SIGINT, and for `count` 143 (SIGTERM) and 129 (SIGHUP). A closed standard output (`queens list 14 | head -1`) ends the program
//! quietly with status 0.

mod browse;
mod cli;
mod cmd;
mod color;
mod format;
mod hint;
mod json;
mod lock;
mod output;
mod serve;
mod signals;
mod status;
mod svg;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::cli::{Cli, Command};
use crate::status::Status;

fn main() -> ExitCode {
    let args: Vec<_> = std::env::args_os().collect();
    // Clap's help and usage errors follow `--color` too: the flag is read before clap parses.
    let command = Cli::command().color(color::for_clap(color::from_args(&args)));
    let cli = command
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches))
        .unwrap_or_else(|err| err.exit());
    color::set(cli.color);
    match run(cli) {
        Ok(status) => status.into(),
        Err(err) if is_broken_pipe(&err) => Status::Success.into(),
        Err(err) => {
            let _ = writeln!(
                io::stderr(),
                "queens: {} {err:#}{}",
                color::error_word("error:", color::on_stderr()),
                hint::for_error(&err)
            );
            Status::Failure.into()
        }
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
        Command::Man(_) => cmd::completions::man(),
    }
}

/// Whether the error comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
