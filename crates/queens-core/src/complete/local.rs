//! One completion by local search: min-conflicts over the free rows, the given queens fixed.
//!
//! The free rows take a permutation of the free columns, so rows and columns never clash and
//! only diagonals can; one counter per diagonal holds every queen, given or free. The start is
//! greedy (each free row takes a random unused free column whose diagonals are empty when a few
//! probes find one), then repair swaps the columns of an attacked free row and a random other
//! free row whenever that does not raise the number of collisions, as in
//! [`solve::min_conflicts`](crate::solve::min_conflicts). The given queens never move, so
//! every placement found contains them. A run that has not improved for 4k + 100 tries (k free
//! rows) restarts; the whole search gives up after `max_tries` swaps tried, since local search
//! cannot prove that no completion exists: the exact search does that.
//!
//! Memory: two counters of `u32` per diagonal (16 bytes per row of the board) and four `u32`
//! per free row (its row, its column, the start's column and the list of attacked rows, which
//! is reserved once, for 1,024 rows at least, and never grows); see [`memory_needed`].

use super::instance::Instance;
use crate::random::Rng;
use crate::solve::min_conflicts::{work_room, Swaps};

/// Probes per row in the greedy start before a row is placed on a conflicting square.
const GREEDY_PROBES: usize = 64;

/// The bytes [`search`] allocates for the `n` x `n` board with `free` free rows, including the
/// placement it returns (one `usize` per row).
pub fn memory_needed(n: usize, free: usize) -> u64 {
    let (n, free) = (n as u64, free as u64);
    n.saturating_mul(16 + 8)
        .saturating_add(free.saturating_mul(12))
        .saturating_add((work_room(free as usize) as u64).saturating_mul(4))
}

struct Board {
    n: usize,
    /// The real row of each free row.
    rows: Vec<u32>,
    /// The column of each free row's queen: a permutation of the free columns.
    cols: Vec<u32>,
    /// Queens per diagonal `row - col + n - 1`, and per anti-diagonal `row + col`.
    down: Vec<u32>,
    up: Vec<u32>,
    /// Sum over the diagonals of (queens - 1) for every non-empty one.
    collisions: u64,
}

impl Board {
    #[inline]
    fn lines(&self, i: usize) -> (usize, usize) {
        let (r, c) = (self.rows[i] as usize, self.cols[i] as usize);
        (r + self.n - 1 - c, r + c)
    }

    #[inline]
    fn add(&mut self, i: usize) {
        let (d, u) = self.lines(i);
        self.collisions += u64::from(self.down[d] > 0) + u64::from(self.up[u] > 0);
        self.down[d] += 1;
        self.up[u] += 1;
    }

    #[inline]
    fn remove(&mut self, i: usize) {
        let (d, u) = self.lines(i);
        self.down[d] -= 1;
        self.up[u] -= 1;
        self.collisions -= u64::from(self.down[d] > 0) + u64::from(self.up[u] > 0);
    }
}

impl Swaps for Board {
    #[inline]
    fn is_attacked(&self, i: usize) -> bool {
        let (d, u) = self.lines(i);
        self.down[d] > 1 || self.up[u] > 1
    }

    #[inline]
    fn swap(&mut self, i: usize, j: usize) {
        self.remove(i);
        self.remove(j);
        self.cols.swap(i, j);
        self.add(i);
        self.add(j);
    }

    #[inline]
    fn collisions(&self) -> u64 {
        self.collisions
    }
}

/// The allocator refused the memory of the search ([`memory_needed`]), which the budget check
/// let through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfMemory;

/// The lines of `0..n` that `taken` does not mark, as `u32`, in a vector allocated fallibly.
fn untaken(taken: &[bool]) -> Result<Vec<u32>, OutOfMemory> {
    let free = taken.iter().filter(|&&t| !t).count();
    let mut lines = crate::alloc::room(free).ok_or(OutOfMemory)?;
    lines.extend((0..taken.len()).filter(|&i| !taken[i]).map(|i| i as u32));
    Ok(lines)
}

/// One completion of `instance` (whose given queens are on the board, distinct and peaceful),
/// or `None` when `max_tries` swaps found none. `seed` makes the search reproducible. Its
/// arrays are allocated fallibly, the largest first: [`OutOfMemory`] when the allocator refuses
/// them.
pub fn search(
    instance: &Instance,
    seed: u64,
    max_tries: u64,
) -> Result<Option<Vec<usize>>, OutOfMemory> {
    let n = instance.n;
    let filled = |len, value| crate::alloc::filled(len, value).ok_or(OutOfMemory);
    let (down, up) = (filled(2 * n - 1, 0)?, filled(2 * n - 1, 0)?);
    let mut taken_row = crate::alloc::filled(n, false).ok_or(OutOfMemory)?;
    let mut taken_col = crate::alloc::filled(n, false).ok_or(OutOfMemory)?;
    for q in &instance.fixed {
        taken_row[q.row] = true;
        taken_col[q.col] = true;
    }
    let rows = untaken(&taken_row)?;
    drop(taken_row);
    let free_cols = untaken(&taken_col)?;
    drop(taken_col);
    let k = rows.len();
    if k < 2 {
        return Ok(None);
    }
    let mut board = Board {
        n,
        rows,
        cols: crate::alloc::copied(&free_cols).ok_or(OutOfMemory)?,
        down,
        up,
        collisions: 0,
    };
    let mut rng = Rng::new(seed);
    let patience = 100 + 4 * k as u64;
    let mut tries = 0u64;
    let mut work: Vec<u32> = crate::alloc::room(work_room(k)).ok_or(OutOfMemory)?;
    loop {
        // A fresh start: the diagonals hold the given queens only.
        board.down.fill(0);
        board.up.fill(0);
        board.collisions = 0;
        for q in &instance.fixed {
            board.down[q.row + n - 1 - q.col] += 1;
            board.up[q.row + q.col] += 1;
        }
        board.cols.copy_from_slice(&free_cols);
        for i in 0..k {
            let mut pick = i + rng.below(k - i);
            for _ in 0..GREEDY_PROBES {
                let (r, c) = (board.rows[i] as usize, board.cols[pick] as usize);
                if board.down[r + n - 1 - c] == 0 && board.up[r + c] == 0 {
                    break;
                }
                pick = i + rng.below(k - i);
            }
            board.cols.swap(i, pick);
            board.add(i);
        }
        // Repair.
        work.clear();
        let mut idle = 0u64;
        let mut stuck = false;
        while board.collisions > 0 && !stuck {
            let i = board.next_attacked(&mut work, k);
            loop {
                if idle >= patience || tries >= max_tries {
                    stuck = true;
                    break;
                }
                let j = rng.below(k);
                if j == i {
                    continue;
                }
                tries += 1;
                if board.try_swap(i, j, &mut idle, &mut work) {
                    break;
                }
            }
        }
        if board.collisions == 0 {
            let mut queens = crate::alloc::filled(n, usize::MAX).ok_or(OutOfMemory)?;
            for q in &instance.fixed {
                queens[q.row] = q.col;
            }
            for i in 0..k {
                queens[board.rows[i] as usize] = board.cols[i] as usize;
            }
            return Ok(Some(queens));
        }
        if tries >= max_tries {
            return Ok(None);
        }
    }
}
