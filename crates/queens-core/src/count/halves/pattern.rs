//! The count of one subproblem of the half-board engine: list the upper and the lower halves of
//! its pattern (`list.rs`) into groups by their columns (`group.rs`) and join every group
//! with the complementary one (`bitslice.rs`), in per-thread buffers kept between subproblems,
//! and the most room those buffers can hold (`buffers_ceiling`); the AVX2 copy is chosen here,
//! once per subproblem, when the processor has it.

use std::sync::atomic::{AtomicBool, Ordering};

use super::alloc::AllocError;
use super::bitslice::{join_groups, JoinBuffers, PIECE};
use super::group::{Groups, Key};
use super::list::{list_lowers, list_uppers};

/// The widest board this engine counts: its masks are two `N`-bit words in a `u64`, and its
/// group tables have `2^N` entries (64 MiB at N = 24).
pub const MAX_N: usize = 24;

/// The per-thread buffers, kept between subproblems.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) uppers: Groups,
    pub(super) lowers: Groups,
    join: JoinBuffers,
}

/// One subproblem: the board, the pattern columns, the pattern of the upper half and the
/// columns allowed to the queen of row `n/2`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Which {
    pub(super) n: usize,
    pub(super) cols: u32,
    pub(super) upper: u32,
    pub(super) first: u32,
}

/// The columns of `mask` seen in the left-right mirror of the `n`-column board (`n` >= 1).
pub(super) fn mirror(n: usize, mask: u32) -> u32 {
    mask.reverse_bits() >> (32 - n)
}

impl Scratch {
    /// The bytes a thread's buffers hold room for.
    #[cfg(test)]
    pub(super) fn bytes(&self) -> u64 {
        self.uppers.bytes() + self.lowers.bytes() + self.join.bytes()
    }
}

/// The most bytes one thread's buffers can hold room for, whatever the order of its
/// subproblems, when the largest of them listed `most` halves (each size its own largest:
/// [`list_pattern`] gives them) on an `n` x `n` board of `pattern_columns` pattern columns: the
/// groups of each side and the join's buffers by the rules of their growth, on a thread that
/// started with empty buffers (a run's own; an earlier run of another board on the same
/// thread may leave more). A bound on the room of a count's buffers made before it, from the
/// sizes of its subproblems alone (`queens_core::internals::rehearse`); what the allocator
/// holds beyond that room is not in it.
pub fn buffers_ceiling(n: usize, pattern_columns: usize, most: Listed) -> u64 {
    let bits = n.saturating_sub(pattern_columns) as u32;
    Groups::ceiling(bits, most.uppers)
        + Groups::ceiling(bits, most.lowers)
        + JoinBuffers::ceiling((2 * n).div_ceil(PIECE), most.copied)
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// The number of solutions of the `n` x `n` board whose upper half (rows `0..n/2`) uses
/// exactly the columns `upper` among the pattern columns `cols`, and whose row `n/2` has its
/// queen on a column of `first`. `None` when cancelled; an error when a buffer could not grow
/// (the thread's buffers are then given back).
///
/// # Panics
/// When `n` is past [`MAX_N`], or `cols`, `upper` and `first` are not a pattern of the board
/// (a [`Plan`](super::Plan)'s parts are).
pub fn count_pattern(
    n: usize,
    cols: u32,
    upper: u32,
    first: u32,
    cancel: &AtomicBool,
) -> Result<Option<u64>, AllocError> {
    assert!((1..=MAX_N).contains(&n));
    let which = Which {
        n,
        cols,
        upper,
        first,
    };
    let counted = SCRATCH.with(|s| {
        let s = &mut s.borrow_mut();
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the features `count_avx2` is compiled for were checked just above.
            return unsafe { count_avx2(which, s, cancel) };
        }
        count_with::<false>(which, s, cancel)
    });
    if counted.is_err() {
        SCRATCH.with(|s| *s.borrow_mut() = Scratch::default());
    }
    counted
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
fn count_avx2(
    which: Which,
    s: &mut Scratch,
    cancel: &AtomicBool,
) -> Result<Option<u64>, AllocError> {
    count_with::<true>(which, s, cancel)
}

/// The halves one subproblem listed, on each side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Listed {
    /// The upper halves (rows `0..n/2`).
    pub uppers: u64,
    /// The lower halves (rows `n/2..n`).
    pub lowers: u64,
    /// The halves of the largest pair of groups the join sorts into copies of its own before
    /// matching them (groups of at least 512 halves against at least 64): the larger
    /// group's and the smaller one's, 0 when it sorts none. With `uppers` and `lowers`, what
    /// the thread's buffers must hold for this subproblem (`queens_core::internals::rehearse`).
    pub copied: (u64, u64),
}

impl Listed {
    /// Each size the larger of `self`'s and `other`'s: folded over subproblems, the sizes
    /// [`buffers_ceiling`] takes.
    pub fn each_max(self, other: Listed) -> Listed {
        Listed {
            uppers: self.uppers.max(other.uppers),
            lowers: self.lowers.max(other.lowers),
            copied: (
                self.copied.0.max(other.copied.0),
                self.copied.1.max(other.copied.1),
            ),
        }
    }
}

/// The columns row 0 may use in the subproblem of the pattern `upper` whose row `n/2` may use
/// `first`, and whether its count is then doubled. On an even board whose pattern (and
/// restriction of row `n/2`) the mirror keeps, the solutions come in mirror pairs (none is its
/// own mirror image: two of its queens would share a row) whose queens of row 0 stand on
/// columns `c` and `n - 1 - c`: those whose queen of row 0 is in the left half are counted,
/// twice. Elsewhere every column, once.
pub(super) fn top_row(n: usize, upper: u32, first: u32) -> (u32, bool) {
    let full = (1u32 << n) - 1;
    let pairs = n.is_multiple_of(2)
        && n > 1
        && mirror(n, upper) == upper
        && mirror(n, first & full) == first & full;
    (if pairs { full >> (n / 2) } else { full }, pairs)
}

/// A subproblem listed, ready for its join.
struct Ready {
    /// The key of its groups.
    key: Key,
    /// The number of 4-bit pieces of a mask.
    pieces: usize,
    /// Whether its count is doubled (mirror pairs).
    pairs: bool,
    /// The lengths of the join's sorted copies ([`Listed::copied`]).
    copied: (usize, usize),
}

/// Lists both sides of a subproblem into `s` as [`count_pattern`] does, and makes room for
/// its join (and, when `fill`, writes that room, as the join would). `None` when cancelled.
#[inline(always)]
fn list_both(
    Which {
        n,
        cols,
        upper,
        first,
    }: Which,
    s: &mut Scratch,
    fill: bool,
    cancel: &AtomicBool,
) -> Result<Option<Ready>, AllocError> {
    let h = n / 2;
    let full = (1u32 << n) - 1;
    let lower = cols & !upper;
    // The pattern columns are the k/2 leftmost and rightmost: within a pattern, a half's
    // group is named by its columns in the middle, `n - k` bits from column k/2.
    let key = Key {
        shift: cols.trailing_ones(),
        bits: n as u32 - cols.count_ones(),
    };
    let (top, pairs) = top_row(n, upper, first);
    list_uppers(n, h, full & !lower, upper, top, key, cancel, &mut s.uppers)?;
    if cancel.load(Ordering::Relaxed) {
        return Ok(None);
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
    )?;
    if cancel.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let keys = (1u32 << key.bits) - 1;
    let pieces = (2 * n).div_ceil(PIECE);
    let copied = if fill {
        s.join.fill(pieces, keys, &s.uppers, &s.lowers)?
    } else {
        s.join.reserve(pieces, keys, &s.uppers, &s.lowers)?
    };
    Ok(Some(Ready {
        key,
        pieces,
        pairs,
        copied,
    }))
}

#[inline(always)]
pub(super) fn count_with<const FAST: bool>(
    which: Which,
    s: &mut Scratch,
    cancel: &AtomicBool,
) -> Result<Option<u64>, AllocError> {
    let Some(Ready {
        key, pieces, pairs, ..
    }) = list_both(which, s, false, cancel)?
    else {
        return Ok(None);
    };
    let full = (1u32 << key.bits) - 1;
    macro_rules! join {
        ($($p:literal)*) => {
            match pieces {
                $($p => join_groups::<$p, { $p - 1 }, FAST>(
                    full,
                    &s.uppers,
                    &s.lowers,
                    &mut s.join,
                    cancel,
                ),)*
                _ => unreachable!("N is at most {MAX_N}"),
            }
        };
    }
    let found = join!(1 2 3 4 5 6 7 8 9 10 11 12);
    Ok(found.map(|found| if pairs { 2 * found } else { found }))
}

/// The subproblem of [`count_pattern`] listed but not joined: both sides' halves listed into
/// the thread's buffers, and the buffers of the join made and written as the join would
/// (`queens_core::internals::rehearse`). The number of halves of each side; `None` when
/// cancelled; an error when a buffer could not grow (the thread's buffers are then given back).
pub fn list_pattern(
    n: usize,
    cols: u32,
    upper: u32,
    first: u32,
    cancel: &AtomicBool,
) -> Result<Option<Listed>, AllocError> {
    assert!((1..=MAX_N).contains(&n));
    let which = Which {
        n,
        cols,
        upper,
        first,
    };
    let listed = SCRATCH.with(|s| {
        let s = &mut s.borrow_mut();
        let listed = list_both(which, s, true, cancel)?;
        Ok(listed.map(|ready| Listed {
            uppers: s.uppers.len() as u64,
            lowers: s.lowers.len() as u64,
            copied: (ready.copied.0 as u64, ready.copied.1 as u64),
        }))
    });
    if listed.is_err() {
        SCRATCH.with(|s| *s.borrow_mut() = Scratch::default());
    }
    listed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::halves::plan::{Part, Plan};

    /// One thread's buffers never hold more room than [`buffers_ceiling`] of the largest
    /// sizes it has met, in three orders of its subproblems: as a run takes them (dearest
    /// first), from the smallest up (every list keeps growing), and shuffled; counted as a
    /// run counts them, or listed as a rehearsal lists them. Each part (the groups of each
    /// side, the join's buffers) stays under its own ceiling, checked after each subproblem.
    /// And the ceiling is not idle: the room reaches more than half of it (0.56 to 0.75 here),
    /// and the join's buffers, reserved exactly, hold their ceiling to the byte (with copies
    /// from N = 16 on).
    /// The GPU join's batch of a subproblem's groups (every upper group with the lower group
    /// of the complementary columns) counts, on its CPU twin, what the bit-sliced join counts:
    /// every subproblem of N = 10, 13 and 16, large groups (split tiles) included.
    #[test]
    fn the_gpu_joins_batch_counts_what_the_bit_sliced_join_counts() {
        use crate::count::gpu::join::{CpuTwin, JoinBatch};
        let never = AtomicBool::new(false);
        for (n, k) in [(10, 4), (13, 6), (16, 8)] {
            let plan = Plan::new(n, k);
            let cols = plan.pattern_columns;
            let mut s = Scratch::default();
            let mut joined = 0;
            for &part in &plan.parts {
                let Part::Pattern { upper, first, .. } = part else {
                    continue;
                };
                let which = Which {
                    n,
                    cols,
                    upper,
                    first,
                };
                let ready = list_both(which, &mut s, false, &never).unwrap().unwrap();
                let full = (1usize << ready.key.bits) - 1;
                let batch = JoinBatch::of(
                    (0..=full).map(|key| (s.uppers.get(key), s.lowers.get(full & !key))),
                );
                let on_gpu = batch.count(&CpuTwin).unwrap();
                let found = count_with::<false>(which, &mut s, &never).unwrap().unwrap();
                let found = if ready.pairs { found / 2 } else { found };
                assert_eq!(on_gpu, found, "N = {n}, pattern {upper:b}");
                joined += on_gpu;
            }
            assert!(joined > 0, "N = {n}: something was joined");
        }
    }

    #[test]
    fn a_threads_buffers_stay_under_their_ceiling_in_any_order() {
        let never = AtomicBool::new(false);
        for (n, k) in [(13, 6), (14, 8), (16, 12)] {
            let plan = Plan::new(n, k);
            let cols = plan.pattern_columns;
            let sizes: Vec<(Which, Listed)> = (plan.parts.iter())
                .filter_map(|&part| match part {
                    Part::Pattern { upper, first, .. } => {
                        let which = Which {
                            n,
                            cols,
                            upper,
                            first,
                        };
                        Some((which, list_pattern(n, cols, upper, first, &never)))
                    }
                    Part::Fixed => None,
                })
                .map(|(which, listed)| (which, listed.unwrap().unwrap()))
                .collect();
            let mut smallest_first = sizes.clone();
            smallest_first.sort_by_key(|(_, h)| h.uppers + h.lowers);
            let mut shuffled = sizes.clone();
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for i in (1..shuffled.len()).rev() {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                shuffled.swap(i, (seed >> 33) as usize % (i + 1));
            }
            for (order, name) in [
                (&sizes, "the plan's"),
                (&smallest_first, "smallest first"),
                (&shuffled, "shuffled"),
            ] {
                for rehearsed in [false, true] {
                    let (mut s, mut most) = (Scratch::default(), Listed::default());
                    let (mut closest, mut copies) = (0.0, false);
                    for &(which, listed) in order {
                        if rehearsed {
                            list_both(which, &mut s, true, &never).unwrap().unwrap();
                        } else {
                            count_with::<false>(which, &mut s, &never).unwrap().unwrap();
                        }
                        most = most.each_max(listed);
                        let (room, ceiling) = (s.bytes(), buffers_ceiling(n, k, most));
                        assert!(
                            room <= ceiling,
                            "N = {n}, k = {k}, {name} order: {room} bytes, ceiling {ceiling}"
                        );
                        closest = f64::max(closest, room as f64 / ceiling as f64);
                        let bits = (n - k) as u32;
                        assert!(s.uppers.bytes() <= Groups::ceiling(bits, most.uppers));
                        assert!(s.lowers.bytes() <= Groups::ceiling(bits, most.lowers));
                        let pieces = (2 * n).div_ceil(PIECE);
                        // Reserved exactly, the join's room is its ceiling, no less.
                        let join = JoinBuffers::ceiling(pieces, most.copied);
                        assert_eq!(s.join.bytes(), join, "N = {n}, k = {k}, {name} order");
                        copies |= most.copied.0 > 0;
                    }
                    assert!(closest > 0.5, "N = {n}, k = {k}, {name} order: {closest}");
                    assert!(n < 16 || copies, "N = {n}: no copies met");
                }
            }
        }
    }
}
