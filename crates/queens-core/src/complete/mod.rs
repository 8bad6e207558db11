//! N-Queens Completion: the solutions of a board that contain some given queens.
//!
//! Completion is NP-complete (Gent, Jefferson and Nightingale, "Complexity of n-Queens
//! Completion", JAIR 2017), so this is an exact search, made small first: the rows, columns and
//! diagonals of the given queens are struck out, leaving k free rows and k free columns. Each
//! free row keeps a bitset of the free columns it may still take (its *domain*). The search
//! then picks the unplaced row with the fewest choices (most constrained first), tries its
//! columns in increasing order, and after each placement removes the attacked squares from the
//! domains of the rows still unplaced (forward checking, undone from a trail on the way back).
//! A row left with an empty domain, or a free column that no open row can take any more, ends
//! the branch at once, so "no completion" is proved by exhausting a small tree, and a board of
//! thousands with a dozen queens missing costs about as much as a 12-queen problem.
//!
//! Cost: O(k^2) bits for the domains and up to 8 k^2 bytes of trail (the exact search refuses
//! more than [`MAX_FREE`] free rows, and whatever exceeds the memory budget), O(k) per search
//! node, and a tree that is exponential in k at worst.
//!
//! A board with few given queens is the opposite case: easy for local search, while the exact
//! search can wander for minutes (a single corner queen on 91 x 91 took it over 10 s). So
//! [`Instance::solve`] runs a short exact search first, then min-conflicts local search with the
//! given queens fixed (`local.rs`), then the exact search to its end; only the exact search
//! answers "no completion", and [`Instance::count`] is the exact search alone.
//!
//! Instances are read (in `csplib.rs`) in the CSPLib problem 79 parameter format (`letting n = 8`,
//! `letting init = [[r, c], ...]`, 0-based as in the CSPLib generators) or as a drawn board.

use std::ops::ControlFlow;

use thiserror::Error;

use crate::board::{Flaw, Line, Square};
use crate::error::SizeError;

mod csplib;
mod local;

pub use csplib::{
    parse_instance, parse_instance_within, InstanceParseError, BYTES_PER_GIVEN_QUEEN, MAX_NESTING,
};

/// The largest board a completion is searched on: columns are kept as `u32` by the local search.
pub const MAX_N: usize = u32::MAX as usize;

/// The default memory budget of [`Instance::solve`] and [`Instance::count`]: 1 GiB.
pub const DEFAULT_BUDGET: u64 = 1 << 30;

/// The nodes the first, short exact search may visit before local search gets its turn.
const EXACT_PROBE: u64 = 20_000;

/// The fewest free rows worth a local search (smaller residual problems are the exact
/// search's).
const LOCAL_FROM: usize = 12;

/// The most free rows for which the short exact search is tried first: each of its nodes
/// costs O(k), so beyond this local search goes first.
const PROBE_MAX_FREE: usize = 2_000;

/// Swaps the local search may try per free row before it gives up.
const LOCAL_TRIES_PER_ROW: u64 = 2_000;

/// The most free rows the exact search accepts: its domains take k^2 / 8 bytes (50 MB here).
pub const MAX_FREE: usize = 20_000;

/// A completion problem: a board size and the queens already on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The board size.
    pub n: usize,
    /// The given queens, in the order given.
    pub fixed: Vec<Square>,
}

/// Why an instance cannot be searched (as opposed to having no completion).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InstanceError {
    /// The board size was zero.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// A given queen is not on the board.
    #[error("the queen at {square} is off the {n}x{n} board (rows and columns are 0 to {max})", max = n - 1)]
    OffBoard {
        /// The queen.
        square: Square,
        /// The board size.
        n: usize,
    },
    /// The same square is given twice.
    #[error("the queen at {0} is given twice")]
    Duplicate(Square),
    /// The search would need more memory than the budget allows.
    #[error(transparent)]
    Budget(#[from] crate::Error),
    /// Too many rows are free for the exact search.
    #[error("{free} rows are free; the exact completion search handles up to {max}")]
    TooManyFree {
        /// The free rows.
        free: usize,
        /// The limit, [`MAX_FREE`].
        max: usize,
    },
}

/// The answer to "complete this board".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// A solution containing every given queen: the column of the queen in each row.
    Found(Vec<usize>),
    /// Two given queens attack each other, so nothing completes them.
    GivenQueensAttack(Flaw),
    /// The given queens are peaceful, but no solution contains them all.
    Impossible,
}

/// The answer to "how many completions".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Counted {
    /// The number of solutions containing every given queen.
    Completions(u64),
    /// Two given queens attack each other (so there are no completions).
    GivenQueensAttack(Flaw),
}

impl Instance {
    /// Checks that the queens are on the board and distinct, then names the first two given
    /// queens that attack each other, if any: the first queen, in the order given, that shares
    /// a line with an earlier one, its lines tried in the order row, column, diagonal,
    /// anti-diagonal, and the first queen on that line. O(k log k) time for k given queens and
    /// 8 k bytes (their order, sorted by each line in turn), so that a file of millions of
    /// given queens is checked in memory proportional to it.
    fn check(&self) -> Result<Option<Flaw>, InstanceError> {
        /// What orders the queens: their square, or the line of one kind they are on.
        type Key<'a> = &'a dyn Fn(Square) -> (usize, usize);
        let n = self.n;
        SizeError::check(n, "the completion search", MAX_N)?;
        let fixed = &self.fixed;
        if let Some(&square) = fixed.iter().find(|q| q.row >= n || q.col >= n) {
            return Err(InstanceError::OffBoard { square, n });
        }
        let mut order: Vec<usize> = (0..fixed.len()).collect();
        // Each queen after the first of its group of equal keys, with the first: the earliest
        // such queen of all.
        let mut earliest_repeat = |key: Key| {
            order.sort_unstable_by_key(|&i| (key(fixed[i]), i));
            order
                .windows(2)
                .filter(|pair| key(fixed[pair[0]]) == key(fixed[pair[1]]))
                .map(|pair| pair[1])
                .min()
                .map(|later| {
                    let k = key(fixed[later]);
                    let first = order[order.partition_point(|&i| key(fixed[i]) < k)];
                    (later, first)
                })
        };
        if let Some((later, _)) = earliest_repeat(&|q| (q.row, q.col)) {
            return Err(InstanceError::Duplicate(fixed[later]));
        }
        let lines: [(Line, Key); 4] = [
            (Line::Row, &|q| (q.row, 0)),
            (Line::Column, &|q| (q.col, 0)),
            (Line::Diagonal, &|q| (q.row + n - q.col, 0)),
            (Line::AntiDiagonal, &|q| (q.row + q.col, 0)),
        ];
        let mut attack: Option<(usize, usize, Line, usize)> = None;
        for (rank, (line, key)) in lines.into_iter().enumerate() {
            if let Some((later, first)) = earliest_repeat(key) {
                if attack.is_none_or(|(l, r, _, _)| (later, rank) < (l, r)) {
                    attack = Some((later, rank, line, first));
                }
            }
        }
        Ok(attack.map(|(later, _, line, first)| Flaw::Attack {
            first: fixed[first],
            second: fixed[later],
            line,
        }))
    }

    /// One solution containing the given queens, or why there is none.
    ///
    /// # Example
    /// ```
    /// use queens_core::complete::{Completion, Instance};
    /// use queens_core::Square;
    /// let puzzle = Instance { n: 8, fixed: vec![Square { row: 0, col: 3 }] };
    /// let Completion::Found(q) = puzzle.solve().unwrap() else { panic!() };
    /// assert_eq!(q, [3, 0, 4, 7, 1, 6, 2, 5]);
    /// let corner = Instance { n: 4, fixed: vec![Square { row: 0, col: 0 }] };
    /// assert_eq!(corner.solve().unwrap(), Completion::Impossible);
    /// ```
    pub fn solve(&self) -> Result<Completion, InstanceError> {
        self.solve_within(DEFAULT_BUDGET)
    }

    /// [`Instance::solve`] within a memory budget of `budget` bytes, checked before allocating
    /// ([`Instance::memory_needed`]).
    ///
    /// The answer is exact and reproducible: a short exact search first (most instances with
    /// many given queens end there); then, when a dozen or more rows are free, min-conflicts
    /// local search that keeps the given queens fixed (boards with few given queens, where the
    /// exact search can take minutes, end there in milliseconds), from a fixed seed; then the
    /// exact search to its end, which alone proves that no completion exists. A completion
    /// found by local search is confirmed by [`crate::find_flaw`] before it is returned.
    pub fn solve_within(&self, budget: u64) -> Result<Completion, InstanceError> {
        if let Some(flaw) = self.check()? {
            return Ok(Completion::GivenQueensAttack(flaw));
        }
        let free = self.free_rows();
        let n = self.n;
        if free <= PROBE_MAX_FREE {
            self.check_exact(budget)?;
            let mut search = Search::new(self)?;
            search.limit = EXACT_PROBE;
            if let Some(answer) = search.first() {
                return Ok(answer);
            }
        }
        if free >= LOCAL_FROM {
            crate::Error::check_budget(local::memory_needed(n, free), budget, || {
                format!("the local search completing the {n}x{n} board with {free} free rows")
            })?;
            let tries = LOCAL_TRIES_PER_ROW.saturating_mul(free as u64).max(1 << 20);
            if let Some(queens) = local::search(self, 0x5eed, tries) {
                if crate::find_flaw(&queens).is_none()
                    && self.fixed.iter().all(|q| queens[q.row] == q.col)
                {
                    return Ok(Completion::Found(queens));
                }
            }
        }
        self.check_exact(budget)?;
        let mut search = Search::new(self)?;
        Ok(search.first().expect("an unlimited search ends"))
    }

    /// Refuses the exact search when too many rows are free or its memory
    /// ([`Instance::memory_needed`]) is over `budget`.
    fn check_exact(&self, budget: u64) -> Result<(), InstanceError> {
        let free = self.free_rows();
        if free > MAX_FREE {
            return Err(InstanceError::TooManyFree {
                free,
                max: MAX_FREE,
            });
        }
        crate::Error::check_budget(self.memory_needed(), budget, || {
            format!(
                "the exact completion search of the {n}x{n} board with {free} free rows",
                n = self.n
            )
        })?;
        Ok(())
    }

    /// The bytes the exact search allocates at most: its arrays, the domains (k^2 bits for k
    /// free rows) and its trail of struck-out domain bits, 8 bytes each, which in the worst
    /// case holds every bit (8 k^2 bytes: 32 MB for 2,000 free rows, 1 GiB for 11,585).
    pub fn memory_needed(&self) -> u64 {
        let n = self.n as u64;
        let k = self.free_rows() as u64;
        let words = k.div_ceil(64).max(1);
        (64 * self.fixed.len() as u64)
            .saturating_add(n.saturating_mul(8 + 1 + 4 + 4 + 4))
            .saturating_add(k.saturating_mul(48))
            .saturating_add(k.saturating_mul(words).saturating_mul(8))
            .saturating_add(k.saturating_mul(k).saturating_mul(8))
    }

    /// The number of solutions containing the given queens.
    pub fn count(&self) -> Result<Counted, InstanceError> {
        self.count_within(DEFAULT_BUDGET)
    }

    /// [`Instance::count`] within a memory budget of `budget` bytes, checked before
    /// allocating. Counting is always the exact search.
    pub fn count_within(&self, budget: u64) -> Result<Counted, InstanceError> {
        if let Some(flaw) = self.check()? {
            return Ok(Counted::GivenQueensAttack(flaw));
        }
        self.check_exact(budget)?;
        let mut search = Search::new(self)?;
        let mut count = 0u64;
        let _ = search.run(&mut |_| {
            count += 1;
            ControlFlow::Continue(())
        });
        Ok(Counted::Completions(count))
    }

    /// How many rows have no given queen: the size of the problem left to search.
    pub fn free_rows(&self) -> usize {
        let mut rows: Vec<usize> = self.fixed.iter().map(|q| q.row).collect();
        rows.sort_unstable();
        rows.dedup();
        self.n - rows.len()
    }
}

/// A search frame: a residual row placed at this depth, the next domain bit to try for it,
/// and where the trail stood before its current placement.
struct Frame {
    row: usize,
    next: usize,
    mark: usize,
    placed: bool,
}

/// The residual problem and the state of the search over it.
struct Search {
    /// The solution so far: given queens and placed rows; `usize::MAX` for free rows.
    board: Vec<usize>,
    /// The real row of each residual row.
    rows: Vec<usize>,
    /// The real column of each residual column.
    cols: Vec<usize>,
    /// The residual column of each real column, `u32::MAX` for taken ones.
    col_index: Vec<u32>,
    /// Words per domain.
    words: usize,
    /// The domains, `words` words per residual row.
    domains: Vec<u64>,
    /// The number of bits set in each domain.
    sizes: Vec<u32>,
    /// The residual rows not placed yet (unordered), and where each sits in that list.
    open: Vec<u32>,
    open_at: Vec<u32>,
    /// Removed (row, column) bits, to put back on the way up.
    trail: Vec<(u32, u32)>,
    /// For each residual column, how many open rows still have it in their domain.
    support: Vec<u32>,
    /// Whether each residual column is taken by a placed row.
    used: Vec<bool>,
    /// Placements tried so far, and the most allowed before the search gives up.
    nodes: u64,
    limit: u64,
    /// Whether the search stopped at its limit.
    exhausted: bool,
}

impl Search {
    fn new(instance: &Instance) -> Result<Search, InstanceError> {
        let n = instance.n;
        let free = instance.free_rows();
        if free > MAX_FREE {
            return Err(InstanceError::TooManyFree {
                free,
                max: MAX_FREE,
            });
        }
        let mut board = vec![usize::MAX; n];
        let mut col_taken = vec![false; n];
        let mut down = vec![false; 2 * n];
        let mut up = vec![false; 2 * n];
        for q in &instance.fixed {
            board[q.row] = q.col;
            col_taken[q.col] = true;
            down[q.row + n - q.col] = true;
            up[q.row + q.col] = true;
        }
        let rows: Vec<usize> = (0..n).filter(|&r| board[r] == usize::MAX).collect();
        let cols: Vec<usize> = (0..n).filter(|&c| !col_taken[c]).collect();
        debug_assert_eq!(rows.len(), cols.len());
        let mut col_index = vec![u32::MAX; n];
        for (j, &c) in cols.iter().enumerate() {
            col_index[c] = j as u32;
        }
        let k = rows.len();
        let words = k.div_ceil(64).max(1);
        let mut domains = vec![0u64; k * words];
        let mut sizes = vec![0u32; k];
        for (i, &r) in rows.iter().enumerate() {
            for (j, &c) in cols.iter().enumerate() {
                if !down[r + n - c] && !up[r + c] {
                    domains[i * words + j / 64] |= 1 << (j % 64);
                    sizes[i] += 1;
                }
            }
        }
        let mut support = vec![0u32; k];
        for i in 0..k {
            for (j, s) in support.iter_mut().enumerate() {
                *s += u32::from(domains[i * words + j / 64] >> (j % 64) & 1 == 1);
            }
        }
        Ok(Search {
            support,
            used: vec![false; k],
            board,
            rows,
            cols,
            col_index,
            words,
            domains,
            sizes,
            open: (0..k as u32).collect(),
            open_at: (0..k as u32).collect(),
            trail: Vec::new(),
            nodes: 0,
            limit: u64::MAX,
            exhausted: false,
        })
    }

    /// Adds `delta` to the support of every column in the domain of `row`.
    fn shift_support(&mut self, row: usize, delta: i32) {
        for w in 0..self.words {
            let mut bits = self.domains[row * self.words + w];
            while bits != 0 {
                let j = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.support[j] = self.support[j].wrapping_add_signed(delta);
            }
        }
    }

    fn close(&mut self, row: usize) {
        self.shift_support(row, -1);
        let at = self.open_at[row] as usize;
        let last = *self.open.last().expect("the row is open");
        self.open.swap_remove(at);
        if last as usize != row {
            self.open_at[last as usize] = at as u32;
        }
    }

    fn reopen(&mut self, row: usize) {
        self.shift_support(row, 1);
        self.open_at[row] = self.open.len() as u32;
        self.open.push(row as u32);
    }

    /// The open row with the fewest choices (the lowest row among equals).
    fn most_constrained(&self) -> usize {
        let mut best = usize::MAX;
        let mut best_size = u32::MAX;
        for &r in &self.open {
            let (r, size) = (r as usize, self.sizes[r as usize]);
            if size < best_size || (size == best_size && r < best) {
                best = r;
                best_size = size;
            }
        }
        best
    }

    /// The first column at or after `from` in the domain of `row`.
    fn next_choice(&self, row: usize, from: usize) -> Option<usize> {
        let base = row * self.words;
        let mut word = from / 64;
        if word >= self.words {
            return None;
        }
        let mut bits = self.domains[base + word] & (u64::MAX << (from % 64));
        loop {
            if bits != 0 {
                return Some(word * 64 + bits.trailing_zeros() as usize);
            }
            word += 1;
            if word == self.words {
                return None;
            }
            bits = self.domains[base + word];
        }
    }

    /// Places residual row `row` on residual column `col` and strikes the attacked squares
    /// from the open rows. Returns false when an open row is left with no choice.
    fn place(&mut self, row: usize, col: usize) -> bool {
        let mark = self.trail.len();
        let (r, c) = (self.rows[row] as i64, self.cols[col] as i64);
        self.board[self.rows[row]] = self.cols[col];
        let n = self.board.len() as i64;
        let mut alive = true;
        for k in 0..self.open.len() {
            let other = self.open[k] as usize;
            let d = self.rows[other] as i64 - r;
            let targets = [
                Some(col as u32),
                self.residual(c + d, n),
                self.residual(c - d, n),
            ];
            for j in targets.into_iter().flatten() {
                let (w, bit) = (other * self.words + j as usize / 64, 1u64 << (j % 64));
                if self.domains[w] & bit != 0 {
                    self.domains[w] &= !bit;
                    self.sizes[other] -= 1;
                    self.support[j as usize] -= 1;
                    self.trail.push((other as u32, j));
                }
            }
            if self.sizes[other] == 0 {
                alive = false;
                break;
            }
        }
        self.used[col] = true;
        // Every free column must stay reachable from some open row. Forward checking can only
        // have taken support from columns of the trail; closing `row` from those of its domain.
        alive && {
            let words = &self.domains[row * self.words..(row + 1) * self.words];
            let from_close = words.iter().enumerate().any(|(w, &bits)| {
                let mut bits = bits;
                while bits != 0 {
                    let j = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.support[j] == 0 && !self.used[j] {
                        return true;
                    }
                }
                false
            });
            let from_trail = self.trail[mark..]
                .iter()
                .any(|&(_, j)| self.support[j as usize] == 0 && !self.used[j as usize]);
            !from_close && !from_trail
        }
    }

    /// The residual column of real column `c`, if it is on the board and free.
    fn residual(&self, c: i64, n: i64) -> Option<u32> {
        if (0..n).contains(&c) {
            Some(self.col_index[c as usize]).filter(|&j| j != u32::MAX)
        } else {
            None
        }
    }

    /// Takes back the placement of `row` and every removal made since `mark`.
    fn unplace(&mut self, row: usize, col: usize, mark: usize) {
        self.used[col] = false;
        self.board[self.rows[row]] = usize::MAX;
        while self.trail.len() > mark {
            let (other, j) = self.trail.pop().expect("the trail is longer than mark");
            self.domains[other as usize * self.words + j as usize / 64] |= 1 << (j % 64);
            self.sizes[other as usize] += 1;
            self.support[j as usize] += 1;
        }
    }

    /// The first completion, `Impossible` when there is none, or `None` when the search
    /// reached its limit first.
    fn first(&mut self) -> Option<Completion> {
        let mut found = None;
        let _ = self.run(&mut |queens| {
            found = Some(queens.to_vec());
            ControlFlow::Break(())
        });
        match found {
            Some(queens) => Some(Completion::Found(queens)),
            None if self.exhausted => None,
            None => Some(Completion::Impossible),
        }
    }

    /// Pushes the frame of the most constrained open row.
    fn descend(&mut self, stack: &mut Vec<Frame>) {
        let row = self.most_constrained();
        self.close(row);
        stack.push(Frame {
            row,
            next: 0,
            mark: self.trail.len(),
            placed: false,
        });
    }

    /// Visits every completion (the whole board, one column per row) until `visit` breaks.
    fn run(&mut self, visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>) -> ControlFlow<()> {
        if self.open.is_empty() {
            return visit(&self.board);
        }
        if self.sizes.contains(&0) || self.support.contains(&0) {
            return ControlFlow::Continue(());
        }
        let mut stack: Vec<Frame> = Vec::with_capacity(self.rows.len());
        self.descend(&mut stack);
        while let Some(top) = stack.len().checked_sub(1) {
            let Frame {
                row,
                next,
                mark,
                placed,
            } = stack[top];
            if placed {
                self.unplace(row, next - 1, mark);
                stack[top].placed = false;
            }
            let Some(col) = self.next_choice(row, next) else {
                stack.pop();
                self.reopen(row);
                continue;
            };
            self.nodes += 1;
            if self.nodes > self.limit {
                self.exhausted = true;
                return ControlFlow::Break(());
            }
            stack[top].next = col + 1;
            stack[top].placed = true;
            stack[top].mark = self.trail.len();
            if !self.place(row, col) {
                continue;
            }
            if self.open.is_empty() {
                visit(&self.board)?;
                continue;
            }
            self.descend(&mut stack);
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::every_solution;
    use crate::solve::construct;
    use proptest::strategy::Strategy;

    fn sq(row: usize, col: usize) -> Square {
        Square { row, col }
    }

    /// An independent pairwise check.
    fn is_solution(q: &[usize]) -> bool {
        let n = q.len();
        q.iter().all(|&c| c < n)
            && (0..n).all(|i| (i + 1..n).all(|j| q[i] != q[j] && q[i].abs_diff(q[j]) != j - i))
    }

    #[test]
    fn counts_agree_with_filtering_the_full_list() {
        for n in 1..=8 {
            let all = every_solution(n);
            // Every single given queen, and every pair of squares in the first two rows.
            let mut puzzles: Vec<Vec<Square>> = Vec::new();
            for r in 0..n {
                for c in 0..n {
                    puzzles.push(vec![sq(r, c)]);
                }
            }
            for c0 in 0..n {
                for c1 in 0..n {
                    if n > 1 {
                        puzzles.push(vec![sq(n - 1, c0), sq(0, c1)]);
                    }
                }
            }
            puzzles.push(vec![]);
            for fixed in puzzles {
                let expected = all
                    .iter()
                    .filter(|q| fixed.iter().all(|s| q[s.row] == s.col))
                    .count() as u64;
                let inst = Instance {
                    n,
                    fixed: fixed.clone(),
                };
                match inst.count().unwrap() {
                    Counted::Completions(c) => assert_eq!(c, expected, "N = {n}, {fixed:?}"),
                    Counted::GivenQueensAttack(_) => {
                        assert_eq!(expected, 0, "N = {n}, {fixed:?}")
                    }
                }
                match inst.solve().unwrap() {
                    Completion::Found(q) => {
                        assert!(is_solution(&q), "{q:?}");
                        assert!(fixed.iter().all(|s| q[s.row] == s.col));
                    }
                    _ => assert_eq!(expected, 0, "N = {n}, {fixed:?}"),
                }
            }
        }
    }

    #[test]
    fn counts_of_larger_boards_with_queens_on_the_first_row() {
        // Summing over the first-row column gives the full count (OEIS A000170: 14200 for 12).
        let n = 12;
        let total: u64 = (0..n)
            .map(|c| {
                match (Instance {
                    n,
                    fixed: vec![sq(0, c)],
                })
                .count()
                .unwrap()
                {
                    Counted::Completions(k) => k,
                    other => panic!("{other:?}"),
                }
            })
            .sum();
        assert_eq!(total, every_solution(n).len() as u64);
    }

    #[test]
    fn proves_that_no_completion_exists() {
        // The 4x4 board has two solutions, [1, 3, 0, 2] and [2, 0, 3, 1]: no corner queen.
        for c in [0, 3] {
            let inst = Instance {
                n: 4,
                fixed: vec![sq(0, c)],
            };
            assert_eq!(inst.solve().unwrap(), Completion::Impossible);
            assert_eq!(inst.count().unwrap(), Counted::Completions(0));
        }
        // Peaceful queens that block every completion of 8x8.
        let inst = Instance {
            n: 8,
            fixed: vec![sq(0, 0), sq(1, 2)],
        };
        assert_eq!(inst.count().unwrap(), Counted::Completions(0));
    }

    #[test]
    fn names_two_given_queens_that_attack() {
        let inst = Instance {
            n: 8,
            fixed: vec![sq(0, 0), sq(3, 5), sq(5, 5)],
        };
        let expected = Flaw::Attack {
            first: sq(3, 5),
            second: sq(5, 5),
            line: Line::Column,
        };
        assert_eq!(
            inst.solve().unwrap(),
            Completion::GivenQueensAttack(expected)
        );
        assert_eq!(inst.count().unwrap(), Counted::GivenQueensAttack(expected));
        let diagonal = Instance {
            n: 8,
            fixed: vec![sq(2, 6), sq(4, 4)],
        };
        assert!(matches!(
            diagonal.solve().unwrap(),
            Completion::GivenQueensAttack(Flaw::Attack {
                line: Line::AntiDiagonal,
                ..
            })
        ));
    }

    #[test]
    fn refuses_queens_off_the_board_and_twice_given() {
        let off = Instance {
            n: 8,
            fixed: vec![sq(8, 0)],
        };
        assert!(matches!(off.solve(), Err(InstanceError::OffBoard { .. })));
        let twice = Instance {
            n: 8,
            fixed: vec![sq(1, 1), sq(1, 1)],
        };
        assert_eq!(twice.solve(), Err(InstanceError::Duplicate(sq(1, 1))));
        assert!(matches!(
            Instance {
                n: 0,
                fixed: vec![]
            }
            .solve(),
            Err(InstanceError::Size(_))
        ));
        // Too many free rows for the exact search: counting refuses, while one completion is
        // found by local search.
        let open = Instance {
            n: MAX_FREE + 2,
            fixed: vec![sq(0, 1)],
        };
        assert!(matches!(
            open.count(),
            Err(InstanceError::TooManyFree { .. })
        ));
        let Completion::Found(q) = open.solve().unwrap() else {
            panic!("local search completes an almost empty board")
        };
        assert!(q[0] == 1 && is_solution(&q));
    }

    #[test]
    fn a_large_board_with_a_few_queens_missing_is_completed() {
        let n = 3000;
        let full = construct::solution(n).unwrap().unwrap();
        // Remove 12 queens spread over the board.
        let missing: Vec<usize> = (0..12).map(|i| i * 249 + 7).collect();
        let fixed: Vec<Square> = (0..n)
            .filter(|r| !missing.contains(r))
            .map(|r| sq(r, full[r]))
            .collect();
        let inst = Instance { n, fixed };
        assert_eq!(inst.free_rows(), 12);
        let Completion::Found(q) = inst.solve().unwrap() else {
            panic!("the construction itself completes it")
        };
        assert!(inst.fixed.iter().all(|s| q[s.row] == s.col));
        assert!(crate::board::find_flaw(&q).is_none());
    }

    proptest::proptest! {
        #[test]
        fn any_subset_of_a_solution_is_completed_around_its_queens(
            n in 4usize..40,
            keep in proptest::collection::vec(proptest::bool::ANY, 40),
            seed in 0u64..1000,
        ) {
            let full = crate::solve::min_conflicts::solve(n, seed).unwrap().unwrap();
            let fixed: Vec<Square> = (0..n)
                .filter(|&r| keep[r])
                .map(|r| sq(r, full[r] as usize))
                .collect();
            let inst = Instance { n, fixed: fixed.clone() };
            match inst.solve().unwrap() {
                Completion::Found(q) => {
                    proptest::prop_assert!(is_solution(&q));
                    proptest::prop_assert!(fixed.iter().all(|s| q[s.row] == s.col));
                }
                other => proptest::prop_assert!(false, "{other:?}"),
            }
        }
    }

    #[test]
    fn corner_queen_boards_that_stalled_the_exact_search_are_completed() {
        // 88, 91, 98, 108, 110 and 120 took the exact search alone from 2 s to over 10 s.
        for n in [88, 91, 98, 108, 110, 120, 500] {
            let inst = Instance {
                n,
                fixed: vec![sq(0, 0)],
            };
            let Completion::Found(q) = inst.solve().unwrap() else {
                panic!("N = {n} has corner-queen solutions")
            };
            assert!(q[0] == 0 && is_solution(&q), "N = {n}");
            assert!(crate::board::find_flaw(&q).is_none());
            // A count, not a time: the short exact search (at most EXACT_PROBE nodes) or the
            // local search (within its tries) answers, so the unbounded exact search that
            // stalled never runs; the answer is the one `solve` gave.
            let free = inst.free_rows();
            assert!(free >= LOCAL_FROM, "N = {n}");
            let mut probe = Search::new(&inst).unwrap();
            probe.limit = EXACT_PROBE;
            let probed = match probe.first() {
                Some(Completion::Found(q)) => Some(q),
                _ => None,
            };
            let tries = LOCAL_TRIES_PER_ROW.saturating_mul(free as u64).max(1 << 20);
            let bounded = probed.or_else(|| local::search(&inst, 0x5eed, tries));
            assert_eq!(bounded.as_deref(), Some(&q[..]), "N = {n}");
        }
    }

    #[test]
    fn local_search_keeps_a_tenth_of_a_solution_fixed() {
        for (n, seed) in [(60, 1), (200, 2), (1000, 3)] {
            let full = crate::solve::min_conflicts::solve(n, seed)
                .unwrap()
                .unwrap();
            let fixed: Vec<Square> = (0..n / 10)
                .map(|i| i * 10 + 3)
                .map(|r| sq(r, full[r] as usize))
                .collect();
            let inst = Instance { n, fixed };
            let q = local::search(&inst, 7, 1 << 24).expect("a completion");
            assert!(is_solution(&q));
            assert!(inst.fixed.iter().all(|s| q[s.row] == s.col));
        }
    }

    #[test]
    fn local_search_gives_up_where_no_completion_exists() {
        // Peaceful queens that block every completion of 8x8: local search stops at its limit.
        let inst = Instance {
            n: 8,
            fixed: vec![sq(0, 0), sq(1, 2)],
        };
        assert_eq!(local::search(&inst, 1, 10_000), None);
        assert_eq!(inst.solve().unwrap(), Completion::Impossible);
    }

    #[test]
    fn completions_beyond_the_memory_budget_are_refused_before_allocating() {
        let inst = Instance {
            n: 1_000_000,
            fixed: vec![sq(0, 0)],
        };
        let needed = local::memory_needed(inst.n, inst.free_rows());
        assert!(matches!(
            inst.solve_within(needed - 1),
            Err(InstanceError::Budget(crate::Error::OverBudget { .. }))
        ));
        let small = Instance {
            n: 8,
            fixed: vec![sq(0, 3)],
        };
        assert!(matches!(
            small.count_within(100),
            Err(InstanceError::Budget(_))
        ));
        assert_eq!(small.count_within(1 << 20).unwrap(), small.count().unwrap());
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_text_gives_an_instance_or_a_typed_error(
            words in proptest::collection::vec(proptest::prop_oneof![
                proptest::sample::select(vec![
                    "letting", "n", "init", "=", "be", "[", "]", ",", "$", "\n", " ", "-",
                    "language ESSENCE' 1.0", "0", "7", "99999999999999999999999999999999999999999",
                    "Q", ".", "#",
                ]).prop_map(str::to_string),
                proptest::prelude::any::<String>(),
            ], 0..80),
        ) {
            let text = words.concat();
            match parse_instance(&text) {
                Ok(inst) => {
                    proptest::prop_assert!(inst.n >= 1 && inst.n <= MAX_N);
                    proptest::prop_assert!(inst.fixed.iter().all(|q| q.row < inst.n && q.col < inst.n));
                }
                Err(e) => proptest::prop_assert!(e.to_string().len() < 400, "{e}"),
            }
        }

        #[test]
        fn arbitrary_bytes_give_an_instance_or_a_typed_error(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
        ) {
            let text = String::from_utf8_lossy(&bytes);
            if let Err(e) = parse_instance(&text) {
                proptest::prop_assert!(e.to_string().len() < 400, "{e}");
            }
        }
    }

    #[test]
    fn a_full_solution_is_its_own_completion() {
        let q = vec![1, 3, 0, 2];
        let inst = Instance {
            n: 4,
            fixed: q.iter().enumerate().map(|(r, &c)| sq(r, c)).collect(),
        };
        assert_eq!(inst.solve().unwrap(), Completion::Found(q));
        assert_eq!(inst.count().unwrap(), Counted::Completions(1));
    }

    #[test]
    fn reads_csplib_parameter_files() {
        let text = "language ESSENCE' 1.0\n$ a comment\nletting n =  10\nletting init =  [[3, 5],\n\t\t[0, 2]]\n";
        let inst = parse_instance(text).unwrap();
        assert_eq!(inst.n, 10);
        assert_eq!(inst.fixed, vec![sq(3, 5), sq(0, 2)]);
        let be = parse_instance("letting n be 5 letting init be []").unwrap();
        assert_eq!(
            be,
            Instance {
                n: 5,
                fixed: vec![]
            }
        );
        let no_init = parse_instance("letting n = 6\nletting given_queens = 0\n").unwrap();
        assert_eq!(no_init.fixed, vec![]);
    }

    #[test]
    fn reports_malformed_csplib_files_with_their_line() {
        let cases = [
            ("letting n = 8\nletting init = [[1, 2], [3]]\n", 2, "pair"),
            ("letting n = 8\nletting init = [[1, 2] [3, 4]]\n", 2, "','"),
            ("letting n = 8\nletting init = [[1, 8]]\n", 2, "off the 8x8"),
            (
                "letting n = 8\nletting init = [[-1, 0]]\n",
                2,
                "off the 8x8",
            ),
            ("letting n = 0\n", 1, "at least 1"),
            ("letting n = [1]\n", 1, "whole number"),
            ("letting n = 8\nletting init = 3\n", 2, "pairs"),
            ("letting n = 8\nlet init = []\n", 2, "expected 'letting'"),
            ("letting n 8\n", 1, "'=' or 'be'"),
            ("letting n = 8\nletting init = [[1, 2]\n", 2, "','"),
            ("letting n = 8 ; \n", 1, "unexpected ';'"),
            ("letting n =\n", 1, "ends where a value"),
        ];
        for (text, line, needle) in cases {
            match parse_instance(text) {
                Err(e @ InstanceParseError::Malformed { line: l, .. }) => {
                    assert_eq!(l, line, "{text:?}: {e}");
                    assert!(e.to_string().contains(needle), "{text:?}: {e}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        assert_eq!(
            parse_instance("letting init = []\n"),
            Err(InstanceParseError::MissingSize)
        );
    }

    #[test]
    fn deep_lists_are_refused_at_the_bracket_that_goes_too_deep() {
        // 29 bytes of `letting`s, then the brackets: the 17th is at byte 29 + 16.
        let text = format!("letting n = 8\nletting init = {}", "[".repeat(1 << 20));
        let err = parse_instance(&text).unwrap_err().to_string();
        assert!(
            err.starts_with("line 2: lists nested more than 16 deep, at byte 45"),
            "{err}"
        );
        // Other `letting`s are held to the same depth, and their values are not kept.
        let text = format!(
            "letting n = 8\nletting x = {}1{}\n",
            "[".repeat(16),
            "]".repeat(16)
        );
        assert_eq!(parse_instance(&text).unwrap().fixed, vec![]);
        let text = format!(
            "letting n = 8\nletting x = {}1{}\n",
            "[".repeat(17),
            "]".repeat(17)
        );
        assert!(parse_instance(&text).is_err());
    }

    #[test]
    fn the_given_queens_are_refused_past_the_memory_budget_at_their_line() {
        let pairs = vec!["[0, 3]"; 100].join(",\n");
        let text = format!("letting n = 8\nletting init = [\n{pairs}]\n");
        let budget = 10 * BYTES_PER_GIVEN_QUEEN;
        assert_eq!(
            parse_instance_within(&text, budget),
            Err(InstanceParseError::TooManyQueens {
                line: 13,
                max: 10,
                budget
            })
        );
        assert_eq!(parse_instance(&text).unwrap().fixed.len(), 100);
    }

    #[test]
    fn off_board_pairs_are_named_whether_n_comes_first_or_last() {
        for (text, line) in [
            (
                "letting n = 8\nletting init = [[1, 2],\n[0, 8], [-1, 0]]\n",
                3,
            ),
            (
                "letting init = [[1, 2],\n[0, 8], [-1, 0]]\nletting n = 8\n",
                2,
            ),
        ] {
            let err = parse_instance(text).unwrap_err().to_string();
            let start = format!("line {line}: the queen [0, 8] is off the 8x8");
            assert!(err.starts_with(&start), "{err}");
        }
        let text = "letting init = [[1, 2],\n[-1, 0], [0, 8]]\nletting n = 8\n";
        let err = parse_instance(text).unwrap_err().to_string();
        assert!(err.starts_with("line 2: the queen [-1, 0] is off"), "{err}");
    }

    /// The check as it was written before issue 40, with hash maps: the reference the sorted
    /// check must agree with.
    fn check_by_maps(inst: &Instance) -> Result<Option<Flaw>, InstanceError> {
        use std::collections::HashMap;
        let n = inst.n;
        let mut seen = HashMap::new();
        for &q in &inst.fixed {
            if seen.insert(q, ()).is_some() {
                return Err(InstanceError::Duplicate(q));
            }
        }
        let mut first: HashMap<(u8, usize), Square> = HashMap::new();
        for &q in &inst.fixed {
            let lines = [
                (Line::Row, 0, q.row),
                (Line::Column, 1, q.col),
                (Line::Diagonal, 2, q.row + n - q.col),
                (Line::AntiDiagonal, 3, q.row + q.col),
            ];
            for (line, tag, key) in lines {
                if let Some(&earlier) = first.get(&(tag, key)) {
                    return Ok(Some(Flaw::Attack {
                        first: earlier,
                        second: q,
                        line,
                    }));
                }
                first.insert((tag, key), q);
            }
        }
        Ok(None)
    }

    proptest::proptest! {
        #[test]
        fn the_sorted_check_names_the_same_flaw_as_the_maps(
            n in 1usize..12,
            raw in proptest::collection::vec((0usize..12, 0usize..12), 0..10),
        ) {
            let fixed = raw.into_iter().map(|(r, c)| sq(r % n, c % n)).collect();
            let inst = Instance { n, fixed };
            proptest::prop_assert_eq!(inst.check(), check_by_maps(&inst));
        }
    }

    #[test]
    fn reads_board_instances_and_refuses_other_text() {
        let inst = parse_instance("# puzzle\n.Q..\n....\n....\n..Q.\n").unwrap();
        assert_eq!(inst.n, 4);
        assert_eq!(inst.fixed, vec![sq(0, 1), sq(3, 2)]);
        assert_eq!(
            parse_instance("1 3 0 2\n"),
            Err(InstanceParseError::NotOneBoard)
        );
        assert_eq!(parse_instance(""), Err(InstanceParseError::NotOneBoard));
        assert!(matches!(
            parse_instance("Q..\n...\n"),
            Err(InstanceParseError::Board(_))
        ));
    }
}
