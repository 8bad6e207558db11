//! One count by the chosen engine, for profilers (`perf record`, callgrind) that need a
//! binary without the command line's dependencies: `cargo run --release -p queens-core
//! --example count_once -- N [frame|halves] [THREADS]`.

use queens_core::count::{Engine, Run};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(16);
    let engine = match args.get(1).map(String::as_str) {
        Some("frame") => Engine::Frame,
        _ => Engine::Halves,
    };
    let threads: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let run = Run::with_engine(n, engine, threads, 1 << 30).expect("a plan");
    println!("{}", run.execute().expect("a count").total);
}
