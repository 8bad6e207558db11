//! The exact completion search: the free rows and columns left by the given queens, a bitset
//! domain per free row, the most constrained row first, forward checking undone from a trail
//! (see the folder's `mod.rs` for the idea and its cost). It alone proves that no completion
//! exists, and alone counts the completions ([`Instance::count`]), a count that may be stopped
//! before its end included ([`Instance::count_within_until`]).

use std::ops::ControlFlow;

use super::error::InstanceError;
use super::instance::{Completion, CountEnd, Counted, Instance, DEFAULT_BUDGET};

/// The most free rows the exact search accepts: its domains take k^2 / 8 bytes (50 MB here).
pub const MAX_FREE: usize = 20_000;

/// How many placements the search tries between two calls of the `stop` of
/// [`Instance::count_within_until`]: a placement costs O(k) for k free rows, so even at
/// [`MAX_FREE`] the search answers within milliseconds, and a call per 256 placements is
/// nothing beside them.
const STOP_EVERY: u64 = 256;

impl Instance {
    /// Refuses the exact search when too many rows are free or its memory
    /// ([`Instance::memory_needed`]) is over `budget`.
    pub(super) fn check_exact(&self, budget: u64) -> Result<(), InstanceError> {
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

    /// The bytes the exact search allocates at most: its arrays (17 bytes per row of the board,
    /// counted as 21, and 65 per free row: its row and column, 8 bytes each, five `u32` or
    /// `bool` entries and a frame of 32 bytes on the stack of the search), the domains (k^2
    /// bits for k free rows) and its trail of struck-out domain bits, 8 bytes each, which in
    /// the worst case holds every bit and is never given room past that (8 k^2 bytes: 32 MB
    /// for 2,000 free rows, 1 GiB for 11,585).
    pub fn memory_needed(&self) -> u64 {
        let n = self.n as u64;
        let k = self.free_rows() as u64;
        let words = k.div_ceil(64).max(1);
        (64 * self.fixed.len() as u64)
            .saturating_add(n.saturating_mul(8 + 1 + 4 + 4 + 4))
            .saturating_add(k.saturating_mul(65))
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
        match self.count_within_until(budget, &|| false)? {
            CountEnd::Finished(counted) => Ok(counted),
            CountEnd::Stopped { .. } => unreachable!("a count never told to stop ends"),
        }
    }

    /// [`Instance::count_within`] that stops when `stop` says so: `stop` is called before the
    /// search starts and then every few hundred placements (milliseconds apart at most), and
    /// once it returns true the count ends with the completions found so far
    /// ([`CountEnd::Stopped`]), a lower bound of the count. The way to stop a count from
    /// another thread (a signal, a deadline) is a `stop` that reads an atomic flag.
    ///
    /// # Example
    /// ```
    /// use std::cell::Cell;
    /// use queens_core::complete::{CountEnd, Counted, Instance};
    /// let board = Instance { n: 10, fixed: vec![] };
    /// // Run to its end: the count.
    /// let end = board.count_within_until(1 << 20, &|| false).unwrap();
    /// assert_eq!(end, CountEnd::Finished(Counted::Completions(724)));
    /// // Stopped at the third look: some completions found, fewer than all.
    /// let looks = Cell::new(0);
    /// let stop = || {
    ///     looks.set(looks.get() + 1);
    ///     looks.get() > 2
    /// };
    /// let CountEnd::Stopped { found } = board.count_within_until(1 << 20, &stop).unwrap() else {
    ///     panic!("not stopped");
    /// };
    /// assert!(found < 724);
    /// ```
    pub fn count_within_until(
        &self,
        budget: u64,
        stop: &dyn Fn() -> bool,
    ) -> Result<CountEnd, InstanceError> {
        if let Some(flaw) = self.check()? {
            return Ok(CountEnd::Finished(Counted::GivenQueensAttack(flaw)));
        }
        self.check_exact(budget)?;
        let mut search = Search::new(self)?;
        let mut count = 0u64;
        let _ = search.run_until(
            &mut |_| {
                count += 1;
                ControlFlow::Continue(())
            },
            stop,
        );
        Ok(if search.unfinished {
            CountEnd::Stopped { found: count }
        } else {
            CountEnd::Finished(Counted::Completions(count))
        })
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
pub(super) struct Search {
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
    /// Removed (row, column) bits, to put back on the way up: at most every domain bit, so
    /// never given room for more than `trail_max` entries (see [`Search::strike`]).
    trail: Vec<(u32, u32)>,
    trail_max: usize,
    /// For each residual column, how many open rows still have it in their domain.
    support: Vec<u32>,
    /// Whether each residual column is taken by a placed row.
    used: Vec<bool>,
    /// Placements tried so far, and the most allowed before the search gives up.
    nodes: u64,
    pub(super) limit: u64,
    /// Whether the search ended before its end: at its limit, or told to stop.
    unfinished: bool,
}

impl Search {
    pub(super) fn new(instance: &Instance) -> Result<Search, InstanceError> {
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
            trail_max: k * k,
            nodes: 0,
            limit: u64::MAX,
            unfinished: false,
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

    /// The room of the trail, in entries, and the most it may have (for the tests).
    #[cfg(test)]
    pub(super) fn trail_room(&self) -> (usize, usize) {
        (self.trail.capacity(), self.trail_max)
    }

    /// Puts the struck bit (`row`, `col`) on the trail. The trail grows by doubling as a
    /// vector does, but its room never passes `trail_max` entries, every bit of the domains,
    /// which it cannot outgrow (a bit is struck once until it is put back): so the memory is
    /// what [`Instance::memory_needed`] counts, not up to twice that.
    fn strike(&mut self, row: u32, col: u32) {
        if self.trail.len() == self.trail.capacity() {
            let left = self.trail_max.saturating_sub(self.trail.len()).max(1);
            self.trail
                .reserve_exact(self.trail.capacity().max(64).min(left));
        }
        self.trail.push((row, col));
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
                    self.strike(other as u32, j);
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
    pub(super) fn first(&mut self) -> Option<Completion> {
        let mut found = None;
        let _ = self.run(&mut |queens| {
            found = Some(queens.to_vec());
            ControlFlow::Break(())
        });
        match found {
            Some(queens) => Some(Completion::Found(queens)),
            None if self.unfinished => None,
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
    pub(super) fn run(
        &mut self,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.run_until(visit, &|| false)
    }

    /// [`Search::run`] that also ends, unfinished, when `stop` returns true: it is asked
    /// before the first placement and then every [`STOP_EVERY`] placements.
    pub(super) fn run_until(
        &mut self,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
        stop: &dyn Fn() -> bool,
    ) -> ControlFlow<()> {
        if stop() {
            self.unfinished = true;
            return ControlFlow::Break(());
        }
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
            if self.nodes > self.limit || (self.nodes.is_multiple_of(STOP_EVERY) && stop()) {
                self.unfinished = true;
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
