//! Huge boards and completion (issue 4): construction, min-conflicts, streaming verification
//! and completion, at sizes that keep a run short. The larger hand measurements (N = 10^7 and
//! 10^8 through pipes) are in docs/performance.md.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use queens_core::board::find_flaw_in_columns;
use queens_core::complete::{Completion, Instance};
use queens_core::parse::EntryReader;
use queens_core::solve::{construct, min_conflicts};
use queens_core::Square;

fn construction(c: &mut Criterion) {
    let mut group = c.benchmark_group("construct");
    for n in [1_000_000usize, 10_000_000] {
        group.bench_with_input(BenchmarkId::new("columns+check", n), &n, |b, &n| {
            b.iter(|| {
                let q: Vec<u32> = construct::columns(n)
                    .unwrap()
                    .unwrap()
                    .map(|c| c as u32)
                    .collect();
                assert!(find_flaw_in_columns(black_box(&q)).is_none());
            })
        });
    }
    group.finish();
}

fn local_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("min-conflicts");
    group.sample_size(10);
    for n in [100_000usize, 1_000_000] {
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| min_conflicts::solve(black_box(n), 1).unwrap().unwrap())
        });
    }
    group.finish();
}

fn streaming_verify(c: &mut Criterion) {
    let n = 1_000_000;
    let mut text = construct::columns(n)
        .unwrap()
        .unwrap()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    text.push('\n');
    c.bench_function("verify/parse+check 10^6", |b| {
        b.iter(|| {
            for item in EntryReader::new(black_box(text.as_bytes())) {
                let (_, entry) = item.unwrap();
                if let queens_core::parse::CompactEntry::Positions(q) = entry {
                    assert!(find_flaw_in_columns(&q).is_none());
                }
            }
        })
    });
}

fn completion(c: &mut Criterion) {
    let mut group = c.benchmark_group("complete");
    let puzzle = Instance {
        n: 8,
        fixed: vec![Square { row: 0, col: 3 }, Square { row: 5, col: 2 }],
    };
    group.bench_function("8x8 two given", |b| {
        b.iter(|| black_box(&puzzle).count().unwrap())
    });
    let n = 3000;
    let full = min_conflicts::solve(n, 3).unwrap().unwrap();
    let missing: Vec<usize> = (0..12).map(|i| i * 241 + 11).collect();
    let large = Instance {
        n,
        fixed: (0..n)
            .filter(|r| !missing.contains(r))
            .map(|r| Square {
                row: r,
                col: full[r] as usize,
            })
            .collect(),
    };
    group.bench_function("3000x3000 all but 12 given", |b| {
        b.iter(|| {
            assert!(matches!(
                black_box(&large).solve().unwrap(),
                Completion::Found(_)
            ))
        })
    });
    group.finish();
}

criterion_group!(
    huge,
    construction,
    local_search,
    streaming_verify,
    completion
);
criterion_main!(huge);
