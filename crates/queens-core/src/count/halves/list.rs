//! The listing of the halves of a pattern: every filling of the upper rows (or of the lower
//! rows) that uses exactly the pattern's columns among the pattern columns, each stored as its
//! diagonals' squares of the split row, in the group of its key. It calls `group.rs` (to
//! store a half), `alloc.rs` (for its error) and the kernel's cancel check.
//!
//! A half is found in two steps. First the queens of the pattern's own columns (the columns
//! the half must use) are placed, column by column, each on a free row; then the other rows
//! are filled, row by row, from the columns outside the pattern. Filling row by row with the
//! pattern's columns merely allowed, as the random probes of [`Side`] still walk it, visits
//! many fillings that leave a needed column without a row and die late (3.6 nodes a half
//! instead of about 2 for N = 16 with 8 pattern columns); placing those columns first leaves
//! only the dead ends of the diagonals. The queens' diagonals are kept as two absolute masks
//! (`r + c` and `c - r + n - 1`), so that rows can be filled in any order.

use std::ops::Range;
use std::sync::atomic::AtomicBool;

use super::alloc::AllocError;
use super::group::{Groups, Key};
use crate::count::frames::kernel::CancelCheck;

/// Lists every filling of rows `0..h` with columns in `allowed` (and in `top` for row 0) that
/// uses every column of `need`: its columns, and the squares of row `h` its queens attack
/// along the two diagonal directions (down-right in the low `n` bits, down-left in the next
/// `n`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn list_uppers(
    n: usize,
    h: usize,
    allowed: u32,
    need: u32,
    top: u32,
    key: Key,
    cancel: &AtomicBool,
    out: &mut Groups,
) -> Result<(), AllocError> {
    Halves::new(n, h, key, 0..h, allowed, need, (0, top)).list(cancel, out)
}

/// Lists every filling of rows `h..n` with columns in `allowed` (and in `first` for row `h`)
/// that uses every column of `need`: its columns, and the squares of row `h` that its queens'
/// diagonals cross (the up-left diagonals in the low `n` bits, the up-right ones in the next
/// `n`).
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
    out: &mut Groups,
) -> Result<(), AllocError> {
    Halves::new(n, h, key, h..n, allowed, need, (h, first)).list(cancel, out)
}

/// One side of a pattern to list: its rows, the columns it may use and must use, and those
/// one of its rows may use (row 0 of the upper half, row `h` of the lower one).
struct Halves {
    n: usize,
    h: usize,
    key: Key,
    rows: Range<usize>,
    /// The columns outside `need` that the rows may use.
    free: u32,
    need: u32,
    /// A row of `rows`, and the columns it may use.
    special: (usize, u32),
}

impl Halves {
    #[inline(always)]
    fn new(
        n: usize,
        h: usize,
        key: Key,
        rows: Range<usize>,
        allowed: u32,
        need: u32,
        special: (usize, u32),
    ) -> Halves {
        Halves {
            n,
            h,
            key,
            rows,
            free: allowed & !need,
            need,
            special,
        }
    }

    /// The columns row `r` may have when `cols` are taken and the diagonals `d1` (`r + c`)
    /// and `d2` (`c - r + n - 1`) hold queens.
    #[inline(always)]
    fn open(&self, r: usize, cols: u32, d1: u64, d2: u64) -> u32 {
        let seen = (d1 >> r) as u32 | (d2 >> (self.n - 1 - r)) as u32;
        let open = !(cols | seen);
        if r == self.special.0 {
            open & self.special.1
        } else {
            open
        }
    }

    /// Stores a finished half: the squares of row `h` on its diagonals, in its group.
    #[inline(always)]
    fn store(&self, out: &mut Groups, cols: u32, d1: u64, d2: u64) -> Result<(), AllocError> {
        let full = (1u64 << self.n) - 1;
        let down = d2 >> (self.n - 1 - self.h) & full;
        let across = d1 >> self.h & full;
        out.push(self.key.of(cols), down | across << self.n)
    }

    /// Lists the halves into `out`: the queens of the columns of `need` first, each on a free
    /// row (a depth-first walk over the needed columns, the lowest first), then, under each
    /// placement of them, the other rows by [`Halves::fill`]. An error when the list cannot
    /// grow; cancelled, it stops soon (the caller sees the flag and ignores the groups).
    #[inline(always)]
    fn list(&self, cancel: &AtomicBool, out: &mut Groups) -> Result<(), AllocError> {
        out.reset(self.key.bits)?;
        self.walk(cancel, out)?;
        out.done();
        Ok(())
    }

    /// The walk of [`Halves::list`].
    #[inline(always)]
    fn walk(&self, cancel: &AtomicBool, out: &mut Groups) -> Result<(), AllocError> {
        let needed = self.need.count_ones() as usize;
        if needed > self.rows.len() {
            return Ok(());
        }
        let all = self.rows.clone().fold(0u32, |m, r| m | 1 << r);
        let mut check = CancelCheck::new();
        // Level i places the queen of the i-th needed column: `tries[i]` are the rows left to
        // try for it, `state[i]` the columns, diagonals and rows taken before it.
        let mut columns = [0u32; 32];
        let mut left = self.need;
        for column in columns.iter_mut().take(needed) {
            *column = left & left.wrapping_neg();
            left &= left - 1;
        }
        let mut tries = [0u32; 33];
        let mut state = [(0u32, 0u64, 0u64, 0u32); 33];
        let rows_for = |bit: u32, (cols, d1, d2, used): (u32, u64, u64, u32)| {
            let mut rows = 0u32;
            let mut free = all & !used;
            while free != 0 {
                let r = free.trailing_zeros() as usize;
                free &= free - 1;
                if self.open(r, cols, d1, d2) & bit != 0 {
                    rows |= 1 << r;
                }
            }
            rows
        };
        let mut level = 0usize;
        if needed > 0 {
            tries[0] = rows_for(columns[0], state[0]);
        }
        loop {
            if level == needed {
                let (cols, d1, d2, used) = state[level];
                let mut order = [0u8; 32];
                let mut len = 0;
                let mut free = all & !used;
                while free != 0 {
                    order[len] = free.trailing_zeros() as u8;
                    free &= free - 1;
                    len += 1;
                }
                if !self.fill(&order[..len], (cols, d1, d2), &mut check, cancel, out)? {
                    return Ok(());
                }
                if level == 0 {
                    return Ok(());
                }
                level -= 1;
                continue;
            }
            if tries[level] == 0 {
                // Many placements of the pattern's queens may leave no row to fill (a
                // pattern of as many columns as rows): look at the flag here too.
                if level == 0 || check.stop(cancel) {
                    return Ok(());
                }
                level -= 1;
                continue;
            }
            let r = tries[level].trailing_zeros() as usize;
            tries[level] &= tries[level] - 1;
            let bit = columns[level];
            let (cols, d1, d2, used) = state[level];
            state[level + 1] = (
                cols | bit,
                d1 | u64::from(bit) << r,
                d2 | u64::from(bit) << (self.n - 1 - r),
                used | 1 << r,
            );
            level += 1;
            if level < needed {
                tries[level] = rows_for(columns[level], state[level]);
            }
        }
    }

    /// Stores the halves whose last row `r` is filled under the state entering it.
    #[inline(always)]
    fn leaves(
        &self,
        out: &mut Groups,
        r: usize,
        cols: u32,
        d1: u64,
        d2: u64,
    ) -> Result<(), AllocError> {
        let mut f = self.open(r, cols, d1, d2) & self.free;
        while f != 0 {
            let bit = f & f.wrapping_neg();
            f ^= bit;
            self.store(
                out,
                cols | bit,
                d1 | u64::from(bit) << r,
                d2 | u64::from(bit) << (self.n - 1 - r),
            )?;
        }
        Ok(())
    }

    /// Fills `rows` one after the other from the free columns, storing every half; false
    /// when cancelled, an error when the list cannot grow.
    #[inline(always)]
    fn fill(
        &self,
        rows: &[u8],
        (cols, d1, d2): (u32, u64, u64),
        check: &mut CancelCheck,
        cancel: &AtomicBool,
        out: &mut Groups,
    ) -> Result<bool, AllocError> {
        let n = self.n;
        let Some((&last, inner)) = rows.split_last() else {
            self.store(out, cols, d1, d2)?;
            return Ok(true);
        };
        let last = last as usize;
        if inner.is_empty() {
            self.leaves(out, last, cols, d1, d2)?;
            return Ok(true);
        }
        let mut stack = [(0u32, 0u32, 0u64, 0u64); 32];
        let mut sp = 0usize;
        let mut state = (
            self.open(inner[0] as usize, cols, d1, d2) & self.free,
            cols,
            d1,
            d2,
        );
        loop {
            let (f, c, a, b) = &mut state;
            if *f == 0 {
                if sp == 0 {
                    return Ok(true);
                }
                sp -= 1;
                state = stack[sp];
                // A pattern's walk may visit many nodes for few halves: look at the flag
                // every 2^16 backtracks, as the kernel does (the caller ignores the groups).
                if check.stop(cancel) {
                    return Ok(false);
                }
                continue;
            }
            let bit = *f & f.wrapping_neg();
            *f ^= bit;
            let r = inner[sp] as usize;
            let next = (
                *c | bit,
                *a | u64::from(bit) << r,
                *b | u64::from(bit) << (n - 1 - r),
            );
            if sp + 1 == inner.len() {
                self.leaves(out, last, next.0, next.1, next.2)?;
                continue;
            }
            let nf = self.open(inner[sp + 1] as usize, next.0, next.1, next.2) & self.free;
            if nf != 0 {
                stack[sp] = state;
                sp += 1;
                state = (nf, next.0, next.1, next.2);
            }
        }
    }
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

/// A row-by-row walk of one side of a subproblem, for Knuth's random probes (`sample.rs`):
/// the rows, the allowed and the needed columns, and those of its last row. Its leaves are
/// the halves [`list_uppers`] and [`list_lowers`] store; its nodes are more than they visit
/// (the probes rank subproblems by them, and a forecast times the subproblems it draws).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Side {
    rows: usize,
    allowed: u32,
    need: u32,
    last_row: u32,
}

impl Side {
    /// The upper side of the pattern `upper` among the pattern columns `cols` (the halves of
    /// [`list_uppers`]).
    pub(crate) fn upper(n: usize, cols: u32, upper: u32) -> Side {
        let full = (1u32 << n) - 1;
        Side {
            rows: n / 2,
            allowed: full & !(cols & !upper),
            need: upper,
            last_row: full,
        }
    }

    /// The lower side (the halves of [`list_lowers`]), its row `n/2` within `first`.
    pub(crate) fn lower(n: usize, cols: u32, upper: u32, first: u32) -> Side {
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
    pub(crate) fn probe(&self, mut pick: impl FnMut(u32) -> u32) -> (f64, f64) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every placement of one queen per row of `rows`, on distinct columns of `allowed` (row
    /// `special.0` within `special.1`) with no two on a diagonal, that uses every column of
    /// `need`: each as its columns and its queens, found by trying every column in every row.
    fn brute(
        rows: &[usize],
        allowed: u32,
        need: u32,
        special: (usize, u32),
        queens: &mut Vec<(usize, usize)>,
        found: &mut Vec<Vec<(usize, usize)>>,
    ) {
        let Some((&r, rest)) = rows.split_first() else {
            let cols = queens.iter().fold(0u32, |m, &(_, c)| m | 1 << c);
            if cols & need == need {
                found.push(queens.clone());
            }
            return;
        };
        for c in 0..32usize {
            let ok = allowed >> c & 1 == 1
                && (r != special.0 || special.1 >> c & 1 == 1)
                && queens
                    .iter()
                    .all(|&(qr, qc)| qc != c && qr.abs_diff(r) != qc.abs_diff(c));
            if ok {
                queens.push((r, c));
                brute(rest, allowed, need, special, queens, found);
                queens.pop();
            }
        }
    }

    /// The stored word of a half, computed square by square: the squares of row `h` on the
    /// queens' diagonals, the column growing (low `n` bits) or shrinking (high `n` bits) as
    /// the diagonal goes down.
    fn word(n: usize, h: usize, key: Key, queens: &[(usize, usize)]) -> u64 {
        let (mut mask, mut cols) = (0u64, 0u32);
        for &(r, c) in queens {
            cols |= 1 << c;
            let (grow, shrink) = if r < h {
                (c + (h - r), c.checked_sub(h - r))
            } else {
                (c.wrapping_sub(r - h), Some(c + (r - h)))
            };
            if grow < n {
                mask |= 1 << grow;
            }
            if let Some(s) = shrink.filter(|&s| s < n) {
                mask |= 1 << (n + s);
            }
        }
        key.word(cols, mask)
    }

    /// Both listings give exactly the halves a brute-force placement finds, word for word,
    /// for every pattern of small boards (odd and even, the top row of the upper half and the
    /// split row of the lower one restricted or not).
    #[test]
    fn the_listings_find_exactly_the_halves_of_a_brute_force_placement() {
        let never = AtomicBool::new(false);
        for n in 1..=9usize {
            let h = n / 2;
            let full = (1u32 << n) - 1;
            for k in (0..=n.min(4)).step_by(2) {
                let cols = (0..k / 2).fold(0u32, |m, i| m | 1 << i | 1 << (n - 1 - i));
                let key = Key {
                    shift: cols.trailing_ones(),
                    bits: n as u32 - cols.count_ones(),
                };
                for upper in (0..=cols).filter(|p| p & !cols == 0) {
                    let lower = cols & !upper;
                    // The brute-force halves of `rows`, as sorted stored words.
                    let brute_words = |rows: std::ops::Range<usize>, allowed, need, special| {
                        let mut found = Vec::new();
                        let rows: Vec<usize> = rows.collect();
                        brute(&rows, allowed, need, special, &mut vec![], &mut found);
                        let mut words: Vec<u64> =
                            found.iter().map(|q| word(n, h, key, q)).collect();
                        words.sort_unstable();
                        words
                    };
                    let sorted = |got: Groups| {
                        let mut words = got.words();
                        words.sort_unstable();
                        words
                    };
                    for top in [full, (1 << n.div_ceil(2)) - 1, 1 << (n - 1)] {
                        let mut got = Groups::default();
                        list_uppers(n, h, full & !lower, upper, top, key, &never, &mut got)
                            .unwrap();
                        assert_eq!(
                            sorted(got),
                            brute_words(0..h, full & !lower, upper, (0, top)),
                            "uppers of N = {n}, pattern {upper:b} of {cols:b}, top {top:b}"
                        );
                    }
                    for first in [full, full & !1, 1 << (n / 2)] {
                        let mut got = Groups::default();
                        list_lowers(n, h, full & !upper, lower, first, key, &never, &mut got)
                            .unwrap();
                        assert_eq!(
                            sorted(got),
                            brute_words(h..n, full & !upper, lower, (h, first)),
                            "lowers of N = {n}, pattern {lower:b} of {cols:b}, first {first:b}"
                        );
                    }
                }
            }
        }
    }
}
