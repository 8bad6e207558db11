//! The real terminal: raw mode and the alternate screen while the browser runs, restored on
//! every way out (a normal return, an error, a panic), and the event loop.

use std::io::{self, Stdout};
use std::panic;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;
use std::time::{Duration, Instant};

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::Terminal;

use super::app::App;
use super::board_view::Palette;
use super::view;

/// How long to wait for a key before looking at the clock again.
const IDLE: Duration = Duration::from_millis(250);

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

/// Runs the browser on the terminal until the user quits, drawn with `palette`.
pub fn run(app: &mut App, palette: Palette) -> anyhow::Result<()> {
    install_panic_hook();
    let _guard = Guard;
    TAKEN.store(true, Ordering::SeqCst);
    enable_raw_mode()?;
    execute!(io::stdout(), EnterAlternateScreen)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.hide_cursor()?;
    event_loop(&mut terminal, app, palette)
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
    palette: Palette,
) -> anyhow::Result<()> {
    let mut last_tick = Instant::now();
    while !app.should_quit() {
        terminal.draw(|frame| view::render(frame, app, palette))?;
        let wait = app
            .tick_interval()
            .map_or(IDLE, |every| every.saturating_sub(last_tick.elapsed()));
        if event::poll(wait)? {
            if let Event::Key(key) = event::read()? {
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
