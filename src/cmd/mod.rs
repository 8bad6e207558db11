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

use queens_core::SearchOptions;

use crate::cli::SearchArgs;
pub use crate::output::stdout;

impl SearchArgs {
    /// The library's options for these flags.
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            max_memory: self.max_memory,
        }
    }
}
