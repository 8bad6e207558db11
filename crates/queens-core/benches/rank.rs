//! How long it takes to reach a solution deep in the lexicographic list by skipping subtrees.

use criterion::{criterion_group, criterion_main, Criterion};
use queens_core::search::rank::solutions_from;
use std::hint::black_box;

fn deep_offsets(c: &mut Criterion) {
    c.bench_function("rank: solution 14000 of N=12", |b| {
        b.iter(|| solutions_from(black_box(12), black_box(14_000), 1, u64::MAX).unwrap())
    });
    c.bench_function("rank: solution 365000 of N=14", |b| {
        b.iter(|| solutions_from(black_box(14), black_box(365_000), 1, u64::MAX).unwrap())
    });
}

criterion_group!(benches, deep_offsets);
criterion_main!(benches);
