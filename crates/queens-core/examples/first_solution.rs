//! The first solution of a board, by the default method for its size, and a check of it.
//!
//! Run: `cargo run -p queens-core --example first_solution -- 12`

use queens_core::solve::Method;
use queens_core::{find_flaw, SearchOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args().nth(1).map_or(Ok(8), |a| a.parse())?;
    let method = Method::default_for(n);
    match method.solve(n, &SearchOptions::default(), 0)? {
        Some(queens) => {
            assert!(
                find_flaw(&queens).is_none(),
                "every solver's answer is a solution"
            );
            println!("{method}: {queens:?}");
        }
        None => println!("the {n}x{n} board has no solution"),
    }
    Ok(())
}
