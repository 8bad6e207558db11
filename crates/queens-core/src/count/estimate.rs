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

use super::frame::{subproblems, Subproblem};
use super::kernel::Setup;
use super::{check_size, engine, Control, CountError, Shard, Tally};

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

/// A small random-number generator (xorshift64*), seeded from the standard library's random
/// hasher keys.
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new() -> Rng {
        use std::hash::{BuildHasher, Hasher};
        let seed = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        Rng(seed | 1)
    }

    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
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

/// One of Knuth's probes of the plain search of `s`: an unbiased estimate of its nodes.
fn probe(s: &Setup, rng: &mut Rng) -> f64 {
    let (mut c, mut l, mut r) = (s.cols, 0u32, 0u32);
    let (mut weight, mut nodes) = (1.0f64, 1.0f64);
    for i in 0..s.rows.len() {
        let mut f = s.full & !(c | l | r | s.extra[i]);
        let d = f.count_ones();
        if d == 0 {
            break;
        }
        weight *= f64::from(d);
        nodes += weight;
        for _ in 0..rng.next() % u64::from(d) {
            f &= f - 1;
        }
        let bit = f & f.wrapping_neg();
        let g = s.gap[i];
        c |= bit;
        l = (l | bit) << g;
        r = (r | bit) >> g;
    }
    nodes
}

/// The mean of `probes` probes of subproblem `sub`.
pub fn probe_nodes(n: usize, sub: &Subproblem, probes: usize) -> f64 {
    let s = setup(n, sub);
    let mut rng = Rng::new();
    (0..probes).map(|_| probe(&s, &mut rng)).sum::<f64>() / probes.max(1) as f64
}

/// Estimates shard `shard` of the `n` x `n` board: its nodes by probes of every subproblem,
/// and the time per node by counting random subproblems whole for up to `budget`.
pub fn estimate(n: usize, shard: Shard, budget: Duration) -> Result<Estimate, CountError> {
    check_size(n)?;
    let plan = subproblems(n);
    let todo = shard.select(plan.len());
    let probes = (4_000_000 / todo.len().max(1)).clamp(16, 4096);
    let (mut nodes, mut largest) = (0.0f64, (0usize, 0.0f64));
    for &i in &todo {
        let here = probe_nodes(n, &plan[i], probes);
        nodes += here;
        if here > largest.1 {
            largest = (i, here);
        }
    }
    // Calibrate on this board if a few of its subproblems can be counted within the budget,
    // else on smaller boards, down to N = 12.
    let mut board = n;
    loop {
        let (count, seconds, per_node) = calibrate(board, budget);
        if count >= 3 || board <= 12 {
            return Ok(Estimate {
                subproblems: todo.len(),
                nodes,
                probes,
                largest,
                seconds_per_node: per_node,
                calibrated_on: board,
                calibration: (count, seconds),
            });
        }
        board -= 1;
    }
}

/// Counts random subproblems of the board whole, one after another on this thread, for up to
/// `budget`: how many finished, in how many seconds, and the seconds per estimated node.
fn calibrate(n: usize, budget: Duration) -> (usize, f64, f64) {
    let plan = subproblems(n);
    let mut rng = Rng::new();
    let control = Control::new(Tally::new(plan.len()));
    let start = Instant::now();
    let (mut count, mut seconds, mut nodes) = (0usize, 0.0f64, 0.0f64);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while start.elapsed() < budget && !control.cancelled() {
                std::thread::sleep(Duration::from_millis(5));
            }
            control.cancel.store(true, Ordering::Relaxed);
        });
        while start.elapsed() < budget && !plan.is_empty() {
            let i = (rng.next() % plan.len() as u64) as usize;
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
    });
    let per_node = if nodes > 0.0 { seconds / nodes } else { 0.0 };
    (count, seconds, per_node)
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

    #[test]
    fn probes_average_to_the_exact_size_of_the_tree() {
        let n = 11;
        let plan = subproblems(n);
        let exact: f64 = plan
            .iter()
            .map(|sub| {
                let s = setup(n, sub);
                exact_nodes(&s, 0, s.cols, 0, 0)
            })
            .sum();
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
            let exact: f64 = plan
                .iter()
                .map(|sub| {
                    let s = setup(n, sub);
                    exact_nodes(&s, 0, s.cols, 0, 0)
                })
                .sum();
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
