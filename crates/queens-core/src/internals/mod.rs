//! Internals the benchmarks measure one by one, and the measuring rigs of the examples (the
//! rehearsal of a run's memory, `rehearse.rs`; the measurements behind the engines' constants,
//! `measure.rs`): not part of the API, hidden from its documentation, and free to change at
//! any time. Nothing of the crate imports them.

mod measure;
mod rehearse;

pub use measure::{Measurement, MEASUREMENTS};

pub use rehearse::{buffers_ceiling, rehearse};

pub use crate::count::frames::engine::count_completions;
pub use crate::count::frames::join::count_completions_joining;
pub use crate::count::frames::kernel::count_completions_searched;
pub use crate::search::bitboard::count as bitboard_count;
pub use crate::search::bitboard::count_below as bitboard_count_below;
