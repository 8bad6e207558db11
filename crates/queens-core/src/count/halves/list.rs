//! The listing of the halves of a pattern: every filling of the upper rows (or of the lower
//! rows, from the bottom up) that uses exactly the pattern's columns among the pattern
//! columns, each stored as its group key and the squares of the split row its diagonals meet.
//! It calls `group.rs` (to store a half) and the kernel's cancel check.

use std::sync::atomic::{AtomicBool, Ordering};

use super::alloc::{grow, AllocError};
use super::group::Key;
use crate::count::kernel::CancelCheck;

/// Lists every filling of rows `0..h` with columns in `allowed` that uses every column of
/// `need`: its columns, and the squares of row `h` its queens attack along the two diagonal
/// directions (down-right in the low `n` bits, down-left in the next `n`).
#[inline(always)]
pub(super) fn list_uppers(
    n: usize,
    h: usize,
    allowed: u32,
    need: u32,
    key: Key,
    cancel: &AtomicBool,
    out: &mut Vec<u64>,
) -> Result<(), AllocError> {
    out.clear();
    let full = (1u32 << n) - 1;
    if h == 0 {
        if need == 0 {
            grow(out, 1)?;
            out.push(key.word(0, 0));
        }
        return Ok(());
    }
    // The walk's first word moves right a column per row down (the down-right diagonals),
    // its second left: shifted once more, they are the attacks on row h.
    walk(h, allowed, need, full, cancel, out, |c, l, r| {
        key.word(c, u64::from(l << 1 & full) | u64::from(r >> 1) << n)
    })
}

/// Lists every filling of rows `h..n` with columns in `allowed` (and in `first` for row `h`)
/// that uses every column of `need`: its columns, and the squares of row `h` that its queens' diagonals cross (the
/// up-left diagonals in the low `n` bits, the up-right ones in the next `n`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn list_lowers(
    n: usize,
    h: usize,
    allowed: u32,
    need: u32,
    first: u32,
    key: Key,
    cancel: &AtomicBool,
    out: &mut Vec<u64>,
) -> Result<(), AllocError> {
    out.clear();
    let full = (1u32 << n) - 1;
    // Filled from the bottom row up: the walk's first word moves right a column per row up
    // (the up-right diagonals), its second left (the up-left ones); after row h they are
    // where those diagonals cross row h, the last queen's own square included.
    walk(n - h, allowed, need, first, cancel, out, |c, l, r| {
        key.word(c, u64::from(r) | u64::from(l & full) << n)
    })
}

/// The depth-first filling of `rows` rows (at least one), one after the other, the columns
/// in `allowed` (and in `last_row` for the last one), every column of `need` used (a row goes to a needed column when the rows left
/// are as many as the needed columns left); `finish` turns the state after the last row (its
/// columns, and the two diagonal words with the last queen added, not yet shifted) into the
/// stored entry. A list that cannot grow ends the walk with the error (the list is then
/// partial, as when cancelled).
#[inline(always)]
fn walk(
    rows: usize,
    allowed: u32,
    need: u32,
    last_row: u32,
    cancel: &AtomicBool,
    out: &mut Vec<u64>,
    finish: impl Fn(u32, u32, u32) -> u64,
) -> Result<(), AllocError> {
    let last = rows - 1;
    let open = |c: u32, depth: usize| open_columns(rows, allowed, need, last_row, c, depth);
    let mut stack = [(0u32, 0u32, 0u32, 0u32); 32];
    let mut sp = 0usize;
    let (mut f, mut c, mut l, mut r) = (open(0, 0), 0u32, 0u32, 0u32);
    // A pattern prunes most of the walk, which may visit billions of nodes for few halves:
    // look at the flag every 2^16 backtracks too, as the kernel does.
    let mut check = CancelCheck::new();
    loop {
        if f == 0 {
            if sp == 0 {
                break;
            }
            sp -= 1;
            (f, c, l, r) = stack[sp];
            if check.stop(cancel) {
                return Ok(());
            }
            continue;
        }
        let bit = f & f.wrapping_neg();
        f ^= bit;
        let nc = c | bit;
        if sp == last {
            if out.len() == out.capacity() {
                grow(out, 1)?;
            }
            out.push(finish(nc, l | bit, r | bit));
            // Large boards list millions of halves per subproblem: stop soon when cancelled
            // (the caller sees the flag and drops the list).
            if out.len().is_multiple_of(1 << 20) && cancel.load(Ordering::Relaxed) {
                return Ok(());
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
    Ok(())
}

/// The columns a walk of `rows` rows may give the row at `depth` after using the columns `c`
/// (before the diagonals are taken out): the needed ones left when the rows left are as many,
/// else every allowed one left, and only those of `last_row` in the last row.
#[inline(always)]
fn open_columns(rows: usize, allowed: u32, need: u32, last_row: u32, c: u32, depth: usize) -> u32 {
    let missing = need & !c;
    let open = if missing.count_ones() as usize >= rows - depth {
        missing
    } else {
        allowed & !c
    };
    if depth == rows - 1 {
        open & last_row
    } else {
        open
    }
}

/// The walk of one side of a subproblem, for Knuth's random probes (`sample.rs`): the rows,
/// the allowed and the needed columns, and those of its last row.
#[derive(Debug, Clone, Copy)]
pub(super) struct Side {
    rows: usize,
    allowed: u32,
    need: u32,
    last_row: u32,
}

impl Side {
    /// The upper side of the pattern `upper` among the pattern columns `cols` (as
    /// [`list_uppers`] walks it).
    pub(super) fn upper(n: usize, cols: u32, upper: u32) -> Side {
        let full = (1u32 << n) - 1;
        Side {
            rows: n / 2,
            allowed: full & !(cols & !upper),
            need: upper,
            last_row: full,
        }
    }

    /// The lower side (as [`list_lowers`] walks it), its row `n/2` within `first`.
    pub(super) fn lower(n: usize, cols: u32, upper: u32, first: u32) -> Side {
        let full = (1u32 << n) - 1;
        Side {
            rows: n - n / 2,
            allowed: full & !upper,
            need: cols & !upper,
            last_row: first,
        }
    }

    /// One of Knuth's probes of the walk (one child at random at each level, `pick(d)` giving
    /// a number below `d`): unbiased estimates of its nodes and of its leaves (the halves).
    pub(super) fn probe(&self, mut pick: impl FnMut(u32) -> u32) -> (f64, f64) {
        if self.rows == 0 {
            return (1.0, 1.0);
        }
        let (mut c, mut l, mut r) = (0u32, 0u32, 0u32);
        let (mut weight, mut nodes) = (1.0f64, 1.0f64);
        for depth in 0..self.rows {
            let f = open_columns(self.rows, self.allowed, self.need, self.last_row, c, depth)
                & !(l | r);
            let d = f.count_ones();
            if d == 0 {
                return (nodes, 0.0);
            }
            weight *= f64::from(d);
            nodes += weight;
            let mut g = f;
            for _ in 0..pick(d) {
                g &= g - 1;
            }
            let bit = g & g.wrapping_neg();
            c |= bit;
            l = (l | bit) << 1;
            r = (r | bit) >> 1;
        }
        (nodes, weight)
    }
}
