//! The counting paths side by side on N = 10..14: the plain bitmask search
//! (`bitboard::count`, no symmetry), a classic mirror-only counter (defined here, as the
//! reference the targets name), and the engine on one thread and on every core. A
//! second group compares, on N = 13..16, the engine's two ways of completing a frame over
//! the same frames: the search of every free row (`searched`) and the search of the upper
//! rows joined with a table of the last ones (`joined`, the default; see `count::join`).
//!
//! Run with `cargo bench -p queens-core --bench counting`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::sync::atomic::AtomicBool;

use queens_core::count;
use queens_core::internals::{
    bitboard_count, bitboard_count_below as descend, count_completions, count_completions_searched,
};

/// The classic single-threaded bitmask counter with mirror symmetry only: queens of the first
/// row in the left half are counted twice, the middle column of an odd board once.
fn mirror_count(n: usize) -> u64 {
    let full = (1u64 << n) - 1;
    let mut total = 0;
    for c in 0..n / 2 {
        let bit = 1u64 << c;
        total += 2 * descend(full, bit, bit << 1, bit >> 1);
    }
    if n % 2 == 1 {
        let bit = 1u64 << (n / 2);
        total += descend(full, bit, bit << 1, bit >> 1);
    }
    total
}

fn counting(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    group.sample_size(10);
    for n in 10..=14usize {
        assert_eq!(mirror_count(n), bitboard_count(n));
        group.bench_with_input(BenchmarkId::new("bitboard_baseline", n), &n, |b, &n| {
            b.iter(|| bitboard_count(black_box(n)))
        });
        group.bench_with_input(BenchmarkId::new("mirror_classic", n), &n, |b, &n| {
            b.iter(|| mirror_count(black_box(n)))
        });
        group.bench_with_input(BenchmarkId::new("engine_sequential", n), &n, |b, &n| {
            b.iter(|| count::count_sequential(black_box(n)).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("engine_parallel", n), &n, |b, &n| {
            b.iter(|| count::count_parallel(black_box(n), 0).unwrap())
        });
    }
    group.finish();
}

/// The frames that no symmetry fixes (the others take a separate, slower path in both cases).
fn free_frames(n: usize) -> Vec<count::Subproblem> {
    count::subproblems(n)
        .into_iter()
        .filter(|sub| sub.fixed_by.is_empty())
        .collect()
}

fn completion(c: &mut Criterion) {
    let mut group = c.benchmark_group("frames");
    group.sample_size(10);
    let never = AtomicBool::new(false);
    for n in 13..=16usize {
        let frames = free_frames(n);
        let searched = |frames: &[count::Subproblem]| -> u64 {
            frames
                .iter()
                .map(|sub| count_completions_searched(n, sub, &never).unwrap())
                .sum()
        };
        let joined = |frames: &[count::Subproblem]| -> u64 {
            frames
                .iter()
                .map(|sub| count_completions(n, sub, &never).unwrap())
                .sum()
        };
        assert_eq!(searched(&frames), joined(&frames));
        group.bench_with_input(BenchmarkId::new("searched", n), &frames, |b, frames| {
            b.iter(|| searched(black_box(frames)))
        });
        group.bench_with_input(BenchmarkId::new("joined", n), &frames, |b, frames| {
            b.iter(|| joined(black_box(frames)))
        });
    }
    group.finish();
}

criterion_group!(benches, counting, completion);
criterion_main!(benches);
