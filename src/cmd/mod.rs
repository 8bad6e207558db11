//! One module per subcommand; each exposes `run(&Args) -> anyhow::Result<Status>`.

pub mod browse;
pub mod complete;
pub mod count;
pub mod list;
pub mod merge;
pub mod serve;
pub mod solve;
pub mod trace;
pub mod verify;

use std::io::{self, BufWriter, StdoutLock};

use queens_core::SearchOptions;

use crate::cli::SearchArgs;

/// Standard output behind a buffer: every command writes its data through this.
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

impl SearchArgs {
    /// The library's options for these flags.
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            max_memory: self.max_memory,
        }
    }
}
