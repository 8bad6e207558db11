//! Knowing before counting: an estimate of a run's search nodes and time.
//!
//! The idea: the size of a backtrack tree is estimated without walking it by random probes
//! (D. E. Knuth, "Estimating the efficiency of backtrack programs", Math. Comp. 29, 1975):
//! walk down from the root choosing one child at random at each level; if the levels offer
//! `d1, d2, ...` children, then `1 + d1 + d1 d2 + d1 d2 d3 + ...` is an unbiased estimate of the
//! number of nodes. Averaged over many probes of every subproblem of the run (the plain
//! search's tree of each frame), that gives the run's nodes; a time per node, measured by
//! counting random subproblems whole for a moment (on the same board when they are small
//! enough, else on the largest board where they are), turns nodes into seconds. Cost: about a
//! second of probes and a few seconds of sample counts, whatever N.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::engine::{self, Control, Tally};
use super::frame::{subproblems, Subproblem};
use super::kernel::Setup;
use super::pieces;
use super::shard::Shard;
use super::types::{check_size, CountError};
use crate::random::Rng;

/// What [`estimate`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// The subproblems of the shard.
    pub subproblems: usize,
    /// The estimated nodes (queens placed) of the plain search over them.
    pub nodes: f64,
    /// Probes per subproblem.
    pub probes: usize,
    /// The subproblem with the most estimated nodes, and that number.
    pub largest: (usize, f64),
    /// The rows the plan cuts its frames at (see `pieces`; 0: whole frames).
    pub depth: usize,
    /// With pieces: their estimated number in the shard, and the most nodes of the pieces
    /// sampled from the largest frames (the probes' estimate of each).
    pub pieces: Option<(f64, f64)>,
    /// Seconds of one core per estimated node.
    pub seconds_per_node: f64,
    /// The board whose subproblems were counted whole to measure that.
    pub calibrated_on: usize,
    /// How many subproblems were counted whole, and in how many seconds.
    pub calibration: (usize, f64),
}

impl Estimate {
    /// Seconds of one core for the whole shard.
    pub fn core_seconds(&self) -> f64 {
        self.nodes * self.seconds_per_node
    }
}

/// The frame as the engine searches it.
fn setup(n: usize, sub: &Subproblem) -> Setup {
    if sub.fixed_by.is_empty() {
        Setup::new(n, &sub.oriented)
    } else {
        Setup::new(n, &sub.queens)
    }
}

/// One of the squares of `f` (which has `d` of them), at random.
fn random_square(mut f: u32, d: u32, rng: &mut Rng) -> u32 {
    for _ in 0..rng.next_u64() % u64::from(d) {
        f &= f - 1;
    }
    f & f.wrapping_neg()
}

/// One of Knuth's probes of the plain search of `s`: an unbiased estimate of its nodes, and
/// one of its nodes at `depth` (the pieces cut there): the product of the first `depth`
/// branchings, 0 when the probe ends above it.
fn probe_to(s: &Setup, rng: &mut Rng, depth: usize) -> (f64, f64) {
    let (mut c, mut l, mut r) = (s.cols, 0u32, 0u32);
    let (mut weight, mut nodes, mut at_depth) = (1.0f64, 1.0f64, 0.0f64);
    for i in 0..s.rows.len() {
        let f = s.full & !(c | l | r | s.extra[i]);
        let d = f.count_ones();
        if d == 0 {
            break;
        }
        weight *= f64::from(d);
        nodes += weight;
        if i + 1 == depth {
            at_depth = weight;
        }
        let bit = random_square(f, d, rng);
        let g = s.gap[i];
        c |= bit;
        l = (l | bit) << g;
        r = (r | bit) >> g;
    }
    (nodes, at_depth)
}

/// One random piece of `sub` cut at `depth` rows, drawn by a probe's walk down to that depth
/// (each child at random; `None` when the walk meets a dead end first).
fn random_piece(n: usize, sub: &Subproblem, depth: usize, rng: &mut Rng) -> Option<Subproblem> {
    let s = setup(n, sub);
    let (mut c, mut l, mut r) = (s.cols, 0u32, 0u32);
    let mut queens = Vec::new();
    for i in 0..depth.min(s.rows.len()) {
        let f = s.full & !(c | l | r | s.extra[i]);
        let d = f.count_ones();
        if d == 0 {
            return None;
        }
        let bit = random_square(f, d, rng);
        queens.push((s.rows[i] as u8, bit.trailing_zeros() as u8));
        let g = s.gap[i];
        c |= bit;
        l = (l | bit) << g;
        r = (r | bit) >> g;
    }
    Some(pieces::piece_subproblem(sub, &queens))
}

/// The mean of `probes` probes of subproblem `sub`.
pub fn probe_nodes(n: usize, sub: &Subproblem, probes: usize) -> f64 {
    mean_probe(&setup(n, sub), &mut Rng::from_entropy(), probes, usize::MAX).0
}

/// The mean of `probes` of [`probe_to`]: the estimated nodes of `s`, and those at `depth`.
fn mean_probe(s: &Setup, rng: &mut Rng, probes: usize, depth: usize) -> (f64, f64) {
    let (mut nodes, mut cut) = (0.0, 0.0);
    for _ in 0..probes {
        let (a, b) = probe_to(s, rng, depth);
        nodes += a;
        cut += b;
    }
    let m = probes.max(1) as f64;
    (nodes / m, cut / m)
}

/// Estimates shard `shard` of the `n` x `n` board: its nodes by probes of every subproblem,
/// and the time per node by counting random subproblems whole for up to `budget`.
///
/// With the plan of pieces of large boards (see `pieces`), the probes also estimate how many
/// pieces there are, and 64 random pieces of each of the 8 largest frames are probed in turn:
/// the most nodes among them is the size of the largest piece as far as a sample can tell (a
/// lower bound of the true largest, usually close: pieces of one frame differ less than frames).
/// A shard of pieces holds about `1/M` of every frame.
pub fn estimate(n: usize, shard: Shard, budget: Duration) -> Result<Estimate, CountError> {
    check_size(n)?;
    let plan = subproblems(n);
    let depth = pieces::depth_for(n);
    let (todo, share) = if depth > 0 {
        ((0..plan.len()).collect(), 1.0 / shard.count as f64)
    } else {
        (shard.select(plan.len()), 1.0)
    };
    let probes = (4_000_000 / todo.len().max(1)).clamp(16, 4096);
    let (mut nodes, mut largest, mut piece_count) = (0.0f64, (0usize, 0.0f64), 0.0f64);
    let mut sizes = Vec::with_capacity(todo.len());
    let mut rng = Rng::from_entropy();
    for &i in &todo {
        let (here, cut) = mean_probe(&setup(n, &plan[i]), &mut rng, probes, depth);
        nodes += here * share;
        piece_count += cut * share;
        sizes.push((here, i));
        if here > largest.1 {
            largest = (i, here);
        }
    }
    let pieces = (depth > 0).then(|| {
        (
            piece_count,
            largest_piece(n, &plan, &mut sizes, depth, &mut rng),
        )
    });
    // Calibrate on this board if a few of its subproblems can be counted within the budget,
    // else on smaller boards, down to N = 12.
    let mut board = n;
    loop {
        let (count, seconds, per_node) = calibrate(board, budget)?;
        if count >= 3 || board <= 12 {
            return Ok(Estimate {
                subproblems: todo.len(),
                nodes,
                probes,
                largest,
                depth,
                pieces,
                seconds_per_node: per_node,
                calibrated_on: board,
                calibration: (count, seconds),
            });
        }
        board -= 1;
    }
}

/// The most nodes among 64 random pieces (cut at `depth`) of each of the 8 frames of `plan`
/// with the most estimated nodes (`sizes`: the estimate and the frame, in any order).
fn largest_piece(
    n: usize,
    plan: &[Subproblem],
    sizes: &mut [(f64, usize)],
    depth: usize,
    rng: &mut Rng,
) -> f64 {
    sizes.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut most = 0.0f64;
    for &(_, i) in sizes.iter().take(8) {
        for _ in 0..64 {
            if let Some(piece) = random_piece(n, &plan[i], depth, rng) {
                most = most.max(probe_nodes(n, &piece, 256));
            }
        }
    }
    most
}

/// Counts random subproblems of the board whole, one after another on this thread, for up to
/// `budget`: how many finished, in how many seconds, and the seconds per estimated node. The
/// thread that ends the last count at the budget must start: an error otherwise.
fn calibrate(n: usize, budget: Duration) -> Result<(usize, f64, f64), CountError> {
    let plan = subproblems(n);
    let mut rng = Rng::from_entropy();
    let control = Control::new(Tally::new(plan.len()));
    let start = Instant::now();
    let (mut count, mut seconds, mut nodes) = (0usize, 0.0f64, 0.0f64);
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .spawn_scoped(scope, || {
                while start.elapsed() < budget && !control.cancelled() {
                    std::thread::sleep(Duration::from_millis(5));
                }
                control.cancel.store(true, Ordering::Relaxed);
            })
            .map_err(|e| CountError::Threads(e.to_string()))?;
        while start.elapsed() < budget && !plan.is_empty() {
            let i = (rng.next_u64() % plan.len() as u64) as usize;
            if control.tally().is_done(i) {
                continue;
            }
            let began = Instant::now();
            // The same path as a run's, so that the time is a run's time per node.
            engine::run_sequential(n, &plan, &[i], &control);
            if !control.tally().is_done(i) {
                break;
            }
            seconds += began.elapsed().as_secs_f64();
            nodes += probe_nodes(n, &plan[i], 256);
            count += 1;
            if control.tally().finished == plan.len() as u64 {
                break;
            }
        }
        control.cancel.store(true, Ordering::Relaxed);
        Ok::<(), CountError>(())
    })?;
    let per_node = if nodes > 0.0 { seconds / nodes } else { 0.0 };
    Ok((count, seconds, per_node))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nodes of the plain search of a frame, counted exactly (the same tree the probes walk).
    fn exact_nodes(s: &Setup, i: usize, c: u32, l: u32, r: u32) -> f64 {
        if i == s.rows.len() {
            return 1.0;
        }
        let mut f = s.full & !(c | l | r | s.extra[i]);
        let mut nodes = 1.0;
        while f != 0 {
            let bit = f & f.wrapping_neg();
            f ^= bit;
            let g = s.gap[i];
            nodes += exact_nodes(s, i + 1, c | bit, (l | bit) << g, (r | bit) >> g);
        }
        nodes
    }

    /// Nodes of the plain searches of every frame of `plan`, counted exactly.
    fn exact_plan_nodes(n: usize, plan: &[Subproblem]) -> f64 {
        plan.iter()
            .map(|sub| {
                let s = setup(n, sub);
                exact_nodes(&s, 0, s.cols, 0, 0)
            })
            .sum()
    }

    #[test]
    fn probes_average_to_the_exact_size_of_the_tree() {
        let n = 11;
        let plan = subproblems(n);
        let exact = exact_plan_nodes(n, &plan);
        let estimated: f64 = plan.iter().map(|sub| probe_nodes(n, sub, 2000)).sum();
        let error = (estimated - exact).abs() / exact;
        assert!(error < 0.05, "estimated {estimated}, exact {exact}");
    }

    /// A measurement, not a check: `cargo test -p queens-core --release estimate_accuracy --
    /// --ignored --nocapture` prints the probes' estimate of the nodes against the exact count.
    #[test]
    #[ignore]
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

    /// A measurement, not a check: `cargo test -p queens-core --release piece_sizes --
    /// --ignored --nocapture` prints, for N = 20..27 and the depths around the plan's, the
    /// estimated number of pieces, the largest frame and the largest sampled piece (nodes).
    #[test]
    #[ignore]
    fn piece_sizes() {
        let mut rng = Rng::from_entropy();
        for n in 20..=27 {
            let plan = subproblems(n);
            let probes = (2_000_000 / plan.len()).clamp(16, 4096);
            let chosen = pieces::depth_for(n);
            for depth in chosen.saturating_sub(1).max(1)..=chosen + 1 {
                let (mut count, mut sizes) = (0.0, Vec::new());
                for (i, sub) in plan.iter().enumerate() {
                    let (here, cut) = mean_probe(&setup(n, sub), &mut rng, probes, depth);
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

    /// A measurement, not a check: `cargo test -p queens-core --release largest_pieces_timed --
    /// --ignored --nocapture` draws 32 random pieces of each of the 8 largest frames of N = 22,
    /// 23 and 24 (the plan's depth), and counts the 3 with the most estimated nodes on one
    /// thread, timed: the largest subproblems of the plan as far as a sample shows.
    #[test]
    #[ignore]
    fn largest_pieces_timed() {
        use std::sync::atomic::AtomicBool;
        let never = AtomicBool::new(false);
        let mut rng = Rng::from_entropy();
        for n in 22..=24 {
            let plan = subproblems(n);
            let depth = pieces::depth_for(n);
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
                let counts = engine::solve_piece(n, piece, &never, false).unwrap();
                println!(
                    "N = {n}, depth {depth}, a piece of frame {i}: estimated {estimated:.3e} \
                     nodes, counted in {:.2} s on one thread ({} solutions)",
                    start.elapsed().as_secs_f64(),
                    counts.total
                );
            }
        }
    }

    #[test]
    fn an_estimate_counts_the_shard_and_measures_a_time_per_node() {
        let e = estimate(12, Shard::new(1, 3).unwrap(), Duration::from_millis(200)).unwrap();
        assert_eq!(
            e.subproblems,
            Shard::new(1, 3)
                .unwrap()
                .select(subproblems(12).len())
                .len()
        );
        assert!(e.nodes > 0.0 && e.seconds_per_node > 0.0, "{e:?}");
        assert!(Shard::new(1, 3).unwrap().contains(e.largest.0));
        assert!(e.largest.1 > 0.0 && e.largest.1 < e.nodes, "{e:?}");
        assert_eq!(e.calibrated_on, 12);
        assert!(estimate(33, Shard::WHOLE, Duration::ZERO).is_err());
    }
}
