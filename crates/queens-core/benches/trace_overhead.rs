//! The cost of tracing: every solver's untraced search (the traced search with the no-op
//! tracer) side by side with the same search under a tracer that counts events, for N = 8 to
//! 12. Each run visits every solution.
//!
//! The solvers as they were before tracing existed (commit 03517c1) are not a column here; the
//! comparison with them is in docs/tracing-cost.md, which says how to run it again. On a busy machine wall-clock times swing by tens of percent; for a
//! comparison that does not depend on load, count instructions with `valgrind
//! --tool=cachegrind` (see docs/tracing-cost.md).

use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use queens_core::search::{Step, Tracer};
use queens_core::{Algorithm, SearchOptions};

/// A tracer that counts the events it is shown.
struct Counter(u64);

impl Tracer for Counter {
    fn step(&mut self, _step: &Step<'_>) -> ControlFlow<()> {
        self.0 += 1;
        ControlFlow::Continue(())
    }
}

type Visit<'a> = &'a mut dyn FnMut(&[usize]) -> ControlFlow<()>;

fn count_solutions(run: impl FnOnce(Visit<'_>)) -> u64 {
    let mut count = 0u64;
    run(&mut |q| {
        count += black_box(q[0]) as u64 & 1 | 1;
        ControlFlow::Continue(())
    });
    count
}

fn trace_overhead(c: &mut Criterion) {
    let options = SearchOptions::default();
    for algorithm in Algorithm::ALL {
        let mut group = c.benchmark_group(format!("trace_overhead/{algorithm}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1));
        for n in 8..=12 {
            group.bench_with_input(BenchmarkId::new("untraced", n), &n, |b, &n| {
                b.iter(|| {
                    count_solutions(|visit| {
                        let _ = algorithm.for_each_solution(black_box(n), &options, visit);
                    })
                })
            });
            group.bench_with_input(BenchmarkId::new("counting tracer", n), &n, |b, &n| {
                b.iter(|| {
                    let mut counter = Counter(0);
                    count_solutions(|visit| {
                        let _ = algorithm.for_each_solution_traced(
                            black_box(n),
                            &options,
                            &mut counter,
                            visit,
                        );
                    });
                    counter.0
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, trace_overhead);
criterion_main!(benches);
