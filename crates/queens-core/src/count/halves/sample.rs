//! The forecast of a half-board run (`queens count --estimate`): its subproblems, the halves
//! they list, the memory of its largest one and its time, before counting.
//!
//! The idea: every subproblem's two listing walks are sized by Knuth's random probes (D. E.
//! Knuth, "Estimating the efficiency of backtrack programs", Math. Comp. 29, 1975), which give
//! unbiased estimates of a walk's nodes and leaves (the halves); a subproblem's *predicted
//! cost* is its walks' nodes plus a share of the pairs its groups would join if its halves
//! spread evenly over the group keys. Then a few subproblems are drawn at random with
//! probabilities proportional to that prediction and counted whole by the run's own path, on
//! the run's threads at once (so that they share the caches and the memory as the run will),
//! and the shard's time is estimated by importance sampling: the sum of the predictions times
//! the mean of (measured seconds / prediction) over the draws, an unbiased estimate whatever
//! the prediction's quality, which only sets its spread (reported as a standard error). The
//! fixed-point part is timed alone when small (N up to 18), else on the largest smaller board
//! of the same residue mod 4 and scaled by its growth over 4 rows. Memory: the largest
//! subproblem's halves by the probes, 18 bytes a half (fitted when a half was listed and then
//! copied into its group; rather too high since it is stored once), per thread, and 8 MiB for
//! the process.
//! Cost: about 2 million probes of each side, plus the draws (`budget`, then on until
//! [`FEWEST_DRAWS`] are counted or [`LONGEST_SAMPLE`] budgets have passed; the last ones begun
//! finish); it calls `plan.rs` (to count the draws), `list.rs` (the walks probed) and
//! the fixed-point searches of `count::fixed`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::list::Side;
use super::memory::bytes_per_thread;
use super::plan::{Part, Plan};
use crate::count::fixed::{half_turn_until, quarter_turn_until};
use crate::count::types::CountError;
use crate::random::Rng;

/// What [`forecast`] found for the subproblems of a half-board plan.
#[derive(Debug, Clone, PartialEq)]
pub struct Forecast {
    /// The subproblems forecast (the shard's), the fixed-point part included.
    pub subproblems: usize,
    /// The pattern columns of the plan.
    pub pattern_columns: usize,
    /// Probes of each side of each subproblem.
    pub probes: usize,
    /// The halves (both sides) the subproblems list, estimated.
    pub halves: f64,
    /// The subproblem with the most halves (both sides, estimated), and that number.
    pub largest: (usize, f64),
    /// Bytes one thread holds for the largest subproblem, by the probes (the process holds
    /// [`PROCESS_BYTES`] more).
    pub bytes_largest: u64,
    /// Bytes one thread may hold by the plan's memory model (what the split was fitted by).
    pub bytes_model: u64,
    /// How many subproblems were drawn and counted whole, on how many threads, in how many
    /// seconds of wall time.
    pub sampled: (usize, usize, f64),
    /// Seconds of one core for the pattern subproblems, estimated.
    pub pattern_seconds: f64,
    /// The standard error of `pattern_seconds` (0 when fewer than two draws).
    pub pattern_error: f64,
    /// Seconds of one core for the fixed-point part (0 when the shard has none), and the
    /// board it was timed on.
    pub fixed: (f64, usize),
    /// The estimated seconds of one core of the largest subproblem by its prediction.
    pub largest_seconds: f64,
}

impl Forecast {
    /// Seconds of one core for the whole shard.
    pub fn core_seconds(&self) -> f64 {
        self.pattern_seconds + self.fixed.0
    }

    /// Wall seconds on `threads` threads: the core time shared, but never less than the
    /// largest subproblem (a thread counts it alone).
    pub fn wall_seconds(&self, threads: usize) -> f64 {
        (self.core_seconds() / threads.max(1) as f64)
            .max(self.largest_seconds)
            .max(self.fixed.0)
    }
}

/// Bytes a listed half takes at the peak of its subproblem: when a half was listed and then
/// copied into its group, 8 in the list, 8 grouped, and the rest of the thread's buffers and
/// their slack (fitted to the peaks of N = 17 to 19 on 2
/// threads: 52, 153 and 316 MiB measured, with [`PROCESS_BYTES`]). Since the halves are stored
/// once, straight into their groups, the peaks are lower (N = 19: 213 MiB), so this is rather
/// too high (docs/performance.md).
const BYTES_PER_HALF: f64 = 18.0;

/// The fewest draws the sample counts when they fit in [`LONGEST_SAMPLE`] budgets: the standard
/// error of the mean falls as one over the square root of the draws. The 5 to 7 draws of
/// N = 22 that fit in 4 s gave standard errors of 21 to 37 % (two forecasts of the same run,
/// 2.1 and 3.8 hours); 32 draws gave 7 to 16 %, and two forecasts of three 17 to 21 % short of
/// the run (the ratio of a draw's time to its prediction has a long upper tail, which a small
/// sample tends to miss): hence 64.
pub const FEWEST_DRAWS: usize = 64;

/// How many budgets the sample may take to count [`FEWEST_DRAWS`] draws (2 minutes of the
/// default 4 s: 64 draws of N = 22, about 1 % of its run).
pub const LONGEST_SAMPLE: u32 = 30;

/// Bytes of the process besides the threads' halves (its code, the plan, the tally).
pub const PROCESS_BYTES: u64 = 8 << 20;

/// The join's cost per pair of halves an even spread over the group keys would give, in units
/// of the listing's cost per node (measured on N = 18 and 20 by `sample_ratios` below: the
/// join tests 64 pairs per table probe, a third of them once large groups are split).
const PAIR_COST: f64 = 0.02;

/// The predicted cost of each subproblem of `todo` (0 for the fixed-point part) and its
/// estimated halves, by `probes` probes of each side.
fn predict(plan: &Plan, todo: &[usize], probes: usize, rng: &mut Rng) -> Vec<(f64, f64)> {
    let n = plan.n();
    let cols = plan.pattern_columns;
    let groups = f64::from(1u32 << (n as u32 - cols.count_ones()));
    let mut pick = |d: u32| rng.below(d as usize) as u32;
    todo.iter()
        .map(|&i| match plan.parts[i] {
            Part::Fixed => (0.0, 0.0),
            Part::Pattern { upper, first, .. } => {
                let mut side = |s: Side| {
                    let (mut nodes, mut leaves) = (0.0, 0.0);
                    for _ in 0..probes {
                        let (a, b) = s.probe(&mut pick);
                        nodes += a;
                        leaves += b;
                    }
                    (nodes / probes as f64, leaves / probes as f64)
                };
                let (nu, u) = side(Side::upper(n, cols, upper));
                let (nl, l) = side(Side::lower(n, cols, upper, first));
                (nu + nl + PAIR_COST * u * l / groups, u + l)
            }
        })
        .collect()
}

/// Forecasts the subproblems `todo` of `plan` on `threads` threads: probes of every
/// subproblem, then subproblems drawn by their predicted cost and counted whole for about
/// `budget`, and on until [`FEWEST_DRAWS`] are counted or [`LONGEST_SAMPLE`] budgets have passed
/// (the draws begun by then finish). A thread that cannot start, or a draw whose
/// halves find no memory, is an error (the other draws stop).
pub fn forecast(
    plan: &Plan,
    todo: &[usize],
    threads: usize,
    budget: Duration,
) -> Result<Forecast, CountError> {
    let n = plan.n();
    let k = plan.pattern_columns.count_ones() as usize;
    let mut rng = Rng::from_entropy();
    let probes = (2_000_000 / todo.len().max(1)).clamp(16, 2048);
    let predicted = predict(plan, todo, probes, &mut rng);
    let halves: f64 = predicted.iter().map(|p| p.1).sum();
    let (at, most) = predicted
        .iter()
        .enumerate()
        .max_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
        .map_or((0, 0.0), |(at, p)| (todo[at], p.1));
    let bytes_largest = (BYTES_PER_HALF * most) as u64;
    let weight: f64 = predicted.iter().map(|p| p.0).sum();
    let cumulative: Vec<f64> = predicted
        .iter()
        .scan(0.0, |acc, p| {
            *acc += p.0;
            Some(*acc)
        })
        .collect();
    // The draws: (seconds / predicted cost) of each, on the run's threads at once.
    let ratios = Mutex::new(Vec::<f64>::new());
    // Raised only when a thread failed: the draws are counted whole otherwise.
    let stop = AtomicBool::new(false);
    let failed = Mutex::new(None::<CountError>);
    let fail = |err: CountError| {
        stop.store(true, Ordering::Relaxed);
        failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(err);
    };
    let start = Instant::now();
    let threads = threads.max(1);
    let drawn = AtomicUsize::new(0);
    if weight > 0.0 {
        std::thread::scope(|scope| {
            for t in 0..threads {
                let seed = rng.next_u64() ^ t as u64;
                let (ratios, cumulative, stop, predicted, fail, drawn) =
                    (&ratios, &cumulative, &stop, &predicted, &fail, &drawn);
                let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                    let mut rng = Rng::new(seed);
                    while goes_on(budget, start.elapsed(), drawn.load(Ordering::Relaxed))
                        && !stop.load(Ordering::Relaxed)
                    {
                        let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * weight;
                        let at = cumulative.partition_point(|&c| c <= x).min(todo.len() - 1);
                        let cost = predicted[at].0;
                        if cost <= 0.0 {
                            continue;
                        }
                        let began = Instant::now();
                        match plan.solve(todo[at], stop) {
                            Ok(Some(_)) => {
                                let ratio = began.elapsed().as_secs_f64() / cost;
                                ratios.lock().unwrap_or_else(|e| e.into_inner()).push(ratio);
                                drawn.fetch_add(1, Ordering::Relaxed);
                            }
                            Ok(None) => {}
                            Err(err) => fail(CountError::OutOfMemory {
                                n,
                                bytes: err.bytes,
                            }),
                        }
                    }
                });
                if let Err(err) = spawned {
                    fail(CountError::Threads(err.to_string()));
                    break;
                }
            }
        });
    }
    if let Some(err) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(err);
    }
    let seconds = start.elapsed().as_secs_f64();
    let ratios = ratios.into_inner().unwrap_or_else(|e| e.into_inner());
    let m = ratios.len().max(1) as f64;
    let mean = ratios.iter().sum::<f64>() / m;
    let error = if ratios.len() >= 2 {
        let var = ratios.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (m - 1.0);
        weight * (var / m).sqrt()
    } else {
        0.0
    };
    let largest_cost = predicted.iter().map(|p| p.0).fold(0.0, f64::max);
    let fixed = if todo.iter().any(|&i| plan.parts[i] == Part::Fixed) {
        fixed_seconds(n)
    } else {
        (0.0, n)
    };
    Ok(Forecast {
        subproblems: todo.len(),
        pattern_columns: k,
        probes,
        halves,
        largest: (at, most),
        bytes_largest,
        bytes_model: bytes_per_thread(n, k),
        sampled: (ratios.len(), threads, seconds),
        pattern_seconds: weight * mean,
        pattern_error: error,
        fixed,
        largest_seconds: largest_cost * mean,
    })
}

/// Whether the sample draws again, `elapsed` into it with `drawn` draws counted: within the
/// `budget`, and past it while fewer than [`FEWEST_DRAWS`] are counted, up to
/// [`LONGEST_SAMPLE`] budgets.
fn goes_on(budget: Duration, elapsed: Duration, drawn: usize) -> bool {
    elapsed < budget || (drawn < FEWEST_DRAWS && elapsed < budget * LONGEST_SAMPLE)
}

/// Seconds of one core the fixed-point part of `n` takes (estimated), and the board timed.
fn fixed_seconds(n: usize) -> (f64, usize) {
    let time = |m: usize| {
        let never = AtomicBool::new(false);
        let began = Instant::now();
        let _ = half_turn_until(m, &never);
        let _ = quarter_turn_until(m, &never);
        began.elapsed().as_secs_f64()
    };
    if n <= 18 {
        return (time(n), n);
    }
    // The largest board up to 18 with the same residue mod 4 (the quarter turn fixes
    // solutions only when N is 4k or 4k + 1), and its growth over 4 rows.
    let m = n - 4 * (n - 18).div_ceil(4);
    let (now, before) = (time(m), time(m - 4).max(1e-6));
    let growth = (now / before).clamp(4.0, 40.0);
    (now * growth.powf((n - m) as f64 / 4.0), m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The probes' halves of every subproblem of a small board add up to the halves the
    /// listings really hold, within a few per cent.
    #[test]
    fn the_probes_size_the_listings() {
        use crate::count::halves::group::{Groups, Key};
        use crate::count::halves::list::{list_lowers, list_uppers};
        for n in [12, 13] {
            let plan = Plan::new(n, 4);
            let todo: Vec<usize> = (0..plan.len()).collect();
            let predicted = predict(&plan, &todo, 4000, &mut Rng::new(7));
            let never = AtomicBool::new(false);
            let cols = plan.pattern_columns;
            let key = Key {
                shift: cols.trailing_ones(),
                bits: n as u32 - cols.count_ones(),
            };
            let full = (1u32 << n) - 1;
            let (mut listed, mut ups, mut lows) = (0usize, Groups::default(), Groups::default());
            for part in &plan.parts {
                if let Part::Pattern { upper, first, .. } = *part {
                    let lower = cols & !upper;
                    list_uppers(n, n / 2, full & !lower, upper, full, key, &never, &mut ups)
                        .unwrap();
                    list_lowers(
                        n,
                        n / 2,
                        full & !upper,
                        lower,
                        first,
                        key,
                        &never,
                        &mut lows,
                    )
                    .unwrap();
                    listed += ups.len() + lows.len();
                }
            }
            let estimated: f64 = predicted.iter().map(|p| p.1).sum();
            let error = (estimated - listed as f64).abs() / listed as f64;
            assert!(
                error < 0.03,
                "N = {n}: {estimated} estimated, {listed} listed"
            );
        }
    }

    /// A forecast of a small board names its plan's subproblems, memory within the model, and
    /// times that add up (no timing asserted: only that they are there and consistent).
    #[test]
    fn a_forecast_is_consistent_with_its_plan() {
        let plan = Plan::new(14, 6);
        let todo: Vec<usize> = (0..plan.len()).collect();
        let f = forecast(&plan, &todo, 2, Duration::from_millis(100)).unwrap();
        assert_eq!(f.subproblems, plan.len());
        assert_eq!(f.pattern_columns, 6);
        assert!(f.sampled.0 >= 1 && f.sampled.1 == 2, "{f:?}");
        assert!(
            f.halves > 0.0 && f.largest.1 > 0.0 && f.largest.1 < f.halves,
            "{f:?}"
        );
        assert!(f.bytes_largest <= f.bytes_model, "{f:?}");
        assert!(
            f.pattern_seconds > 0.0 && f.fixed.0 > 0.0 && f.fixed.1 == 14,
            "{f:?}"
        );
        assert!(f.core_seconds() >= f.pattern_seconds, "{f:?}");
        assert!(f.wall_seconds(2) >= f.core_seconds() / 2.0, "{f:?}");
        // A shard without the fixed-point part has no time for it.
        let f = forecast(&plan, &todo[1..3], 1, Duration::ZERO).unwrap();
        assert_eq!((f.subproblems, f.fixed.0), (2, 0.0));
    }

    /// The sample takes its budget, then goes on while it has too few draws for a standard
    /// error of about 10 %, but never past [`LONGEST_SAMPLE`] budgets.
    #[test]
    fn the_sample_goes_on_until_it_has_enough_draws_within_a_bound() {
        let budget = Duration::from_secs(4);
        let at = |s: f64| Duration::from_secs_f64(s);
        assert!(goes_on(budget, at(3.9), 1000));
        assert!(!goes_on(budget, at(4.0), FEWEST_DRAWS));
        assert!(goes_on(budget, at(4.0), FEWEST_DRAWS - 1));
        let longest = (budget * LONGEST_SAMPLE).as_secs_f64();
        assert!(goes_on(budget, at(longest - 0.1), 7));
        assert!(!goes_on(budget, at(longest), 7));
        assert!(!goes_on(Duration::ZERO, Duration::ZERO, 0));
    }

    /// A measurement, not a check: `cargo test -p queens-core --release --lib sample_ratios --
    /// --ignored --nocapture` counts 40 random subproblems of N = 16 to 20 on one thread and
    /// prints the spread of (seconds / predicted cost), which [`PAIR_COST`] was chosen by.
    #[test]
    #[ignore]
    fn sample_ratios() {
        let never = AtomicBool::new(false);
        let mut rng = Rng::new(21);
        for n in 16..=20 {
            let plan = Plan::fitting(n, 1 << 30).unwrap();
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
                    plan.solve(i, &never).unwrap();
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
}
