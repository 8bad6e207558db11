//! Pieces: the frames of a large board cut into subproblems small enough for clusters.
//!
//! The idea: on large boards a single frame (see `frame`) is far too much work to be the unit
//! of a run — the largest frame of N = 23 takes about 20 minutes on one core, that of N = 27
//! months — so a killed run would lose hours and a cluster of thousands of cores could not
//! balance. Each frame is therefore cut by the queens of its first `depth` free rows (in the
//! order the kernel searches them, top to bottom): every way of placing those queens
//! consistently with the frame is one *piece*, and the pieces of a frame partition its
//! completions, so a frame's count is the sum of its pieces' counts. The pieces of a frame are
//! numbered in the order of a depth-first enumeration (lowest column first), which depends only
//! on N, the frame and `depth`; they are listed lazily, one frame at a time, so the plan itself
//! stays the list of frames (built in milliseconds) whatever the number of pieces. Shard `I` of
//! `M` counts piece `p` of frame `f` when `(f + p) mod M = I`, so that every frame's pieces are
//! dealt round-robin over the shards.
//!
//! A run records a frame as soon as all its pieces (of its shard) are counted, with their sum;
//! until then the frame's [`FramePieces`] says which pieces are counted — a watermark below
//! which all are, plus the ranges counted out of order above it — and their sum. That keeps a
//! checkpoint at tens of bytes per frame whatever the number of pieces.
//!
//! The classes: a frame fixed by some symmetry counts, for each completion, how many symmetries
//! fix the whole solution; summed over a frame that divides by the frame's own stabilizer, but
//! not over one piece. So a piece contributes *eighths* of classes (`orbit x stabilizer sum`,
//! an integer for every piece), and a complete run of the whole board divides the sum by 8 —
//! as the half-board engine does. Source: the cut of the search tree at a fixed depth into
//! independent subtrees is the usual way to parallelise backtracking (and the Q27 project's
//! pre-placement, one level deeper); the watermark is the one of stream-processing offsets.
//! Cost: enumerating a frame's pieces is a search of `depth` rows (microseconds per piece);
//! each piece then costs what its subtree costs, plus one setup of the join's bottoms.

use std::collections::BTreeMap;

use super::frame::{Square, Subproblem};
use super::kernel::Setup;
use crate::count::shard::Shard;
use crate::count::split::Split;
use crate::count::types::Counts;

/// The largest board whose frames are counted whole (the split [`Split::Frames`]): from N = 22
/// on, the largest frame takes more than about a minute of one core.
pub const WHOLE_FRAMES_UP_TO: usize = 21;

/// The most free rows a piece may fix (the enumeration keeps them in a fixed array).
pub const MAX_DEPTH: usize = 12;

/// The depth of the pieces of the frame engine's plan for the `n` x `n` board: 0 (whole
/// frames) up to [`WHOLE_FRAMES_UP_TO`], then `n - 21` but at least 2 — each row more multiplies
/// the largest frame's work by about 8, and each row fixed divides it by about as much. Measured:
/// see "How large the pieces are" in `docs/counting-runs-internals.md`.
pub fn depth_for(n: usize) -> usize {
    if n <= WHOLE_FRAMES_UP_TO {
        0
    } else {
        (n - 21).clamp(2, MAX_DEPTH)
    }
}

/// Whether frames of the `n` x `n` board are cut at `depth` rows ([`Split::Pieces`]): from 1
/// to [`MAX_DEPTH`] rows, leaving at least two.
pub fn depth_fits(n: usize, depth: usize) -> bool {
    (1..=MAX_DEPTH).contains(&depth) && depth + 2 <= n
}

/// The name of the frame split cut at `depth` rows ([`Split::of_frames`]): `frame1-v1` for
/// whole frames, `frame1-rowsD-v1` for pieces of `D` rows.
pub fn split_name(depth: usize) -> String {
    Split::of_frames(depth).to_string()
}

/// The depth of the frame split named `split`, when it is one and fits the `n` x `n` board (0
/// for whole frames).
pub fn depth_of_split(n: usize, split: &str) -> Option<usize> {
    match split.parse() {
        Ok(Split::Frames) => Some(0),
        Ok(Split::Pieces { depth }) if depth_fits(n, depth) => Some(depth),
        _ => None,
    }
}

/// The shard's first piece of frame `f`: pieces `p` with `(f + p) mod M = I`.
pub fn first_piece(shard: Shard, f: usize) -> u64 {
    (shard.index() + shard.count() - f as u64 % shard.count()) % shard.count()
}

/// Whether piece `p` of frame `f` belongs to `shard`.
pub fn in_shard(shard: Shard, f: usize, p: u64) -> bool {
    // Each term reduced first: `p` may be any number a checkpoint gives (M is at most 2^20).
    let m = shard.count();
    (f as u64 % m + p % m) % m == shard.index()
}

/// The searched form of a frame: its queens as the kernel places them (the cheapest image
/// when no symmetry fixes the frame, the frame itself otherwise).
fn searched(sub: &Subproblem) -> &[Square] {
    if sub.fixed_by.is_empty() {
        &sub.oriented
    } else {
        &sub.queens
    }
}

/// The pieces of one frame, in their fixed order: each is the columns of the queens of the
/// frame's first `depth` free rows.
pub struct PieceIter {
    rows: Vec<usize>,
    /// Open squares of each of the first `depth` free rows, given the frame alone.
    open: [u32; MAX_DEPTH],
    depth: usize,
    /// The candidates left at each level, and the columns chosen.
    left: [u32; MAX_DEPTH],
    chosen: [u8; MAX_DEPTH],
    level: usize,
    started: bool,
    index: u64,
}

impl PieceIter {
    /// The pieces of `sub` on the `n` x `n` board cut at `depth` rows (at most the frame's
    /// free rows; 0 gives one piece, the frame itself).
    pub fn new(n: usize, sub: &Subproblem, depth: usize) -> PieceIter {
        let s = Setup::new(n, searched(sub));
        let depth = depth.min(s.rows.len()).min(MAX_DEPTH);
        let mut open = [0u32; MAX_DEPTH];
        for (i, o) in open.iter_mut().enumerate().take(depth) {
            *o = s.full & !s.extra[i] & !s.cols;
        }
        PieceIter {
            rows: s.rows[..depth].to_vec(),
            open,
            depth,
            left: [0; MAX_DEPTH],
            chosen: [0; MAX_DEPTH],
            level: 0,
            started: false,
            index: 0,
        }
    }

    /// The squares still open in row `level` given the choices above it.
    fn candidates(&self, level: usize) -> u32 {
        let row = self.rows[level];
        let mut f = self.open[level];
        for k in 0..level {
            let (r, c) = (self.rows[k], u32::from(self.chosen[k]));
            let dist = (row - r) as u32;
            f &= !(1 << c);
            if c + dist < 32 {
                f &= !(1u32 << (c + dist));
            }
            if c >= dist {
                f &= !(1 << (c - dist));
            }
        }
        f
    }
}

impl Iterator for PieceIter {
    /// The piece's number and the columns of its queens in the first free rows.
    type Item = (u64, Vec<Square>);

    fn next(&mut self) -> Option<(u64, Vec<Square>)> {
        if self.depth == 0 {
            if self.started {
                return None;
            }
            self.started = true;
            return Some((0, Vec::new()));
        }
        if !self.started {
            self.started = true;
            self.level = 0;
            self.left[0] = self.candidates(0);
        }
        loop {
            let f = self.left[self.level];
            if f == 0 {
                if self.level == 0 {
                    return None;
                }
                self.level -= 1;
                continue;
            }
            let bit = f & f.wrapping_neg();
            self.left[self.level] ^= bit;
            self.chosen[self.level] = bit.trailing_zeros() as u8;
            if self.level + 1 == self.depth {
                let queens = (0..self.depth)
                    .map(|k| (self.rows[k] as u8, self.chosen[k]))
                    .collect();
                let index = self.index;
                self.index += 1;
                return Some((index, queens));
            }
            self.level += 1;
            self.left[self.level] = self.candidates(self.level);
        }
    }
}

/// The subproblem of one piece: the frame with the piece's queens added to its searched form
/// (orbit and symmetries stay the frame's).
pub fn piece_subproblem(sub: &Subproblem, queens: &[Square]) -> Subproblem {
    let mut piece = sub.clone();
    if sub.fixed_by.is_empty() {
        piece.oriented.extend_from_slice(queens);
    } else {
        piece.queens.extend_from_slice(queens);
        piece.oriented = piece.queens.clone();
    }
    piece
}

/// Which pieces of one frame (of the run's shard) are counted, and their sum, while the frame
/// is not yet finished.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FramePieces {
    /// Every piece of the shard numbered below this one is counted (it is the shard's next
    /// piece not known to be counted).
    pub next: u64,
    /// Pieces counted above `next`, as ranges `start..=end` of the shard's pieces (consecutive
    /// pieces of a shard are `M` apart), keyed by `start`, disjoint and not adjacent.
    pub above: BTreeMap<u64, u64>,
    /// The sum of the counted pieces (classes in eighths).
    pub counts: Counts,
}

impl FramePieces {
    /// Nothing counted yet of frame `f` in `shard`.
    pub fn new(shard: Shard, f: usize) -> FramePieces {
        FramePieces {
            next: first_piece(shard, f),
            above: BTreeMap::new(),
            counts: Counts::default(),
        }
    }

    /// How many pieces of the shard (of frame `f`) are counted.
    pub fn counted(&self, shard: Shard, f: usize) -> u64 {
        let step = shard.count();
        let below = (self.next - first_piece(shard, f)) / step;
        below
            + self
                .above
                .iter()
                .map(|(start, end)| (end - start) / step + 1)
                .sum::<u64>()
    }

    /// Whether piece `p` (of the shard) is counted.
    pub fn is_counted(&self, p: u64) -> bool {
        p < self.next
            || self
                .above
                .range(..=p)
                .next_back()
                .is_some_and(|(_, &end)| end >= p)
    }

    /// Records piece `p` of the shard (`step` = the number of shards), once.
    pub fn record(&mut self, p: u64, step: u64, counts: Counts) {
        if self.is_counted(p) {
            return;
        }
        self.counts.total = self.counts.total.saturating_add(counts.total);
        self.counts.unique = self.counts.unique.saturating_add(counts.unique);
        if p == self.next {
            self.next = p + step;
            if let Some((&start, &end)) = self.above.first_key_value() {
                if start == self.next {
                    self.above.remove(&start);
                    self.next = end + step;
                }
            }
            return;
        }
        // Join the range ending just below `p` and the one starting just above it.
        let before = self
            .above
            .range(..p)
            .next_back()
            .filter(|(_, &end)| end + step == p)
            .map(|(&start, _)| start);
        let after = self.above.remove(&(p + step));
        let start = before.unwrap_or(p);
        let end = after.unwrap_or(p);
        self.above.insert(start, end);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::count::frames::engine;
    use crate::count::subproblems;

    #[test]
    fn the_pieces_of_a_frame_add_up_to_the_frame() {
        let never = AtomicBool::new(false);
        for n in 6..=11 {
            for sub in subproblems(n) {
                let whole = engine::solve_searched(n, &sub, &never).unwrap();
                for depth in 1..=3 {
                    let mut total = 0u128;
                    let mut last = None;
                    for (p, queens) in PieceIter::new(n, &sub, depth) {
                        assert_eq!(last.map_or(0, |l| l + 1), p, "pieces are numbered in order");
                        last = Some(p);
                        let piece = piece_subproblem(&sub, &queens);
                        total += engine::solve_piece(n, &piece, &never, true).unwrap().total;
                    }
                    assert_eq!(total, whole.total, "n = {n}, depth {depth}, {sub:?}");
                }
            }
        }
    }

    #[test]
    fn split_names_name_their_depth_and_nothing_else() {
        assert_eq!(split_name(0), "frame1-v1");
        assert_eq!(split_name(3), "frame1-rows3-v1");
        assert_eq!(depth_of_split(24, "frame1-rows3-v1"), Some(3));
        assert_eq!(depth_of_split(24, "frame1-v1"), Some(0));
        for bad in [
            "frame1-rows0-v1",
            "frame1-rows03-v1",
            "frame1-rows13-v1",
            "frame1-rows-v1",
            "frame1-rows3-v2",
            "halves12-v1",
        ] {
            assert_eq!(depth_of_split(24, bad), None, "{bad}");
        }
        assert_eq!(depth_of_split(4, "frame1-rows3-v1"), None);
        assert_eq!(depth_for(21), 0);
        assert_eq!(depth_for(22), 2);
        assert_eq!(depth_for(24), 3);
        assert_eq!(depth_for(27), 6);
    }

    #[test]
    fn the_watermark_and_the_ranges_say_exactly_what_is_counted() {
        let shard = Shard::new(1, 3).unwrap();
        let f = 5;
        let mut fp = FramePieces::new(shard, f);
        // The shard's pieces of frame 5: p with (5 + p) % 3 == 1, i.e. 2, 5, 8, ...
        assert_eq!(fp.next, 2);
        let one = Counts {
            total: 8,
            unique: 8,
        };
        for p in [8, 14, 11, 2, 20] {
            fp.record(p, 3, one);
        }
        // 2 is next, 5 is missing: watermark 5, ranges 8..=14 and 20..=20.
        assert_eq!(fp.next, 5);
        assert_eq!(fp.above.iter().collect::<Vec<_>>(), [(&8, &14), (&20, &20)]);
        assert!(fp.is_counted(2) && fp.is_counted(11) && fp.is_counted(20));
        assert!(!fp.is_counted(5) && !fp.is_counted(17) && !fp.is_counted(23));
        assert_eq!(fp.counted(shard, f), 5);
        fp.record(5, 3, one);
        assert_eq!(fp.next, 17);
        fp.record(8, 3, one); // again: ignored
        assert_eq!(fp.counts.total, 6 * 8);
        fp.record(17, 3, one);
        assert_eq!((fp.next, fp.above.len()), (23, 0));
    }
}
