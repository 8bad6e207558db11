//! One module per subcommand; each exposes `run(&Args) -> anyhow::Result<Status>`.

pub mod browse;
pub mod complete;
pub mod completions;
pub mod count;
pub mod list;
pub mod merge;
pub mod serve;
pub mod solve;
pub mod trace;
pub mod verify;

use std::io::Write;

use anyhow::Context;
use queens_core::SearchOptions;

use crate::cli::SearchArgs;
pub use crate::output::stdout;

/// The JSON value of an answer "no" on standard output, `{"n":3,"queens":null}` (with the seed
/// of a seeded method), as `solve` and `complete` print it with `--format json` beside their
/// message: a script reading JSON gets a value for every board (issue 39). A closed pipe loses
/// the value, not the answer.
fn print_json_none(n: usize, seed: Option<u64>) -> anyhow::Result<()> {
    let mut out = stdout();
    let written = crate::format::write_json_answer(&mut out, n, seed, None)
        .map_err(anyhow::Error::from)
        .and_then(|()| out.flush().context("writing the answer"));
    match written {
        Err(err) if crate::output::is_broken_pipe(&err) => Ok(()),
        written => written,
    }
}

impl SearchArgs {
    /// The library's options for these flags.
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            max_memory: self.max_memory,
        }
    }
}
