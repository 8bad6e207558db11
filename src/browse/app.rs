//! The browser's state and what each key does to it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::solutions::{Selection, Solutions};

/// How many solutions PageUp and PageDown move.
pub const PAGE: u64 = 10;

/// Everything the browser shows.
#[derive(Debug)]
pub struct App {
    solutions: Solutions,
    /// The other selection, kept once built so that toggling back costs nothing.
    other: Option<Solutions>,
    index: u64,
    quit: bool,
}

impl App {
    /// A browser on the `n` x `n` board, at its first solution.
    pub fn new(n: usize, selection: Selection) -> Self {
        App {
            solutions: Solutions::new(n, selection),
            other: None,
            index: 0,
            quit: false,
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

    /// Applies one key press.
    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        match key.code {
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => self.quit(),
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
            _ => {}
        }
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

    /// Switches between every solution and one per symmetry class, keeping the same board in
    /// view: from every solution to the representative of its class, and back to that
    /// representative among every solution.
    pub fn toggle_unique(&mut self) {
        let board = self.current().map(super::symmetry::representative);
        let selection = match self.selection() {
            Selection::All => Selection::Unique,
            Selection::Unique => Selection::All,
        };
        let other = self
            .other
            .take()
            .unwrap_or_else(|| Solutions::new(self.n(), selection));
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

    fn press(app: &mut App, code: KeyCode) {
        app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    #[test]
    fn down_right_and_j_go_forwards_up_left_and_k_back() {
        let mut app = App::new(8, Selection::All);
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
        let mut app = App::new(8, Selection::All);
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
        let mut app = App::new(8, Selection::All);
        press(&mut app, KeyCode::End);
        let last = app.current().unwrap().to_vec();
        press(&mut app, KeyCode::Char('u'));
        assert_eq!(app.selection(), Selection::Unique);
        assert_eq!(app.total(), 12);
        let shown = app.current().unwrap().to_vec();
        assert_eq!(shown, super::super::symmetry::representative(&last));
        press(&mut app, KeyCode::Char('u'));
        assert_eq!(app.selection(), Selection::All);
        assert_eq!(app.total(), 92);
        assert_eq!(app.current().unwrap(), shown.as_slice());
    }

    #[test]
    fn q_esc_and_ctrl_c_quit() {
        for key in [
            KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE),
            KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE),
            KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
        ] {
            let mut app = App::new(4, Selection::All);
            assert!(!app.should_quit());
            app.handle_key(key);
            assert!(app.should_quit(), "{key:?}");
        }
    }

    #[test]
    fn a_board_without_solutions_shows_none_and_ignores_moves() {
        let mut app = App::new(3, Selection::All);
        assert_eq!(app.total(), 0);
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::End);
        assert_eq!(app.index(), 0);
        assert_eq!(app.current(), None);
    }
}
