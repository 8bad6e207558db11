//! Completing a partly filled board: a CSPLib problem 79 instance, solved and counted.
//!
//! Run: `cargo run -p queens-core --example complete_board`

use queens_core::complete::{parse_instance, Completion, Counted};
use queens_core::find_flaw;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let instance = parse_instance("letting n = 10\nletting init = [[0, 2], [5, 0]]\n")?;
    match instance.solve()? {
        Completion::Found(queens) => {
            assert!(find_flaw(&queens).is_none());
            println!("a completion: {queens:?}");
        }
        Completion::GivenQueensAttack(flaw) => println!("the given queens attack: {flaw}"),
        Completion::Impossible => println!("no solution contains the given queens"),
    }
    if let Counted::Completions(k) = instance.count()? {
        println!("{k} solutions of 10x10 contain both given queens");
    }
    Ok(())
}
