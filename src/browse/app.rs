//! The browser's state and what each key does to it.
//!
//! The browser has two modes: browsing the solutions, and playing the recorded search of one
//! solver (`t` opens and closes it). Each key is one small method.

use std::time::Duration;

use queens_core::count::CountError;
use queens_core::Algorithm;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::playback::Playback;
use super::recording;
use super::solutions::{representative, totals, Selection, Solutions};

/// How many solutions PageUp and PageDown move.
pub const PAGE: u64 = 10;

/// Everything the browser shows.
#[derive(Debug)]
pub struct App {
    /// The number of solutions, and of symmetry classes.
    totals: (u64, u64),
    solutions: Solutions,
    /// The other selection, kept once built so that toggling back costs nothing.
    other: Option<Solutions>,
    index: u64,
    algorithm: Algorithm,
    typed: Option<String>,
    playback: Option<Playback>,
    message: Option<String>,
    /// The help screen, when open: how many of its lines are scrolled off the top.
    help: Option<u16>,
    quit: bool,
}

impl App {
    /// A browser on the `n` x `n` board, at its first solution; `t` plays `algorithm`.
    /// Counts the solutions first.
    pub fn new(n: usize, selection: Selection, algorithm: Algorithm) -> Result<Self, CountError> {
        let totals = totals(n)?;
        Ok(App {
            totals,
            solutions: Self::select(n, selection, totals),
            other: None,
            index: 0,
            algorithm,
            typed: None,
            playback: None,
            message: None,
            help: None,
            quit: false,
        })
    }

    fn select(n: usize, selection: Selection, (total, unique): (u64, u64)) -> Solutions {
        match selection {
            Selection::All => Solutions::new(n, selection, total),
            Selection::Unique => Solutions::new(n, selection, unique),
        }
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.solutions.n()
    }

    /// Which solutions are browsed.
    pub fn selection(&self) -> Selection {
        self.solutions.selection()
    }

    /// The index (from 0) of the solution shown.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// How many solutions there are to browse.
    pub fn total(&self) -> u64 {
        self.solutions.total()
    }

    /// The solution shown, or `None` when the board has none.
    pub fn current(&mut self) -> Option<&[usize]> {
        self.solutions.get(self.index)
    }

    /// Whether the user asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The search being played, when in trace mode.
    pub fn playback(&self) -> Option<&Playback> {
        self.playback.as_ref()
    }

    /// A note for the user (such as why a trace could not be recorded).
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The help screen's scroll (lines hidden above), while it is open.
    pub fn help(&self) -> Option<u16> {
        self.help
    }

    /// Keeps the help screen's scroll at most `last` (what the screen drawn allows), so that
    /// ↑ after scrolling past the end moves at once.
    pub fn keep_help_within(&mut self, last: u16) {
        if let Some(scroll) = &mut self.help {
            *scroll = (*scroll).min(last);
        }
    }

    /// The delay between two automatic steps, while a trace is playing (the help screen holds
    /// the search where it is).
    pub fn tick_interval(&self) -> Option<Duration> {
        if self.help.is_some() {
            return None;
        }
        self.playback
            .as_ref()
            .filter(|p| p.is_playing())
            .map(Playback::delay)
    }

    /// One tick of the clock: the next step of a playing trace.
    pub fn tick(&mut self) {
        if let Some(p) = &mut self.playback {
            p.tick();
        }
    }

    /// Applies one key press.
    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        self.message = None;
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit();
        } else if let Some(scroll) = self.help {
            self.handle_help_key(key.code, scroll);
        } else if key.code == KeyCode::Char('?') && self.typed.is_none() {
            self.help = Some(0);
        } else if self.playback.is_some() {
            self.handle_trace_key(key.code);
        } else {
            self.handle_browse_key(key.code);
        }
    }

    /// On the help screen ↓ ↑ and the page keys scroll it (when it is taller than the
    /// terminal); any other key closes it, as the help says.
    fn handle_help_key(&mut self, code: KeyCode, scroll: u16) {
        self.help = match code {
            KeyCode::Down => Some(scroll.saturating_add(1)),
            KeyCode::Up => Some(scroll.saturating_sub(1)),
            KeyCode::PageDown => Some(scroll.saturating_add(PAGE as u16)),
            KeyCode::PageUp => Some(scroll.saturating_sub(PAGE as u16)),
            _ => None,
        };
    }

    fn handle_browse_key(&mut self, code: KeyCode) {
        if let Some(typed) = &mut self.typed {
            match code {
                KeyCode::Char(d) if d.is_ascii_digit() && typed.len() < 20 => typed.push(d),
                KeyCode::Backspace => {
                    typed.pop();
                }
                KeyCode::Enter => self.go_to_typed(),
                KeyCode::Esc => self.typed = None,
                _ => {}
            }
            return;
        }
        match code {
            KeyCode::Char(d @ '0'..='9') => self.typed = Some(d.to_string()),
            KeyCode::Char('q') | KeyCode::Esc => self.quit(),
            KeyCode::Down | KeyCode::Right | KeyCode::Char('j') | KeyCode::Char('l') => {
                self.next_solution()
            }
            KeyCode::Up | KeyCode::Left | KeyCode::Char('k') | KeyCode::Char('h') => {
                self.prev_solution()
            }
            KeyCode::PageDown => self.move_by(PAGE as i64),
            KeyCode::PageUp => self.move_by(-(PAGE as i64)),
            KeyCode::Home | KeyCode::Char('g') => self.first_solution(),
            KeyCode::End | KeyCode::Char('G') => self.last_solution(),
            KeyCode::Char('u') => self.toggle_unique(),
            KeyCode::Char('t') => self.start_trace(),
            _ => {}
        }
    }

    fn handle_trace_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Char('q') => self.quit(),
            KeyCode::Char('t') | KeyCode::Esc => self.stop_trace(),
            KeyCode::Char('a') => self.next_algorithm(),
            _ => {}
        }
        let Some(p) = &mut self.playback else { return };
        match code {
            KeyCode::Char(' ') | KeyCode::Char('p') | KeyCode::Enter => p.toggle_play(),
            KeyCode::Down | KeyCode::Right | KeyCode::Char('j') | KeyCode::Char('l') => {
                p.pause();
                p.step_forward();
            }
            KeyCode::Up | KeyCode::Left | KeyCode::Char('k') | KeyCode::Char('h') => p.step_back(),
            KeyCode::Home | KeyCode::Char('g') => p.rewind(),
            KeyCode::End | KeyCode::Char('G') => p.jump_to_end(),
            KeyCode::Char('+') | KeyCode::Char('=') | KeyCode::Char('f') => p.faster(),
            KeyCode::Char('-') | KeyCode::Char('s') => p.slower(),
            KeyCode::Char('n') if !p.jump_to_next(&["place", "enqueue"]) => {
                self.message = Some("no placement after this step".to_string());
            }
            KeyCode::Char('b') if !p.jump_to_next(&["backtrack"]) => {
                self.message = Some("no backtrack after this step".to_string());
            }
            KeyCode::Char('S') if !p.jump_to_next(&["solution", "nosolution"]) => {
                self.message = Some("no solution after this step".to_string());
            }
            _ => {}
        }
    }

    /// Records the search of the current solver on this board and shows its first step,
    /// paused (space plays).
    pub fn start_trace(&mut self) {
        self.record(false);
    }

    /// Records the search of the current solver and shows it, playing when `play`.
    fn record(&mut self, play: bool) {
        match recording::record(self.n(), self.algorithm) {
            Ok(mut playback) => {
                if play {
                    playback.toggle_play();
                }
                self.open_trace(playback);
            }
            Err(why) => self.message = Some(why),
        }
    }

    /// Shows a recorded search, as it is (paused or playing).
    pub fn open_trace(&mut self, playback: Playback) {
        self.playback = Some(playback);
    }

    /// Leaves the trace and goes back to the solutions.
    pub fn stop_trace(&mut self) {
        self.playback = None;
    }

    /// Records the next solver in the list and shows its search, playing if the search shown
    /// was playing.
    pub fn next_algorithm(&mut self) {
        let all = Algorithm::ALL;
        let at = all.iter().position(|&a| a == self.algorithm).unwrap_or(0);
        self.algorithm = all[(at + 1) % all.len()];
        let playing = self.playback.as_ref().is_some_and(Playback::is_playing);
        self.record(playing);
    }

    /// Shows the next solution, staying on the last one.
    pub fn next_solution(&mut self) {
        self.move_by(1);
    }

    /// Shows the previous solution, staying on the first one.
    pub fn prev_solution(&mut self) {
        self.move_by(-1);
    }

    /// Shows the first solution.
    pub fn first_solution(&mut self) {
        self.index = 0;
    }

    /// Shows the last solution.
    pub fn last_solution(&mut self) {
        self.index = self.total().saturating_sub(1);
    }

    /// Moves `delta` solutions forwards (or backwards), stopping at either end.
    pub fn move_by(&mut self, delta: i64) {
        let last = self.total().saturating_sub(1);
        self.index = self.index.saturating_add_signed(delta).min(last);
    }

    /// The solution number being typed (digits, then Enter to go there).
    pub fn typed(&self) -> Option<&str> {
        self.typed.as_deref()
    }

    /// Goes to the solution whose number (from 1) was typed, or says why not.
    fn go_to_typed(&mut self) {
        let Some(typed) = self.typed.take() else {
            return;
        };
        match typed.parse::<u64>() {
            Ok(number) if (1..=self.total()).contains(&number) => self.index = number - 1,
            // Every digit taken back: nothing asked.
            _ if typed.is_empty() => {}
            _ if self.total() == 0 => {
                self.message = Some(format!("the {0}×{0} board has no solution", self.n()))
            }
            _ => {
                self.message = Some(format!(
                    "there is no solution {typed}: the numbers go from 1 to {}",
                    self.total()
                ))
            }
        }
    }

    /// Switches between every solution and one per symmetry class, keeping the same board in
    /// view: from every solution to the representative of its class, and back to that
    /// representative among every solution.
    pub fn toggle_unique(&mut self) {
        let board = self.current().map(representative);
        let selection = match self.selection() {
            Selection::All => Selection::Unique,
            Selection::Unique => Selection::All,
        };
        let other = self
            .other
            .take()
            .unwrap_or_else(|| Self::select(self.n(), selection, self.totals));
        self.other = Some(std::mem::replace(&mut self.solutions, other));
        self.index = board.and_then(|b| self.solutions.index_of(&b)).unwrap_or(0);
    }

    /// Asks to leave.
    pub fn quit(&mut self) {
        self.quit = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::browse::playback::Frame;

    fn browser(n: usize) -> App {
        App::new(n, Selection::All, Algorithm::Backtrack).unwrap()
    }

    fn press(app: &mut App, code: KeyCode) {
        app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    #[test]
    fn down_right_and_j_go_forwards_up_left_and_k_back() {
        let mut app = browser(8);
        assert_eq!(app.current(), Some(&[0, 4, 7, 5, 2, 6, 1, 3][..]));
        press(&mut app, KeyCode::Down);
        assert_eq!(app.current(), Some(&[0, 5, 7, 2, 6, 3, 1, 4][..]));
        press(&mut app, KeyCode::Right);
        press(&mut app, KeyCode::Char('j'));
        press(&mut app, KeyCode::Char('l'));
        assert_eq!(app.index(), 4);
        press(&mut app, KeyCode::Up);
        press(&mut app, KeyCode::Left);
        press(&mut app, KeyCode::Char('k'));
        assert_eq!(app.index(), 1);
        press(&mut app, KeyCode::Char('h'));
        press(&mut app, KeyCode::Char('h'));
        assert_eq!(app.index(), 0, "stays on the first solution");
    }

    #[test]
    fn home_end_g_and_capital_g_jump_to_either_end() {
        let mut app = browser(8);
        press(&mut app, KeyCode::End);
        assert_eq!(app.index(), 91);
        assert_eq!(app.current(), Some(&[7, 3, 0, 2, 5, 1, 6, 4][..]));
        press(&mut app, KeyCode::Down);
        assert_eq!(app.index(), 91, "stays on the last solution");
        press(&mut app, KeyCode::Home);
        assert_eq!(app.index(), 0);
        press(&mut app, KeyCode::Char('G'));
        assert_eq!(app.index(), 91);
        press(&mut app, KeyCode::Char('g'));
        assert_eq!(app.index(), 0);
        press(&mut app, KeyCode::PageDown);
        assert_eq!(app.index(), PAGE);
        press(&mut app, KeyCode::PageUp);
        press(&mut app, KeyCode::PageUp);
        assert_eq!(app.index(), 0);
    }

    #[test]
    fn u_toggles_unique_only_and_keeps_the_board_in_view() {
        let mut app = browser(8);
        press(&mut app, KeyCode::End);
        let last = app.current().unwrap().to_vec();
        press(&mut app, KeyCode::Char('u'));
        assert_eq!(app.selection(), Selection::Unique);
        assert_eq!(app.total(), 12);
        let shown = app.current().unwrap().to_vec();
        assert_eq!(shown, representative(&last));
        press(&mut app, KeyCode::Char('u'));
        assert_eq!(app.selection(), Selection::All);
        assert_eq!(app.total(), 92);
        assert_eq!(app.current().unwrap(), shown.as_slice());
    }

    #[test]
    fn typing_a_number_and_enter_goes_to_that_solution() {
        let mut app = browser(8);
        for key in [KeyCode::Char('4'), KeyCode::Char('2'), KeyCode::Enter] {
            press(&mut app, key);
        }
        assert_eq!(app.index(), 41);
        assert_eq!(app.typed(), None);
        for key in [
            KeyCode::Char('9'),
            KeyCode::Char('3'),
            KeyCode::Backspace,
            KeyCode::Char('2'),
        ] {
            press(&mut app, key);
        }
        assert_eq!(app.typed(), Some("92"));
        press(&mut app, KeyCode::Char('q'));
        assert!(
            !app.should_quit(),
            "letters are ignored while typing a number"
        );
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.index(), 91);
        for key in [KeyCode::Char('9'), KeyCode::Char('3'), KeyCode::Enter] {
            press(&mut app, key);
        }
        assert_eq!(app.index(), 91, "there is no solution 93");
        assert!(app.message().is_some_and(|m| m.contains("from 1 to 92")));
        // Every digit taken back: Enter asks for nothing, and says nothing.
        for key in [
            KeyCode::Char('9'),
            KeyCode::Backspace,
            KeyCode::Backspace,
            KeyCode::Enter,
        ] {
            press(&mut app, key);
        }
        assert_eq!((app.index(), app.message()), (91, None));
        // A board without solutions says so, not "from 1 to 0".
        let mut none = browser(3);
        for key in [KeyCode::Char('1'), KeyCode::Enter] {
            press(&mut none, key);
        }
        assert_eq!(none.message(), Some("the 3×3 board has no solution"));
        press(&mut app, KeyCode::Char('5'));
        press(&mut app, KeyCode::Esc);
        assert_eq!(app.typed(), None, "Esc drops the number");
        assert!(!app.should_quit());
        assert_eq!(app.index(), 91);
    }

    #[test]
    fn trace_jumps_reach_the_next_placement_backtrack_and_solution() {
        let mut app = browser(4);
        app.open_trace(crate::browse::recording::record(4, Algorithm::Backtrack).unwrap());
        let kind = |app: &App| app.playback().unwrap().frame().unwrap().kind;
        press(&mut app, KeyCode::Char('n'));
        assert_eq!(kind(&app), "place");
        press(&mut app, KeyCode::Char('b'));
        assert_eq!(kind(&app), "backtrack");
        press(&mut app, KeyCode::Char('S'));
        assert_eq!(kind(&app), "solution");
        press(&mut app, KeyCode::Char('S'));
        assert_eq!(
            kind(&app),
            "solution",
            "the last solution of the recording stays"
        );
        assert!(app.message().unwrap().contains("no solution after"));
        let mut none = browser(3);
        none.open_trace(crate::browse::recording::record(3, Algorithm::Wirth).unwrap());
        press(&mut none, KeyCode::Char('S'));
        assert_eq!(kind(&none), "nosolution");
    }

    #[test]
    fn going_to_solution_zero_says_why_instead_of_being_ignored() {
        let mut app = browser(8);
        app.next_solution();
        for key in [KeyCode::Char('0'), KeyCode::Enter] {
            press(&mut app, key);
        }
        assert_eq!(app.index(), 1, "the board stays");
        let message = app.message().expect("a message");
        assert!(message.contains("no solution 0"), "{message}");
        assert!(message.contains("from 1 to 92"), "{message}");
    }

    #[test]
    fn q_esc_and_ctrl_c_quit() {
        for key in [
            KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE),
            KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE),
            KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
        ] {
            let mut app = browser(4);
            assert!(!app.should_quit());
            app.handle_key(key);
            assert!(app.should_quit(), "{key:?}");
        }
    }

    #[test]
    fn a_board_without_solutions_shows_none_and_ignores_moves() {
        let mut app = browser(3);
        assert_eq!(app.total(), 0);
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::End);
        assert_eq!(app.index(), 0);
        assert_eq!(app.current(), None);
    }

    fn recorded(steps: u64) -> Playback {
        let frames = (1..=steps)
            .map(|step| Frame {
                step,
                kind: "try",
                queens: vec![(0, step as usize % 4)],
                text: format!("step {step}"),
                ..Default::default()
            })
            .collect();
        Playback::new("recursive", frames, false)
    }

    #[test]
    fn trace_keys_play_pause_step_and_change_speed() {
        let mut app = browser(4);
        app.open_trace(recorded(5));
        assert_eq!(app.tick_interval(), None, "a recording opens paused");
        press(&mut app, KeyCode::Char(' '));
        let every = app.tick_interval().expect("playing");
        app.tick();
        app.tick();
        assert_eq!(app.playback().unwrap().position(), 2);
        press(&mut app, KeyCode::Char('+'));
        assert!(app.tick_interval().unwrap() < every);
        press(&mut app, KeyCode::Left);
        assert_eq!(app.playback().unwrap().position(), 1);
        assert_eq!(app.tick_interval(), None, "stepping back pauses");
        press(&mut app, KeyCode::Right);
        press(&mut app, KeyCode::Char('l'));
        assert_eq!(app.playback().unwrap().position(), 3);
        press(&mut app, KeyCode::End);
        assert_eq!(app.playback().unwrap().position(), 4);
        press(&mut app, KeyCode::Home);
        assert_eq!(app.playback().unwrap().position(), 0);
        assert_eq!(app.index(), 0, "the solutions do not move meanwhile");
    }

    #[test]
    fn t_opens_the_search_paused_at_its_first_step() {
        let mut app = browser(6);
        press(&mut app, KeyCode::Char('t'));
        let p = app.playback().expect("the search is shown");
        assert_eq!(p.position(), 0);
        assert!(!p.is_playing(), "t starts paused");
        assert_eq!(app.tick_interval(), None);
        press(&mut app, KeyCode::Char(' '));
        assert!(app.playback().unwrap().is_playing(), "space plays");
        press(&mut app, KeyCode::Char('a'));
        assert!(
            app.playback().unwrap().is_playing(),
            "the next solver plays on"
        );
    }

    #[test]
    fn question_mark_opens_the_help_any_other_key_closes_it() {
        let mut app = browser(8);
        press(&mut app, KeyCode::Char('?'));
        assert_eq!(app.help(), Some(0));
        press(&mut app, KeyCode::Down);
        assert_eq!(app.help(), Some(1), "the arrows scroll the help");
        assert_eq!(app.index(), 0, "and leave the solutions alone");
        press(&mut app, KeyCode::Char('q'));
        assert_eq!(app.help(), None, "q closes the help");
        assert!(!app.should_quit(), "without quitting");
        // In a played search the help holds the search where it is.
        press(&mut app, KeyCode::Char('t'));
        press(&mut app, KeyCode::Char(' '));
        press(&mut app, KeyCode::Char('?'));
        assert_eq!(app.tick_interval(), None);
        press(&mut app, KeyCode::Esc);
        assert!(
            app.playback().is_some(),
            "Esc closes the help, not the search"
        );
        assert!(app.tick_interval().is_some(), "and the search plays on");
        // A number being typed takes no `?`.
        press(&mut app, KeyCode::Char('t'));
        press(&mut app, KeyCode::Char('4'));
        press(&mut app, KeyCode::Char('?'));
        assert_eq!(app.help(), None);
    }

    #[test]
    fn t_or_esc_leave_the_trace_and_q_quits_from_it() {
        let mut app = browser(4);
        app.open_trace(recorded(2));
        press(&mut app, KeyCode::Char('t'));
        assert!(app.playback().is_none());
        assert!(!app.should_quit());
        app.open_trace(recorded(2));
        press(&mut app, KeyCode::Esc);
        assert!(app.playback().is_none());
        assert!(
            !app.should_quit(),
            "Esc in a trace goes back, it does not quit"
        );
        app.open_trace(recorded(2));
        press(&mut app, KeyCode::Char('q'));
        assert!(app.should_quit());
    }
}
