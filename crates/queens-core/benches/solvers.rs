//! Every enumerating solver on the same boards, side by side: the time to visit every solution.

use std::hint::black_box;
use std::ops::ControlFlow;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use queens_core::{Algorithm, SearchOptions};

fn enumerate_all(c: &mut Criterion) {
    let options = SearchOptions::default();
    for n in [8usize, 10] {
        let mut group = c.benchmark_group(format!("enumerate/n={n}"));
        group.sample_size(10);
        for algo in Algorithm::ALL {
            group.bench_with_input(BenchmarkId::from_parameter(algo), &n, |b, &n| {
                b.iter(|| {
                    let mut count = 0u64;
                    let _ = algo
                        .for_each_solution(black_box(n), &options, &mut |q| {
                            count += q[0] as u64 + 1;
                            ControlFlow::<()>::Continue(())
                        })
                        .expect("size within every algorithm's range");
                    count
                })
            });
        }
        group.finish();
    }
}

fn first_solution(c: &mut Criterion) {
    let options = SearchOptions::default();
    let mut group = c.benchmark_group("first/n=20");
    group.sample_size(10);
    for algo in [Algorithm::Wirth, Algorithm::Bitboard] {
        group.bench_function(algo.name(), |b| {
            b.iter(|| algo.first_solution(black_box(20), &options))
        });
    }
    group.finish();
}

criterion_group!(benches, enumerate_all, first_solution);
criterion_main!(benches);
