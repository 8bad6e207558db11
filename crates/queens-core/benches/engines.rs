//! The two counting engines side by side, per board size and thread count: the frame engine
//! (`--engine frame`) on N = 12..15 and the half-board engine (`--engine halves`) on
//! N = 12..17, each on one thread and on two, through the same `Run` the command line uses
//! (plan, threads and all, without the process start). The timings are criterion's; speed
//! claims between commits are made with `scripts/compare-commits` instead, which runs the two
//! binaries alternately (see docs/performance.md).
//!
//! Run with `cargo bench -p queens-core --bench engines` (a filter such as `halves/16`
//! narrows it).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use queens_core::count::{Engine, Run};

/// The budget of the command line's default `--max-memory 1G`.
const BUDGET: u64 = 1 << 30;

fn count(n: usize, engine: Engine, threads: usize) -> u128 {
    let run = Run::with_engine(n, engine, threads, BUDGET).unwrap();
    assert_eq!(run.engine(), engine);
    run.execute().unwrap().total
}

fn engines(c: &mut Criterion) {
    for (engine, name, sizes) in [
        (Engine::Frame, "frame", 12..=15usize),
        (Engine::Halves, "halves", 12..=17),
    ] {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        for n in sizes {
            let known = queens_core::reference::known_for(n).map(|k| k.total);
            for threads in [1, 2] {
                assert_eq!(Some(count(n, engine, threads)), known, "{name} {n}");
                let id = BenchmarkId::new(format!("j{threads}"), n);
                group.bench_with_input(id, &n, |b, &n| {
                    b.iter(|| count(black_box(n), engine, threads))
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, engines);
criterion_main!(benches);
