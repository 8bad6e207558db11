//! `queens browse [N]`: step through the solutions in the terminal.

use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

use anyhow::bail;

use crate::browse::app::App;
use crate::browse::board_view::Palette;
use crate::browse::solutions::Selection;
use crate::browse::{terminal, MAX_N};
use crate::cli::BrowseArgs;
use crate::color;
use crate::signals;
use crate::status::Status;

/// Runs `queens browse`.
pub fn run(args: &BrowseArgs) -> anyhow::Result<Status> {
    let n = args.size.n;
    if n > MAX_N {
        bail!(
            "queens browse shows boards up to N = {MAX_N} (got N = {n}); {}",
            elsewhere(n)
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
    // SIGINT, SIGTERM, SIGHUP and SIGQUIT end the viewer as `q` does, the terminal restored,
    // with the signal's status (130, 143, 129, 131).
    let stop = Arc::new(AtomicI32::new(0));
    let signals = signals::install()?.with_quit()?;
    let seen = Arc::clone(&stop);
    // A second signal ends the viewer at once, the terminal given back first.
    signals.notify_then(
        move |signal| seen.store(signal, Ordering::SeqCst),
        terminal::restore,
    );
    terminal::run(&mut app, palette, &stop)?;
    Ok(match stop.load(Ordering::SeqCst) {
        0 => Status::Success,
        signal => signals::status_of(signal),
    })
}

/// Where to see a board too large to browse, naming only commands that take it: `list` up to
/// the bitboard solver's N, an SVG drawing up to its limit, the solution as text past that.
fn elsewhere(n: usize) -> String {
    if n <= queens_core::Algorithm::Bitboard.max_n() {
        format!("use `queens list {n}` or `queens solve {n} --format svg`")
    } else if n <= crate::svg::MAX_N {
        format!("use `queens solve {n} --format svg`")
    } else {
        format!("use `queens solve {n} --format positions`")
    }
}
