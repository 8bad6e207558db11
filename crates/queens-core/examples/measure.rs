//! The measurements behind the engines' constants and the docs' figures
//! (`queens_core::internals::MEASUREMENTS`), one by name: they print what they measure and check
//! nothing. Without a name, lists them.
//!
//! Run: `cargo run --release -p queens-core --example measure -- piece-listing` (any names,
//! one after another; `all` runs every one, which takes hours).

use std::process::ExitCode;

use queens_core::internals::MEASUREMENTS;

fn main() -> ExitCode {
    let names: Vec<String> = std::env::args().skip(1).collect();
    if names.is_empty() {
        println!("measure NAME...: one of");
        for m in MEASUREMENTS {
            println!("  {:<18} {}", m.name, m.about);
        }
        return ExitCode::SUCCESS;
    }
    let mut chosen = Vec::new();
    for name in &names {
        if name == "all" {
            chosen.extend(MEASUREMENTS.iter());
            continue;
        }
        match MEASUREMENTS.iter().find(|m| m.name == name.as_str()) {
            Some(m) => chosen.push(m),
            None => {
                eprintln!("measure: no measurement named {name:?} (run without one for the list)");
                return ExitCode::from(2);
            }
        }
    }
    for m in chosen {
        println!("== {}: {}", m.name, m.about);
        (m.run)();
    }
    ExitCode::SUCCESS
}
