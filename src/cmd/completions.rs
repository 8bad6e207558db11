//! `queens completions SHELL` and `queens man`: the shell completion script and the roff manual
//! page, generated from the very clap definitions that parse the command line, so neither can
//! drift from the flags.
//!
//! May call: [`crate::cli`] (the definitions), `clap_complete` and `clap_mangen`.

use std::io::Write;

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};
use crate::status::Status;

/// Runs `queens completions SHELL`.
pub fn run(args: &CompletionsArgs) -> anyhow::Result<Status> {
    let mut command = Cli::command();
    let mut out = super::stdout();
    clap_complete::generate(args.shell, &mut command, "queens", &mut out);
    out.flush()?;
    Ok(Status::Success)
}

/// Runs `queens man`.
pub fn man() -> anyhow::Result<Status> {
    let mut out = super::stdout();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    out.flush()?;
    Ok(Status::Success)
}
