//! Knowing before counting: an estimate of a run's search nodes and time.
//!
//! The idea: the size of a backtrack tree is estimated without walking it by random probes
//! (D. E. Knuth, "Estimating the efficiency of backtrack programs", Math. Comp. 29, 1975):
//! walk down from the root choosing one child at random at each level; if the levels offer
//! `d1, d2, ...` children, then `1 + d1 + d1 d2 + d1 d2 d3 + ...` is an unbiased estimate of the
//! number of nodes. Averaged over many probes of every subproblem of the run (the plain
//! search's tree of each frame), that gives the run's nodes; a time per node, measured by
//! counting random subproblems whole for a moment (on the same board when they are small
//! enough, else on the largest board whose frames the probes find small enough), turns nodes
//! into seconds. The counts are timed by the processor time of the thread that makes them
//! when a [`Sampling`] clock gives it (the engine itself cannot read it: the binary passes
//! one), so that a busy machine does not make them look slower; and the whole estimate keeps
//! within [`Sampling::bound`] of wall time: a count still running at the end of its sample is
//! stopped and kept as a censored observation, one whose seconds per node are at least its
//! seconds so far over its frame's nodes, and the time per node is the Kaplan–Meier mean of the
//! counts weighted by their nodes (`kaplan_meier.rs`), which is their seconds over their nodes
//! when none was stopped; leaving the stopped ones out would bias it short, the long counts
//! being the ones cut. When none finished, the stopped ones' seconds so far over their nodes
//! are a lower bound. Cost: up to about 4 million probes, in rounds, none begun past 30 % of
//! the bound, and sample counts for the rest of it, whatever N.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::frames::engine;
use super::frames::frame::{subproblems, Subproblem};
use super::frames::kernel::Setup;
use super::frames::pieces;
use super::kaplan_meier::{kaplan_meier_mean, weighted_kaplan_meier_mean};
use super::sampling::Sampling;
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
    /// Seconds of one core per estimated node (0 when no count finished within the bound or
    /// was stopped by it; only a lower bound when `at_least`).
    pub seconds_per_node: f64,
    /// With pieces: seconds of one core each piece costs besides its nodes (its set-up and
    /// its join of the last rows), measured on random pieces of the board counted whole, and
    /// how many were (0 and 0 when none finished within the bound).
    pub seconds_per_piece: (f64, usize),
    /// The board whose subproblems were counted whole to measure that.
    pub calibrated_on: usize,
    /// How many subproblems were counted whole, and in how many seconds (processor time when
    /// `processor_time`).
    pub calibration: (usize, f64),
    /// Whether the counts were timed by the processor time of their thread (else the wall
    /// clock: no thread clock was given, or it failed).
    pub processor_time: bool,
    /// Whether the bound stopped the counts before three had finished on a board.
    pub bound_reached: bool,
    /// How many counts of the board timed were stopped at the end of their sample before they
    /// finished: censored observations of the time per node (each took at least its seconds
    /// so far over its frame's nodes), not in `calibration`.
    pub stopped: usize,
    /// With pieces: how many pieces timed were stopped before they finished, censored
    /// observations of their cost, not in `seconds_per_piece.1`.
    pub pieces_stopped: usize,
    /// Whether `seconds_per_node` (and so [`Estimate::core_seconds`]) is only a lower bound:
    /// no count finished within the bound, and it is the stopped ones' seconds so far over
    /// their nodes.
    pub at_least: bool,
    /// Whether a stopped count had the most seconds per node: the Kaplan–Meier curve, closed
    /// there, leaves out what it would have taken more, so the time may be short (it is still
    /// an estimate, not a bound).
    pub closed_short: bool,
    /// With pieces: whether a stopped piece had the most seconds, so that the cost of a piece
    /// may be short, as [`Estimate::closed_short`] says of the time per node.
    pub pieces_closed_short: bool,
}

impl Estimate {
    /// Seconds of one core for the whole shard (0 when no count finished within the bound or
    /// was stopped by it; a lower bound when `at_least`): its nodes, and with pieces what each
    /// piece costs besides.
    pub fn core_seconds(&self) -> f64 {
        let pieces = self.pieces.map_or(0.0, |(count, _)| count);
        self.nodes * self.seconds_per_node + pieces * self.seconds_per_piece.0
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
pub(crate) fn random_piece(
    n: usize,
    sub: &Subproblem,
    depth: usize,
    rng: &mut Rng,
) -> Option<Subproblem> {
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
///
/// # Panics
/// When `sub` is not a subproblem of the `n` x `n` board (one of [`subproblems`]`(n)`, or a
/// piece cut from one).
pub fn probe_nodes(n: usize, sub: &Subproblem, probes: usize) -> f64 {
    mean_probe(&setup(n, sub), &mut Rng::from_entropy(), probes, usize::MAX).0
}

/// The most probes of each subproblem [`estimate`] makes: about 4 million in all, 16 to 4,096
/// of each.
fn probes_wanted(subproblems: usize) -> usize {
    (4_000_000 / subproblems.max(1)).clamp(16, 4096)
}

/// The mean of the probes of each subproblem of `todo` (its estimated nodes, and those at
/// `depth`), and the probes made of each: in rounds (one probe of every subproblem, then as
/// many as all so far), up to [`probes_wanted`], no round started at or past `until` (the
/// first always runs), so that a busy machine or a large board makes fewer probes, never a
/// late answer.
fn probe_rounds(
    n: usize,
    plan: &[Subproblem],
    todo: &[usize],
    depth: usize,
    until: Instant,
    rng: &mut Rng,
) -> (Vec<(f64, f64)>, usize) {
    let wanted = probes_wanted(todo.len());
    let mut sums = vec![(0.0f64, 0.0f64); todo.len()];
    let mut made = 0;
    while made < wanted && (made == 0 || Instant::now() < until) {
        let round = made.max(1).min(wanted - made);
        for (&i, sum) in todo.iter().zip(sums.iter_mut()) {
            let (nodes, cut) = mean_probe(&setup(n, &plan[i]), rng, round, depth);
            sum.0 += nodes * round as f64;
            sum.1 += cut * round as f64;
        }
        made += round;
    }
    let per = made.max(1) as f64;
    let means = sums.iter().map(|&(a, b)| (a / per, b / per)).collect();
    (means, made)
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

/// [`mean_probe`] of frame `sub` of the board of `n`: its estimated nodes, and those at `depth`.
pub(crate) fn probe_frame(
    n: usize,
    sub: &Subproblem,
    rng: &mut Rng,
    probes: usize,
    depth: usize,
) -> (f64, f64) {
    mean_probe(&setup(n, sub), rng, probes, depth)
}

/// The most nodes a frame of the board the time per node is measured on averages, by the
/// probes: about a second of one core, so that a few frames are counted in [`Sampling::budget`].
const CALIBRATION_NODES: f64 = 1e8;

/// Estimates shard `shard` of the `n` x `n` board, its frames cut into pieces at `depth` rows
/// (0: whole frames; the frame engine's plan cuts at [`pieces::depth_for`]): its nodes by
/// probes of every subproblem, and the time per node by counting random subproblems whole as
/// `sampling` says.
///
/// With pieces (see `pieces`), the probes also estimate how many
/// pieces there are, and 64 random pieces of each of the 8 largest frames are probed in turn:
/// the most nodes among them is the size of the largest piece as far as a sample can tell (a
/// lower bound of the true largest, usually close: pieces of one frame differ less than frames).
/// A shard of pieces holds about `1/M` of every frame.
///
/// The time per node is measured on this board when its frames average at most
/// `CALIBRATION_NODES` by the probes, else on the largest smaller board whose frames do: random
/// frames counted whole for `sampling.budget`, then on the next smaller board while fewer than
/// three finished, until `sampling.bound` from the start. A count running at the end of its
/// board's sample is stopped and kept as censored: the time per node is the Kaplan–Meier mean
/// of the counts' seconds per node, weighted by their nodes (their seconds over their nodes when
/// none stopped; the module's docs say more). The board timed is the last with a count
/// finished, else the first with one stopped.
pub fn estimate(
    n: usize,
    shard: Shard,
    depth: usize,
    sampling: &Sampling,
) -> Result<Estimate, CountError> {
    check_size(n)?;
    let start = Instant::now();
    let plan = subproblems(n);
    let (todo, share) = if depth > 0 {
        ((0..plan.len()).collect(), 1.0 / shard.count() as f64)
    } else {
        (shard.select(plan.len()), 1.0)
    };
    let mut rng = Rng::from_entropy();
    let until = sampling.probes_until(start);
    let (means, probes) = probe_rounds(n, &plan, &todo, depth, until, &mut rng);
    let (mut nodes, mut largest, mut piece_count) = (0.0f64, (0usize, 0.0f64), 0.0f64);
    let mut sizes = Vec::with_capacity(todo.len());
    // Each frame's pieces, by the probes, with the frame: to draw pieces at random below.
    let mut cuts = Vec::new();
    for (&i, &(here, cut)) in todo.iter().zip(&means) {
        nodes += here * share;
        piece_count += cut * share;
        if depth > 0 {
            cuts.push((cut, i));
        }
        sizes.push((here, i));
        if here > largest.1 {
            largest = (i, here);
        }
    }
    let mean_frame = sizes.iter().map(|s| s.0).sum::<f64>() / sizes.len().max(1) as f64;
    let pieces = (depth > 0).then(|| {
        (
            piece_count,
            largest_piece(n, &plan, &mut sizes, depth, &mut rng),
        )
    });
    let mut board = calibration_board(n, mean_frame, &mut rng);
    let deadline = start + sampling.bound;
    let mut timed = Calibration {
        board,
        counts: Vec::new(),
        processor_time: false,
    };
    let mut bound_reached = false;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            bound_reached = true;
            break;
        }
        let here = calibrate(board, sampling.budget.min(left), sampling)?;
        let finished = here.finished();
        if finished > 0 || timed.counts.is_empty() {
            timed = here;
        }
        if finished >= 3 || board <= 12 {
            break;
        }
        board -= 1;
    }
    let count = timed.finished();
    let seconds: f64 = timed
        .counts
        .iter()
        .filter(|c| !c.stopped)
        .map(|c| c.seconds)
        .sum();
    let per_node = PerNode::of(&timed.counts);
    // With pieces, what a piece costs besides its nodes, on random pieces of this board for
    // what is left of the bound (at most 2 s).
    let left = deadline.saturating_duration_since(Instant::now());
    // Not when the time per node is only a lower bound: a piece's seconds less its nodes' time
    // by that bound would overstate what it costs besides, and the total would no longer be a
    // lower bound (without it, it is one: a piece costs at least nothing besides).
    let per_piece = if depth > 0 && per_node.seconds > 0.0 && !per_node.at_least && !left.is_zero()
    {
        let budget = left.min(Duration::from_secs(2));
        piece_overhead(
            n,
            &plan,
            &cuts,
            (depth, per_node.seconds),
            budget,
            sampling,
            &mut rng,
        )?
    } else {
        PieceCost::default()
    };
    Ok(Estimate {
        subproblems: todo.len(),
        nodes,
        probes,
        largest,
        depth,
        pieces,
        seconds_per_node: per_node.seconds,
        seconds_per_piece: (per_piece.seconds, per_piece.timed),
        calibrated_on: timed.board,
        calibration: (count, seconds),
        processor_time: timed.processor_time,
        bound_reached: bound_reached && count < 3,
        stopped: timed.counts.len() - count,
        pieces_stopped: per_piece.stopped,
        at_least: per_node.at_least,
        closed_short: per_node.closed_short,
        pieces_closed_short: per_piece.closed_short,
    })
}

/// One count of a frame timed for the time per node: its seconds (so far, when `stopped`), its
/// frame's nodes by the probes, and whether it was stopped before it finished.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Timed {
    seconds: f64,
    nodes: f64,
    stopped: bool,
}

/// What [`calibrate`] timed on one board.
struct Calibration {
    /// The board.
    board: usize,
    /// Its counts, in the order made: at most the last was stopped.
    counts: Vec<Timed>,
    /// Whether every count was timed by the thread's processor time (false without counts).
    processor_time: bool,
}

impl Calibration {
    /// How many counts finished.
    fn finished(&self) -> usize {
        self.counts.iter().filter(|c| !c.stopped).count()
    }
}

/// The time per node from the counts timed.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PerNode {
    /// Seconds per node (0 without a count).
    seconds: f64,
    /// Whether it is only a lower bound: no count finished.
    at_least: bool,
    /// Whether the count of the most seconds per node was stopped, so that it may be short.
    closed_short: bool,
}

impl PerNode {
    /// The time per node of `counts`: the Kaplan–Meier mean of their seconds per node,
    /// weighted by their nodes, the stopped ones censored at their seconds so far (each took
    /// at least that), so that with none stopped it is their seconds over their nodes, the run's
    /// time per node as far as a sample of frames drawn at random tells it. With none
    /// finished, the stopped ones' seconds so far over their nodes, a lower bound; 0 without a
    /// count.
    fn of(counts: &[Timed]) -> PerNode {
        let ratio = |c: &Timed| (c.seconds / c.nodes, c.nodes);
        let (finished, stopped): (Vec<&Timed>, Vec<&Timed>) = counts
            .iter()
            .filter(|c| c.nodes > 0.0)
            .partition(|c| !c.stopped);
        let events: Vec<(f64, f64)> = finished.iter().map(|c| ratio(c)).collect();
        let censored: Vec<(f64, f64)> = stopped.iter().map(|c| ratio(c)).collect();
        if let Some((seconds, closed_short)) = weighted_kaplan_meier_mean(&events, &censored) {
            return PerNode {
                seconds,
                at_least: false,
                closed_short,
            };
        }
        let seconds: f64 = stopped.iter().map(|c| c.seconds).sum();
        let nodes: f64 = stopped.iter().map(|c| c.nodes).sum();
        PerNode {
            seconds: if nodes > 0.0 { seconds / nodes } else { 0.0 },
            at_least: !stopped.is_empty(),
            closed_short: false,
        }
    }
}

/// What a piece costs besides its nodes, by [`piece_overhead`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct PieceCost {
    /// Seconds a piece costs besides its nodes, at least 0 (0 without a piece finished).
    seconds: f64,
    /// How many pieces finished.
    timed: usize,
    /// How many were stopped before they finished.
    stopped: usize,
    /// Whether the piece of the most seconds was stopped, so that the cost may be short.
    closed_short: bool,
}

impl PieceCost {
    /// The cost of pieces timed, each (its seconds, so far when stopped; its nodes by the
    /// probes; whether it was stopped), at `per_node` seconds a node: the Kaplan–Meier mean of
    /// their seconds, the stopped ones censored, less `per_node` times the mean of the nodes of
    /// them all (which the stop does not hide), at least 0: the mean of their seconds less
    /// their nodes' time when none was stopped.
    fn of(pieces: &[Timed], per_node: f64) -> PieceCost {
        let seconds = |stopped: bool| -> Vec<f64> {
            pieces
                .iter()
                .filter(|p| p.stopped == stopped)
                .map(|p| p.seconds)
                .collect()
        };
        let (finished, stopped) = (seconds(false), seconds(true));
        let Some(km) = kaplan_meier_mean(&finished, &stopped) else {
            return PieceCost {
                stopped: stopped.len(),
                ..PieceCost::default()
            };
        };
        let nodes = pieces.iter().map(|p| p.nodes).sum::<f64>() / pieces.len() as f64;
        PieceCost {
            seconds: (km.mean - nodes * per_node).max(0.0),
            timed: finished.len(),
            stopped: stopped.len(),
            closed_short: km.closed_short,
        }
    }
}

/// The board whose subproblems are counted whole to time a node: `n` if its frames average
/// `mean_frame` nodes, at most [`CALIBRATION_NODES`], else the largest smaller one whose
/// frames the probes find so (at least 12). The frames' nodes grow about tenfold a board, so
/// that one is sought upwards from 12: the boards near `n` cost the most to plan (N = 32's
/// plan takes 0.17 s, N = 20's 0.02 s).
fn calibration_board(n: usize, mean_frame: f64, rng: &mut Rng) -> usize {
    if mean_frame <= CALIBRATION_NODES {
        return n;
    }
    let mut board = 12;
    while board + 1 < n && mean_frame_nodes(board + 1, rng) <= CALIBRATION_NODES {
        board += 1;
    }
    board
}

/// The mean nodes of the frames of the `n` x `n` board, by 64 probes of up to 64 of them drawn
/// at random.
fn mean_frame_nodes(n: usize, rng: &mut Rng) -> f64 {
    let plan = subproblems(n);
    if plan.is_empty() {
        return 0.0;
    }
    let draws = plan.len().min(64);
    let sum: f64 = (0..draws)
        .map(|_| {
            let sub = &plan[rng.below(plan.len())];
            mean_probe(&setup(n, sub), rng, 64, usize::MAX).0
        })
        .sum();
    sum / draws as f64
}

/// The most nodes among 64 random pieces (cut at `depth`) of each of the 8 frames of `plan`
/// with the most estimated nodes (`sizes`: the estimate and the frame, in any order).
pub(crate) fn largest_piece(
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
/// `budget` of wall time: each count's seconds and its frame's nodes by the probes, the one
/// still running at the budget stopped and kept with its seconds so far; and whether the
/// seconds are this thread's processor time (by `sampling`'s clock) or wall time. The thread
/// that stops the last count at the budget must start: an error otherwise.
fn calibrate(n: usize, budget: Duration, sampling: &Sampling) -> Result<Calibration, CountError> {
    let plan = subproblems(n);
    let mut rng = Rng::from_entropy();
    let cancel = AtomicBool::new(false);
    let start = Instant::now();
    let (mut counts, mut cpu) = (Vec::new(), true);
    let mut done = vec![false; plan.len()];
    under_budget(budget, &cancel, || {
        while start.elapsed() < budget && counts.len() < plan.len() {
            let i = rng.below(plan.len());
            if done[i] {
                continue;
            }
            let watch = sampling.stopwatch();
            // The same path as a run's, so that the time is a run's time per node.
            let finished = engine::solve(n, &plan[i], &cancel).is_some();
            let (seconds, by_cpu) = watch.seconds();
            done[i] = true;
            cpu &= by_cpu;
            counts.push(Timed {
                seconds,
                nodes: probe_nodes(n, &plan[i], 256),
                stopped: !finished,
            });
            if !finished {
                break;
            }
        }
    })?;
    let processor_time = cpu && !counts.is_empty();
    Ok(Calibration {
        board: n,
        counts,
        processor_time,
    })
}

/// What a piece costs besides its nodes: random pieces of the board (a frame drawn by its
/// pieces, `cuts`, then a piece of it by a probe's walk) counted whole by the run's path, one
/// after another on this thread, for up to `budget` (a count still running then is stopped
/// and kept as censored), their seconds less their nodes (by 64 probes) times `per_node`, as
/// [`PieceCost::of`] takes the mean. Small pieces (N = 17 cut at 2 or 3 rows) cost tens of
/// microseconds each besides their nodes: their count would take 4 to 8 times the nodes' time.
fn piece_overhead(
    n: usize,
    plan: &[Subproblem],
    cuts: &[(f64, usize)],
    (depth, per_node): (usize, f64),
    budget: Duration,
    sampling: &Sampling,
    rng: &mut Rng,
) -> Result<PieceCost, CountError> {
    let total: f64 = cuts.iter().map(|c| c.0).sum();
    if total <= 0.0 {
        return Ok(PieceCost::default());
    }
    let cancel = AtomicBool::new(false);
    let start = Instant::now();
    let mut pieces = Vec::new();
    under_budget(budget, &cancel, || {
        // At most 4,096 pieces: enough for the mean, and no long loop on tiny ones.
        while start.elapsed() < budget && pieces.len() < 4096 {
            let mut at = rng.below(1 << 30) as f64 / f64::from(1u32 << 30) * total;
            let frame = cuts
                .iter()
                .find(|c| {
                    at -= c.0;
                    at < 0.0
                })
                .map_or(cuts[cuts.len() - 1].1, |c| c.1);
            let Some(piece) = random_piece(n, &plan[frame], depth, rng) else {
                continue;
            };
            let watch = sampling.stopwatch();
            let finished = engine::solve_piece(n, &piece, &cancel, false).is_some();
            let (seconds, _) = watch.seconds();
            pieces.push(Timed {
                seconds,
                nodes: probe_nodes(n, &piece, 64),
                stopped: !finished,
            });
            if !finished {
                break;
            }
        }
    })?;
    Ok(PieceCost::of(&pieces, per_node))
}

/// Runs `body` while a thread of its own raises `cancel` once `budget` has passed since the
/// call (or `body` has ended), so that a count in `body` that runs past the budget stops
/// there. An error when that thread cannot start.
fn under_budget<R>(
    budget: Duration,
    cancel: &AtomicBool,
    body: impl FnOnce() -> R,
) -> Result<R, CountError> {
    let start = Instant::now();
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .spawn_scoped(scope, || {
                while start.elapsed() < budget && !cancel.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                cancel.store(true, Ordering::Relaxed);
            })
            .map_err(|e| CountError::Threads(e.to_string()))?;
        let result = body();
        cancel.store(true, Ordering::Relaxed);
        Ok(result)
    })
}

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
pub(crate) fn exact_plan_nodes(n: usize, plan: &[Subproblem]) -> f64 {
    plan.iter()
        .map(|sub| {
            let s = setup(n, sub);
            exact_nodes(&s, 0, s.cols, 0, 0)
        })
        .sum()
}

/// A thread clock for tests that says one second has passed at each reading (its count is the
/// calling thread's own).
#[cfg(test)]
pub(crate) fn one_second_per_reading() -> Option<Duration> {
    thread_local! {
        static TICKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }
    Some(Duration::from_secs(TICKS.with(|t| {
        t.set(t.get() + 1);
        t.get()
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_average_to_the_exact_size_of_the_tree() {
        let n = 11;
        let plan = subproblems(n);
        let exact = exact_plan_nodes(n, &plan);
        let estimated: f64 = plan.iter().map(|sub| probe_nodes(n, sub, 2000)).sum();
        let error = (estimated - exact).abs() / exact;
        assert!(error < 0.05, "estimated {estimated}, exact {exact}");
    }

    #[test]
    fn an_estimate_counts_the_shard_and_measures_a_time_per_node() {
        let sampling = Sampling::new(Duration::from_millis(200), Duration::from_secs(60));
        let e = estimate(12, Shard::new(1, 3).unwrap(), 0, &sampling).unwrap();
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
        assert!(!e.processor_time && !e.bound_reached, "{e:?}");
        // At most the last count of the board timed was stopped, and it is not one of those
        // that finished.
        assert!(
            e.stopped <= 1 && e.pieces_stopped == 0 && !e.at_least,
            "{e:?}"
        );
        assert!(estimate(33, Shard::WHOLE, 0, &sampling).is_err());
    }

    /// Issue 36: the time per node comes from the thread clock of the `Sampling` when it has
    /// one (here a fake one, a second per count), not from the wall clock.
    #[test]
    fn the_counts_are_timed_by_the_thread_clock_given() {
        let sampling = Sampling::new(Duration::from_millis(100), Duration::from_secs(60))
            .timed_by(one_second_per_reading);
        let e = estimate(12, Shard::WHOLE, 0, &sampling).unwrap();
        assert!(e.processor_time, "{e:?}");
        assert!(e.calibration.0 >= 1, "{e:?}");
        assert_eq!(e.calibration.1, e.calibration.0 as f64, "{e:?}");
        // A clock that cannot be read leaves the wall clock.
        let e = estimate(12, Shard::WHOLE, 0, &sampling.timed_by(|| None)).unwrap();
        assert!(
            !e.processor_time && e.calibration.1 < e.calibration.0 as f64,
            "{e:?}"
        );
    }

    /// Issue 36: the bound stops the counts, and the estimate is still made, from what it has:
    /// with no time at all, nothing is counted and the time is unknown (0), said by the flag.
    #[test]
    fn the_bound_stops_the_counts_and_the_estimate_still_answers() {
        let sampling = Sampling::new(Duration::from_secs(3), Duration::ZERO);
        let e = estimate(13, Shard::WHOLE, 0, &sampling).unwrap();
        assert!(e.nodes > 0.0, "{e:?}");
        assert_eq!((e.calibration.0, e.seconds_per_node), (0, 0.0), "{e:?}");
        assert!(e.bound_reached && e.stopped == 0 && !e.at_least, "{e:?}");
        assert_eq!(e.core_seconds(), 0.0);
        // The probes too: the first round alone, one of each subproblem.
        assert_eq!(e.probes, 1, "{e:?}");
    }

    #[test]
    fn the_probes_start_no_round_past_their_time_and_make_every_one_wanted_within_it() {
        let n = 12;
        let plan = subproblems(n);
        let todo: Vec<usize> = (0..plan.len()).collect();
        let mut rng = Rng::new(12);
        let (means, made) = probe_rounds(n, &plan, &todo, 0, Instant::now(), &mut rng);
        assert_eq!((made, means.len()), (1, plan.len()));
        let later = Instant::now() + Duration::from_secs(3600);
        let (means, made) = probe_rounds(n, &plan, &todo, 0, later, &mut rng);
        assert_eq!(made, probes_wanted(plan.len()));
        // The means of the rounds together: the size of the whole search, within 2 %.
        let (probed, exact) = (
            means.iter().map(|m| m.0).sum::<f64>(),
            exact_plan_nodes(n, &plan),
        );
        assert!(
            (probed / exact - 1.0).abs() < 0.02,
            "{probed} against {exact}"
        );
    }

    /// The board timed: N itself where its frames are small enough, else the largest below it
    /// whose frames are (N = 20's average 7 x 10^7 nodes by the probes, N = 21's 5 x 10^8).
    #[test]
    fn the_board_timed_is_the_largest_whose_frames_are_small_enough() {
        let mut rng = Rng::new(20);
        assert_eq!(calibration_board(23, 1e7, &mut rng), 23);
        assert_eq!(calibration_board(23, 1e11, &mut rng), 20);
        assert_eq!(calibration_board(14, 1e11, &mut rng), 13);
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    fn timed(seconds: f64, nodes: f64, stopped: bool) -> Timed {
        Timed {
            seconds,
            nodes,
            stopped,
        }
    }

    /// The time per node keeps a count the bound stopped as censored, weighted by its frame's
    /// nodes: with none stopped it is the counts' seconds over their nodes; a long count
    /// stopped raises it (leaving it out would bias it short: the long counts are the ones
    /// cut), flagged as closed short when it has the most seconds per node; with none
    /// finished, the stopped ones' seconds so far give a lower bound.
    #[test]
    fn the_time_per_node_keeps_the_counts_stopped_as_censored() {
        // 1 s of 1e9 nodes and 6 s of 2e9: 7 s over 3e9 nodes, 2.33 ns.
        let finished = [timed(1.0, 1e9, false), timed(6.0, 2e9, false)];
        let left_out = PerNode::of(&finished);
        assert!(close(left_out.seconds, 7.0 / 3e9), "{left_out:?}");
        assert!(!left_out.at_least && !left_out.closed_short, "{left_out:?}");
        // And a frame of 1e9 nodes stopped after 5 s: 1 ns (weight 1e9), 3 ns (2e9), 5 ns or
        // more (1e9). S = 3/4 after 1, 1/4 after 3 (3e9 at risk), closed at 5: 1 + 3/4 * 2 +
        // 1/4 * 2 = 3 ns, flagged.
        let mut counts = finished.to_vec();
        counts.push(timed(5.0, 1e9, true));
        let kept = PerNode::of(&counts);
        assert!(
            close(kept.seconds, 3e-9) && kept.seconds > left_out.seconds,
            "{kept:?}"
        );
        assert!(kept.closed_short && !kept.at_least, "{kept:?}");
        // Stopped after 2 s, below the largest: 1 + 3/4 * 2 = 2.5 ns, still above, not flagged.
        counts[2] = timed(2.0, 1e9, true);
        let kept = PerNode::of(&counts);
        assert!(
            close(kept.seconds, 2.5e-9) && kept.seconds > left_out.seconds,
            "{kept:?}"
        );
        assert!(!kept.closed_short && !kept.at_least, "{kept:?}");
        // None finished: their seconds so far over their nodes, a lower bound.
        let stopped = PerNode::of(&[timed(5.0, 1e9, true), timed(1.0, 1e9, true)]);
        assert!(
            close(stopped.seconds, 3e-9) && stopped.at_least,
            "{stopped:?}"
        );
        assert!(!stopped.closed_short, "{stopped:?}");
        let none = PerNode {
            seconds: 0.0,
            at_least: false,
            closed_short: false,
        };
        assert_eq!(PerNode::of(&[]), none);
    }

    /// What a piece costs besides its nodes keeps a piece stopped as censored in the mean of
    /// their seconds, and its nodes in the mean of their nodes.
    #[test]
    fn the_cost_of_a_piece_keeps_the_pieces_stopped_as_censored() {
        // 10 and 20 µs for 1000 nodes each, at 1 ns a node: 15 - 1 = 14 µs.
        let pieces = [timed(10e-6, 1000.0, false), timed(20e-6, 1000.0, false)];
        let left_out = PieceCost::of(&pieces, 1e-9);
        assert!(close(left_out.seconds, 14e-6), "{left_out:?}");
        assert_eq!((left_out.timed, left_out.stopped), (2, 0));
        // And one stopped at 40 µs: S = 2/3 after 10, 1/3 after 20, closed at 40: 10 + 20/3
        // + 20/3 = 23.33 µs, less 1 µs, flagged.
        let mut all = pieces.to_vec();
        all.push(timed(40e-6, 1000.0, true));
        let kept = PieceCost::of(&all, 1e-9);
        assert!(close(kept.seconds, 70e-6 / 3.0 - 1e-6), "{kept:?}");
        assert!(
            (kept.timed, kept.stopped, kept.closed_short) == (2, 1, true),
            "{kept:?}"
        );
        // Never below 0, and none finished: no cost measured.
        assert_eq!(PieceCost::of(&pieces, 1.0).seconds, 0.0);
        let none = PieceCost::of(&[timed(1.0, 10.0, true)], 1e-9);
        assert_eq!((none.seconds, none.timed, none.stopped), (0.0, 0, 1));
    }

    /// Frames cut at `depth` rows: the probes estimate how many pieces there are, here against
    /// the pieces listed one by one, and a shard of pieces holds about `1/M` of them.
    #[test]
    fn an_estimate_of_pieces_counts_the_pieces_of_its_depth() {
        let sampling = Sampling::new(Duration::from_millis(50), Duration::from_secs(60));
        let n = 12;
        for depth in [1, 2, 3] {
            let exact: usize = subproblems(n)
                .iter()
                .map(|sub| pieces::PieceIter::new(n, sub, depth).count())
                .sum();
            let e = estimate(n, Shard::WHOLE, depth, &sampling).unwrap();
            assert_eq!(e.depth, depth);
            let (estimated, _) = e.pieces.expect("pieces");
            let error = (estimated - exact as f64).abs() / exact as f64;
            assert!(
                error < 0.1,
                "depth {depth}: {estimated} pieces, {exact} listed"
            );
            let e = estimate(n, Shard::new(0, 4).unwrap(), depth, &sampling).unwrap();
            let (quarter, _) = e.pieces.expect("pieces");
            assert!(
                (quarter * 4.0 - estimated).abs() / estimated < 0.2,
                "{quarter}"
            );
        }
        assert!(estimate(n, Shard::WHOLE, 0, &sampling)
            .unwrap()
            .pieces
            .is_none());
    }

    /// Small pieces cost more than their nodes (their set-up and join): the estimate times
    /// random pieces and adds what each costs besides (N = 17 cut at 2 rows was forecast at a
    /// quarter of its time without it). Whole frames have no such term.
    #[test]
    fn an_estimate_of_pieces_adds_what_each_piece_costs_besides_its_nodes() {
        // N = 17 cut at 2 rows: a piece's set-up and join take about as long as its nodes.
        let sampling = Sampling::new(Duration::from_millis(200), Duration::from_secs(60));
        let e = estimate(17, Shard::WHOLE, 2, &sampling).unwrap();
        let (pieces, _) = e.pieces.expect("pieces");
        let (per_piece, timed) = e.seconds_per_piece;
        assert!(timed > 0 && per_piece > 0.0, "{e:?}");
        let nodes_only = e.nodes * e.seconds_per_node;
        assert!(
            (e.core_seconds() - nodes_only - pieces * per_piece).abs() < 1e-9,
            "{e:?}"
        );
        let whole = estimate(12, Shard::WHOLE, 0, &sampling).unwrap();
        assert_eq!(whole.seconds_per_piece, (0.0, 0), "{whole:?}");
    }
}
