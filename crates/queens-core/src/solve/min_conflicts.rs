//! One solution of a large board by min-conflicts local search.
//!
//! The method is Sosic and Gu's (SIGART Bulletin 1990; IEEE TKDE 1994, "QS4"): keep the queens
//! a permutation, so rows and columns never clash and only the diagonals can; place the rows one
//! by one on a random still-free column whose two diagonals are empty (a greedy start that leaves
//! only a handful of conflicts); then repair: take a queen that is attacked and swap its column
//! with a random other row's whenever the swap does not raise the number of collisions (sideways
//! moves help small boards off plateaus). One counter per diagonal makes every test and every
//! swap O(1). A run that has not improved for 4N + 100 tries restarts from a new random start,
//! so small boards with few solutions are found too.
//!
//! Cost: about linear in N in practice (a few random probes per row); memory is `u32` arrays
//! (the columns, the two diagonals' counters, the work list of attacked rows, reserved once),
//! 24 bytes per queen (240 MB for N = 10^7; up to 4 KiB more below N = 1,024). The generator
//! is Rng seeded by the caller, so the same seed gives the same solution. Local search cannot
//! prove that a board has no solution; the two that have none, N = 2 and 3, are answered
//! directly.

use crate::error::SizeError;
use crate::random::Rng;

/// How a search went: useful for benchmarks and curiosity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// How many times the search started again from a new random placement.
    pub restarts: u32,
    /// How many swaps were tried during the repair phase, over all runs.
    pub tries: u64,
    /// How many of them were kept.
    pub swaps: u64,
}

/// The rows placed at random at the end of the greedy start (Sosic and Gu's `c`).
const RANDOM_TAIL: usize = 32;
/// Probes per row in the greedy start before a row is placed on a conflicting square.
const GREEDY_PROBES: usize = 64;

/// The fewest entries the list of attacked rows has room for. On small boards the list can
/// outgrow the board (a queen queued again before its turn): up to 45 entries were seen for
/// N = 12 (30 seeds of each N from 4 to 10^6), while from N = 1,000 up it stays under a tenth
/// of N. So the room is N or this, whichever is more, and a seed's solution is the same as
/// when the list could grow without end.
pub(crate) const WORK_FLOOR: usize = 1024;

/// The entries the list of attacked rows has room for when `rows` rows move: see
/// [`WORK_FLOOR`].
pub(crate) fn work_room(rows: usize) -> usize {
    rows.max(WORK_FLOOR)
}

/// The board of the search: a permutation and one counter per diagonal.
struct Board {
    n: usize,
    queens: Vec<u32>,
    /// Queens per diagonal `row - col + n - 1`.
    down: Vec<u32>,
    /// Queens per anti-diagonal `row + col`.
    up: Vec<u32>,
    /// Sum over the diagonals of (queens - 1) for every non-empty one.
    collisions: u64,
    /// The attacked rows still to move (room for [`work_room`] of `n`, reserved once; see
    /// [`Swaps::try_swap`]).
    work: Vec<u32>,
}

/// A board that min-conflicts repairs: a count of collisions, and queens that trade columns
/// in pairs (here and in [`crate::complete`]'s local search, over the free rows).
pub(crate) trait Swaps {
    /// Whether queen `i` shares a line with another.
    fn is_attacked(&self, i: usize) -> bool;

    /// Exchanges the columns of queens `i` and `j`, keeping the counters right.
    fn swap(&mut self, i: usize, j: usize);

    /// The collisions: over every line, one for each queen on it beyond the first.
    fn collisions(&self) -> u64;

    /// The next queen to move: the next attacked one off `work`, which is refilled with every
    /// attacked queen of `0..count` whenever it runs out (there must be a collision). `work`
    /// must have room for `count` entries: it is never grown.
    #[inline]
    fn next_attacked(&self, work: &mut Vec<u32>, count: usize) -> usize {
        loop {
            let Some(i) = work.pop() else {
                work.extend(
                    (0..count)
                        .filter(|&i| self.is_attacked(i))
                        .map(|i| i as u32),
                );
                continue;
            };
            if self.is_attacked(i as usize) {
                return i as usize;
            }
        }
    }

    /// Swaps queens `i` and `j` and keeps the swap when it does not raise the collisions,
    /// queueing on `work` the two queens still attacked while it has room (one left off is
    /// found again when `work` runs out and is refilled, so memory stays what was reserved
    /// for it); undoes it otherwise. Sideways swaps (no
    /// change) are kept too: they let small boards walk off plateaus instead of restarting; only
    /// improvements reset the patience, `idle`. Whether the swap was kept.
    #[inline]
    fn try_swap(&mut self, i: usize, j: usize, idle: &mut u64, work: &mut Vec<u32>) -> bool {
        let before = self.collisions();
        self.swap(i, j);
        if self.collisions() <= before {
            if self.collisions() < before {
                *idle = 0;
            } else {
                *idle += 1;
            }
            for k in [j, i] {
                if self.is_attacked(k) && work.len() < work.capacity() {
                    work.push(k as u32);
                }
            }
            return true;
        }
        self.swap(i, j);
        *idle += 1;
        false
    }
}

impl Swaps for Board {
    #[inline]
    fn is_attacked(&self, row: usize) -> bool {
        let col = self.queens[row] as usize;
        self.down[self.down_index(row, col)] > 1 || self.up[row + col] > 1
    }

    #[inline]
    fn swap(&mut self, i: usize, j: usize) {
        let (ci, cj) = (self.queens[i] as usize, self.queens[j] as usize);
        self.remove(i, ci);
        self.remove(j, cj);
        self.queens.swap(i, j);
        self.add(i, cj);
        self.add(j, ci);
    }

    #[inline]
    fn collisions(&self) -> u64 {
        self.collisions
    }
}

impl Board {
    /// The board of `n` rows, its arrays allocated fallibly, the largest first: `None` when the
    /// allocator refuses them.
    fn new(n: usize) -> Option<Board> {
        let down = crate::alloc::filled(2 * n - 1, 0)?;
        let up = crate::alloc::filled(2 * n - 1, 0)?;
        let mut queens = crate::alloc::room(n)?;
        queens.extend(0..n as u32);
        let work = crate::alloc::room(work_room(n))?;
        Some(Board {
            n,
            queens,
            down,
            up,
            collisions: 0,
            work,
        })
    }

    #[inline]
    fn down_index(&self, row: usize, col: usize) -> usize {
        row + self.n - 1 - col
    }

    #[inline]
    fn add(&mut self, row: usize, col: usize) {
        let d = self.down_index(row, col);
        self.collisions += u64::from(self.down[d] > 0) + u64::from(self.up[row + col] > 0);
        self.down[d] += 1;
        self.up[row + col] += 1;
    }

    #[inline]
    fn remove(&mut self, row: usize, col: usize) {
        let d = self.down_index(row, col);
        self.down[d] -= 1;
        self.up[row + col] -= 1;
        self.collisions -= u64::from(self.down[d] > 0) + u64::from(self.up[row + col] > 0);
    }

    #[inline]
    fn is_free(&self, row: usize, col: usize) -> bool {
        self.down[self.down_index(row, col)] == 0 && self.up[row + col] == 0
    }

    /// A fresh greedy start: rows in order take a random unused column whose diagonals are
    /// empty, the last few rows a random one.
    fn greedy_start(&mut self, rng: &mut Rng) {
        let n = self.n;
        for (k, q) in self.queens.iter_mut().enumerate() {
            *q = k as u32;
        }
        self.down.fill(0);
        self.up.fill(0);
        self.collisions = 0;
        let careful = n.saturating_sub(RANDOM_TAIL);
        for row in 0..n {
            let mut pick = row + rng.below(n - row);
            if row < careful {
                for _ in 0..GREEDY_PROBES {
                    if self.is_free(row, self.queens[pick] as usize) {
                        break;
                    }
                    pick = row + rng.below(n - row);
                }
            }
            self.queens.swap(row, pick);
            self.add(row, self.queens[row] as usize);
        }
    }

    /// Repairs by improving swaps until no queen is attacked (true) or until `patience` tries
    /// in a row have not improved anything (false).
    fn repair(&mut self, rng: &mut Rng, patience: u64, stats: &mut Stats) -> bool {
        let mut work = std::mem::take(&mut self.work);
        work.clear();
        let solved = self.repair_with(&mut work, rng, patience, stats);
        self.work = work;
        solved
    }

    /// [`Board::repair`] with `work`, the list of attacked rows, taken out of the board.
    fn repair_with(
        &mut self,
        work: &mut Vec<u32>,
        rng: &mut Rng,
        patience: u64,
        stats: &mut Stats,
    ) -> bool {
        let n = self.n;
        let mut idle = 0u64;
        while self.collisions > 0 {
            let i = self.next_attacked(work, n);
            loop {
                if idle >= patience {
                    return false;
                }
                let j = rng.below(n);
                if j == i {
                    continue;
                }
                stats.tries += 1;
                if self.try_swap(i, j, &mut idle, work) {
                    stats.swaps += 1;
                    break;
                }
            }
        }
        true
    }
}

/// Finds one solution of the `n` x `n` board from `seed`, or `None` for N = 2 and 3 (which
/// have none); N must be 1..=[`MAX_N`]. The same `n` and `seed` always give the same solution. Columns are `u32` to keep
/// memory at 4 bytes per queen, so `n` must fit in a `u32`.
///
/// # Example
/// ```
/// use queens_core::solve::min_conflicts;
/// let q = min_conflicts::solve(1000, 7).unwrap().unwrap();
/// assert_eq!(q.len(), 1000);
/// assert_eq!(Some(q), min_conflicts::solve(1000, 7).unwrap());
/// assert!(min_conflicts::solve(3, 7).unwrap().is_none());
/// assert!(min_conflicts::solve(0, 7).is_err());
/// ```
pub fn solve(n: usize, seed: u64) -> Result<Option<Vec<u32>>, SizeError> {
    Ok(solve_with_stats(n, seed)?.map(|(q, _)| q))
}

/// The largest board: columns are `u32`.
pub const MAX_N: usize = u32::MAX as usize;

/// Checks that `n` is a board size min-conflicts handles (1..=[`MAX_N`]).
pub fn check_size(n: usize) -> Result<(), SizeError> {
    SizeError::check(n, "min-conflicts", MAX_N)
}

/// The bytes the search of the `n` x `n` board allocates: the columns and the two diagonal
/// counters (`u32` each, 4 + 2 x 2 x 4 = 20 bytes per queen) and the list of attacked rows
/// (4 bytes an entry, room for N entries, 1,024 at least): 24 bytes per queen from N = 1,024.
pub fn memory_needed(n: usize) -> u64 {
    (n as u64)
        .saturating_mul(20)
        .saturating_add((work_room(n) as u64).saturating_mul(4))
}

/// Checks the size, then that [`memory_needed`] fits in `budget` bytes: call this before
/// [`solve`] when the size comes from a user.
pub fn check_request(n: usize, budget: u64) -> Result<(), crate::Error> {
    check_size(n)?;
    crate::Error::check_budget(memory_needed(n), budget, || {
        format!("min-conflicts on N = {n}")
    })
}

/// Like [`solve`], also reporting how the search went.
///
/// A size past [`MAX_N`] is refused with a [`SizeError`]; so is one whose arrays
/// ([`memory_needed`]) the allocator refuses, the error's `max` then being `n - 1`, since no
/// more could be said than that `n` did not fit in the memory there was.
pub fn solve_with_stats(n: usize, seed: u64) -> Result<Option<(Vec<u32>, Stats)>, SizeError> {
    check_size(n)?;
    let mut stats = Stats::default();
    let mut board = match n {
        2 | 3 => return Ok(None),
        1 => return Ok(Some((vec![0], stats))),
        _ => Board::new(n).ok_or(SizeError {
            n,
            what: "min-conflicts in the memory there is",
            max: n - 1,
        })?,
    };
    search(&mut board, seed, &mut stats);
    Ok(Some((board.queens, stats)))
}

/// Repairs `board` from greedy starts until it holds a solution.
fn search(board: &mut Board, seed: u64, stats: &mut Stats) {
    let n = board.n;
    let mut rng = Rng::new(seed);
    // A run that has not improved for this many tries is restarted: large boards improve every
    // few dozen tries, small ones get stuck in local minima quickly.
    let patience = 100 + 4 * n as u64;
    loop {
        board.greedy_start(&mut rng);
        if board.repair(&mut rng, patience, stats) {
            return;
        }
        stats.restarts += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An independent pairwise check.
    fn pairwise_ok(q: &[u32]) -> bool {
        let n = q.len();
        q.iter().all(|&c| (c as usize) < n)
            && (0..n).all(|i| {
                (i + 1..n).all(|j| q[i] != q[j] && (q[i] as usize).abs_diff(q[j] as usize) != j - i)
            })
    }

    #[test]
    fn boards_without_a_solution_and_the_single_queen() {
        assert!(solve(0, 1).is_err());
        assert_eq!(solve(2, 1), Ok(None));
        assert_eq!(solve(3, 1), Ok(None));
        assert_eq!(solve(1, 1), Ok(Some(vec![0])));
    }

    #[test]
    fn every_small_board_is_solved_for_several_seeds() {
        for n in 4..=120 {
            for seed in 0..4 {
                let q = solve(n, seed).unwrap().unwrap();
                assert!(pairwise_ok(&q), "N = {n}, seed {seed}: {q:?}");
            }
        }
    }

    #[test]
    fn arrays_the_allocator_refuses_are_a_size_error_not_an_abort() {
        // 2^32 - 1 rows: 32 GiB for each diagonal's counters, more than the allocator gives
        // here (else the test says it skipped).
        let n = MAX_N;
        if crate::alloc::refuses(8 * n) {
            let err = solve(n, 1).unwrap_err();
            assert_eq!((err.n, err.max), (n, n - 1));
            assert!(err.to_string().contains("the memory there is"), "{err}");
        }
    }

    #[test]
    fn a_large_board_is_solved() {
        let q = solve(3000, 42).unwrap().unwrap();
        assert!(pairwise_ok(&q));
    }

    #[test]
    fn the_same_seed_gives_the_same_solution_and_others_differ() {
        let a = solve(500, 9).unwrap().unwrap();
        assert_eq!(a, solve(500, 9).unwrap().unwrap());
        assert_ne!(a, solve(500, 10).unwrap().unwrap());
    }

    /// A list of attacked rows with less room than the search would queue (on 6x6 it queued up
    /// to 43 rows when it could grow) is never grown, and the rows left off are found again
    /// when it runs out: every search still ends on a solution.
    #[test]
    fn a_full_list_of_attacked_rows_drops_rows_and_still_solves() {
        for n in [6, 8, 9] {
            for seed in 0..40 {
                let mut board = Board::new(n).unwrap();
                board.work = Vec::with_capacity(n);
                let room = board.work.capacity();
                search(&mut board, seed, &mut Stats::default());
                assert!(pairwise_ok(&board.queens), "n {n} seed {seed}");
                assert_eq!(
                    board.work.capacity(),
                    room,
                    "n {n} seed {seed}: the list grew"
                );
            }
        }
    }

    #[test]
    fn the_counters_track_collisions_through_swaps() {
        let mut b = Board::new(6).unwrap();
        for r in 0..6 {
            b.add(r, r);
        }
        // Six queens on one diagonal: five collisions.
        assert_eq!(b.collisions, 5);
        // Rows 0 and 5 leave the diagonal: four queens remain on it (3 collisions) and the two
        // movers share the anti-diagonal 5 (1 collision).
        b.swap(0, 5);
        assert_eq!(b.queens, [5, 1, 2, 3, 4, 0]);
        assert_eq!(b.collisions, 4);
        b.swap(0, 5);
        assert_eq!(b.collisions, 5);
    }

    /// The seeded solutions `queens solve N --algo min-conflicts --seed 7` printed before the
    /// generator moved to `random.rs` (issue 18): one generator, the same streams.
    #[test]
    fn seeded_solutions_are_those_printed_before_the_generator_moved() {
        assert_eq!(
            solve(12, 7).unwrap().unwrap(),
            [0, 7, 3, 1, 11, 8, 10, 4, 2, 5, 9, 6]
        );
        assert_eq!(
            solve(50, 7).unwrap().unwrap(),
            [
                28, 15, 33, 5, 20, 18, 9, 4, 12, 30, 8, 40, 47, 21, 44, 38, 48, 39, 42, 24, 13, 27,
                10, 49, 25, 45, 0, 2, 35, 11, 22, 46, 41, 43, 34, 7, 14, 32, 19, 23, 31, 26, 3, 37,
                17, 1, 29, 36, 6, 16
            ]
        );
    }
}
