//! `queens`: the command-line face of the `queens-core` engine.
//!
//! `main` parses the arguments, runs one subcommand and turns its outcome into an exit status:
//! 0 success, 1 when the answer is "no", 2 for bad usage, malformed input or any other error,
//! 130 when interrupted by SIGINT, and for `count` 143 (SIGTERM) and 129 (SIGHUP). A closed standard output (`queens list 14 | head -1`) ends the program
//! quietly with status 0.

mod browse;
mod cli;
mod cmd;
mod format;
mod hint;
mod json;
mod output;
mod serve;
mod status;
mod svg;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};
use crate::status::Status;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(status) => status.into(),
        Err(err) if is_broken_pipe(&err) => Status::Success.into(),
        Err(err) => {
            let _ = writeln!(
                io::stderr(),
                "queens: error: {err:#}{}",
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
