//! The four JSON endpoints of the viewer, one file each: `solutions.rs` (a page of solutions or
//! of symmetry classes), `count.rs` (the totals), `solve.rs` (one solution by any method) and
//! `trace.rs` (the events of a search). Each handler checks its query into plain values
//! (`query.rs`, 400 on anything wrong), takes a heavy slot when its work needs one
//! (`admission.rs`), runs the search on the blocking pool and answers JSON, within the limits of
//! `limits.rs`. `/api/config` (in `config.rs`) reports those limits and the algorithm lists to
//! the page.

mod count;
mod solutions;
mod solve;
mod trace;

pub use count::count;
pub use solutions::solutions;
pub use solve::solve;
pub use trace::trace;

#[cfg(test)]
pub(super) use trace::trace_bytes;
