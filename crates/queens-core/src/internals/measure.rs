//! The measurements behind the engines' constants and the docs' figures, as functions the
//! example `measure` runs one by one (`cargo run --release -p queens-core --example measure --
//! NAME`): they print what they measure and check nothing, so they are not tests. Each says
//! what it times and which choice of the engine it informed.
//!
//! Cost: from seconds (`split-budget`) to about an hour on one core (`estimate-accuracy` counts
//! every frame of N = 17 node by node); each names its boards, so a smaller run is a matter of
//! editing a range.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::count::estimate::{
    exact_plan_nodes, largest_piece, probe_frame, probe_nodes, random_piece,
};
use crate::count::frames::engine;
use crate::count::halves::list::Side;
use crate::count::halves::{Part, Plan};
use crate::count::pieces::{depth_for, piece_subproblem, PieceIter};
use crate::count::{subproblems, Checkpoint, Counts, Shard, Tally, SPLIT};
use crate::random::Rng;

/// One measurement: its name on the example's command line, what it prints, and the function.
pub struct Measurement {
    /// The name the example takes (`piece-listing`).
    pub name: &'static str,
    /// What it prints, in a line.
    pub about: &'static str,
    /// Runs it, printing as it goes.
    pub run: fn(),
}

/// Every measurement, in the order the example lists them.
pub const MEASUREMENTS: &[Measurement] = &[
    Measurement {
        name: "piece-listing",
        about: "times the listing of the pieces of N = 27's first 200 frames at the plan's \
                depth: what a shard spends finding its own pieces among all",
        run: piece_listing,
    },
    Measurement {
        name: "piece-overhead",
        about: "counts frames of N = 22 on one thread whole and cut into pieces of 1 and 2 \
                rows, alternating: what cutting costs",
        run: piece_overhead,
    },
    Measurement {
        name: "checkpoint-size",
        about: "the size, save and read times of finished checkpoints of N = 20 to 27 and of \
                the finest half-board split (N = 24, 22 pattern columns)",
        run: checkpoint_size,
    },
    Measurement {
        name: "split-budget",
        about: "the half-board split each board of N = 12 to 24 gets within 1 GiB, and how \
                many of its subproblems run at once",
        run: split_budget,
    },
    Measurement {
        name: "sample-ratios",
        about: "counts 40 random subproblems of N = 16 to 20 on one thread and prints the \
                spread of seconds over predicted cost, which the forecast's pair cost was \
                chosen by",
        run: sample_ratios,
    },
    Measurement {
        name: "estimate-accuracy",
        about: "the probes' estimate of the nodes of N = 12 to 17 against the exact count",
        run: estimate_accuracy,
    },
    Measurement {
        name: "piece-sizes",
        about: "for N = 20 to 27 and the depths around the plan's: the estimated pieces, the \
                largest frame and the largest sampled piece, in nodes",
        run: piece_sizes,
    },
    Measurement {
        name: "largest-pieces",
        about: "counts, timed on one thread, the 3 largest of 32 random pieces of each of the \
                8 largest frames of N = 22, 23 and 24: the plan's largest subproblems as far \
                as a sample shows",
        run: largest_pieces_timed,
    },
];

fn piece_listing() {
    let n = 27;
    let plan = subproblems(n);
    let start = Instant::now();
    let mut count = 0u64;
    for sub in plan.iter().take(200) {
        count += PieceIter::new(n, sub, depth_for(n)).count() as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "N = {n}: {count} pieces of 200 frames listed in {secs:.2} s ({:.1} ns a piece)",
        secs * 1e9 / count as f64
    );
}

fn piece_overhead() {
    let never = AtomicBool::new(false);
    let n = 22;
    let plan = subproblems(n);
    for i in [2000, 7000, 12000] {
        let sub = &plan[i];
        for depth in [0, 1, 2, 0] {
            let start = Instant::now();
            let mut total = 0u128;
            let mut count = 0;
            for (_, queens) in PieceIter::new(n, sub, depth) {
                let piece = piece_subproblem(sub, &queens);
                match engine::solve_piece(n, &piece, &never, false) {
                    Some(counts) => total += counts.total,
                    None => return,
                }
                count += 1;
            }
            println!(
                "N = {n}, frame {i}, depth {depth}: {count} pieces, {:.3} s ({total})",
                start.elapsed().as_secs_f64()
            );
        }
    }
}

/// A finished checkpoint of `plan_len` parts, each `part`.
fn finished(n: usize, split: String, plan_len: usize, part: Counts) -> Checkpoint {
    let mut tally = Tally::new(plan_len);
    for i in 0..plan_len {
        tally.record(i, part);
    }
    Checkpoint {
        n,
        split,
        subproblems: plan_len,
        shard: Shard::WHOLE,
        tally,
        seconds: 1e6,
        cpu_seconds: Some(2e6),
    }
}

fn checkpoint_size() {
    let plan = Plan::new(24, 22);
    let share = 227_514_171_973_736 / plan.len() as u128;
    let part = Counts {
        total: share,
        unique: share,
    };
    let c = finished(24, plan.split(), plan.len(), part);
    let dir = std::env::temp_dir().join(format!("queens-measure-{}", std::process::id()));
    if let Err(err) = std::fs::create_dir_all(&dir) {
        println!("cannot create {}: {err}", dir.display());
        return;
    }
    let path = dir.join("n24.ckpt");
    let started = Instant::now();
    let saved = c.save(&path);
    let took = started.elapsed();
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let _ = std::fs::remove_dir_all(&dir);
    match saved {
        Ok(()) => println!(
            "N = 24, {}: {} subproblems, finished checkpoint {size} bytes, saved in {:.1} ms",
            plan.split(),
            plan.len(),
            took.as_secs_f64() * 1e3
        ),
        Err(err) => println!("N = 24: the save failed: {err}"),
    }
    for k in crate::reference::known()
        .into_iter()
        .filter(|k| (20..=27).contains(&k.n))
    {
        let started = Instant::now();
        let plan = subproblems(k.n);
        let built = started.elapsed();
        let unique = k.total / 8 / plan.len() as u128;
        let part = Counts {
            total: 8 * unique,
            unique,
        };
        let c = finished(k.n, SPLIT.to_string(), plan.len(), part);
        let started = Instant::now();
        let text = c.to_text();
        let written = started.elapsed();
        let started = Instant::now();
        let read = Checkpoint::from_text(Path::new("x"), &text).is_ok();
        println!(
            "N = {}: {} subproblems, plan built in {:.1} ms, finished checkpoint {} bytes \
             (written in {:.1} ms, read and checked in {:.1} ms{})",
            k.n,
            plan.len(),
            built.as_secs_f64() * 1e3,
            text.len(),
            written.as_secs_f64() * 1e3,
            started.elapsed().as_secs_f64() * 1e3,
            if read { "" } else { ", REFUSED" }
        );
    }
}

fn split_budget() {
    for n in 12..=24 {
        match Plan::fitting(n, 1 << 30) {
            Ok(p) => println!(
                "N = {n}: k = {} ({} parts), {} at once",
                p.pattern_columns.count_ones(),
                p.len(),
                p.concurrent(1 << 30)
            ),
            Err(_) => println!("N = {n}: none"),
        }
    }
}

fn sample_ratios() {
    let never = AtomicBool::new(false);
    let mut rng = Rng::new(21);
    for n in 16..=20 {
        let Ok(plan) = Plan::fitting(n, 1 << 30) else {
            continue;
        };
        let todo: Vec<usize> = (1..plan.len()).collect();
        for pair in [0.0, 0.005, 0.02, 0.08] {
            let groups = f64::from(1u32 << (n as u32 - plan.pattern_columns.count_ones()));
            let mut ratios = Vec::new();
            let mut draws = Rng::new(5);
            for _ in 0..40 {
                let i = todo[draws.below(todo.len())];
                let Part::Pattern { upper, first, .. } = plan.parts[i] else {
                    continue;
                };
                let cols = plan.pattern_columns;
                let mut pick = |d: u32| rng.below(d as usize) as u32;
                let (mut nodes, mut u, mut l) = (0.0, 0.0, 0.0);
                for _ in 0..2000 {
                    let a = Side::upper(n, cols, upper).probe(&mut pick);
                    let b = Side::lower(n, cols, upper, first).probe(&mut pick);
                    nodes += a.0 + b.0;
                    u += a.1;
                    l += b.1;
                }
                let cost = (nodes + pair * u * l / 2000.0 / groups) / 2000.0;
                let began = Instant::now();
                if plan.solve(i, &never).is_err() {
                    continue;
                }
                ratios.push(began.elapsed().as_secs_f64() / cost);
            }
            let m = ratios.len() as f64;
            let mean = ratios.iter().sum::<f64>() / m;
            let sd = (ratios.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / m).sqrt();
            println!(
                "N = {n}, pair cost {pair}: ratio mean {mean:.3e}, sd/mean {:.2}",
                sd / mean
            );
        }
    }
}

fn estimate_accuracy() {
    for n in 12..=17 {
        let plan = subproblems(n);
        let exact = exact_plan_nodes(n, &plan);
        let probes = (4_000_000 / plan.len()).clamp(16, 4096);
        for _ in 0..3 {
            let estimated: f64 = plan.iter().map(|sub| probe_nodes(n, sub, probes)).sum();
            println!(
                "N = {n}: exact {exact:.4e}, estimated {estimated:.4e} ({:+.2} %)",
                100.0 * (estimated - exact) / exact
            );
        }
    }
}

fn piece_sizes() {
    let mut rng = Rng::from_entropy();
    for n in 20..=27 {
        let plan = subproblems(n);
        let probes = (2_000_000 / plan.len()).clamp(16, 4096);
        let chosen = depth_for(n);
        for depth in chosen.saturating_sub(1).max(1)..=chosen + 1 {
            let (mut count, mut sizes) = (0.0, Vec::new());
            for (i, sub) in plan.iter().enumerate() {
                let (here, cut) = probe_frame(n, sub, &mut rng, probes, depth);
                count += cut;
                sizes.push((here, i));
            }
            let piece = largest_piece(n, &plan, &mut sizes, depth, &mut rng);
            println!(
                "N = {n}, depth {depth}{}: {count:.3e} pieces, largest frame {:.3e} nodes, \
                 largest sampled piece {piece:.3e} nodes",
                if depth == chosen { " (the plan's)" } else { "" },
                sizes[0].0
            );
        }
    }
}

fn largest_pieces_timed() {
    let never = AtomicBool::new(false);
    let mut rng = Rng::from_entropy();
    for n in 22..=24 {
        let plan = subproblems(n);
        let depth = depth_for(n);
        let mut sizes: Vec<(f64, usize)> = plan
            .iter()
            .enumerate()
            .map(|(i, sub)| (probe_nodes(n, sub, 64), i))
            .collect();
        sizes.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut drawn = Vec::new();
        for &(_, i) in sizes.iter().take(8) {
            for _ in 0..32 {
                if let Some(piece) = random_piece(n, &plan[i], depth, &mut rng) {
                    drawn.push((probe_nodes(n, &piece, 256), i, piece));
                }
            }
        }
        drawn.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (estimated, i, piece) in drawn.iter().take(3) {
            let start = Instant::now();
            let Some(counts) = engine::solve_piece(n, piece, &never, false) else {
                return;
            };
            println!(
                "N = {n}, depth {depth}, a piece of frame {i}: estimated {estimated:.3e} \
                 nodes, counted in {:.2} s on one thread ({} solutions)",
                start.elapsed().as_secs_f64(),
                counts.total
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MEASUREMENTS;

    /// The example finds each measurement by a name of its own.
    #[test]
    fn every_measurement_has_a_name_of_its_own_and_says_what_it_prints() {
        let mut names: Vec<_> = MEASUREMENTS.iter().map(|m| m.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), MEASUREMENTS.len());
        assert!(MEASUREMENTS
            .iter()
            .all(|m| !m.about.is_empty()
                && m.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')));
    }
}
