//! The two paths issue 40 found slow, side by side with what they replaced:
//!
//! - `recount`: a shard's audit (`queens merge --recount`, [`count::Run::recount_shard`]) on
//!   one thread against [`count::Run::recount_shard_parallel`] on every core, N = 13 and 14.
//!   The ratio of the two is the speed-up `merge --recount -j` gives (1 on a one-core machine).
//! - `blank_lines`: `queens verify`'s reader ([`parse::EntryReader`]) over 64 MiB of empty
//!   lines and of lines of spaces, whose throughput (MiB/s, printed by criterion) is what a
//!   gigabyte of them costs: 1 GB took 18 s before issue 40.
//!
//! Run with `cargo bench -p queens-core --bench audits`. Speeds are never asserted by tests:
//! compare the lines of one run, taken side by side.

use std::hint::black_box;
use std::io::Cursor;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use queens_core::{count, parse};

fn recount(c: &mut Criterion) {
    let mut group = c.benchmark_group("recount");
    group.sample_size(10);
    for n in [13usize, 14] {
        let run = count::Run::new(n).expect("a board the engine counts");
        let one = run.recount_shard().expect("not cancelled");
        let every = run
            .recount_shard_parallel(0)
            .expect("the threads start")
            .expect("not cancelled");
        assert_eq!(one, every, "the two recounts of N = {n} agree");
        group.bench_with_input(BenchmarkId::new("one_thread", n), &run, |b, run| {
            b.iter(|| black_box(run.recount_shard()))
        });
        group.bench_with_input(BenchmarkId::new("every_core", n), &run, |b, run| {
            b.iter(|| black_box(run.recount_shard_parallel(0)))
        });
    }
    group.finish();
}

fn blank_lines(c: &mut Criterion) {
    const SIZE: usize = 64 << 20;
    let mut group = c.benchmark_group("blank_lines");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(SIZE as u64));
    for (name, line) in [("empty", "\n"), ("spaces", "      \t \n")] {
        let text = line.repeat(SIZE / line.len()).into_bytes();
        let entries = parse::EntryReader::new(Cursor::new(&text[..])).count();
        assert_eq!(entries, 0, "blank lines hold no entry");
        group.bench_function(name, |b| {
            b.iter(|| parse::EntryReader::new(Cursor::new(black_box(&text[..]))).count())
        });
    }
    group.finish();
}

criterion_group!(benches, recount, blank_lines);
criterion_main!(benches);
