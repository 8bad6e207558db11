//! The plan of a half-board count: the pattern columns `K`, one subproblem per orbit of the
//! board's symmetries on the patterns (and, on odd boards, on the middle queen's column), each
//! with its weight (the orbit's size) and its estimated cost, and the fixed-point subproblem
//! that gives the classes by Burnside's lemma. It may call `pattern.rs` (to count a
//! subproblem), `memory.rs` (to fit a budget) and the fixed-point searches of `count::fixed`.

use std::sync::atomic::AtomicBool;

use super::alloc::AllocError;
use super::memory::bytes_per_thread;
use super::pattern::{count_pattern, list_pattern, mirror, top_row, Listed, MAX_N};
use super::plain::plain_count_pattern;
use crate::count::fixed::{half_turn_until, quarter_turn_until};
use crate::count::shard::Shard;
use crate::count::split::Split;
use crate::count::types::{CountError, Counts};
use crate::error::SizeError;

/// The most pattern columns a plan has (2^22 patterns, about 775,000 subproblems for N = 24:
/// what two threads of N = 24 need to fit in 1 GiB by [`bytes_per_thread`]).
pub const MAX_PATTERN_COLUMNS: usize = 22;

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

/// A pattern subproblem as the groups of its halves ([`Plan::column_sets`]): a group is a set
/// of columns used by its upper halves, the lower halves using the others; the subproblem's
/// solutions are `factor` times the pairs of an upper and a lower half of one group whose
/// diagonals do not meet, summed over the groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnSets {
    /// The columns of each group's upper half.
    pub uppers: Vec<u32>,
    /// The columns row 0 may use.
    pub top: u32,
    /// The columns row `N/2` (the lower half's first) may use.
    pub first: u32,
    /// 2 where the mirror pairs of solutions are counted once (row 0 restricted to the left
    /// half), else 1.
    pub factor: u64,
}

/// A pattern's contribution: its `found` solutions times its orbit's size `weight`, in total
/// and in eighths of classes (each solution is one eighth of a class, counted `weight` times).
fn pattern_counts(found: u64, weight: u64) -> Counts {
    let total = u128::from(found) * u128::from(weight);
    Counts {
        total,
        unique: total,
    }
}

/// The number of subproblems a plan is sized to run at once within the memory budget,
/// whatever the threads asked: a split depends on N and the budget only. Two keeps the speed
/// of one and two threads (a finer split, sized for more, costs one thread time).
pub const PLAN_WORKERS: usize = 2;

/// The number of pattern columns the engine uses for an `n` x `n` board when memory allows:
/// enough subproblems to share among threads and to resume from, few enough that restricting
/// the searches to a pattern costs little. Measured with the listing that places the
/// pattern's queens first (docs/performance.md): N = 16 is fastest with 8 (0.16 s of one
/// core against 0.21 s with 6), N = 17 and 18 with 10 (N = 18: 4.8 s against 5.5 s with 8),
/// N = 19 about the same with 10 and 12.
pub fn default_pattern_columns(n: usize) -> usize {
    match n {
        0..=7 => 0,
        8..=11 => 2,
        12..=13 => 4,
        14..=15 => 6,
        16 => 8,
        // N = 24 with 20 columns has subproblems of up to 105 s of one core (docs/performance.md),
        // past the minute a subproblem may take (issue 12); 22 cut them to 15 s or less.
        24.. => 22,
        _ => 10,
    }
}

/// The pattern columns a plan of [`Plan::new`] has for `k` asked on the `n` x `n` board: `k`
/// raised so that a half's group key (its columns outside the pattern) has 16 bits at most,
/// at most `n`, and even (two columns at a time, one on each side).
fn columns(n: usize, k: usize) -> usize {
    k.max((n.saturating_sub(16) + 1) & !1).min(n & !1) / 2 * 2
}

impl Plan {
    /// The plan of the `n` x `n` board with `k` pattern columns (`k` even, at most `n`; 0 for
    /// a single pattern).
    ///
    /// # Panics
    /// When `n` is not from 1 to the engine's [`MAX_N`] ([`Plan::fits`] checks a split).
    pub fn new(n: usize, k: usize) -> Plan {
        assert!(
            (1..=MAX_N).contains(&n),
            "halves::Plan::new: N = {n} is not from 1 to {MAX_N}"
        );
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

    /// The plan the engine uses for `n` within `budget` bytes: the default number of pattern
    /// columns, or more when `PLAN_WORKERS` of the subproblems would not fit. The split
    /// depends on N and the budget only, never on the threads of the machine, so that a run
    /// resumes and its shards merge on any core count; [`Plan::concurrent`] says how many of
    /// its subproblems fit in the budget at once.
    pub fn fitting(n: usize, budget: u64) -> Result<Plan, CountError> {
        SizeError::check(n, "the half-board engine", MAX_N)?;
        let workers = PLAN_WORKERS as u64;
        let mut k = default_pattern_columns(n);
        loop {
            // A split one subproblem of which fits is taken when no coarser one fits
            // `PLAN_WORKERS` of them (fewer then run at once).
            let fits = |k: usize, w: u64| w * bytes_per_thread(n, k) <= budget;
            if fits(k, workers) {
                return Ok(Plan::new(n, k));
            }
            if k + 2 > n.min(MAX_PATTERN_COLUMNS) {
                if fits(k, 1) {
                    return Ok(Plan::new(n, k));
                }
                return Err(CountError::MemoryBudget {
                    n,
                    need: bytes_per_thread(n, k),
                    budget,
                });
            }
            k += 2;
        }
    }

    /// How many of this plan's subproblems fit in `budget` bytes at once (at least 1): the
    /// most threads a run of it uses.
    pub fn concurrent(&self, budget: u64) -> usize {
        let k = self.pattern_columns.count_ones() as usize;
        let one = bytes_per_thread(self.n, k).max(1);
        (budget / one).clamp(1, usize::MAX as u64) as usize
    }

    /// Whether this engine splits the `n` x `n` board with `k` pattern columns
    /// ([`Split::Halves`]): a board it counts, and `k` as [`Plan::new`] takes it (no plan is
    /// built).
    pub fn fits(n: usize, k: usize) -> bool {
        (1..=MAX_N).contains(&n) && k <= MAX_PATTERN_COLUMNS && columns(n, k) == k
    }

    /// The plan of `split` of the `n` x `n` board, when this engine makes it.
    pub fn of_split(n: usize, split: Split) -> Option<Plan> {
        match split {
            Split::Halves { columns } if Plan::fits(n, columns) => Some(Plan::new(n, columns)),
            _ => None,
        }
    }

    /// The name of the split ([`Split::Halves`] of its pattern columns).
    pub fn split(&self) -> String {
        self.halves_split().to_string()
    }

    /// The split: [`Split::Halves`] of its pattern columns.
    pub(super) fn halves_split(&self) -> Split {
        Split::Halves {
            columns: self.pattern_columns.count_ones() as usize,
        }
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
            // Counted first: a single search (0.05 s of one core for N = 20, 0.8 s for N = 23)
            // that must not be the tail.
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
    /// `cancel` was raised; an error when the halves of a pattern found no memory to grow in.
    pub fn solve(&self, i: usize, cancel: &AtomicBool) -> Result<Option<Counts>, AllocError> {
        let n = self.n;
        match self.parts[i] {
            Part::Fixed if n == 1 => Ok(Some(Counts {
                // The one solution of the 1 x 1 board is its own class: 8 eighths in all.
                total: 0,
                unique: 7,
            })),
            Part::Fixed => Ok(self.fixed_points(cancel)),
            Part::Pattern {
                upper,
                first,
                weight,
            } => {
                let Some(found) = count_pattern(n, self.pattern_columns, upper, first, cancel)?
                else {
                    return Ok(None);
                };
                Ok(Some(pattern_counts(found, weight)))
            }
        }
    }

    /// Subproblem `i` as groups of halves, for an engine that lists and joins each group on
    /// its own (the GPU's): every set of columns its upper halves may use, with the rows
    /// restricted; `None` for the fixed-point subproblem, which has no halves.
    pub fn column_sets(&self, i: usize) -> Option<ColumnSets> {
        let Part::Pattern { upper, first, .. } = self.parts[i] else {
            return None;
        };
        let n = self.n;
        let full = (1u32 << n) - 1;
        let middle = full & !self.pattern_columns;
        let wanted = (n / 2) as u32 - upper.count_ones();
        // Every subset of the middle columns of the size the upper half still needs.
        let mut uppers = Vec::new();
        let mut x = middle;
        loop {
            if x.count_ones() == wanted {
                uppers.push(upper | x);
            }
            if x == 0 {
                break;
            }
            x = (x - 1) & middle;
        }
        uppers.reverse();
        let (top, pairs) = top_row(n, upper, first);
        Some(ColumnSets {
            uppers,
            top,
            first: first & full,
            factor: if pairs { 2 } else { 1 },
        })
    }

    /// What subproblem `i` adds when it has `found` solutions (a pattern's; the fixed-point
    /// subproblem is counted by [`Plan::solve`] only): the solutions times the weight of its
    /// orbit, in total and in eighths of classes.
    pub fn counts_of(&self, i: usize, found: u64) -> Option<Counts> {
        match self.parts[i] {
            Part::Pattern { weight, .. } => Some(pattern_counts(found, weight)),
            Part::Fixed => None,
        }
    }

    /// Subproblem `i` listed but not joined ([`list_pattern`]): the halves of each side, none
    /// for the fixed-point subproblem (its searches list no halves); `None` when `cancel` was
    /// raised; an error when the halves found no memory to grow in.
    pub fn list(&self, i: usize, cancel: &AtomicBool) -> Result<Option<Listed>, AllocError> {
        match self.parts[i] {
            Part::Fixed => Ok(Some(Listed::default())),
            Part::Pattern { upper, first, .. } => {
                list_pattern(self.n, self.pattern_columns, upper, first, cancel)
            }
        }
    }

    /// The fixed-point subproblem of N >= 2: `S180 + 2 S90` (they allocate nothing), or `None`
    /// when `cancel` was raised.
    fn fixed_points(&self, cancel: &AtomicBool) -> Option<Counts> {
        let half = u128::from(half_turn_until(self.n, cancel).ok()??);
        let quarter = u128::from(quarter_turn_until(self.n, cancel).ok()??);
        Some(Counts {
            total: 0,
            unique: half + 2 * quarter,
        })
    }
}

impl Plan {
    /// Subproblem `i` counted again independently of [`Plan::solve`]: a pattern by the plain
    /// search of its board (`plain_count_pattern`: no halves listed, no join), the
    /// fixed-point subproblem by its own searches again (they never use the join). `None` when
    /// `i` is past the plan or `cancel` was raised.
    pub fn recount(&self, i: usize, cancel: &AtomicBool) -> Option<Counts> {
        match *self.parts.get(i)? {
            // Never an error: the fixed-point searches list no halves.
            Part::Fixed => self.solve(i, cancel).ok()?,
            Part::Pattern {
                upper,
                first,
                weight,
            } => {
                let found =
                    plain_count_pattern(self.n, self.pattern_columns, upper, first, cancel)?;
                let total = u128::from(found) * u128::from(weight);
                Some(Counts {
                    total,
                    unique: total,
                })
            }
        }
    }

    /// Whether `counts` can be what `shard` of more than one of a half-board split of the
    /// `n` x `n` board adds up to, whatever the checksum says: its patterns' eighths of classes
    /// equal their total, and shard 0 adds the fixed-point subproblem's `S180 + 2 S90`, even
    /// (the whole board's are classes, not eighths), or for N = 1 its 7 eighths (see
    /// [`Plan::solve`]).
    pub fn possible_shard(n: usize, shard: Shard, counts: Counts) -> bool {
        match counts.unique.checked_sub(counts.total) {
            Some(0) => true,
            Some(7) if n == 1 => shard.index() == 0,
            Some(extra) => shard.index() == 0 && extra.is_multiple_of(2),
            None => false,
        }
    }

    /// Whether `part` can be the contribution of subproblem `i`, whatever the checksum says:
    /// a pattern's total is a multiple of its weight and its eighths of classes equal its
    /// total; the fixed-point subproblem has no total, and its `S180 + 2 S90` is even (a
    /// solution of N >= 2 and its mirror image, never the same, are fixed together).
    pub fn possible(&self, i: usize, part: Counts) -> bool {
        match self.parts.get(i) {
            None => false,
            Some(Part::Fixed) if self.n == 1 => {
                part == Counts {
                    total: 0,
                    unique: 7,
                }
            }
            Some(Part::Fixed) => part.total == 0 && part.unique.is_multiple_of(2),
            Some(Part::Pattern { weight, .. }) => {
                part.unique == part.total && part.total.is_multiple_of(u128::from(*weight))
            }
        }
    }
}

/// Places the low bits of `bits` on the columns `members`.
pub(super) fn spread(bits: u32, members: &[u32]) -> u32 {
    members
        .iter()
        .enumerate()
        .filter(|(i, _)| bits >> i & 1 == 1)
        .fold(0, |acc, (_, &c)| acc | 1 << c)
}

/// Whether an upper half of `h` rows can use exactly `p` of the pattern columns `cols`, and a
/// lower half of `n - h` rows the others.
pub(super) fn feasible(n: usize, h: usize, cols: u32, p: u32) -> bool {
    p.count_ones() as usize <= h && (cols & !p).count_ones() as usize <= n - h
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
