//! Watching a search step by step: the first events of the column-wise backtracking on 4x4, then
//! the counts of the whole search up to the first 8x8 solution.
//!
//! Run: `cargo run -p queens-core --example trace_search`

use std::ops::ControlFlow;

use queens_core::trace;
use queens_core::{Algorithm, SearchOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let options = SearchOptions::default();
    let outcome = trace::run(
        4,
        Algorithm::Backtrack,
        &options,
        false,
        Some(12),
        &mut |e| {
            println!(
                "{:3} {:9} {:?} {:?}",
                e.step,
                e.kind.name(),
                e.square(),
                e.positions
            );
            ControlFlow::Continue(())
        },
    )?;
    println!("cut after 12 events: {}", outcome.cut);
    let first = trace::summarize(8, Algorithm::Recursive, &options, false, None)?;
    println!(
        "recursive, 8x8, to the first solution: {} tries, {} placements",
        first.summary.tries, first.summary.placements
    );
    Ok(())
}
