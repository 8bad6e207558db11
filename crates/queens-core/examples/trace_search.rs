//! Watching a search step by step: the first events of the column-wise backtracking on 4x4, then
//! the counts of the whole search up to the first 8x8 solution.
//!
//! Run: `cargo run -p queens-core --example trace_search`

use std::ops::ControlFlow;

use queens_core::trace::Trace;
use queens_core::Algorithm;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let outcome = Trace::new(4, Algorithm::Backtrack)
        .limit(12)
        .run(&mut |e| {
            println!(
                "{:3} {:9} {:?} {:?}",
                e.step,
                e.kind.name(),
                e.square(),
                e.positions
            );
            ControlFlow::Continue(())
        })?;
    println!("cut after 12 events: {}", outcome.cut);
    let first = Trace::new(8, Algorithm::Recursive).summarize()?;
    println!(
        "recursive, 8x8, to the first solution: {} tries, {} placements",
        first.summary.tries, first.summary.placements
    );
    Ok(())
}
