//! The real terminal: raw mode and the alternate screen while the browser runs, restored on
//! every way out (a normal return, an error, a panic, a signal: `cmd/browse.rs` claims them
//! and the loop ends when one is caught), and the event loop. The screen drawn is at most
//! [`MAX_WIDTH`] x [`MAX_HEIGHT`] cells, in the top left of a larger terminal: ratatui holds
//! two buffers of the whole area, which a terminal that says it is 65535 x 65535 would make
//! 170 GB.

use std::io::{self, Stdout};
use std::mem::ManuallyDrop;
use std::panic;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Once;
use std::time::{Duration, Instant};

use anyhow::Context;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};

use super::app::App;
use super::board_view::{to_256_colours, Palette};
use super::view;

/// How long to wait for a key before looking at the clock (and for a signal) again.
const IDLE: Duration = Duration::from_millis(250);

/// The widest and tallest screen drawn: far more than the largest board's layout needs.
pub const MAX_WIDTH: u16 = 500;
pub const MAX_HEIGHT: u16 = 250;

/// The area drawn in a terminal of `width` x `height` cells.
pub fn drawn_area(width: u16, height: u16) -> Rect {
    Rect::new(0, 0, width.min(MAX_WIDTH), height.min(MAX_HEIGHT))
}

/// Whether the terminal is in the browser's state (raw mode, alternate screen).
static TAKEN: AtomicBool = AtomicBool::new(false);

/// Puts the terminal back as it was: leaves the alternate screen, shows the cursor, ends raw
/// mode. Only the first call after [`run`] took the terminal does anything: leaving the
/// alternate screen twice would move the cursor back over what was printed in between (such as
/// a panic message).
pub fn restore() {
    if !TAKEN.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
}

/// Restores the terminal when dropped, whichever way the browser ends.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Makes a panic restore the terminal before its message is printed, so the message lands on
/// the normal screen and the shell is usable afterwards.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// Runs the browser on the terminal until the user quits or `stop` holds a signal's number,
/// drawn with `palette`: its colours in 24-bit where the terminal says it draws them
/// (`COLORTERM`), else as the nearest of the 256-colour palette
/// ([`crate::color::true_colour`]).
pub fn run(app: &mut App, palette: Palette, stop: &AtomicI32) -> anyhow::Result<()> {
    install_panic_hook();
    let _guard = Guard;
    enable_raw_mode().context(NO_TERMINAL)?;
    TAKEN.store(true, Ordering::SeqCst);
    execute!(io::stdout(), EnterAlternateScreen)?;
    let backend = CrosstermBackend::new(io::stdout());
    let size = ratatui::backend::Backend::size(&backend).context(NO_TERMINAL)?;
    let viewport = Viewport::Fixed(drawn_area(size.width, size.height));
    // Never dropped: ratatui's `Terminal`, dropped with its cursor hidden, shows it and
    // reports a failure with `eprintln!`, which panics where standard error is a terminal
    // that is gone. [`restore`] shows the cursor instead, and the process ends soon after.
    let mut terminal = ManuallyDrop::new(Terminal::with_options(
        backend,
        TerminalOptions { viewport },
    )?);
    terminal.hide_cursor()?;
    watch_for_hangup();
    let indexed = !crate::color::true_colour();
    match event_loop(&mut terminal, app, palette, indexed, stop) {
        // The window closed under a write: the viewer ends as the watch below ends it.
        Err(_) if hung_up() => end_hung_up(),
        ended => ended,
    }
}

/// How often the watchdog of [`watch_for_hangup`] looks at the terminal.
const WATCH: Duration = Duration::from_millis(250);

/// Ends the process with status 129 (as SIGHUP does) once the terminal has hung up, its window
/// closed. crossterm's reader reads a hung-up terminal again and again without returning
/// (crossterm-rs/crossterm#793), so the event loop cannot see it, nor a SIGHUP caught then:
/// a thread of its own watches instead. There is nothing left to restore on a terminal that
/// is gone.
fn watch_for_hangup() {
    let watch = || {
        while TAKEN.load(Ordering::SeqCst) {
            if hung_up() {
                end_hung_up();
            }
            std::thread::sleep(WATCH);
        }
    };
    // Without the thread (it cannot start), a hung-up terminal spins as before.
    let _ = std::thread::Builder::new()
        .name("terminal watch".into())
        .spawn(watch);
}

/// Ends the process as SIGHUP does, with status 129: the terminal has hung up, and there is
/// nothing left to restore on it or to tell the user there.
fn end_hung_up() -> ! {
    std::process::exit(crate::status::Status::HungUp as i32)
}

/// What an error of the terminal itself means to the user.
const NO_TERMINAL: &str = "queens browse needs an interactive terminal, and cannot use this one \
                           (is there a controlling terminal?)";

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
    palette: Palette,
    indexed: bool,
    stop: &AtomicI32,
) -> anyhow::Result<()> {
    let mut last_tick = Instant::now();
    while !app.should_quit() && stop.load(Ordering::SeqCst) == 0 {
        // The viewport is fixed (so that ratatui never sizes its buffers to the terminal
        // alone): follow the terminal's size here, within the bound.
        let size = terminal.size().context(NO_TERMINAL)?;
        let area = drawn_area(size.width, size.height);
        if area != terminal.get_frame().area() {
            terminal.resize(area)?;
        }
        terminal.draw(|frame| {
            view::render(frame, app, palette);
            if indexed {
                to_256_colours(frame.buffer_mut());
            }
        })?;
        let wait = app
            .tick_interval()
            .map_or(IDLE, |every| every.saturating_sub(last_tick.elapsed()));
        if event::poll(wait).context(NO_TERMINAL)? {
            if let Event::Key(key) = event::read().context(NO_TERMINAL)? {
                app.handle_key(key);
            }
        }
        match app.tick_interval() {
            Some(every) if last_tick.elapsed() >= every => {
                app.tick();
                last_tick = Instant::now();
            }
            Some(_) => {}
            None => last_tick = Instant::now(),
        }
    }
    Ok(())
}

/// Whether the terminal on standard output has hung up (its master side closed): `POLLHUP`,
/// as Linux reports it for a terminal. (Only there: macOS's `poll` answers `POLLNVAL` for any
/// terminal, hung up or not, so the watch is Linux's alone.)
#[cfg(target_os = "linux")]
fn hung_up() -> bool {
    use std::os::fd::AsRawFd;
    let mut fd = libc::pollfd {
        fd: io::stdout().as_raw_fd(),
        events: 0,
        revents: 0,
    };
    // SAFETY: `poll` reads and writes the one `pollfd` owned by this frame; a zero timeout
    // never blocks.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & libc::POLLHUP != 0
}

#[cfg(not(target_os = "linux"))]
fn hung_up() -> bool {
    false
}
