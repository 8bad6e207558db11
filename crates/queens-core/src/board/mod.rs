//! The board layer, which depends on nothing: squares and lines, the O(N) validity check, and
//! the eight symmetries of the square.

mod check;
pub mod symmetry;

pub use check::{
    find_flaw, find_flaw_in_columns, find_flaw_in_squares, find_flaw_on_board, Flaw, Line, Square,
};
pub use symmetry::{is_canonical, representative, stabilizer_size, Symmetry};
