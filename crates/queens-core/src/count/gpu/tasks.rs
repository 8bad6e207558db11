//! The GPU engine's work list: each frame's free rows as the kernel reads them
//! ([`FrameRows`]), and the partial placements of those rows that its threads search
//! ([`Task`]), laid out exactly as `kernel.cu` declares them.
//!
//! The idea: a frame (or a piece of one) leaves too much work for one GPU thread and too
//! little for the whole card, so its first free rows are filled on the host, depth first, and
//! every placement of them that is still open becomes one task; a thread then searches the
//! task's last [`Task::left`] free rows. The transition is the CPU kernel's, word for word
//! (`kernel.rs`): a queen takes its column, and the two diagonal words move by the gap to the
//! next free row. Cost: listing is a search of the first rows (a few nanoseconds a task);
//! a task is 20 bytes.

use super::super::frames::frame::Square;
use super::super::frames::kernel::Setup;

/// The rows of the board's frames the kernel's arrays hold: one bit of a `u32` per column.
pub const MAX_ROWS: usize = 32;

/// The most free rows a task may leave to its thread: the kernel's stack holds
/// `QUEENS_STACK` (16) levels, and the last two rows need no slot of it.
pub const MAX_LEFT: u32 = 18;

/// One frame's free rows as the kernel reads them (`QueensFrameRows` in `kernel.cu`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameRows {
    /// The squares of each free row, top to bottom, that the frame's queens leave open.
    pub open: [u32; MAX_ROWS],
    /// The row distance from free row `i` to free row `i + 1`.
    pub gap: [u32; MAX_ROWS],
    /// How many free rows the frame has.
    pub rows: u32,
    /// Padding to 16 bytes; zero.
    pub reserved: [u32; 3],
}

/// One partial placement of a frame's free rows (`QueensTask` in `kernel.cu`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Task {
    /// The frame, as an index into the table of [`FrameRows`] handed to the same launch.
    pub frame: u32,
    /// The next free row to fill.
    pub level: u32,
    /// The columns taken: the frame's and the task's queens'.
    pub cols: u32,
    /// The squares of row `level` attacked along one diagonal direction by the task's queens.
    pub left: u32,
    /// The same along the other direction.
    pub right: u32,
}

/// Where a resumable expansion ([`Frame::walk`]) stands: the depth-first stack of states and
/// the candidates left at each, or the one task of a state already deep enough.
pub(crate) struct Walk {
    stack: Vec<(Task, u32)>,
    target: u32,
    whole: Option<Task>,
}

impl Walk {
    /// A walk with no task.
    pub(crate) fn empty() -> Walk {
        Walk {
            stack: Vec::new(),
            target: 0,
            whole: None,
        }
    }

    /// Whether every task has been listed.
    pub(crate) fn done(&self) -> bool {
        self.whole.is_none() && self.stack.is_empty()
    }
}

/// A frame's rows, and the state before its first free row.
pub(crate) struct Frame {
    /// The rows as the kernel reads them.
    pub(crate) rows: FrameRows,
    /// The state before any free row is filled (level 0, the frame's columns).
    pub(crate) root: Task,
}

impl Frame {
    /// The frame whose queens are `queens` (in the form the CPU kernel searches) on the
    /// `n` x `n` board.
    pub(crate) fn new(n: usize, queens: &[Square]) -> Frame {
        let s = Setup::new(n, queens);
        let mut rows = FrameRows {
            open: [0; MAX_ROWS],
            gap: [0; MAX_ROWS],
            rows: s.rows.len() as u32,
            reserved: [0; 3],
        };
        for i in 0..s.rows.len() {
            rows.open[i] = s.full & !s.extra[i];
            rows.gap[i] = s.gap[i];
        }
        let root = Task {
            frame: 0,
            level: 0,
            cols: s.cols,
            left: 0,
            right: 0,
        };
        Frame { rows, root }
    }

    /// The state after the queens `chosen` (the columns of the first free rows, in order,
    /// as a piece of the frame gives them), or `None` when they attack each other or the
    /// frame (which no piece does).
    pub(crate) fn after(&self, chosen: &[Square]) -> Option<Task> {
        let mut t = self.root;
        for &(_, col) in chosen {
            let bit = 1u32.checked_shl(u32::from(col))?;
            let open = self.rows.open.get(t.level as usize)? & !(t.cols | t.left | t.right);
            if open & bit == 0 {
                return None;
            }
            t = self.child(t, bit);
        }
        Some(t)
    }

    /// The state after placing the queen `bit` in row `t.level`.
    fn child(&self, t: Task, bit: u32) -> Task {
        let g = self.rows.gap[t.level as usize];
        Task {
            frame: t.frame,
            level: t.level + 1,
            cols: t.cols | bit,
            left: (t.left | bit) << g,
            right: (t.right | bit) >> g,
        }
    }

    /// Appends to `out` every open placement that extends `from` down to the free row that
    /// leaves `keep` rows (at most [`MAX_LEFT`]) to the kernel, each tagged with `frame`; `from`
    /// itself when it is already that deep. Returns how many were appended. (The engine lists
    /// them a part at a time, by [`Frame::walk`]; this is the whole, for the tests.)
    #[cfg(test)]
    pub(crate) fn expand(&self, from: Task, frame: u32, keep: u32, out: &mut Vec<Task>) -> usize {
        let mut walk = self.walk(from, frame, keep);
        self.fill(&mut walk, usize::MAX, out)
    }

    /// The expansion of `from` that [`Frame::expand`] makes, to be listed a part at a time by
    /// [`Frame::fill`]: a frame of a large board has hundreds of millions of tasks, listed
    /// as the launches take them.
    pub(crate) fn walk(&self, from: Task, frame: u32, keep: u32) -> Walk {
        let keep = keep.min(MAX_LEFT);
        let target = self.rows.rows.saturating_sub(keep).max(from.level);
        let from = Task { frame, ..from };
        if from.level >= target {
            return Walk {
                stack: Vec::new(),
                target,
                whole: Some(from),
            };
        }
        let mut stack = Vec::with_capacity(MAX_ROWS);
        stack.push((from, self.open(&from)));
        Walk {
            stack,
            target,
            whole: None,
        }
    }

    /// Appends to `out` the next tasks of `walk`, at most `room` of them, in the order
    /// [`Frame::expand`] lists them. Returns how many were appended; fewer than `room` only
    /// when the walk is done.
    pub(crate) fn fill(&self, walk: &mut Walk, room: usize, out: &mut Vec<Task>) -> usize {
        let before = out.len();
        if room > 0 {
            if let Some(t) = walk.whole.take() {
                out.push(t);
            }
        }
        // Depth-first, lowest column first: the candidates left at each level.
        while out.len() - before < room {
            let Some((t, f)) = walk.stack.last_mut() else {
                break;
            };
            if *f == 0 {
                walk.stack.pop();
                continue;
            }
            let bit = *f & f.wrapping_neg();
            *f ^= bit;
            let child = self.child(*t, bit);
            if child.level == walk.target {
                out.push(child);
            } else {
                let f = self.open(&child);
                if f != 0 {
                    walk.stack.push((child, f));
                }
            }
        }
        out.len() - before
    }

    /// The squares of row `t.level` that the frame and the queens of `t` leave open.
    fn open(&self, t: &Task) -> u32 {
        self.rows.open[t.level as usize] & !(t.cols | t.left | t.right)
    }

    /// Counts the completions of `t` on the CPU by the kernel's own loop: what one GPU thread
    /// computes, for tests and for checking a device.
    pub(crate) fn count(&self, t: Task) -> u64 {
        if t.level >= self.rows.rows {
            return 1;
        }
        let f = self.rows.open[t.level as usize] & !(t.cols | t.left | t.right);
        let mut total = 0;
        let mut f = f;
        while f != 0 {
            let bit = f & f.wrapping_neg();
            f ^= bit;
            total += self.count(self.child(t, bit));
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::frames::frame::subproblems;
    use crate::count::frames::kernel::count_completions_searched;
    use std::sync::atomic::AtomicBool;

    /// Expanding a frame to any depth and counting the tasks gives the CPU kernel's count.
    #[test]
    fn expansions_partition_the_completions() {
        let cancel = AtomicBool::new(false);
        for n in 5..=11 {
            for sub in subproblems(n).iter().filter(|s| s.fixed_by.is_empty()) {
                let want = count_completions_searched(n, sub, &cancel).unwrap();
                let frame = Frame::new(n, &sub.oriented);
                for keep in [0, 1, 3, 6, MAX_LEFT] {
                    let mut tasks = Vec::new();
                    frame.expand(frame.root, 7, keep, &mut tasks);
                    assert!(tasks.iter().all(|t| t.frame == 7));
                    let rows = frame.rows.rows;
                    assert!(tasks
                        .iter()
                        .all(|t| t.level == rows.saturating_sub(keep.min(MAX_LEFT))));
                    let got: u64 = tasks.iter().map(|&t| frame.count(t)).sum();
                    assert_eq!(got, want, "n = {n}, frame {:?}, keep {keep}", sub.key);
                }
            }
        }
    }

    /// Listed a part at a time, in parts of any size, the tasks are those of the whole
    /// expansion in the same order, and the walk says when it is done.
    #[test]
    fn a_walk_lists_the_expansion_in_parts() {
        for n in [8, 11, 13] {
            for sub in subproblems(n).iter().take(12) {
                let frame = Frame::new(n, &sub.oriented);
                for keep in [0, 3, 6] {
                    let mut whole = Vec::new();
                    frame.expand(frame.root, 3, keep, &mut whole);
                    for part in [1, 2, 7, 1000] {
                        let mut walk = frame.walk(frame.root, 3, keep);
                        let mut parts = Vec::new();
                        while !walk.done() {
                            let got = frame.fill(&mut walk, part, &mut parts);
                            assert!(got == part || walk.done(), "{got} of {part}");
                        }
                        assert_eq!(frame.fill(&mut walk, part, &mut parts), 0);
                        assert_eq!(parts, whole, "n = {n}, keep {keep}, parts of {part}");
                    }
                }
            }
        }
    }

    /// A piece's queens lead to the state the expansion reaches through them.
    #[test]
    fn after_follows_the_expansion() {
        let n = 10;
        for sub in subproblems(n).iter().take(40) {
            let frame = Frame::new(n, &sub.oriented);
            let mut tasks = Vec::new();
            frame.expand(frame.root, 0, frame.rows.rows - 2, &mut tasks);
            for t in tasks {
                assert_eq!(t.level, 2);
                // Recover the two columns from the state and replay them.
                let cols = t.cols & !frame.root.cols;
                let a = cols.trailing_zeros() as u8;
                let b = (cols & (cols - 1)).trailing_zeros() as u8;
                let replays = [
                    frame.after(&[(0, a), (0, b)]),
                    frame.after(&[(0, b), (0, a)]),
                ];
                assert!(replays.contains(&Some(t)), "{t:?} from {replays:?}");
            }
            assert!(frame.after(&[(0, 40)]).is_none());
        }
    }
}
