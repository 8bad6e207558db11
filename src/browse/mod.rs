//! `queens browse`: a terminal viewer that steps through the solutions of one board.
//!
//! [`app::App`] holds the state and turns key presses into small moves (`next_solution`,
//! `prev_solution`, ...); [`view`] draws it with ratatui; [`terminal`] runs it on the real
//! terminal through crossterm and always gives the terminal back. Solutions are fetched lazily
//! by [`solutions::Solutions`], a window at a time, so memory stays small whatever N.

pub mod app;
pub mod solutions;
pub mod symmetry;
pub mod terminal;
pub mod view;

/// The largest board browsed. Counting the solutions and reaching the last one each take one
/// search of the whole tree: about a second for N = 15 (2.3 million solutions) in a release
/// build, several seconds beyond.
pub const MAX_N: usize = 15;
