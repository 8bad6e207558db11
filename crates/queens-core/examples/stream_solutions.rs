//! Every solution of a board, streamed in lexicographic order without holding them; the visitor
//! stops after ten and carries the tenth out as its break value.
//!
//! Run: `cargo run -p queens-core --example stream_solutions -- 10`

use std::ops::ControlFlow;

use queens_core::{Algorithm, SearchOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args().nth(1).map_or(Ok(8), |a| a.parse())?;
    let mut seen = 0;
    let tenth = Algorithm::Bitboard.for_each_solution(n, &SearchOptions::default(), &mut |q| {
        seen += 1;
        println!("{seen:2}: {q:?}");
        if seen == 10 {
            ControlFlow::Break(q.to_vec())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    match tenth {
        ControlFlow::Break(q) => println!("stopped at the tenth: {q:?}"),
        ControlFlow::Continue(()) => println!("the board has {seen} solutions in all"),
    }
    Ok(())
}
