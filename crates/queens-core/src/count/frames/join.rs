//! Completing a frame from both ends: search the upper rows, look the last few up.
//!
//! The idea: split the free rows of a subproblem into the upper ones and the last few (four
//! to six from N = 15 on, see `join_rows`). First list every way to fill the last rows alone
//! (respecting the frame), searching upwards from the bottom row; each such *bottom* is stored
//! under the set of columns it uses, with the squares of the split row that its queens see
//! along the two diagonals, looking upwards. Then search the upper rows top to bottom as the
//! plain kernel does; when they are all filled, the columns left free name exactly one group of
//! bottoms, and a bottom completes the placement when none of its diagonals meets one of the
//! upper queens' — two 32-bit masks per side, one AND and one comparison per pair, no branch.
//! So the deepest rows of the search tree, where it has most of its nodes and its least
//! predictable branches, become a short, branch-free scan (each group padded to four entries so
//! the scan vectorises). Grouping needs no sort: one pass counts the groups in an
//! open-addressing table, one gives each its place, one scatters the masks.
//!
//! Source: the meet-in-the-middle idea of counters that solve parts of the board apart and join
//! them on their shared diagonals (for example the quadrant-joining counters of M. Kluev and of
//! the "deepgreen" pages); here only the last rows of each frame are split off, which keeps
//! the memory per thread small and the subproblems unchanged.
//!
//! Cost: the upper search (exponential, but shallower by the joined rows), one hash probe per upper
//! placement, one AND per pair of matching columns, and listing the bottoms once per frame
//! (about a tenth of the time for N = 17). Memory: the bottoms of one frame per thread, tens of
//! thousands for N = 17 and 18, at most [`MAX_BOTTOMS`] (about 10 MiB) whatever N.
//! Measured (release, one thread, the two builds run side by side on the 2-core machine): with
//! five rows joined and without the AVX2 copy, `queens count 17 -j 1` took 9.1 to 9.6 s against
//! 11.0 to 11.7 s with the search alone; the AVX2 copy and six rows took N = 17 to about 7.4 s.

use std::cell::RefCell;
use std::sync::atomic::AtomicBool;

use super::frame::Subproblem;
use super::kernel::{self, Setup, MAX_N};

/// How many of the last free rows the engine joins on an `n` x `n` board (0: none, the search
/// fills every row). Measured over all the frames of one board that no symmetry fixes, in one
/// run per line (release build with the AVX2 copy, one thread, best of five up to N = 15, of
/// three for N = 16, two for N = 17, one for N = 18):
///
/// | N | search alone | 3 rows | 4 rows | 5 rows | 6 rows | 7 rows |
/// |---|---|---|---|---|---|---|
/// | 13 | 8.1 ms | 10.8 ms | 12.5 ms | 15.4 ms | | |
/// | 14 | 45.7 ms | 48.0 ms | 50.7 ms | 61.3 ms | | |
/// | 15 | 209 ms | 214 ms | 184 ms | 203 ms | | |
/// | 16 | | | 1.34 s | 1.18 s | 1.30 s | |
/// | 17 | | | | 7.57 s | 7.05 s | |
/// | 18 | | | | 55.1 s | 49.7 s | 58.2 s |
///
/// Small boards have too few upper placements per frame to pay for listing the bottoms; the
/// larger the board, the more rows pay. Six is used past N = 18 too, where it is not measured.
pub fn join_rows(n: usize) -> usize {
    match n {
        0..=14 => 0,
        15 => 4,
        16 => 5,
        _ => 6,
    }
}

/// The most bottoms one frame may have; a frame with more joins fewer rows (down to the search
/// alone). Each bottom costs 54 to 78 bytes of scratch memory (its entry, its mask, its slot
/// and 2 to 4 table slots), so this bounds the memory of a thread at about 10 MiB whatever N.
/// With six rows joined, the frames of N = 17 have up to 122,563 bottoms (none over the
/// limit); for N = 18 the median is 67,147 and 115 frames of 5,664 are over it; for N = 20
/// and 22 nearly every frame is, and joins five rows or fewer.
pub const MAX_BOTTOMS: usize = 1 << 17;

/// The bytes of scratch memory a bottom may take at most: its entry (16 bytes, twice over in a
/// buffer grown by doubling), its slot (4), its mask with padding (up to 32) and up to 4 table
/// slots (48).
const BOTTOM_BYTES: u64 = 2 * 16 + 4 + 32 + 48;

/// The stack of a worker thread (the standard library's default, which the thread pool keeps).
const WORKER_STACK: u64 = 2 << 20;

/// The bytes a thread of the frame engine may hold for the `n` x `n` board: its stack and its
/// scratch memory for the largest frame's bottoms (at most [`MAX_BOTTOMS`], and at most the
/// placements of `join_rows` queens on `n` columns). About 14 MiB from N = 17, a stack alone
/// below N = 15. A frame whose bottoms find no memory to grow in joins fewer rows instead, so
/// a thread never needs more, but the run stays within its budget only by this bound.
pub fn thread_bytes(n: usize) -> u64 {
    let rows = join_rows(n);
    let placements = (0..rows).fold(1u64, |p, i| p.saturating_mul(n.saturating_sub(i) as u64));
    let bottoms = if rows == 0 {
        0
    } else {
        placements.min(MAX_BOTTOMS as u64)
    };
    WORKER_STACK + bottoms * BOTTOM_BYTES
}

/// The widest board the join handles: bit 31 of the upper side's mask is its sentinel.
pub const MAX_JOIN_N: usize = 31;

/// A group of bottoms in the hash table: the columns they use and where their masks are.
#[derive(Debug, Clone, Copy)]
struct Slot {
    cols: u32,
    start: u32,
    len: u32,
}

/// Marks an unused slot (no group uses all 32 columns: the join runs on 31 at most).
const EMPTY: u32 = u32::MAX;

/// The per-thread buffers, kept between subproblems so that a run allocates once per thread.
#[derive(Debug, Default)]
struct Scratch {
    /// Every bottom: its columns and its diagonal masks (left in the low word).
    bottoms: Vec<(u32, u64)>,
    /// The masks, grouped by columns, each group padded to a multiple of four.
    masks: Vec<u64>,
    /// Open-addressing table from columns to group.
    table: Vec<Slot>,
    /// The table slot of each bottom, while grouping.
    slots: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Whether a join of `rows` rows applies to this setup: a board of at most [`MAX_JOIN_N`]
/// columns with enough free rows for an upper part of at least two rows.
pub(in crate::count) fn applies(n: usize, s: &Setup, rows: usize) -> bool {
    rows >= 1 && n <= MAX_JOIN_N && s.rows.len() >= rows + 2
}

/// Counts the completions of the frame in `s` by the join of its last `rows` free rows.
/// Returns `None` when `cancel` was raised before the end. Call only when [`applies`] holds.
pub(in crate::count) fn count(s: &Setup, rows: usize, cancel: &AtomicBool) -> Option<u64> {
    SCRATCH.with(|scratch| {
        let scratch = &mut scratch.borrow_mut();
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the processor has the features `count_with_avx2` is compiled for,
            // checked just above.
            return unsafe { count_with_avx2(s, rows, scratch, cancel) };
        }
        count_with(s, rows, scratch, cancel)
    })
}

/// [`count_with`] compiled for processors with AVX2 (four masks per instruction in the scan)
/// and BMI (one instruction for each of `f & -f`, `a & !b` and variable shifts): Intel from
/// 2013 (Haswell) and AMD from 2015 (Excavator) on. The plain build targets the x86-64
/// baseline, so this copy is chosen at run time, once per frame.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn count_with_avx2(
    s: &Setup,
    rows: usize,
    scratch: &mut Scratch,
    cancel: &AtomicBool,
) -> Option<u64> {
    count_with(s, rows, scratch, cancel)
}

/// Counts the completions of a frame with the last `rows` free rows joined (the search alone
/// when the join does not apply: `rows` is 0, the frame has fewer than `rows + 2` free rows,
/// or N = 32). The engine uses `join_rows`; this is for measuring other choices.
pub fn count_completions_joining(
    n: usize,
    sub: &Subproblem,
    rows: usize,
    cancel: &AtomicBool,
) -> Option<u64> {
    let s = Setup::new(n, &sub.oriented);
    if applies(n, &s, rows) {
        count(&s, rows, cancel)
    } else {
        kernel::search_completions(&s, cancel)
    }
}

#[inline(always)]
fn count_with(s: &Setup, rows: usize, scratch: &mut Scratch, cancel: &AtomicBool) -> Option<u64> {
    count_limited(s, rows, MAX_BOTTOMS, scratch, cancel)
}

/// [`count_with`] with `limit` bottoms at most.
#[inline(always)]
fn count_limited(
    s: &Setup,
    rows: usize,
    limit: usize,
    scratch: &mut Scratch,
    cancel: &AtomicBool,
) -> Option<u64> {
    let m = s.rows.len();
    let full = s.full;
    // The squares of each free row open to the inner queens: not attacked by the frame, and
    // not in a frame column (so that column sets below are the inner queens' own).
    let mut open = [0u32; MAX_N];
    for (o, e) in open.iter_mut().zip(&s.extra).take(m) {
        *o = full & !e & !s.cols;
    }
    // Join fewer rows when the bottoms of this frame would not fit in the budget, or in the
    // memory the process can have (an address-space limit): the search alone needs none.
    let mut split = m - rows;
    while !collect_bottoms(s, &open, split, limit, &mut scratch.bottoms) {
        split += 1;
        if split == m {
            return kernel::search_completions(s, cancel);
        }
    }
    if scratch.bottoms.is_empty() {
        return Some(0);
    }
    let Some((shift, mask)) = group(scratch) else {
        return kernel::search_completions(s, cancel);
    };
    let table = &scratch.table[..];
    let masks = &scratch.masks[..];
    let inner = full & !s.cols;

    // The upper search, rows 0..split; a leaf is a queen in row split - 1.
    kernel::descend(
        &open,
        &s.gap,
        0,
        open[0],
        split - 1,
        cancel,
        |nc, nl, nr| {
            // No bottom can follow when the split row has no square left.
            if open[split] & !(nc | nl | nr) == 0 {
                return 0;
            }
            // The squares of the split row the upper queens see, with the sentinel bit 31 that no
            // bottom has (so a padding entry, all ones, never matches).
            let seen = u64::from(nl & full) | u64::from(nr) << 32 | 1 << 31;
            let want = inner & !nc;
            let mut h = slot_of(want, shift);
            loop {
                let slot = table[h];
                if slot.cols == want {
                    let start = slot.start as usize;
                    return disjoint(&masks[start..start + slot.len as usize], seen);
                }
                if slot.cols == EMPTY {
                    return 0;
                }
                h = (h + 1) & mask;
            }
        },
    )
}

/// Lists every filling of the free rows `split..` (bottom row first, going up), each as its
/// columns and the squares of row `split` its queens see along the two diagonals, including
/// its own queen there: bits of the low word for the diagonal going up and to the left, of the
/// high word for the one going up and to the right. Returns `false`, with `out` incomplete,
/// when there are more than `limit`, or when `out` cannot grow (no memory).
#[inline(always)]
fn collect_bottoms(
    s: &Setup,
    open: &[u32; MAX_N],
    split: usize,
    limit: usize,
    out: &mut Vec<(u32, u64)>,
) -> bool {
    out.clear();
    let top = s.rows.len() - 1;
    let full = s.full;
    let mut stack = [(0u32, 0u32, 0u32, 0u32); MAX_N];
    let mut sp = top;
    let (mut c, mut l, mut r) = (0u32, 0u32, 0u32);
    let mut f = open[sp];
    loop {
        if f == 0 {
            if sp == top {
                break;
            }
            sp += 1;
            (f, c, l, r) = stack[sp];
            continue;
        }
        let bit = f & f.wrapping_neg();
        f ^= bit;
        if sp == split {
            // One test on the common path: growing is rare (the buffer is kept per thread).
            if out.len() == out.capacity().min(limit)
                && (out.len() >= limit || out.try_reserve(out.len().max(1 << 10)).is_err())
            {
                return false;
            }
            out.push((c | bit, u64::from(l | bit) | u64::from(r | bit) << 32));
            continue;
        }
        // Going up by `g` rows: the up-left diagonal moves to lower columns, the up-right one
        // to higher columns (cut at the board's edge).
        let g = s.gap[sp - 1];
        let nc = c | bit;
        let nl = (l | bit) >> g;
        let nr = ((r | bit) << g) & full;
        let nf = open[sp - 1] & !(nc | nl | nr);
        if nf != 0 {
            stack[sp] = (f, c, l, r);
            sp -= 1;
            (f, c, l, r) = (nf, nc, nl, nr);
        }
    }
    true
}

/// Groups the bottoms by columns into `masks` (each group padded with all-ones entries to a
/// multiple of four) and `table`, without sorting: one pass counts each group in the table,
/// one assigns the groups their places, one scatters the masks. Returns the hash shift and
/// the table's index mask; `None` when the buffers cannot grow (no memory).
fn group(scratch: &mut Scratch) -> Option<(u32, usize)> {
    let Scratch {
        bottoms,
        masks,
        table,
        slots,
    } = scratch;
    let bits = (usize::BITS - (2 * bottoms.len()).leading_zeros()).max(4);
    let shift = 32 - bits;
    let mask = (1usize << bits) - 1;
    table.clear();
    table.try_reserve_exact(1 << bits).ok()?;
    table.resize(
        1 << bits,
        Slot {
            cols: EMPTY,
            start: 0,
            len: 0,
        },
    );
    slots.clear();
    slots.try_reserve_exact(bottoms.len()).ok()?;
    for &(cols, _) in bottoms.iter() {
        let mut h = slot_of(cols, shift);
        while table[h].cols != cols && table[h].cols != EMPTY {
            h = (h + 1) & mask;
        }
        table[h].cols = cols;
        table[h].len += 1;
        slots.push(h as u32);
    }
    let mut end = 0u32;
    for slot in table.iter_mut().filter(|slot| slot.cols != EMPTY) {
        slot.start = end;
        end += slot.len.next_multiple_of(4);
        slot.len = 0;
    }
    masks.clear();
    masks.try_reserve_exact(end as usize).ok()?;
    masks.resize(end as usize, u64::MAX);
    for (&(_, key), &h) in bottoms.iter().zip(slots.iter()) {
        let slot = &mut table[h as usize];
        masks[(slot.start + slot.len) as usize] = key;
        slot.len += 1;
    }
    for slot in table.iter_mut() {
        slot.len = slot.len.next_multiple_of(4);
    }
    Some((shift, mask))
}

/// The table slot where the search for `cols` starts (Fibonacci hashing).
#[inline(always)]
fn slot_of(cols: u32, shift: u32) -> usize {
    (cols.wrapping_mul(0x9E37_79B1) >> shift) as usize
}

/// How many of `masks` (a multiple of four long) share no bit with `seen`; four independent
/// lanes without a branch, which the compiler turns into vector instructions.
#[inline(always)]
fn disjoint(masks: &[u64], seen: u64) -> u64 {
    let mut lanes = [0u64; 4];
    for chunk in masks.chunks_exact(4) {
        for (lane, &m) in lanes.iter_mut().zip(chunk) {
            *lane += u64::from(m & seen == 0);
        }
    }
    lanes.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::subproblems;

    #[test]
    fn the_join_counts_what_the_search_counts_for_every_frame() {
        let never = AtomicBool::new(false);
        let mut joined = 0;
        for n in 4..=13 {
            for sub in subproblems(n) {
                let s = Setup::new(n, &sub.oriented);
                if !applies(n, &s, 5) {
                    continue;
                }
                joined += 1;
                assert_eq!(
                    count(&s, 5, &never),
                    kernel::search_completions(&s, &never),
                    "n = {n}, frame {:?}",
                    sub.oriented
                );
            }
        }
        assert!(joined > 1000, "only {joined} frames were joined");
    }

    #[test]
    fn any_number_of_joined_rows_gives_the_same_count() {
        let never = AtomicBool::new(false);
        for n in [9, 11, 12] {
            for sub in subproblems(n) {
                let searched = kernel::count_completions_searched(n, &sub, &never);
                for rows in 0..=8 {
                    assert_eq!(
                        count_completions_joining(n, &sub, rows, &never),
                        searched,
                        "n = {n}, {rows} rows joined, frame {:?}",
                        sub.oriented
                    );
                }
            }
        }
    }

    #[test]
    fn the_portable_join_and_the_one_chosen_at_run_time_agree() {
        // On a processor with AVX2 the engine runs `count_with_avx2`; this keeps the portable
        // copy tested there too (and checks both against each other).
        let never = AtomicBool::new(false);
        let mut scratch = Scratch::default();
        for n in [12, 14] {
            for sub in subproblems(n) {
                let s = Setup::new(n, &sub.oriented);
                if applies(n, &s, 4) {
                    assert_eq!(
                        count_with(&s, 4, &mut scratch, &never),
                        count(&s, 4, &never),
                        "n = {n}, frame {:?}",
                        sub.oriented
                    );
                }
            }
        }
    }

    #[test]
    fn frames_with_too_many_bottoms_join_fewer_rows_and_still_count_right() {
        let never = AtomicBool::new(false);
        let mut scratch = Scratch::default();
        let n = 12;
        for sub in subproblems(n) {
            let s = Setup::new(n, &sub.oriented);
            if !applies(n, &s, 6) {
                continue;
            }
            let searched = kernel::search_completions(&s, &never);
            for limit in [0, 1, 5, 40, 300] {
                assert_eq!(
                    count_limited(&s, 6, limit, &mut scratch, &never),
                    searched,
                    "limit {limit}, frame {:?}",
                    sub.oriented
                );
                assert!(scratch.bottoms.len() <= limit);
            }
        }
    }

    #[test]
    fn a_raised_cancel_flag_stops_the_join() {
        let n = 14;
        let raised = AtomicBool::new(true);
        let sub = subproblems(n)
            .into_iter()
            .find(|sub| sub.fixed_by.is_empty())
            .unwrap();
        let s = Setup::new(n, &sub.oriented);
        assert!(applies(n, &s, 5));
        assert_eq!(count(&s, 5, &raised), None);
    }

    /// The bytes `scratch` holds.
    fn scratch_bytes(scratch: &Scratch) -> u64 {
        let bytes = |cap: usize, size: usize| (cap * size) as u64;
        bytes(scratch.bottoms.capacity(), 16)
            + bytes(scratch.masks.capacity(), 8)
            + bytes(scratch.table.capacity(), std::mem::size_of::<Slot>())
            + bytes(scratch.slots.capacity(), 4)
    }

    /// The memory model the run sizes its threads by holds: a thread's scratch memory stays
    /// within [`thread_bytes`] (less its stack) over every frame it joins, including frames
    /// with more bottoms than [`MAX_BOTTOMS`] (N = 19, which join fewer rows).
    #[test]
    fn a_threads_scratch_memory_stays_within_the_model() {
        assert_eq!(thread_bytes(14), WORKER_STACK);
        for (n, every) in [(15, 1), (16, 3), (17, 40), (19, 400)] {
            let mut scratch = Scratch::default();
            let (mut most, mut listed) = (0u64, 0usize);
            for sub in subproblems(n).iter().step_by(every) {
                let s = Setup::new(n, &sub.oriented);
                if !applies(n, &s, join_rows(n)) {
                    continue;
                }
                let mut open = [0u32; MAX_N];
                for (o, e) in open.iter_mut().zip(&s.extra).take(s.rows.len()) {
                    *o = s.full & !e & !s.cols;
                }
                let mut split = s.rows.len() - join_rows(n);
                while !collect_bottoms(&s, &open, split, MAX_BOTTOMS, &mut scratch.bottoms) {
                    split += 1;
                }
                listed = listed.max(scratch.bottoms.len());
                assert!(group(&mut scratch).is_some());
                most = most.max(scratch_bytes(&scratch));
            }
            let model = thread_bytes(n) - WORKER_STACK;
            assert!(listed > 1000, "N = {n}: {listed} bottoms at most");
            assert!(
                most <= model,
                "N = {n}: {most} bytes, more than the {model} modelled"
            );
        }
    }

    #[test]
    fn padding_never_matches() {
        let seen = 1u64 << 31;
        assert_eq!(disjoint(&[u64::MAX; 4], seen), 0);
        assert_eq!(disjoint(&[0, 1, u64::MAX, 1 << 31], seen), 2);
    }
}
