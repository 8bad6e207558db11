//! `queens browse`: a terminal viewer that steps through the solutions of one board.
//!
//! [`app::App`] holds the state and turns key presses into small moves (`next_solution`,
//! `prev_solution`, ...); [`view`] draws it with ratatui; [`terminal`] runs it on the real
//! terminal through crossterm and always gives the terminal back. Solutions are fetched lazily
//! by [`solutions::Solutions`], a window at a time, so memory stays small whatever N.

pub mod app;
pub mod board_view;
pub mod code;
pub mod layout;
pub mod panels;
pub mod playback;
pub mod recording;
pub mod solutions;
pub mod terminal;
pub mod view;

/// The largest board browsed: N = 14 has 365,596 solutions, far more than anyone pages through,
/// and every key answers within about a third of a second in a release build. Jumping far takes
/// a search of the tree, which grows about sixfold per added row.
pub const MAX_N: usize = 14;
