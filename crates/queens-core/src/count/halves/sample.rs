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
//! draws the bound stops are kept, as censored ones (each took at least its time so far): the
//! mean is the Kaplan–Meier estimate's (`count/kaplan_meier.rs`), since leaving them out would
//! bias it short, the long draws being the ones cut. The fixed-point part is timed alone when
//! small (N up to 18), else on the largest smaller board of the same residue mod 4 and scaled by
//! its growth over 4 rows. Memory: the largest subproblem's halves (of those the probes find
//! largest, by fresh probes of each), 18 bytes a half (fitted when a half was listed and then
//! copied into its group; rather too high since it is stored once), per thread, and 8 MiB for
//! the process.
//! Time: each draw (and the fixed-point part) is timed by the processor time of its thread
//! when the [`Sampling`] has a clock for it (the binary's `CLOCK_THREAD_CPUTIME_ID`), so that
//! the other processes of a busy machine do not inflate the forecast: it is the time on idle
//! cores.
//! Cost: up to about 2 million probes of each side, made in rounds on the run's threads, no
//! round begun past 30 % of `sampling.bound` (one probe of each side of every subproblem at
//! least: a busy machine or a huge plan gets fewer), plus the draws: for `sampling.budget`,
//! then on until `FEWEST_DRAWS` are counted, never past `sampling.bound` from the start, where
//! the draws still running are stopped and kept as censored (when none had finished, the mean
//! of their times so far gives a lower bound). It calls `plan.rs` (to count the draws),
//! `list.rs` (the walks probed) and the fixed-point searches of `count::fixed`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::list::Side;
use super::memory::bytes_per_thread;
use super::plan::{Part, Plan};
use crate::count::fixed::{half_turn_until, quarter_turn_until};
use crate::count::kaplan_meier::kaplan_meier_mean;
use crate::count::sampling::Sampling;
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
    /// The seconds the draws counted whole took, added up: processor time when
    /// `processor_time`.
    pub sampled_seconds: f64,
    /// Whether the draws were timed by the processor time of their threads (else the wall
    /// clock: no thread clock was given, or it failed).
    pub processor_time: bool,
    /// How many draws the bound stopped before they finished: censored observations of the
    /// estimate (each took at least its time so far).
    pub stopped: usize,
    /// Whether the bound ended the sample (before `FEWEST_DRAWS` were counted).
    pub bound_reached: bool,
    /// Seconds of one core for the pattern subproblems, estimated (0 when nothing was timed).
    pub pattern_seconds: f64,
    /// The standard error of `pattern_seconds` (0 when fewer than two draws).
    pub pattern_error: f64,
    /// Whether `pattern_seconds` (and `largest_seconds`) are only lower bounds: no draw
    /// finished within the bound, and they are from the time the stopped draws had taken.
    pub at_least: bool,
    /// Whether the draw of the largest ratio of seconds to predicted cost was stopped: the
    /// Kaplan–Meier curve, closed there, leaves out what it would have taken more, so the
    /// estimate may be short (it is still an estimate, not a bound).
    pub closed_short: bool,
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

/// The fewest draws the sample counts when they fit in the bound: the standard error of the
/// mean falls as one over the square root of the draws. The 5 to 7 draws of N = 22 that fit in
/// 4 s gave standard errors of 21 to 37 % (two forecasts of the same run, 2.1 and 3.8 hours);
/// 32 draws gave 7 to 16 %, and two forecasts of three 17 to 21 % short of the run (the ratio
/// of a draw's time to its prediction has a long upper tail, which a small sample tends to
/// miss): hence 64.
pub const FEWEST_DRAWS: usize = 64;

/// Bytes of the process besides the threads' halves (its code, the plan, the tally).
pub const PROCESS_BYTES: u64 = 8 << 20;

/// The join's cost per pair of halves an even spread over the group keys would give, in units
/// of the listing's cost per node (measured on N = 18 and 20 by the measurement `sample-ratios`
/// of `internals/measure.rs`: the join tests 64 pairs per table probe, a third of them once
/// large groups are split).
const PAIR_COST: f64 = 0.02;

/// The predicted cost of each subproblem of `todo` (0 for the fixed-point part) and its
/// estimated halves, by up to `probes` probes of each side, and the probes made: in rounds
/// (one probe of each side of every subproblem, then twice as many as all so far), each on
/// `threads` threads, no round started at or past `until` (the first always runs), so that a
/// busy machine or a huge plan makes fewer probes, never a late answer.
fn predict(
    plan: &Plan,
    todo: &[usize],
    (probes, threads, until): (usize, usize, Instant),
    rng: &mut Rng,
) -> (Vec<(f64, f64)>, usize) {
    let groups = f64::from(1u32 << (plan.n() as u32 - plan.pattern_columns.count_ones()));
    // Sums over the probes of (nodes, leaves) of each side of each subproblem.
    let mut sums = vec![[0.0f64; 4]; todo.len()];
    const CHUNK: usize = 1024;
    let mut made = 0;
    while made < probes && (made == 0 || Instant::now() < until) {
        let round = made.max(1).min(probes - made);
        // The chunks of subproblems are taken in turn by the threads, the calling one too (so
        // a thread that cannot start only slows the round).
        let cells: Vec<(usize, Mutex<&mut [[f64; 4]]>)> = sums
            .chunks_mut(CHUNK)
            .enumerate()
            .map(|(c, sums)| (c * CHUNK, Mutex::new(sums)))
            .collect();
        let next = AtomicUsize::new(0);
        let work = |seed: u64| {
            let mut rng = Rng::new(seed);
            let mut pick = |d: u32| rng.below(d as usize) as u32;
            while let Some((k, cell)) = cells.get(next.fetch_add(1, Ordering::Relaxed)) {
                let mut sums = cell.lock().unwrap_or_else(|e| e.into_inner());
                for (&i, sum) in todo[*k..].iter().zip(sums.iter_mut()) {
                    if let Some(sides) = sides(plan, i) {
                        probe_sides(&sides, round, &mut pick, sum);
                    }
                }
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..threads.max(1) {
                let (seed, work) = (rng.next_u64(), &work);
                let _ = std::thread::Builder::new().spawn_scoped(scope, move || work(seed));
            }
            work(rng.next_u64());
        });
        made += round;
    }
    let per = made.max(1) as f64;
    let predicted = todo
        .iter()
        .zip(&sums)
        .map(|(&i, sum)| match plan.parts[i] {
            Part::Fixed => (0.0, 0.0),
            Part::Pattern { .. } => predicted_of(sum.map(|x| x / per), groups),
        })
        .collect();
    (predicted, made)
}

/// The two listing walks of subproblem `i` of `plan`, none for the fixed-point part.
fn sides(plan: &Plan, i: usize) -> Option<[Side; 2]> {
    let (n, cols) = (plan.n(), plan.pattern_columns);
    let Part::Pattern { upper, first, .. } = plan.parts[i] else {
        return None;
    };
    Some([
        Side::upper(n, cols, upper),
        Side::lower(n, cols, upper, first),
    ])
}

/// Adds `probes` probes of each of `sides` to `sum`: (nodes, leaves) of the upper side, then
/// of the lower.
fn probe_sides(
    sides: &[Side; 2],
    probes: usize,
    pick: &mut impl FnMut(u32) -> u32,
    sum: &mut [f64; 4],
) {
    for (j, side) in sides.iter().enumerate() {
        for _ in 0..probes {
            let (nodes, leaves) = side.probe(&mut *pick);
            sum[2 * j] += nodes;
            sum[2 * j + 1] += leaves;
        }
    }
}

/// How many of the subproblems the first probes find largest (by halves, and by predicted
/// cost) are probed again to name the largest, and with how many fresh probes of each side. The
/// first probes are few (16 of each side at N = 23, of 176,737 subproblems) and Knuth's
/// estimates have long tails, so the most that any of them shows is mostly noise: at N = 23,
/// 2.9 to 3.9 GiB on 2 threads for a largest subproblem whose count peaks at 160 MiB. The most
/// by fresh probes of the few that look largest is not: the fresh estimates are unbiased, where
/// the first ones of a subproblem chosen for looking large are not. Cost: up to 2 x 64 x 4096
/// probes, under a second of one core at N = 24.
const REFINED: usize = 32;
const REFINE_PROBES: usize = 4096;

/// The largest subproblems of `todo`, by fresh probes: the one with the most halves (both
/// sides) and those halves, and the most predicted cost of any. The candidates are the
/// [`REFINED`] whose `predicted` halves are the most and the [`REFINED`] whose predicted cost
/// is, each probed [`REFINE_PROBES`] times a side, shared out between `threads` threads.
/// ((0, 0.0), 0.0) when `todo` has no subproblem with halves.
fn largest(
    plan: &Plan,
    todo: &[usize],
    predicted: &[(f64, f64)],
    threads: usize,
    rng: &mut Rng,
) -> ((usize, f64), f64) {
    let top = |by: fn(&(f64, f64)) -> f64| {
        let mut order: Vec<usize> = (0..todo.len())
            .filter(|&k| by(&predicted[k]) > 0.0)
            .collect();
        order.sort_unstable_by(|&a, &b| by(&predicted[b]).total_cmp(&by(&predicted[a])));
        order.truncate(REFINED);
        order
    };
    let mut order = top(|p| p.1);
    order.extend(top(|p| p.0));
    order.sort_unstable();
    order.dedup();
    let groups = f64::from(1u32 << (plan.n() as u32 - plan.pattern_columns.count_ones()));
    let found: Vec<Mutex<(f64, f64)>> = order.iter().map(|_| Mutex::new((0.0, 0.0))).collect();
    let next = AtomicUsize::new(0);
    // Each candidate has a random stream of its own, whichever thread probes it: the same
    // seed gives the same answer.
    let base = rng.next_u64();
    let work = || loop {
        let j = next.fetch_add(1, Ordering::Relaxed);
        let Some(&k) = order.get(j) else { break };
        let mut rng = Rng::new(base ^ (j as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut pick = |d: u32| rng.below(d as usize) as u32;
        let mut sum = [0.0; 4];
        if let Some(sides) = sides(plan, todo[k]) {
            probe_sides(&sides, REFINE_PROBES, &mut pick, &mut sum);
        }
        *found[j].lock().unwrap_or_else(|e| e.into_inner()) =
            predicted_of(sum.map(|x| x / REFINE_PROBES as f64), groups);
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.max(1).min(order.len()) {
            let _ = std::thread::Builder::new().spawn_scoped(scope, work);
        }
        work();
    });
    let found: Vec<(usize, (f64, f64))> = order
        .iter()
        .zip(&found)
        .map(|(&k, p)| (todo[k], *p.lock().unwrap_or_else(|e| e.into_inner())))
        .collect();
    let most = found
        .iter()
        .max_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
        .map_or((0, 0.0), |&(at, p)| (at, p.1));
    let cost = found.iter().map(|p| p.1 .0).fold(0.0, f64::max);
    (most, cost)
}

/// A subproblem's predicted cost and halves from the means of its probes, (nodes, leaves) of
/// the upper side then of the lower, its halves falling into `groups` groups: the walks' nodes
/// and a share of the pairs the join would meet if the halves spread evenly over the groups.
fn predicted_of([nu, u, nl, l]: [f64; 4], groups: f64) -> (f64, f64) {
    (nu + nl + PAIR_COST * u * l / groups, u + l)
}

/// Forecasts the subproblems `todo` of `plan` on `threads` threads: probes of every
/// subproblem, the fixed-point part timed, then subproblems drawn by their predicted cost and
/// counted whole for `sampling.budget`, and on until `FEWEST_DRAWS` are counted, but never
/// past `sampling.bound` from the start: the draws still running then are stopped and kept as
/// censored (the mean of their times so far makes a lower bound when none had finished). Each
/// draw is timed by `sampling`'s thread clock. A thread that cannot start, or a draw whose
/// halves find no memory, is an error (the other draws stop). `threads` is read as 1 to
/// [`MAX_THREADS`](crate::count::MAX_THREADS).
pub fn forecast(
    plan: &Plan,
    todo: &[usize],
    threads: usize,
    sampling: &Sampling,
) -> Result<Forecast, CountError> {
    let threads = threads.clamp(1, crate::count::MAX_THREADS);
    let start = Instant::now();
    let n = plan.n();
    let k = plan.pattern_columns.count_ones() as usize;
    let mut rng = Rng::from_entropy();
    let most = (2_000_000 / todo.len().max(1)).clamp(16, 2048);
    let until = sampling.probes_until(start);
    let (predicted, probes) = predict(plan, todo, (most, threads, until), &mut rng);
    let halves: f64 = predicted.iter().map(|p| p.1).sum();
    let ((at, most), largest_cost) = largest(plan, todo, &predicted, threads, &mut rng);
    let bytes_largest = (BYTES_PER_HALF * most) as u64;
    let weight: f64 = predicted.iter().map(|p| p.0).sum();
    let cumulative: Vec<f64> = predicted
        .iter()
        .scan(0.0, |acc, p| {
            *acc += p.0;
            Some(*acc)
        })
        .collect();
    // The fixed-point part first (well under a second of one core): the draws take what is
    // left of the bound.
    let fixed = if todo.iter().any(|&i| plan.parts[i] == Part::Fixed) {
        fixed_seconds(n, sampling)
    } else {
        (0.0, n, true)
    };
    let sample = sample_draws(
        plan,
        todo,
        &predicted,
        &cumulative,
        threads,
        sampling,
        start,
    )?;
    let (mean, error, at_least, closed_short) = mean_ratio(&sample.ratios, &sample.stopped);
    Ok(Forecast {
        subproblems: todo.len(),
        pattern_columns: k,
        probes,
        halves,
        largest: (at, most),
        bytes_largest,
        bytes_model: bytes_per_thread(n, k),
        sampled: (sample.ratios.len(), threads.max(1), sample.wall),
        sampled_seconds: sample.seconds,
        processor_time: sample.processor_time && fixed.2,
        stopped: sample.stopped.len(),
        bound_reached: sample.bound_reached,
        pattern_seconds: weight * mean,
        pattern_error: weight * error,
        at_least,
        closed_short,
        fixed: (fixed.0, fixed.1),
        largest_seconds: largest_cost * mean,
    })
}

/// The mean of the draws' `ratios` (seconds / predicted cost), the draws `stopped` by the
/// bound (their seconds so far / predicted cost) kept as censored: their Kaplan–Meier mean, its
/// standard error (0 with fewer than two counted whole; with none stopped, the sample's usual
/// one, its variance over m - 1), whether it is only a lower bound (no draw counted whole: the
/// mean of the `stopped` ratios; 0, and no bound, when there are none either), and whether
/// the curve was closed at a stopped draw's, the largest ratio, so that it may be short.
fn mean_ratio(ratios: &[f64], stopped: &[f64]) -> (f64, f64, bool, bool) {
    match kaplan_meier_mean(ratios, stopped) {
        Some(km) => (km.mean, km.error, false, km.closed_short),
        None => {
            let mean = stopped.iter().sum::<f64>() / stopped.len().max(1) as f64;
            (mean, 0.0, !stopped.is_empty(), false)
        }
    }
}

/// What the draws of [`sample_draws`] found.
struct Sample {
    /// Seconds / predicted cost of each draw counted whole.
    ratios: Vec<f64>,
    /// Seconds so far / predicted cost of each draw the bound stopped.
    stopped: Vec<f64>,
    /// The seconds the draws counted whole took, added up.
    seconds: f64,
    /// Whether every draw was timed by the thread clock.
    processor_time: bool,
    /// The wall time of the sample.
    wall: f64,
    /// Whether the bound ended it.
    bound_reached: bool,
}

/// Draws subproblems of `todo` by their `predicted` cost (`cumulative`: its running sums) and
/// counts them whole on `threads` threads at once, as [`forecast`] says, the bound counted from
/// `start`.
fn sample_draws(
    plan: &Plan,
    todo: &[usize],
    predicted: &[(f64, f64)],
    cumulative: &[f64],
    threads: usize,
    sampling: &Sampling,
    start: Instant,
) -> Result<Sample, CountError> {
    let n = plan.n();
    let weight = cumulative.last().copied().unwrap_or(0.0);
    let sample_start = Instant::now();
    let timed = Mutex::new(Sample {
        ratios: Vec::new(),
        stopped: Vec::new(),
        seconds: 0.0,
        processor_time: true,
        wall: 0.0,
        bound_reached: false,
    });
    // Raised at the bound or when a thread failed: the draws running are stopped.
    let stop = AtomicBool::new(false);
    let failed = Mutex::new(None::<CountError>);
    let fail = |err: CountError| {
        stop.store(true, Ordering::Relaxed);
        failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(err);
    };
    let threads = threads.max(1);
    let drawn = AtomicUsize::new(0);
    let running = AtomicUsize::new(0);
    let mut seeds = Rng::from_entropy();
    if weight > 0.0 && goes_on(sampling, start.elapsed(), 0) {
        std::thread::scope(|scope| {
            for t in 0..threads {
                let seed = seeds.next_u64() ^ t as u64;
                let (timed, stop, fail, drawn, running) = (&timed, &stop, &fail, &drawn, &running);
                running.fetch_add(1, Ordering::Relaxed);
                let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                    let mut rng = Rng::new(seed);
                    while goes_on(sampling, start.elapsed(), drawn.load(Ordering::Relaxed))
                        && !stop.load(Ordering::Relaxed)
                    {
                        let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * weight;
                        let at = cumulative.partition_point(|&c| c <= x).min(todo.len() - 1);
                        let cost = predicted[at].0;
                        if cost <= 0.0 {
                            continue;
                        }
                        let watch = sampling.stopwatch();
                        let result = plan.solve(todo[at], stop);
                        let (seconds, by_cpu) = watch.seconds();
                        let mut timed = timed.lock().unwrap_or_else(|e| e.into_inner());
                        timed.processor_time &= by_cpu;
                        match result {
                            Ok(Some(_)) => {
                                timed.ratios.push(seconds / cost);
                                timed.seconds += seconds;
                                drawn.fetch_add(1, Ordering::Relaxed);
                            }
                            Ok(None) => timed.stopped.push(seconds / cost),
                            Err(err) => {
                                drop(timed);
                                fail(CountError::OutOfMemory {
                                    n,
                                    bytes: err.bytes,
                                });
                            }
                        }
                    }
                    running.fetch_sub(1, Ordering::Relaxed);
                });
                if let Err(err) = spawned {
                    running.fetch_sub(1, Ordering::Relaxed);
                    fail(CountError::Threads(err.to_string()));
                    break;
                }
            }
            // This thread keeps the bound: the draws still running then are stopped.
            while running.load(Ordering::Relaxed) > 0 {
                if start.elapsed() >= sampling.bound {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
    }
    if let Some(err) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(err);
    }
    let mut sample = timed.into_inner().unwrap_or_else(|e| e.into_inner());
    sample.wall = sample_start.elapsed().as_secs_f64();
    sample.bound_reached = sample.ratios.len() < FEWEST_DRAWS && start.elapsed() >= sampling.bound;
    sample.processor_time &= !sample.ratios.is_empty() || !sample.stopped.is_empty();
    Ok(sample)
}

/// Whether the sample draws again, `elapsed` into the forecast with `drawn` draws counted:
/// within `sampling.budget`, and past it while fewer than `FEWEST_DRAWS` are counted; never
/// at or past `sampling.bound`.
fn goes_on(sampling: &Sampling, elapsed: Duration, drawn: usize) -> bool {
    elapsed < sampling.bound && (elapsed < sampling.budget || drawn < FEWEST_DRAWS)
}

/// Seconds of one core the fixed-point part of `n` takes (estimated), the board timed, and
/// whether it was timed by `sampling`'s thread clock.
fn fixed_seconds(n: usize, sampling: &Sampling) -> (f64, usize, bool) {
    let mut by_cpu = true;
    let mut time = |m: usize| {
        let never = AtomicBool::new(false);
        let watch = sampling.stopwatch();
        let _ = half_turn_until(m, &never);
        let _ = quarter_turn_until(m, &never);
        let (seconds, cpu) = watch.seconds();
        by_cpu &= cpu;
        seconds
    };
    if n <= 18 {
        let seconds = time(n);
        return (seconds, n, by_cpu);
    }
    // The largest board up to 18 with the same residue mod 4 (the quarter turn fixes
    // solutions only when N is 4k or 4k + 1), and its growth over 4 rows.
    let m = n - 4 * (n - 18).div_ceil(4);
    let (now, before) = (time(m), time(m - 4).max(1e-6));
    let growth = (now / before).clamp(4.0, 40.0);
    (now * growth.powf((n - m) as f64 / 4.0), m, by_cpu)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The halves the listings of subproblem `i` of `plan` really hold (both sides).
    fn listed(plan: &Plan, i: usize) -> usize {
        use crate::count::halves::group::{Groups, Key};
        use crate::count::halves::list::{list_lowers, list_uppers};
        let Part::Pattern { upper, first, .. } = plan.parts[i] else {
            return 0;
        };
        let (n, cols) = (plan.n(), plan.pattern_columns);
        let never = AtomicBool::new(false);
        let key = Key {
            shift: cols.trailing_ones(),
            bits: n as u32 - cols.count_ones(),
        };
        let full = (1u32 << n) - 1;
        let (mut ups, mut lows) = (Groups::default(), Groups::default());
        let lower = cols & !upper;
        list_uppers(n, n / 2, full & !lower, upper, full, key, &never, &mut ups).unwrap();
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
        ups.len() + lows.len()
    }

    /// The probes' halves of every subproblem of a small board add up to the halves the
    /// listings really hold, within a few per cent.
    #[test]
    fn the_probes_size_the_listings() {
        for n in [12, 13] {
            let plan = Plan::new(n, 4);
            let todo: Vec<usize> = (0..plan.len()).collect();
            let later = Instant::now() + Duration::from_secs(3600);
            let (predicted, made) = predict(&plan, &todo, (4000, 2, later), &mut Rng::new(7));
            assert_eq!(made, 4000);
            // With no time left, one round: one probe of each side of every subproblem.
            let (once, made) = predict(&plan, &todo, (4000, 2, Instant::now()), &mut Rng::new(7));
            assert_eq!((made, once.len()), (1, todo.len()));
            let listed: usize = todo.iter().map(|&i| listed(&plan, i)).sum();
            let estimated: f64 = predicted.iter().map(|p| p.1).sum();
            let error = (estimated - listed as f64).abs() / listed as f64;
            assert!(
                error < 0.03,
                "N = {n}: {estimated} estimated, {listed} listed"
            );
        }
    }

    /// From a few probes of each subproblem, whose most halves are mostly noise, the largest
    /// subproblem is found by fresh probes within about 10 % of the most halves any
    /// subproblem really lists, and it is one of the largest; the few probes' own most is
    /// further off (what the forecast reported before).
    #[test]
    fn fresh_probes_name_the_largest_subproblem() {
        let plan = Plan::new(16, 12);
        let todo: Vec<usize> = (0..plan.len()).collect();
        let exact: Vec<usize> = todo.iter().map(|&i| listed(&plan, i)).collect();
        let most = *exact.iter().max().unwrap() as f64;
        let mut rng = Rng::new(4);
        let later = Instant::now() + Duration::from_secs(3600);
        let (predicted, _) = predict(&plan, &todo, (2, 2, later), &mut rng);
        assert!(todo.len() > 4 * REFINED, "{} subproblems", todo.len());
        let noisy = predicted.iter().map(|p| p.1).fold(0.0, f64::max);
        let ((at, halves), cost) = largest(&plan, &todo, &predicted, 2, &mut rng);
        let off = |x: f64| (x - most).abs() / most;
        assert!(off(halves) < 0.12, "{halves} found, {most} the most");
        assert!(
            exact[at] as f64 > 0.9 * most,
            "{} at {at}, {most} the most",
            exact[at]
        );
        assert!(off(noisy) > off(halves), "{noisy} by the first probes");
        let costs = predicted.iter().map(|p| p.0).fold(0.0, f64::max);
        assert!(cost > 0.0 && cost <= costs * 2.0, "{cost} against {costs}");
    }

    /// A forecast of a small board names its plan's subproblems, memory within the model, and
    /// times that add up (no timing asserted: only that they are there and consistent).
    #[test]
    fn a_forecast_is_consistent_with_its_plan() {
        let plan = Plan::new(14, 6);
        let todo: Vec<usize> = (0..plan.len()).collect();
        let sampling = Sampling::new(Duration::from_millis(100), Duration::from_secs(60));
        let f = forecast(&plan, &todo, 2, &sampling).unwrap();
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
        assert!(!f.processor_time && !f.at_least, "{f:?}");
        // A shard without the fixed-point part has no time for it.
        let none = Sampling::new(Duration::ZERO, Duration::ZERO);
        let f = forecast(&plan, &todo[1..3], 1, &none).unwrap();
        assert_eq!((f.subproblems, f.fixed.0), (2, 0.0));
    }

    /// The sample takes its budget, then goes on while it has too few draws for a standard
    /// error of about 10 %, but never at or past its bound.
    #[test]
    fn the_sample_goes_on_until_it_has_enough_draws_within_its_bound() {
        let sampling = Sampling::new(Duration::from_secs(4), Duration::from_secs(10));
        let at = |s: f64| Duration::from_secs_f64(s);
        assert!(goes_on(&sampling, at(3.9), 1000));
        assert!(!goes_on(&sampling, at(4.0), FEWEST_DRAWS));
        assert!(goes_on(&sampling, at(4.0), FEWEST_DRAWS - 1));
        assert!(goes_on(&sampling, at(9.9), 7));
        assert!(!goes_on(&sampling, at(10.0), 7));
        let none = Sampling::new(Duration::from_secs(4), Duration::ZERO);
        assert!(!goes_on(&none, Duration::ZERO, 0));
    }

    /// The forecast keeps its bound on boards whose single subproblems take seconds to count
    /// (N = 24: a join of billions of pairs): the draws running at the bound stop within
    /// a fraction of a second (they ran on for up to 4 s, in a group's join), and the probes
    /// leave the draws most of the bound. The bound is short (2 s) and the slack wide (1.5 s)
    /// so that a busy machine cannot fail it.
    #[test]
    fn the_bound_holds_on_a_board_of_long_subproblems() {
        let plan = Plan::new(24, 22);
        let todo: Vec<usize> = (0..plan.len()).step_by(101).collect();
        let bound = Duration::from_secs(2);
        let sampling = Sampling::new(Duration::from_secs(1), bound);
        let start = Instant::now();
        let f = forecast(&plan, &todo, 2, &sampling).unwrap();
        let took = start.elapsed();
        assert!(
            took < bound + Duration::from_millis(1500),
            "{took:?}: {f:?}"
        );
        assert!(f.probes >= 1 && f.halves > 0.0, "{f:?}");
    }

    /// Issue 36: with no time left, the forecast still answers, from what it has: the sizes,
    /// the memory and the fixed points, no draw, and the bound said to be reached.
    #[test]
    fn a_bound_reached_before_any_draw_still_gives_a_forecast() {
        let plan = Plan::new(14, 6);
        let todo: Vec<usize> = (0..plan.len()).collect();
        let sampling = Sampling::new(Duration::from_secs(4), Duration::ZERO);
        let f = forecast(&plan, &todo, 2, &sampling).unwrap();
        assert_eq!((f.sampled.0, f.stopped), (0, 0), "{f:?}");
        assert!(f.bound_reached && !f.at_least, "{f:?}");
        assert_eq!((f.pattern_seconds, f.pattern_error), (0.0, 0.0), "{f:?}");
        assert!(f.halves > 0.0 && f.fixed.0 > 0.0, "{f:?}");
    }

    /// Issue 36: the draws are timed by the thread clock of the `Sampling` (here a fake one,
    /// a second per draw), not by the wall clock: a busy machine does not inflate them.
    #[test]
    fn the_draws_are_timed_by_the_thread_clock_given() {
        use crate::count::estimate::one_second_per_reading;
        let plan = Plan::new(14, 6);
        let todo: Vec<usize> = (0..plan.len()).collect();
        let sampling = Sampling::new(Duration::ZERO, Duration::from_secs(600))
            .timed_by(one_second_per_reading);
        let f = forecast(&plan, &todo, 2, &sampling).unwrap();
        assert!(f.processor_time && f.sampled.0 >= FEWEST_DRAWS, "{f:?}");
        assert_eq!(f.sampled_seconds, f.sampled.0 as f64, "{f:?}");
        // N = 14's fixed points timed once: one second.
        assert_eq!(f.fixed, (1.0, 14), "{f:?}");
    }

    /// The time comes from the draws counted whole and those stopped, censored, with its
    /// standard error, flagged as possibly short when a stopped draw has the largest ratio;
    /// when the bound stopped every draw, from the time those had taken, as a lower bound.
    #[test]
    fn the_mean_ratio_keeps_the_draws_stopped_as_censored_else_bounds_from_them() {
        // 1 and 3 counted, one stopped at 100 (see `kaplan_meier.rs`): 104/3, closed short, no
        // lower bound; stopped at 2, below the largest: 7/3 (1 + 2/3 * 2), not closed short.
        let (mean, _, at_least, short) = mean_ratio(&[1.0, 3.0], &[100.0]);
        assert!((mean - 104.0 / 3.0).abs() < 1e-12 && !at_least && short);
        let (mean, _, at_least, short) = mean_ratio(&[1.0, 3.0], &[2.0]);
        assert!((mean - 7.0 / 3.0).abs() < 1e-12 && !at_least && !short);
        assert_eq!(mean_ratio(&[1.0, 3.0], &[]), (2.0, 1.0, false, false));
        assert_eq!(mean_ratio(&[2.0], &[]), (2.0, 0.0, false, false));
        assert_eq!(mean_ratio(&[], &[2.0, 4.0]), (3.0, 0.0, true, false));
        assert_eq!(mean_ratio(&[], &[]), (0.0, 0.0, false, false));
    }
}
