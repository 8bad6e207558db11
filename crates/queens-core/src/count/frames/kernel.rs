//! The inner search: fill the rows the frame left free, on 32-bit masks, without recursion.
//!
//! The idea: with the frame's queens fixed, the remaining queens go in the free rows, top to
//! bottom. The columns taken so far and the two diagonal directions are bits of three words; the
//! queens of the frame attack fixed squares of each free row, precomputed once per subproblem
//! (`extra`), so a row's free squares are one `!(cols | left | right | extra[row])`. Rows taken
//! by the frame are skipped by shifting the diagonal words by the gap. The search keeps an
//! explicit stack of four words per level, so a node costs a few register operations and no
//! call; the last row is counted with one test instead of being visited. Source: the
//! bitmask formulation of Martin Richards (BCPL; MCPL report, 1997) with the frame treatment of the Q27
//! project. Cost: exponential in N; over all canonical frames, about 5.3 times fewer nodes than
//! the plain search of the whole board (N = 14: 5.19 million placements against 27.4
//! million), at about the same cost per node.
//!
//! Since the join (`join.rs`, which builds on this file), this search fills only the upper rows of most frames;
//! it still fills all of them for frames with few free rows and on 32-column boards, and it
//! is the reference the join is tested against.
//!
//! Frames fixed by some symmetry need more than a count: each solution found is checked
//! against those symmetries, so that the number of symmetry classes can be summed exactly.
//! That slower path (with a recorded placement) runs on a tiny fraction of the subproblems.

use std::sync::atomic::{AtomicBool, Ordering};

use super::frame::{Square, Subproblem};

/// The widest board the kernel handles: one bit of a `u32` per column.
pub const MAX_N: usize = 32;

/// How many nodes the searches leave between two looks at the cancel flag: a power of two
/// small enough that a raised flag is seen within well under a millisecond of work at any N
/// (a node is a few nanoseconds), large enough that the look costs nothing measurable.
pub(in crate::count) const CANCEL_CHECK_EVERY: u32 = 1 << 16;

/// A countdown to the next look at the cancel flag, shared by the searches of the engine: one
/// step per backtrack, a look every [`CANCEL_CHECK_EVERY`] steps (the first step looks at once,
/// so that a run cancelled before a subproblem starts stops at its first backtrack).
pub(in crate::count) struct CancelCheck {
    left: u32,
}

impl CancelCheck {
    pub(in crate::count) fn new() -> CancelCheck {
        CancelCheck { left: 1 }
    }

    /// Counts one step; whether the flag is raised, when this step is one that looks.
    #[inline(always)]
    pub(in crate::count) fn stop(&mut self, cancel: &AtomicBool) -> bool {
        self.left -= 1;
        if self.left != 0 {
            return false;
        }
        self.left = CANCEL_CHECK_EVERY;
        cancel.load(Ordering::Relaxed)
    }
}

/// The precomputed state of one subproblem.
#[derive(Debug)]
pub(in crate::count) struct Setup {
    /// Free rows, top to bottom.
    pub(in crate::count) rows: Vec<usize>,
    /// The frame's attacks on each free row (diagonals only).
    pub(in crate::count) extra: [u32; MAX_N],
    /// The row distance from free row `i` to free row `i + 1`.
    pub(in crate::count) gap: [u32; MAX_N],
    /// The columns of the frame.
    pub(in crate::count) cols: u32,
    /// All columns of the board.
    pub(in crate::count) full: u32,
}

impl Setup {
    pub(in crate::count) fn new(n: usize, frame: &[Square]) -> Setup {
        let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut taken_rows = 0u64;
        let mut cols = 0u32;
        for &(r, c) in frame {
            taken_rows |= 1 << r;
            cols |= 1 << c;
        }
        let rows: Vec<usize> = (0..n).filter(|r| taken_rows >> r & 1 == 0).collect();
        let mut extra = [0u32; MAX_N];
        let mut gap = [0u32; MAX_N];
        for (i, &row) in rows.iter().enumerate() {
            for &(r, c) in frame {
                let dist = row.abs_diff(r as usize);
                let c = c as usize;
                if c + dist < n {
                    extra[i] |= 1 << (c + dist);
                }
                if c >= dist {
                    extra[i] |= 1 << (c - dist);
                }
            }
            if i + 1 < rows.len() {
                gap[i] = (rows[i + 1] - row) as u32;
            }
        }
        Setup {
            rows,
            extra,
            gap,
            cols,
            full,
        }
    }
}

/// Counts the completions of a frame by the search alone, without the join (the engine's path
/// before the join existed; kept for small frames, N = 32, and to check the join against).
pub fn count_completions_searched(n: usize, sub: &Subproblem, cancel: &AtomicBool) -> Option<u64> {
    search_completions(&Setup::new(n, &sub.oriented), cancel)
}

/// The search of every free row, top to bottom.
pub(in crate::count) fn search_completions(s: &Setup, cancel: &AtomicBool) -> Option<u64> {
    let m = s.rows.len();
    if m == 0 {
        return Some(1);
    }
    // The squares of each free row that the frame leaves open.
    let mut open = [0u32; MAX_N];
    for (o, e) in open.iter_mut().zip(&s.extra) {
        *o = s.full & !e;
    }
    let last = m - 1;
    let f = open[0] & !s.cols;
    if last == 0 {
        return Some(u64::from(f.count_ones()));
    }
    // A queen in the row before the last leaves at most one column for the last row: a test,
    // not a population count (which is a dozen instructions without the POPCNT extension).
    descend(&open, &s.gap, s.cols, f, last - 1, cancel, |c, l, r| {
        u64::from(open[last] & !(c | l | r) != 0)
    })
}

/// The loop shared by the plain search and the join's upper part: fills the free rows
/// `0..=depth` top to bottom, starting from `f`, the open squares of row 0, with the columns
/// `c` already taken; each placement in row `depth` is handed to `leaf` (the columns taken, and
/// the two diagonal words shifted to the next free row) instead of being descended into, and
/// what `leaf` returns is summed. Returns `None` when `cancel` was raised before the end.
#[inline(always)]
pub(in crate::count) fn descend(
    open: &[u32; MAX_N],
    gap: &[u32; MAX_N],
    c: u32,
    f: u32,
    depth: usize,
    cancel: &AtomicBool,
    mut leaf: impl FnMut(u32, u32, u32) -> u64,
) -> Option<u64> {
    let (mut f, mut c, mut l, mut r) = (f, c, 0u32, 0u32);
    let mut stack = [(0u32, 0u32, 0u32, 0u32); MAX_N];
    let mut sp = 0usize;
    let mut total = 0u64;
    let mut check = CancelCheck::new();
    loop {
        if f == 0 {
            if sp == 0 {
                break;
            }
            sp -= 1;
            (f, c, l, r) = stack[sp];
            // Every node is left by one pop, and at most 32 leaves are met between two pops:
            // a countdown over the pops bounds the work between two looks at the flag.
            if check.stop(cancel) {
                return None;
            }
            continue;
        }
        let bit = f & f.wrapping_neg();
        f ^= bit;
        let g = gap[sp];
        let nc = c | bit;
        let nl = (l | bit) << g;
        let nr = (r | bit) >> g;
        if sp == depth {
            total += leaf(nc, nl, nr);
            continue;
        }
        let nf = open[sp + 1] & !(nc | nl | nr);
        if nf != 0 {
            stack[sp] = (f, c, l, r);
            sp += 1;
            (f, c, l, r) = (nf, nc, nl, nr);
        }
    }
    Some(total)
}

/// For a frame fixed by some symmetries: the number of completions, and the sum over them of
/// how many symmetries of the whole group fix the solution. Returns `None` when cancelled.
pub fn count_with_stabilizers(
    n: usize,
    sub: &Subproblem,
    cancel: &AtomicBool,
) -> Option<(u64, u64)> {
    let s = Setup::new(n, &sub.queens);
    let mut queens = vec![0usize; n];
    for &(r, c) in &sub.queens {
        queens[r as usize] = c as usize;
    }
    let mut walk = Walk {
        s: &s,
        sub,
        queens,
        image: vec![0; n],
        count: 0,
        stab_sum: 0,
        cancel,
        check: CancelCheck::new(),
    };
    walk.descend(0, s.cols, 0, 0)?;
    Some((walk.count, walk.stab_sum))
}

struct Walk<'a> {
    s: &'a Setup,
    sub: &'a Subproblem,
    queens: Vec<usize>,
    image: Vec<usize>,
    count: u64,
    stab_sum: u64,
    cancel: &'a AtomicBool,
    check: CancelCheck,
}

impl Walk<'_> {
    fn descend(&mut self, i: usize, c: u32, l: u32, r: u32) -> Option<()> {
        if i == self.s.rows.len() {
            self.count += 1;
            let mut fixed = 1;
            for g in &self.sub.fixed_by {
                g.apply(&self.queens, &mut self.image);
                if self.image == self.queens {
                    fixed += 1;
                }
            }
            self.stab_sum += fixed;
            return Some(());
        }
        if self.check.stop(self.cancel) {
            return None;
        }
        let mut f = self.s.full & !(c | l | r | self.s.extra[i]);
        let g = self.s.gap[i];
        while f != 0 {
            let bit = f & f.wrapping_neg();
            f ^= bit;
            self.queens[self.s.rows[i]] = bit.trailing_zeros() as usize;
            self.descend(i + 1, c | bit, (l | bit) << g, (r | bit) >> g)?;
        }
        Some(())
    }
}
