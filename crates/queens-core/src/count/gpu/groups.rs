//! The half-board split counted on a GPU, group by group: the work list of the kernel
//! `queens_count_groups` (`kernel.cu`), its CPU twin, and the launches that count a list of
//! groups whatever their size.
//!
//! The idea: a subproblem of the half-board engine (`halves/`) is a pattern, and its solutions
//! are the pairs of an upper half (rows `0..N/2`) and a lower half (the others) on
//! complementary columns whose diagonals do not meet. Grouped by the columns `S` of the upper
//! half, each group is independent: its uppers are the placements of `N/2` rows on exactly
//! `S`, its lowers those of the other rows on the other columns. So a group is the unit of
//! work on the device ([`GroupTask`]): one block lists both sides into its own scratch, sorts
//! them by a key of up to 11 mask bits (those set in the most pairs), and counts the fitting
//! pairs, meeting only the keys that share no bit: 3^k of the 4^k pairs of keys. Measured on
//! the groups of N = 16 and 18, each key bit leaves about 0.7 of the pairs: 6.1 % at 8 bits,
//! 4.5 % at 9 (the key of N = 20's groups), 3.5 % at 10. Where the bits a test still reads (set
//! in some half of each side, less the key's) are 32 at most, as in every group of N = 22 and
//! 23 with a key of 10 bits sampled (at most 30 and 32 bits), the masks are packed into 32-bit
//! words and a pair is one 32-bit AND; or, for a chunk of [`SLICED_FROM`] or more lower halves
//! of one key from N = [`SLICED_BOARDS`], an upper half meets all of them in 8 lookups in
//! tables of their bit-planes ([`Join`]). Nothing but the group list crosses the bus, 16 bytes
//! a group, and the listing, the sort and the join all run on the device.
//! Where a side has more halves than a block's scratch holds, the kernel says so
//! ([`OVERFLOW`]) and the group is counted again in a launch with more room
//! ([`count_groups`]).
//!
//! Cost: listing is the halves' search (about two nodes a half), and the join one AND and
//! test per pair of compatible keys: for N = 20, 7.4 x 10^9 halves a side and 2.5 x 10^14
//! pairs of halves on complementary columns, a quarter of each counted by symmetry and about
//! 4.5 % of those pairs tested. Memory: [`scratch_words`] words of 8 bytes per block of the
//! launch.
//! Source: the meet-in-the-middle join of the half-board engine; the grouping by column sets
//! as the unit of GPU work, and the key sort, are this file's own.

use super::{GpuError, Kernel};
use crate::count::halves::ColumnSets;

/// The name of the kernel's entry point in [`super::KERNEL_SOURCE`].
pub const GROUPS_NAME: &str = "queens_count_groups";

/// Threads per block of a groups launch (`QUEENS_GROUP_BLOCK` in `kernel.cu`).
pub const GROUP_BLOCK: u32 = 256;

/// The most key values of a group (`QUEENS_KEYS` in `kernel.cu`): a key has up to 11 bits.
pub const GROUP_KEYS: u64 = 1 << 11;

/// The scratch a block of a groups launch takes, in 8-byte words, with room for `capacity`
/// halves a side: both sides as listed, both sorted, and a line of padding for each key of the
/// sorted upper halves (`kernel.cu`, `queens_count_groups`).
pub fn scratch_words(capacity: u32) -> u64 {
    4 * u64::from(capacity) + GROUP_KEYS
}

/// The environment variable that chooses how the groups kernel joins a chunk of lower halves
/// whose masks are packed into 32 bits ([`Join`]): unset or empty, by the board; `sliced`,
/// bit-sliced on every board; `lanes`, one lower half a lane on every board. All count the
/// same: it is there to time one join against the other on a device (`scripts/gpu-check
/// --joins`).
pub const JOIN_VAR: &str = "QUEENS_GPU_JOIN";

/// The fewest lower halves of a chunk the kernel joins bit-sliced (its argument `sliced`): a
/// warp then tests each upper half against all of them at once, in 33 instructions (8 lookups
/// in tables of the chunk's bit-planes) for the 32 of a whole chunk (`scripts/kernel-sass`),
/// where one lower half a lane costs 2.56 instructions a pair. With 16 or fewer, the lanes'
/// join puts each on 2 or 4 lanes, which share the upper halves out, and costs as little.
pub const SLICED_FROM: u32 = 17;

/// The smallest board whose chunks are joined bit-sliced by default. A model of the join's
/// instructions on sampled groups (`examples/join_model.rs`: its loops as compiled for sm_90,
/// their set-up, the lanes left idle where a key's upper halves end short of 32) puts the
/// bit-sliced join at 0.89 of the lanes' speed at N = 16 and 17, 0.99 at 18 and 19, 1.17 at
/// 20, 1.20 at 21, 1.62 at 22 and 1.83 at 23: the larger the board, the more of its pairs meet
/// in whole chunks of long keys. Not yet timed on a GPU.
pub const SLICED_BOARDS: usize = 20;

/// How the groups kernel joins a chunk of packed lower halves ([`JOIN_VAR`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Join {
    /// Bit-sliced from N = [`SLICED_BOARDS`], by the lanes below.
    ByBoard,
    /// Bit-sliced whatever the board (chunks of [`SLICED_FROM`] lower halves or more).
    Sliced,
    /// By the lanes whatever the board.
    Lanes,
}

impl Join {
    /// The join [`JOIN_VAR`] asks for. Refuses a value it does not know.
    pub fn asked() -> Result<Join, GpuError> {
        match crate::count::gpu::env_text(JOIN_VAR).as_deref() {
            Some("") | None => Ok(Join::ByBoard),
            Some("sliced") => Ok(Join::Sliced),
            Some("lanes") => Ok(Join::Lanes),
            Some(other) => Err(GpuError::UnknownJoin {
                name: other.to_string(),
            }),
        }
    }

    /// The kernel's argument `sliced` for the `n` x `n` board: [`SLICED_FROM`], or 0 for none.
    pub fn sliced(self, n: usize) -> u32 {
        match self {
            Join::Sliced => SLICED_FROM,
            Join::ByBoard if n >= SLICED_BOARDS => SLICED_FROM,
            Join::ByBoard | Join::Lanes => 0,
        }
    }
}

/// What the kernel writes for a group a side of which has more halves than the scratch holds.
pub const OVERFLOW: u64 = u64::MAX;

/// The widest board the kernel lists: a side's rows fit its stack of 16, a mask's `2N` bits a
/// `u64`, and a row's `N` columns a `u32` with room for its full mask; the half-board engine's
/// own limit is lower.
pub const MAX_N: usize = 31;

/// One task of a launch (`QueensGroup` in `kernel.cu`): share `part` of `parts` of one
/// group, the upper halves on exactly the columns `upper` (row 0 restricted to `top`) against
/// the lower halves on the others (row `N/2` restricted to `first`). The shares of a group add
/// up to its pairs: each lists the whole group and joins the lower halves of the keys dealt to
/// it (`queens_key_in_share` in `kernel.cu`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GroupTask {
    /// The columns of the upper half.
    pub upper: u32,
    /// The columns its row 0 may use.
    pub top: u32,
    /// The columns row `N/2` may use.
    pub first: u32,
    /// The share: `part | parts << 16`, `part < parts` (0: the whole group).
    pub share: u32,
}

/// How many shares each group of the `n` x `n` board is cut into: one up to N = 20, then
/// twice as many for each N more up to 8 at N = 23, and 64 at N = 24 (the largest board of the
/// split). Measured
/// on the CPU, the largest group of a board has 3 to 5 times the halves of the average one on
/// its larger side and its pairs grow about 12-fold per N; shares keep one task of the largest
/// groups of N = 22 and 23 near a second of one block's work, which bounds a launch's tail and
/// the time a cancel waits for, at the price of listing the group once per share (well under
/// 1 % of its join at N = 20 to 23). At N = 24 the same growth leaves a task of about 1.5 s
/// with 64 shares (16 would leave 6 s, past the two seconds a signal is answered in); the
/// listing is then a few per cent of the join. A model, to be measured on a GPU.
pub fn shares(n: usize) -> u32 {
    match n {
        ..=20 => 1,
        21..=23 => 1 << (n - 20),
        _ => 64,
    }
}

impl GroupTask {
    /// The tasks of one subproblem, as [`crate::count::halves::Plan::column_sets`] gives its
    /// groups, each cut into `parts` shares (fewer than 2^16).
    pub fn of(sets: &ColumnSets, parts: u32) -> impl Iterator<Item = GroupTask> + '_ {
        assert!((1..1 << 16).contains(&parts));
        sets.uppers.iter().flat_map(move |&upper| {
            (0..parts).map(move |part| GroupTask {
                upper,
                top: sets.top,
                first: sets.first,
                share: if parts == 1 { 0 } else { part | parts << 16 },
            })
        })
    }

    /// The share of its group this task counts: (part, parts).
    pub fn part(&self) -> (u32, u32) {
        match self.share >> 16 {
            0 => (0, 1),
            parts => (self.share & 0xffff, parts),
        }
    }
}

/// Whether the twin deals a lower half of mask `mask` to share `part` of `parts` of its group:
/// a rule on the mask alone (the top half of a multiplicative hash, modulo `parts`), not on the
/// place of the half in a list. The kernel deals whole keys instead, but the shares of a group
/// add up the same.
fn in_share(mask: u64, part: u32, parts: u32) -> bool {
    parts <= 1 || (mask.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as u32 % parts == part
}

/// The groups' pairs on the CPU, one group after another: the twin of `queens_count_groups`,
/// written independently of it (each half placed square by square, its mask read off the
/// squares its diagonals reach on row `N/2`, every pair tested), with the same meaning of
/// `capacity`. A share of a group takes the lower halves [`in_share`] deals it (the kernel
/// deals whole keys of them instead, but the shares of a group add up the same).
pub(super) fn twin(n: usize, groups: &[GroupTask], capacity: u32, out: &mut [u64]) {
    let full = (1u32 << n) - 1;
    let h = n / 2;
    for (g, o) in groups.iter().zip(out.iter_mut()) {
        let uppers = side(n, 0..h, g.upper, |r| if r == 0 { g.top } else { full });
        let lowers = side(n, h..n, full & !g.upper, |r| {
            if r == h {
                g.first
            } else {
                full
            }
        });
        let (part, parts) = g.part();
        *o = if uppers.len() > capacity as usize || lowers.len() > capacity as usize {
            OVERFLOW
        } else {
            let fit = |l: &u64| uppers.iter().filter(|&&u| u & l == 0).count() as u64;
            let share = lowers.iter().filter(|&&l| in_share(l, part, parts));
            share.map(fit).sum()
        };
    }
}

/// Every placement of `rows` on exactly the columns `cols` (row `r` on a column of
/// `allowed(r)`) with no two queens on a diagonal, as the mask of the squares of row `N/2` its
/// queens' diagonals reach: those going right in the low `n` bits, left in the next `n`.
fn side(
    n: usize,
    rows: std::ops::Range<usize>,
    cols: u32,
    allowed: impl Fn(usize) -> u32,
) -> Vec<u64> {
    fn place(
        n: usize,
        rows: &std::ops::Range<usize>,
        r: usize,
        cols: u32,
        allowed: &dyn Fn(usize) -> u32,
        queens: &mut Vec<(usize, usize)>,
        out: &mut Vec<u64>,
    ) {
        if r == rows.end {
            let h = n / 2;
            let mut mask = 0u64;
            for &(qr, qc) in queens.iter() {
                // The squares of row h on the queen's two diagonals, where they are on the
                // board (a diagonal that leaves it first meets no queen of the other half).
                let d = qr.abs_diff(h);
                if qc + d < n {
                    mask |= 1 << if qr < h { qc + d } else { n + qc + d };
                }
                if qc >= d {
                    mask |= 1 << if qr < h { n + qc - d } else { qc - d };
                }
            }
            out.push(mask);
            return;
        }
        for c in 0..n {
            let free = cols >> c & allowed(r) >> c & 1 == 1
                && queens
                    .iter()
                    .all(|&(qr, qc)| qc != c && r.abs_diff(qr) != c.abs_diff(qc));
            if free {
                queens.push((r, c));
                place(n, rows, r + 1, cols, allowed, queens, out);
                queens.pop();
            }
        }
    }
    let mut out = Vec::new();
    if cols.count_ones() as usize == rows.len() {
        let start = rows.start;
        place(n, &rows, start, cols, &allowed, &mut Vec::new(), &mut out);
    }
    out
}

/// Counts the fitting pairs of every group of `groups` of the `n` x `n` board into `out`, on
/// `kernel`: a first launch with the room the device suggests, then each group that did not
/// fit again with four times the room, until all fit or the device has no more.
pub fn count_groups(
    kernel: &dyn Kernel,
    n: usize,
    groups: &[GroupTask],
    out: &mut [u64],
) -> Result<(), GpuError> {
    assert!(n <= MAX_N && groups.len() == out.len());
    let mut capacity = kernel.group_capacity(n).max(1);
    kernel.count_groups(n, groups, capacity, out)?;
    loop {
        let over: Vec<usize> = (0..out.len()).filter(|&i| out[i] == OVERFLOW).collect();
        if over.is_empty() {
            return Ok(());
        }
        capacity = capacity.checked_mul(4).ok_or(GpuError::Memory {
            free: 0,
            need: u64::from(u32::MAX) * 32,
        })?;
        let again: Vec<GroupTask> = over.iter().map(|&i| groups[i]).collect();
        let mut counted = vec![0; again.len()];
        kernel.count_groups(n, &again, capacity, &mut counted)?;
        for (&i, c) in over.iter().zip(counted) {
            out[i] = c;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::halves::Plan;
    use std::sync::atomic::AtomicBool;

    /// The value of `#define name value` in the kernel's source.
    fn kernel_define(name: &str) -> u64 {
        let line = super::super::KERNEL_SOURCE
            .lines()
            .find_map(|l| {
                l.strip_prefix("#define ")?
                    .strip_prefix(name)?
                    .strip_prefix(' ')
            })
            .unwrap_or_else(|| panic!("kernel.cu defines {name}"));
        line.trim().trim_end_matches('u').parse().unwrap()
    }

    /// Whole groups up to N = 20, then 2, 4 and 8 shares, and 64 at N = 24 (it had 16: the
    /// model leaves a task of about 6 s with 16, past the two seconds of a signal).
    #[test]
    fn groups_are_cut_into_more_shares_on_larger_boards() {
        let by_board: Vec<u32> = (12..=24).map(shares).collect();
        assert_eq!(by_board, [1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 8, 64]);
    }

    /// The block size and the key values the host sizes launches and scratch by are the
    /// kernel's: a key of more values than [`GROUP_KEYS`] would pad past a block's scratch.
    #[test]
    fn the_hosts_constants_are_the_kernels() {
        assert_eq!(u64::from(GROUP_BLOCK), kernel_define("QUEENS_GROUP_BLOCK"));
        assert_eq!(GROUP_KEYS, 1 << kernel_define("QUEENS_KEY_BITS"));
    }

    /// The join by the board slices from N = 20; the others whatever the board.
    #[test]
    fn the_join_by_the_board_slices_the_larger_boards() {
        let by_board: Vec<u32> = (18..=24).map(|n| Join::ByBoard.sliced(n)).collect();
        assert_eq!(by_board, [0, 0, 17, 17, 17, 17, 17]);
        assert!(
            (4..=24).all(|n| Join::Sliced.sliced(n) == SLICED_FROM && Join::Lanes.sliced(n) == 0)
        );
    }

    /// The twin's groups of each pattern subproblem add up, times the factor, to what the
    /// half-board engine's bit-sliced join counts for that subproblem: every subproblem of
    /// N = 1 to 11 and two splits each.
    #[test]
    fn the_twins_groups_count_what_the_half_board_engine_counts() {
        for n in 1..=11 {
            for k in [0, 4] {
                let plan = Plan::new(n, k);
                for i in 0..plan.len() {
                    let Some(sets) = plan.column_sets(i) else {
                        continue;
                    };
                    let groups: Vec<GroupTask> = GroupTask::of(&sets, 1).collect();
                    let mut out = vec![0; groups.len()];
                    twin(n, &groups, u32::MAX, &mut out);
                    let found = out.iter().sum::<u64>() * sets.factor;
                    let want = plan.solve(i, &AtomicBool::new(false)).unwrap().unwrap();
                    assert_eq!(
                        plan.counts_of(i, found),
                        Some(want),
                        "N = {n}, k = {k}, {i}"
                    );
                }
            }
        }
    }

    /// A group a side of which has more halves than the room given is marked, not counted.
    #[test]
    fn the_twin_marks_the_groups_that_do_not_fit() {
        let plan = Plan::new(8, 0);
        let sets = plan.column_sets(1).unwrap();
        let groups: Vec<GroupTask> = GroupTask::of(&sets, 1).collect();
        let mut whole = vec![0; groups.len()];
        twin(8, &groups, u32::MAX, &mut whole);
        let mut small = vec![0; groups.len()];
        twin(8, &groups, 2, &mut small);
        assert!(small.contains(&OVERFLOW));
        for (s, w) in small.iter().zip(&whole) {
            assert!(*s == OVERFLOW || s == w);
        }
    }
}
