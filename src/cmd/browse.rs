//! `queens browse [N]`: step through the solutions in the terminal.

use std::io::{self, IsTerminal};

use anyhow::bail;

use crate::browse::app::App;
use crate::browse::board_view::Palette;
use crate::browse::solutions::Selection;
use crate::browse::{terminal, MAX_N};
use crate::cli::BrowseArgs;
use crate::color;
use crate::status::Status;

/// Runs `queens browse`.
pub fn run(args: &BrowseArgs) -> anyhow::Result<Status> {
    let n = args.size.n;
    if n > MAX_N {
        bail!(
            "queens browse shows boards up to N = {MAX_N} (got N = {n}); \
             use `queens list {n}` or `queens solve {n} --format svg`"
        );
    }
    if !io::stdout().is_terminal() {
        bail!(
            "queens browse is interactive and needs a terminal on standard output; \
             use `queens list {n} --format board` to print the solutions"
        );
    }
    let selection = if args.unique {
        Selection::Unique
    } else {
        Selection::All
    };
    let mut app = App::new(n, selection, args.algo.algorithm())?;
    let palette = if color::on_stdout() {
        Palette::Colour
    } else {
        Palette::Mono
    };
    terminal::run(&mut app, palette)?;
    Ok(Status::Success)
}
