//! The half-board engine: count by joining the upper and the lower halves of the board instead
//! of searching every solution to its last row.
//!
//! The idea: rows `0..h` (`h = N / 2`) are the *upper* half, rows `h..N` the *lower* one. A
//! solution is one filling of each half (one queen per row) such that the two use complementary
//! sets of columns and no diagonal holds a queen of each. Seen from the split row `h`, the
//! upper queens attack a set of its squares along each diagonal direction, and the lower queens'
//! diagonals cross it at a set of squares; the two halves fit iff those `2N`-bit masks (one
//! `N`-bit word per direction) share no bit — a diagonal that leaves the board before row `h`
//! meets no queen of the other half, so it is rightly dropped.
//!
//! Both halves are listed (a depth-first search each), grouped by their column sets with one
//! counting sort, and every group of lower halves is matched against the group of upper halves
//! with the complementary columns. The match is *bit-sliced*: the larger of the two groups is
//! turned, 512 halves at a time, into a table that gives, for each 4-bit piece of a mask, the set
//! of halves having a bit in common with it (`16` words per piece, one bit per half). A half of
//! the other group is then matched against 512 at once by ORing one table row per piece (nine
//! for N = 18) and counting the zero bits, instead of 512 separate tests. Groups of 512 halves
//! or more are first sorted, on both sides, by their value in the piece where the halves of the
//! subproblem meet most; a tile of one value is matched only with the halves of the other side
//! whose value shares no bit with it (about a third).
//!
//! # Subproblems and symmetry
//!
//! Listing every half of N = 18 at once would take gigabytes, so the board is cut by the
//! *pattern* of the upper half on a fixed set `K` of `k` columns (the `k / 2` leftmost and
//! rightmost ones): which of those columns the upper half uses. The lower half of a solution
//! uses exactly the others, so each pattern is an independent subproblem with about `2^-k` of
//! the halves on each side. The left-right mirror maps the solutions of pattern `P` to those of
//! the mirrored pattern; on even boards the up-down flip maps them to those of `K \ P` (the lower
//! half, flipped, is an upper one). On odd boards the lower half has one row more, the middle
//! one, which the flip maps to itself: there a subproblem is a pattern with the class of the
//! middle queen's column (one of the lower half's pattern columns `m`, or none), which the flip
//! maps to `(K \ P \ m, m)`; the lower half's first row is restricted to the columns of the
//! classes counted. So only one subproblem per orbit of those symmetries is counted, times the
//! orbit's size: about a quarter of the work.
//! The number of classes comes from Burnside's lemma, `unique = (total + S180 + 2 S90) / 8`,
//! with the solutions fixed by the half and quarter turns counted by their own searches
//! ([`super::fixed`]) as one more subproblem of the plan (the first). Because that division
//! only holds for the whole board, the tally of this engine keeps *eighths* of classes:
//! each subproblem adds `8 x` its share, and [`Plan::classes`] divides the sum of a complete
//! run by 8.
//!
//! Source: the meet-in-the-middle idea of the counters that list partial boards and join them
//! on their diagonals (for example the quadrant-joining counter of E. Kluev and the
//! "deepgreen" pages); the patterns, the bit-sliced match and the rest are this file's own.
//!
//! Cost: listing the halves is linear in their number (3.2 x 10^8 per side for N = 18, times a
//! small overhead for restricting the search to a pattern), and the match does one table row OR
//! per 4 mask bits per 64 pairs (a third of the pairs in large groups). Memory: the halves of
//! one pattern per thread (8 bytes each, and 8 more once grouped); see [`bytes_per_thread`].

use std::sync::atomic::{AtomicBool, Ordering};

use super::engine::Control;
use super::fixed::{half_turn_until, quarter_turn_until};
use super::{CountError, Counts};

/// The widest board this engine counts: its masks are two `N`-bit words in a `u64`, and its
/// group tables have `2^N` entries (64 MiB at N = 24).
pub const MAX_N: usize = 24;

/// The most pattern columns a plan has (2^22 patterns, about 775,000 subproblems for N = 24:
/// what two threads of N = 24 need to fit in 1 GiB by [`bytes_per_thread`]).
pub const MAX_PATTERN_COLUMNS: usize = 22;

/// The bits of a mask each table piece covers.
const PIECE: usize = 4;

/// How many 64-bit words of halves one table tile covers (512 halves).
const TILE: usize = 8;

/// The plan of a half-board count: the pattern columns and the subproblems.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    n: usize,
    /// The pattern columns `K`, as a column mask.
    pub pattern_columns: u32,
    /// The subproblems; the first is the fixed-point count, the others patterns.
    pub parts: Vec<Part>,
}

/// One subproblem of a half-board count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The solutions fixed by the half and the quarter turns (for the classes).
    Fixed,
    /// The solutions whose upper half uses exactly the columns `upper` among the pattern
    /// columns, and whose row `N/2` (the lower half's first) has its queen on a column of
    /// `first`, counted `weight` times (the size of their orbit).
    Pattern {
        /// The pattern: the pattern columns the upper half uses.
        upper: u32,
        /// The columns allowed to the queen of row `N/2`: all of them on even boards; on odd
        /// ones, that row is the middle one, which the up-down flip maps to itself.
        first: u32,
        /// How many subproblems of its orbit it stands for.
        weight: u64,
    },
}

/// The number of ways to fill rows `0..N/2` of the `N` x `N` board (measured; an estimate
/// past N = 18), used to size the subproblems before any is counted.
fn halves_estimate(n: usize) -> f64 {
    const KNOWN: [f64; 19] = [
        1.0,
        1.0,
        2.0,
        6.0,
        6.0,
        18.0,
        28.0,
        130.0,
        344.0,
        1614.0,
        3916.0,
        21362.0,
        52856.0,
        335010.0,
        835056.0,
        6120136.0,
        15324708.0,
        127045452.0,
        318853768.0,
    ];
    // For odd N the larger half (ceil(N/2) rows) is listed.
    if n < KNOWN.len() {
        KNOWN[n]
    } else {
        // Odd steps grow by about 8.3, even ones by about 2.5 (the larger half of an odd
        // board is a row taller); two steps by about 21.
        let mut v = KNOWN[18];
        for m in 19..=n {
            v *= if m % 2 == 1 { 8.5 } else { 2.6 };
        }
        v
    }
}

/// The number of pattern columns the engine uses for an `n` x `n` board when memory allows:
/// enough subproblems to share among threads and to resume from, few enough that restricting
/// the searches to a pattern costs little.
pub fn default_pattern_columns(n: usize) -> usize {
    match n {
        0..=7 => 0,
        8..=11 => 2,
        12..=13 => 4,
        14..=16 => 6,
        // N = 24 with 20 columns has subproblems of up to 105 s of one core (docs/performance.md),
        // past the minute a subproblem may take (issue 12); 22 cut them to 15 s or less.
        24.. => 22,
        _ => 8,
    }
}

/// The name of the split of an `n` x `n` board with `k` pattern columns (carried by shards
/// and checkpoints: results of different splits are never summed).
pub fn split_name(k: usize) -> String {
    format!("halves{k}-v1")
}

impl Plan {
    /// The plan of the `n` x `n` board with `k` pattern columns (`k` even, at most `n`; 0 for
    /// a single pattern).
    pub fn new(n: usize, k: usize) -> Plan {
        // The group key of a half (its columns outside the pattern) has 16 bits at most.
        let k = k.max((n.saturating_sub(16) + 1) & !1).min(n & !1);
        let half = k / 2;
        let mut cols = 0u32;
        for i in 0..half {
            cols |= 1 << i | 1 << (n - 1 - i);
        }
        let members: Vec<u32> = (0..n as u32).filter(|c| cols >> c & 1 == 1).collect();
        let h = n / 2;
        let full = (1u32 << n) - 1;
        let mut parts = vec![Part::Fixed];
        for bits in 0u32..1 << k {
            let p = spread(bits, &members);
            if !feasible(n, h, cols, p) {
                continue;
            }
            if n.is_multiple_of(2) {
                let orbit = orbit(n, cols, p);
                if orbit.iter().any(|&q| q < p) {
                    continue;
                }
                let mut distinct = orbit.to_vec();
                distinct.sort_unstable();
                distinct.dedup();
                parts.push(Part::Pattern {
                    upper: p,
                    first: full,
                    weight: distinct.len() as u64,
                });
                continue;
            }
            // Odd boards: the middle row's queen is on a pattern column m of the lower
            // half's, or off the pattern (m = 0). The flip maps (p, m) to (cols - p - m, m),
            // the mirror to the mirror images; one pair per orbit is counted, the pairs of
            // one pattern and one orbit size in one subproblem.
            let mut by_weight = [0u32; 5];
            let middles = std::iter::once(0).chain(
                (0..n as u32)
                    .filter(|c| (cols & !p) >> c & 1 == 1)
                    .map(|c| 1 << c),
            );
            for m in middles {
                let image = |p: u32, m: u32| u64::from(p) << 32 | u64::from(m);
                let q = cols & !p & !m;
                let mut orbit = [
                    image(p, m),
                    image(mirror(n, p), mirror(n, m)),
                    image(q, m),
                    image(mirror(n, q), mirror(n, m)),
                ];
                if orbit.iter().any(|&o| o < orbit[0]) {
                    continue;
                }
                orbit.sort_unstable();
                let weight = 1 + orbit.windows(2).filter(|w| w[0] != w[1]).count();
                by_weight[weight] |= if m == 0 { full & !cols } else { m };
            }
            for (weight, &first) in by_weight.iter().enumerate() {
                if first != 0 {
                    parts.push(Part::Pattern {
                        upper: p,
                        first,
                        weight: weight as u64,
                    });
                }
            }
        }
        Plan {
            n,
            pattern_columns: cols,
            parts,
        }
    }

    /// The plan the engine uses for `n` on `threads` threads within `budget` bytes: the
    /// default number of pattern columns, or more when the subproblems would not fit.
    pub fn fitting(n: usize, threads: usize, budget: u64) -> Result<Plan, CountError> {
        let threads = threads.max(1) as u64;
        let mut k = default_pattern_columns(n);
        loop {
            let need = threads * bytes_per_thread(n, k);
            if need <= budget {
                return Ok(Plan::new(n, k));
            }
            if k + 2 > n.min(MAX_PATTERN_COLUMNS) {
                return Err(CountError::MemoryBudget {
                    n,
                    need: bytes_per_thread(n, k) * threads,
                    budget,
                });
            }
            k += 2;
        }
    }

    /// The split's name.
    pub fn split(&self) -> String {
        split_name(self.pattern_columns.count_ones() as usize)
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// How many subproblems.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Whether the plan is empty (never: it always has the fixed-point part).
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The relative cost of subproblem `i`, estimated: the pairs of halves of its pattern if
    /// the columns were used independently, each by an upper half with probability `h / n`.
    pub fn cost(&self, i: usize) -> f64 {
        match self.parts[i] {
            // Counted first: a single search (1.5 s for N = 20) that must not be the tail.
            Part::Fixed => f64::INFINITY,
            Part::Pattern { upper, .. } => {
                let k = self.pattern_columns.count_ones() as i32;
                let used = upper.count_ones() as i32;
                let rho = (self.n / 2) as f64 / self.n as f64;
                let share = rho.powi(used) * (1.0 - rho).powi(k - used);
                share * share
            }
        }
    }

    /// The number of classes from the sum of eighths of a complete run.
    pub fn classes(&self, eighths: u128) -> u128 {
        if self.n == 1 {
            1
        } else {
            eighths / 8
        }
    }

    /// The contribution of subproblem `i` (total, and eighths of classes), or `None` when
    /// `cancel` was raised.
    pub fn solve(&self, i: usize, cancel: &AtomicBool) -> Option<Counts> {
        let n = self.n;
        match self.parts[i] {
            Part::Fixed if n == 1 => Some(Counts {
                // The one solution of the 1 x 1 board is its own class: 8 eighths in all.
                total: 0,
                unique: 7,
            }),
            Part::Fixed => {
                let half = u128::from(half_turn_until(n, cancel).ok()??);
                let quarter = u128::from(quarter_turn_until(n, cancel).ok()??);
                Some(Counts {
                    total: 0,
                    unique: half + 2 * quarter,
                })
            }
            Part::Pattern {
                upper,
                first,
                weight,
            } => {
                let found = u128::from(count_pattern(
                    n,
                    self.pattern_columns,
                    upper,
                    first,
                    cancel,
                )?);
                let total = found * u128::from(weight);
                Some(Counts {
                    total,
                    unique: total,
                })
            }
        }
    }
}

/// The memory one thread needs for the largest subproblem of the `n` x `n` board with `k`
/// pattern columns (an estimate: the halves of a pattern, 16 bytes each per side, for the
/// largest pattern: [`largest_over_mean`] times the average).
pub fn bytes_per_thread(n: usize, k: usize) -> u64 {
    let k = k.min(n & !1);
    let per_pattern = largest_over_mean(k) * halves_estimate(n) / f64::from(1u32 << k);
    (2.0 * 16.0 * per_pattern) as u64 + (1 << 20)
}

/// How many times the average pattern's halves the largest pattern of a split of `k` pattern
/// columns holds, as the memory model assumes it. The patterns' spread grows with `k`: the
/// largest subproblem, run alone on one thread, peaked at 697 MiB at N = 21 (k = 14) against 671
/// modelled with a factor 3, at 728 MiB at N = 23 (k = 18) against 463, and at 656 MiB at N = 24
/// (k = 20) against 301 (docs/performance.md). So 3.5 up to k = 14, then doubling every 4
/// columns (7 at k = 18, 9.9 at k = 20: above the 4.7 and 6.5 those peaks imply).
fn largest_over_mean(k: usize) -> f64 {
    3.5 * 2f64.powf(k.saturating_sub(14) as f64 / 4.0)
}

/// Places the low bits of `bits` on the columns `members`.
fn spread(bits: u32, members: &[u32]) -> u32 {
    members
        .iter()
        .enumerate()
        .filter(|(i, _)| bits >> i & 1 == 1)
        .fold(0, |acc, (_, &c)| acc | 1 << c)
}

/// Whether an upper half of `h` rows can use exactly `p` of the pattern columns `cols`, and a
/// lower half of `n - h` rows the others.
fn feasible(n: usize, h: usize, cols: u32, p: u32) -> bool {
    p.count_ones() as usize <= h && (cols & !p).count_ones() as usize <= n - h
}

fn mirror(n: usize, mask: u32) -> u32 {
    mask.reverse_bits() >> (32 - n)
}

/// The patterns whose counts equal that of `p`: its mirror image, and on even boards the
/// patterns of the flipped board (the complement in `cols`) and their mirror image.
fn orbit(n: usize, cols: u32, p: u32) -> [u32; 4] {
    let m = if n == 0 { 0 } else { mirror(n, p) };
    if n.is_multiple_of(2) {
        [p, m, cols & !p, cols & !m]
    } else {
        [p, m, p, m]
    }
}

/// The per-thread buffers, kept between subproblems.
#[derive(Default)]
struct Scratch {
    uppers: Vec<u64>,
    lowers: Vec<u64>,
    upper_masks: Vec<u64>,
    lower_masks: Vec<u64>,
    upper_start: Vec<u32>,
    lower_start: Vec<u32>,
    table: Vec<u64>,
    split: Split,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// The number of solutions of the `n` x `n` board whose upper half (rows `0..n/2`) uses
/// exactly the columns `upper` among the pattern columns `cols`, and whose row `n/2` has its
/// queen on a column of `first`. `None` when cancelled.
pub fn count_pattern(
    n: usize,
    cols: u32,
    upper: u32,
    first: u32,
    cancel: &AtomicBool,
) -> Option<u64> {
    assert!((1..=MAX_N).contains(&n));
    SCRATCH.with(|s| {
        let s = &mut s.borrow_mut();
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
        {
            // SAFETY: the features `count_avx2` is compiled for were checked just above.
            return unsafe { count_avx2(n, cols, upper, first, s, cancel) };
        }
        count_with::<false>(n, cols, upper, first, s, cancel)
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
fn count_avx2(
    n: usize,
    cols: u32,
    upper: u32,
    first: u32,
    s: &mut Scratch,
    cancel: &AtomicBool,
) -> Option<u64> {
    count_with::<true>(n, cols, upper, first, s, cancel)
}

#[inline(always)]
fn count_with<const FAST: bool>(
    n: usize,
    cols: u32,
    upper: u32,
    first: u32,
    s: &mut Scratch,
    cancel: &AtomicBool,
) -> Option<u64> {
    let h = n / 2;
    let full = (1u32 << n) - 1;
    let lower = cols & !upper;
    // The pattern columns are the k/2 leftmost and rightmost: within a pattern, a half's
    // group is named by its columns in the middle, `n - k` bits from column k/2.
    let key = Key {
        shift: cols.trailing_ones(),
        bits: n as u32 - cols.count_ones(),
    };
    list_uppers(n, h, full & !lower, upper, key, cancel, &mut s.uppers);
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    list_lowers(
        n,
        h,
        full & !upper,
        lower,
        first,
        key,
        cancel,
        &mut s.lowers,
    );
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    bucket(key.bits, &s.uppers, &mut s.upper_start, &mut s.upper_masks);
    bucket(key.bits, &s.lowers, &mut s.lower_start, &mut s.lower_masks);
    let full = (1u32 << key.bits) - 1;
    macro_rules! join {
        ($($p:literal)*) => {
            match (2 * n).div_ceil(PIECE) {
                $($p => join_groups::<$p, FAST>(full, s, cancel),)*
                _ => unreachable!("N is at most {MAX_N}"),
            }
        };
    }
    join!(1 2 3 4 5 6 7 8 9 10 11 12)
}

/// Matches every group of upper halves with the group of lower halves of the complementary
/// columns; `P` is the number of 4-bit pieces of a mask.
#[inline(always)]
fn join_groups<const P: usize, const FAST: bool>(
    full: u32,
    s: &mut Scratch,
    cancel: &AtomicBool,
) -> Option<u64> {
    let mut total = 0u64;
    let mut done = 0usize;
    s.table.resize(P * 16 * TILE, 0);
    let piece = busiest_piece(&s.upper_masks, &s.lower_masks, P);
    let table = &mut s.table[..];
    for key in 0..=full {
        let (a, b) = (s.upper_start[key as usize], s.upper_start[key as usize + 1]);
        if a == b {
            continue;
        }
        let other = (full & !key) as usize;
        let (c, d) = (s.lower_start[other], s.lower_start[other + 1]);
        if c == d {
            continue;
        }
        let ups = &s.upper_masks[a as usize..b as usize];
        let lows = &s.lower_masks[c as usize..d as usize];
        let (big, small) = if ups.len() >= lows.len() {
            (ups, lows)
        } else {
            (lows, ups)
        };
        total += if big.len() >= SPLIT_FROM && small.len() >= 64 {
            match_split::<P, FAST>(big, small, piece, table, &mut s.split)
        } else {
            match_group::<P, FAST>(big, small, table)
        };
        done += big.len() * small.len();
        if done > 1 << 26 {
            done = 0;
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
        }
    }
    Some(total)
}

/// The number of pairs of `big` x `small` whose masks share no bit, by tables of `big` (or
/// one test per pair when the groups are too small to pay for a table).
#[inline(always)]
fn match_group<const P: usize, const FAST: bool>(
    big: &[u64],
    small: &[u64],
    table: &mut [u64],
) -> u64 {
    if small.len() < 24 || big.len() < 32 {
        let mut count = 0u64;
        for &x in small {
            let mut lanes = [0u64; 4];
            let chunks = big.chunks_exact(4);
            let rest = chunks.remainder();
            for chunk in chunks {
                for (lane, &y) in lanes.iter_mut().zip(chunk) {
                    *lane += u64::from(x & y == 0);
                }
            }
            count += lanes.iter().sum::<u64>();
            count += rest.iter().filter(|&&y| x & y == 0).count() as u64;
        }
        return count;
    }
    let mut count = 0u64;
    for tile in big.chunks(64 * TILE) {
        count += match tile.len().div_ceil(64) {
            1 => match_tile::<P, 1, FAST>(tile, small, table),
            2 => match_tile::<P, 2, FAST>(tile, small, table),
            3 | 4 => match_tile::<P, 4, FAST>(tile, small, table),
            _ => match_tile::<P, TILE, FAST>(tile, small, table),
        };
    }
    count
}

/// [`match_group`] for one tile of at most `64 W` halves of the big group.
#[inline(always)]
fn match_tile<const P: usize, const W: usize, const FAST: bool>(
    tile: &[u64],
    small: &[u64],
    table: &mut [u64],
) -> u64 {
    build::<P, W, FAST>(tile, table);
    probe::<P, W>(table, small)
}

/// Builds the table of a tile of at most `64 W` halves: for piece p and value v, the halves
/// of the tile with a bit of v in piece p, W words from (p * 16 + v) * W. Padding halves
/// (past the tile's end) conflict with everything.
#[inline(always)]
fn build<const P: usize, const W: usize, const FAST: bool>(tile: &[u64], table: &mut [u64]) {
    let stride = 16 * W;
    let table = &mut table[..P * stride];
    table.fill(0);
    slices::<P, W, FAST>(tile, table);
    for p in 0..P {
        let rows = &mut table[p * stride..(p + 1) * stride];
        for v in 3..16usize {
            if v & (v - 1) == 0 {
                continue;
            }
            let low = v & v.wrapping_neg();
            for w in 0..W {
                rows[v * W + w] = rows[(v ^ low) * W + w] | rows[low * W + w];
            }
        }
    }
    let used = tile.len();
    for w in 0..W {
        let pad = if used >= 64 * (w + 1) {
            0
        } else if used <= 64 * w {
            u64::MAX
        } else {
            u64::MAX << (used - 64 * w)
        };
        for v in 0..16 {
            table[v * W + w] |= pad;
        }
    }
}

/// How many pairs of (a tile whose table is `table`) x `small` share no bit.
#[inline(always)]
fn probe<const P: usize, const W: usize>(table: &[u64], small: &[u64]) -> u64 {
    let mut count = 0u64;
    for &x in small {
        let mut acc = [0u64; W];
        for p in 0..P {
            let v = (x >> (PIECE * p)) as usize & 15;
            let at = (p * 16 + v) * W;
            for (a, &r) in acc.iter_mut().zip(&table[at..at + W]) {
                *a |= r;
            }
        }
        count += acc
            .iter()
            .map(|a| u64::from((!a).count_ones()))
            .sum::<u64>();
    }
    count
}

/// Groups of at least this many halves are split by the value of one piece first.
const SPLIT_FROM: usize = 512;

/// The buffers of [`match_split`].
#[derive(Default)]
struct Split {
    big: Vec<u64>,
    small: Vec<u64>,
}

/// Sorts `items` into `out` by the value of the piece at `shift` (16 buckets); returns the
/// buckets' starts.
#[inline(always)]
fn sort16(items: &[u64], shift: u32, out: &mut Vec<u64>) -> [u32; 17] {
    let mut start = [0u32; 17];
    for &x in items {
        start[(x >> shift) as usize % 16 + 1] += 1;
    }
    for v in 0..16 {
        start[v + 1] += start[v];
    }
    let mut at = start;
    out.clear();
    out.resize(items.len(), 0);
    for &x in items {
        let v = (x >> shift) as usize % 16;
        out[at[v] as usize] = x;
        at[v] += 1;
    }
    start
}

/// [`match_group`] for large groups: both sides are sorted by their value `v` in one piece
/// (the one where the halves of this subproblem meet most), and each tile of big halves of
/// value `v` is matched only with the small halves whose value shares no bit with `v`, about
/// a third of them.
#[inline(always)]
fn match_split<const P: usize, const FAST: bool>(
    big: &[u64],
    small: &[u64],
    piece: usize,
    table: &mut [u64],
    split: &mut Split,
) -> u64 {
    let shift = (PIECE * piece) as u32;
    let big_start = sort16(big, shift, &mut split.big);
    let small_start = sort16(small, shift, &mut split.small);
    let mut count = 0u64;
    for vb in 0..16 {
        let bucket = &split.big[big_start[vb] as usize..big_start[vb + 1] as usize];
        let free = !vb & 15;
        for tile in bucket.chunks(64 * TILE) {
            count += match tile.len().div_ceil(64) {
                1 => tile_split::<P, 1, FAST>(tile, &split.small, &small_start, free, table),
                2 => tile_split::<P, 2, FAST>(tile, &split.small, &small_start, free, table),
                3 | 4 => tile_split::<P, 4, FAST>(tile, &split.small, &small_start, free, table),
                _ => tile_split::<P, TILE, FAST>(tile, &split.small, &small_start, free, table),
            };
        }
    }
    count
}

/// One tile of [`match_split`]: its table, probed by the small halves of every value within
/// `free`.
#[inline(always)]
fn tile_split<const P: usize, const W: usize, const FAST: bool>(
    tile: &[u64],
    small: &[u64],
    start: &[u32; 17],
    free: usize,
    table: &mut [u64],
) -> u64 {
    let mut any = false;
    let mut sub = free;
    loop {
        if start[sub] != start[sub + 1] {
            any = true;
            break;
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & free;
    }
    if !any {
        return 0;
    }
    build::<P, W, FAST>(tile, table);
    let mut count = 0u64;
    let mut sub = free;
    loop {
        let part = &small[start[sub] as usize..start[sub + 1] as usize];
        if !part.is_empty() {
            count += probe::<P, W>(table, part);
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & free;
    }
    count
}

/// The piece of the masks where the halves in `a` and `b` meet most often (by a sample):
/// the one to split large groups by.
fn busiest_piece(a: &[u64], b: &[u64], pieces: usize) -> usize {
    let count = |items: &[u64]| {
        let mut bits = [0u64; 64];
        for &x in items.iter().step_by(8) {
            let mut x = x & ((1u64 << KEY_AT) - 1);
            while x != 0 {
                bits[x.trailing_zeros() as usize] += 1;
                x &= x - 1;
            }
        }
        bits
    };
    let (ca, cb) = (count(a), count(b));
    (0..pieces)
        .max_by_key(|&p| {
            (PIECE * p..PIECE * (p + 1))
                .map(|bit| u128::from(ca[bit]) * u128::from(cb[bit]))
                .sum::<u128>()
        })
        .unwrap_or(0)
}

/// Sets, for each bit `b` of the masks, bit `j` of word `j / 64` of table row
/// `(b / 4) * 16 + (1 << b % 4)` when half `j` of the tile has bit `b`.
#[inline(always)]
fn slices<const P: usize, const W: usize, const FAST: bool>(tile: &[u64], table: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST is only set on the path chosen after checking for AVX2.
        unsafe { slices_avx2::<P, W>(tile, table) };
        return;
    }
    for (j, &m) in tile.iter().enumerate() {
        let (w, bit) = (j / 64, 1u64 << (j % 64));
        // Only the mask bits the pieces cover (not the group key above them).
        let mut m = m & ((1u64 << (P * PIECE)) - 1);
        while m != 0 {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            table[((b / PIECE) * 16 + (1 << (b % PIECE))) * W + w] |= bit;
        }
    }
}

/// [`slices`] with AVX2: the masks are cut into byte planes, and each plane gives the bits of
/// 32 halves at a time by one `movemask` per bit.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn slices_avx2<const P: usize, const W: usize>(tile: &[u64], table: &mut [u64]) {
    use std::arch::x86_64::{__m256i, _mm256_add_epi8, _mm256_loadu_si256, _mm256_movemask_epi8};
    let bytes = (P * PIECE).div_ceil(8);
    let mut planes = [[0u8; 64 * TILE]; 6];
    for (j, &m) in tile.iter().enumerate() {
        for (k, plane) in planes.iter_mut().enumerate().take(bytes) {
            plane[j] = (m >> (8 * k)) as u8;
        }
    }
    for (k, plane) in planes.iter().enumerate().take(bytes) {
        for q in 0..2 * W {
            // SAFETY: 32 bytes from 32 q, inside the plane of 64 TILE >= 64 W bytes.
            let mut x = unsafe { _mm256_loadu_si256(plane.as_ptr().add(32 * q).cast::<__m256i>()) };
            for i in (0..8).rev() {
                let b = 8 * k + i;
                let bits = _mm256_movemask_epi8(x) as u32;
                if b < P * PIECE {
                    table[((b / PIECE) * 16 + (1 << (b % PIECE))) * W + q / 2] |=
                        u64::from(bits) << (32 * (q % 2));
                }
                x = _mm256_add_epi8(x, x);
            }
        }
    }
}

/// Where a half's group key goes in its stored word: above the `2N <= 48` mask bits.
const KEY_AT: u32 = 48;

/// How a half's columns name its group within a pattern: `bits` columns from `shift`.
#[derive(Debug, Clone, Copy)]
struct Key {
    shift: u32,
    bits: u32,
}

impl Key {
    /// The stored word of a half: its mask, and its group key above [`KEY_AT`]. The keys of
    /// an upper and a lower half that fit are complementary, so they share no bit either.
    #[inline(always)]
    fn word(self, cols: u32, mask: u64) -> u64 {
        let k = (cols >> self.shift) & ((1u32 << self.bits) - 1);
        mask | u64::from(k) << KEY_AT
    }
}

/// Groups `items` by key (a counting sort on the `2^bits` keys): the words of key `c` end up
/// in `masks[start[c]..start[c + 1]]`.
fn bucket(bits: u32, items: &[u64], start: &mut Vec<u32>, masks: &mut Vec<u64>) {
    let size = 1usize << bits;
    start.clear();
    start.resize(size + 1, 0);
    for &m in items {
        start[(m >> KEY_AT) as usize + 1] += 1;
    }
    for i in 0..size {
        start[i + 1] += start[i];
    }
    masks.clear();
    masks.resize(items.len(), 0);
    // Scatter with a moving cursor per key (start[c] is advanced, then restored).
    for &m in items {
        let slot = &mut start[(m >> KEY_AT) as usize];
        masks[*slot as usize] = m;
        *slot += 1;
    }
    // start[c] now holds the end of key c, which is the start of key c + 1: shift back.
    for i in (1..=size).rev() {
        start[i] = start[i - 1];
    }
    start[0] = 0;
}

/// Lists every filling of rows `0..h` with columns in `allowed` that uses every column of
/// `need`: its columns, and the squares of row `h` its queens attack along the two diagonal
/// directions (down-right in the low `n` bits, down-left in the next `n`).
#[inline(always)]
fn list_uppers(
    n: usize,
    h: usize,
    allowed: u32,
    need: u32,
    key: Key,
    cancel: &AtomicBool,
    out: &mut Vec<u64>,
) {
    out.clear();
    let full = (1u32 << n) - 1;
    if h == 0 {
        if need == 0 {
            out.push(key.word(0, 0));
        }
        return;
    }
    // The walk's first word moves right a column per row down (the down-right diagonals),
    // its second left: shifted once more, they are the attacks on row h.
    walk(h, allowed, need, full, cancel, out, |c, l, r| {
        key.word(c, u64::from(l << 1 & full) | u64::from(r >> 1) << n)
    });
}

/// Lists every filling of rows `h..n` with columns in `allowed` (and in `first` for row `h`)
/// that uses every column of `need`: its columns, and the squares of row `h` that its queens' diagonals cross (the
/// up-left diagonals in the low `n` bits, the up-right ones in the next `n`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn list_lowers(
    n: usize,
    h: usize,
    allowed: u32,
    need: u32,
    first: u32,
    key: Key,
    cancel: &AtomicBool,
    out: &mut Vec<u64>,
) {
    out.clear();
    let full = (1u32 << n) - 1;
    // Filled from the bottom row up: the walk's first word moves right a column per row up
    // (the up-right diagonals), its second left (the up-left ones); after row h they are
    // where those diagonals cross row h, the last queen's own square included.
    walk(n - h, allowed, need, first, cancel, out, |c, l, r| {
        key.word(c, u64::from(r) | u64::from(l & full) << n)
    });
}

/// The depth-first filling of `rows` rows (at least one), one after the other, the columns
/// in `allowed` (and in `last_row` for the last one), every column of `need` used (a row goes to a needed column when the rows left
/// are as many as the needed columns left); `finish` turns the state after the last row (its
/// columns, and the two diagonal words with the last queen added, not yet shifted) into the
/// stored entry.
#[inline(always)]
fn walk(
    rows: usize,
    allowed: u32,
    need: u32,
    last_row: u32,
    cancel: &AtomicBool,
    out: &mut Vec<u64>,
    finish: impl Fn(u32, u32, u32) -> u64,
) {
    let last = rows - 1;
    let open = |c: u32, depth: usize| -> u32 {
        let missing = need & !c;
        let open = if missing.count_ones() as usize >= rows - depth {
            missing
        } else {
            allowed & !c
        };
        if depth == last {
            open & last_row
        } else {
            open
        }
    };
    let mut stack = [(0u32, 0u32, 0u32, 0u32); 32];
    let mut sp = 0usize;
    let (mut f, mut c, mut l, mut r) = (open(0, 0), 0u32, 0u32, 0u32);
    // A pattern prunes most of the walk, which may visit billions of nodes for few halves:
    // look at the flag every 2^16 backtracks too, as the kernel does.
    let mut check = super::kernel::CancelCheck::new();
    loop {
        if f == 0 {
            if sp == 0 {
                break;
            }
            sp -= 1;
            (f, c, l, r) = stack[sp];
            if check.stop(cancel) {
                return;
            }
            continue;
        }
        let bit = f & f.wrapping_neg();
        f ^= bit;
        let nc = c | bit;
        if sp == last {
            out.push(finish(nc, l | bit, r | bit));
            // Large boards list millions of halves per subproblem: stop soon when cancelled
            // (the caller sees the flag and drops the list).
            if out.len().is_multiple_of(1 << 20) && cancel.load(Ordering::Relaxed) {
                return;
            }
            continue;
        }
        let nl = (l | bit) << 1;
        let nr = (r | bit) >> 1;
        let nf = open(nc, sp + 1) & !(nl | nr);
        if nf != 0 {
            stack[sp] = (f, c, l, r);
            sp += 1;
            (f, c, l, r) = (nf, nc, nl, nr);
        }
    }
}

impl Control {
    fn work_halves(&self, plan: &Plan, i: usize) {
        if self.cancelled() || self.tally().is_done(i) {
            return;
        }
        if let Some(part) = plan.solve(i, &self.cancel) {
            self.tally().record(i, part);
        }
    }
}

/// Counts the subproblems `todo` of `plan` on `threads` threads (1: the calling thread; 0: one
/// per core), recording each in `control`. The threads take the subproblems one at a time from
/// a shared queue, the dearest first (by [`Plan::cost`]), so that none is left alone with a
/// large one at the end.
pub fn run(
    plan: &Plan,
    todo: &[usize],
    threads: usize,
    control: &Control,
) -> Result<(), CountError> {
    let mut order = todo.to_vec();
    order.sort_by(|&a, &b| plan.cost(b).total_cmp(&plan.cost(a)).then(a.cmp(&b)));
    if threads == 1 {
        for &i in &order {
            control.work_halves(plan, i);
        }
        return Ok(());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CountError::Threads(e.to_string()))?;
    let next = std::sync::atomic::AtomicUsize::new(0);
    pool.broadcast(|_| loop {
        let at = next.fetch_add(1, Ordering::Relaxed);
        let Some(&i) = order.get(at) else { break };
        control.work_halves(plan, i);
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every solution of the `n` x `n` board, listed by a plain row-by-row search (nothing of
    /// the engine: no halves, no join) and tallied by what decides its subproblem: the columns
    /// of its rows `0..n/2`, and the column of row `n/2`. One search per board answers for
    /// every pattern of every split, where a search per pattern cost a whole board each time
    /// (N = 14 then took seconds in the test profile).
    struct Listed {
        /// The number of solutions of each (upper half's columns, row `n/2`'s column).
        by_key: std::collections::HashMap<(u32, u32), u64>,
        /// `S180 + 2 S90`: what the fixed-point subproblem adds, in eighths of classes.
        fixed: u128,
    }

    impl Listed {
        fn new(n: usize) -> Listed {
            fn go(n: usize, q: &mut Vec<u32>, c: u32, l: u32, r: u32, out: &mut Listed) {
                if q.len() == n {
                    let h = n / 2;
                    let upper = q[..h].iter().fold(0, |acc, &x| acc | 1 << x);
                    *out.by_key.entry((upper, 1 << q[h])).or_default() += 1;
                    let at = |i: usize| q[i] as usize;
                    let half = (0..n).all(|i| at(n - 1 - i) == n - 1 - at(i));
                    let quarter = (0..n).all(|i| at(at(i)) == n - 1 - i);
                    out.fixed += u128::from(half) + 2 * u128::from(quarter);
                    return;
                }
                let mut f = ((1u32 << n) - 1) & !(c | l | r);
                while f != 0 {
                    let b = f & f.wrapping_neg();
                    f ^= b;
                    q.push(b.trailing_zeros());
                    go(n, q, c | b, (l | b) << 1, (r | b) >> 1, out);
                    q.pop();
                }
            }
            let mut out = Listed {
                by_key: Default::default(),
                fixed: 0,
            };
            go(n, &mut Vec::with_capacity(n), 0, 0, 0, &mut out);
            out
        }

        /// The solutions whose rows `0..n/2` use exactly the columns `upper` among the
        /// pattern columns `cols`, and whose row `n/2` has its queen on a column of `first`.
        fn count(&self, cols: u32, upper: u32, first: u32) -> u64 {
            self.by_key
                .iter()
                .filter(|&(&(u, m), _)| u & cols == upper && m & first != 0)
                .map(|(_, &c)| c)
                .sum()
        }
    }

    /// Issue 11: "the new engine and the plain engine agree on every subproblem of N = 8..14".
    /// Every subproblem of the plans of N = 4..14 with 0 to 8 pattern columns (the default of
    /// N = 14 is 6), the middle-row classes of odd boards included, and every other pattern
    /// (the non-canonical ones, whose counts the plans take from their orbits), by the join and
    /// by the plain search's solutions in the subproblem; the fixed-point subproblem by
    /// turning every listed solution.
    #[test]
    fn every_subproblem_of_8_to_14_counts_what_the_plain_search_counts() {
        let never = AtomicBool::new(false);
        for n in 4..=14 {
            let all = (1u32 << n) - 1;
            let listed = Listed::new(n);
            for k in [0, 2, 4, 6, 8].into_iter().filter(|&k| k <= n) {
                let plan = Plan::new(n, k);
                let cols = plan.pattern_columns;
                for (i, &part) in plan.parts.iter().enumerate() {
                    let Part::Pattern { upper, first, .. } = part else {
                        assert_eq!(
                            plan.solve(i, &never).unwrap().unique,
                            listed.fixed,
                            "n = {n}, the fixed points"
                        );
                        continue;
                    };
                    assert_eq!(
                        count_pattern(n, cols, upper, first, &never).unwrap(),
                        listed.count(cols, upper, first),
                        "n = {n}, k = {k}, pattern {upper:b}, first {first:b}"
                    );
                }
                // Every pattern, canonical or not, with the middle row unrestricted.
                let members: Vec<u32> = (0..n as u32).filter(|c| cols >> c & 1 == 1).collect();
                for bits in 0u32..1 << members.len() {
                    let p = spread(bits, &members);
                    let want = listed.count(cols, p, all);
                    let got = if feasible(n, n / 2, cols, p) {
                        count_pattern(n, cols, p, all, &never).unwrap()
                    } else {
                        0
                    };
                    assert_eq!(got, want, "n = {n}, k = {k}, pattern {p:b}");
                }
            }
        }
    }

    #[test]
    fn a_restricted_first_lower_row_counts_what_the_plain_search_counts() {
        let never = AtomicBool::new(false);
        for n in [7, 9, 11, 12] {
            let listed = Listed::new(n);
            let plan = Plan::new(n, 4);
            let cols = plan.pattern_columns;
            for &part in &plan.parts {
                let Part::Pattern { upper, .. } = part else {
                    continue;
                };
                for c in 0..n {
                    let first = 1 << c | 1 << ((c + 3) % n);
                    assert_eq!(
                        count_pattern(n, cols, upper, first, &never).unwrap(),
                        listed.count(cols, upper, first),
                        "n = {n}, pattern {upper:b}, first {first:b}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_portable_count_and_the_one_chosen_at_run_time_agree() {
        // Boards large enough for split groups (SPLIT_FROM halves) in some patterns.
        let never = AtomicBool::new(false);
        let mut scratch = Scratch::default();
        let mut split = 0;
        for n in [13, 14, 15] {
            let plan = Plan::new(n, 2);
            for &part in &plan.parts {
                let Part::Pattern { upper, first, .. } = part else {
                    continue;
                };
                let cols = plan.pattern_columns;
                let portable = count_with::<false>(n, cols, upper, first, &mut scratch, &never);
                split += usize::from(scratch.lowers.len() > 64 * SPLIT_FROM);
                assert_eq!(
                    portable,
                    count_pattern(n, cols, upper, first, &never),
                    "n = {n}"
                );
            }
        }
        assert!(split > 0);
    }

    #[test]
    fn plans_count_the_known_totals_and_classes() {
        let never = AtomicBool::new(false);
        for known in crate::reference::known().into_iter().filter(|k| k.n <= 14) {
            for k in [0, 2, 4, 6, 8] {
                let plan = Plan::new(known.n, k);
                let mut sum = Counts::default();
                for i in 0..plan.len() {
                    let c = plan.solve(i, &never).unwrap();
                    sum.total += c.total;
                    sum.unique += c.unique;
                }
                assert_eq!(sum.total, known.total, "n = {}, k = {k}", known.n);
                assert_eq!(
                    plan.classes(sum.unique),
                    known.unique,
                    "n = {}, k = {k}",
                    known.n
                );
            }
        }
    }

    #[test]
    fn the_table_match_and_the_pair_tests_agree() {
        let mut table = Vec::new();
        let mut x = 0x1234_5678_9abc_def1u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & x >> 3 & (1 << 36) - 1
        };
        for (nb, ns) in [
            (64, 32),
            (600, 40),
            (1500, 100),
            (513, 33),
            (100, 30),
            (150, 50),
            (250, 25),
            (40, 30),
        ] {
            let big: Vec<u64> = (0..nb).map(|_| next()).collect();
            let small: Vec<u64> = (0..ns).map(|_| next()).collect();
            let want: u64 = small
                .iter()
                .map(|&s| big.iter().filter(|&&b| b & s == 0).count() as u64)
                .sum();
            table.resize(9 * 16 * TILE, 0);
            assert_eq!(match_group::<9, false>(&big, &small, &mut table), want);
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                assert_eq!(match_group::<9, true>(&big, &small, &mut table), want);
            }
        }
    }
}

#[cfg(test)]
mod model {
    use super::*;

    /// The measured peaks of the largest subproblems (one thread, docs/performance.md) are
    /// within the model, and two threads of N = 23 and 24 get a split that fits 1 GiB by it.
    /// A measurement: the split each board gets on 1, 2 and 4 threads within 1 GiB.
    #[test]
    #[ignore]
    fn splits_within_the_default_budget() {
        for n in 12..=24 {
            let ks: Vec<String> = [1, 2, 4]
                .iter()
                .map(|&t| match Plan::fitting(n, t, 1 << 30) {
                    Ok(p) => format!(
                        "{}: k = {} ({} parts)",
                        t,
                        p.pattern_columns.count_ones(),
                        p.len()
                    ),
                    Err(_) => format!("{t}: none"),
                })
                .collect();
            println!("N = {n}: {}", ks.join(", "));
        }
    }

    #[test]
    fn the_memory_model_covers_the_measured_peaks() {
        let mib = |b: u64| b as f64 / f64::from(1 << 20);
        // (N = 21: a whole run on two threads; the others: one subproblem on one thread.)
        for (n, k, threads, measured) in [
            (21, 14, 2, 697.0),
            (22, 14, 1, 733.0),
            (23, 18, 1, 728.0),
            (24, 20, 1, 656.0),
        ] {
            let model = mib(threads * bytes_per_thread(n, k));
            assert!(
                model >= measured,
                "N = {n}, k = {k}: model {model:.0} MiB, measured {measured} MiB"
            );
        }
        for n in [23, 24] {
            let plan = Plan::fitting(n, 2, 1 << 30).unwrap();
            let k = plan.pattern_columns.count_ones() as usize;
            assert!(2 * bytes_per_thread(n, k) <= 1 << 30, "N = {n}, k = {k}");
        }
    }
}
