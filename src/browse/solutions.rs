//! The solutions of one board, fetched lazily: only a window of them is held at a time.
//!
//! Solution `i` (in lexicographic order, from 0) is found by running the bitmask search from the
//! start, passing over the first solutions without keeping them, and keeping the next
//! [`WINDOW`]. Moving one step stays inside the window; jumping far away costs one search up to
//! the new place (never past the middle of the list: the second half is the mirror image of the
//! first), so memory stays at a few hundred placements whatever N.

use std::ops::ControlFlow;

use queens_core::board::is_canonical;
use queens_core::count::{self, CountError};
use queens_core::{Algorithm, SearchOptions};

/// How many placements are held at a time.
pub const WINDOW: u64 = 256;

/// Which solutions are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// Every solution.
    All,
    /// One per symmetry class: the lexicographically smallest of its eight images.
    Unique,
}

impl Selection {
    fn admits(self, queens: &[usize]) -> bool {
        match self {
            Selection::All => true,
            Selection::Unique => is_canonical(queens),
        }
    }
}

pub use queens_core::board::representative;

/// Visits every solution of the `n` x `n` board in order with the bitmask search (the board
/// sizes the browser takes are always in its range).
fn each_solution(n: usize, visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>) {
    let _ = Algorithm::Bitboard.for_each_solution(n, &SearchOptions::default(), visit);
}

/// How many solutions the `n` x `n` board has, and how many symmetry classes, from the
/// counting engine (on every core).
pub fn totals(n: usize) -> Result<(u64, u64), CountError> {
    let counts = count::count(n)?;
    // Every board the browser takes has far fewer than 2^64 solutions.
    let fit = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
    Ok((fit(counts.total), fit(counts.unique)))
}

/// The solutions of the `n` x `n` board in one selection, with a window of them in memory.
#[derive(Debug, Clone)]
pub struct Solutions {
    n: usize,
    selection: Selection,
    total: u64,
    window_start: u64,
    window: Vec<Vec<usize>>,
}

impl Solutions {
    /// The solutions of the `n` x `n` board (1 <= n <= 64) in `selection`, of which there are
    /// `total` (see [`totals`]).
    pub fn new(n: usize, selection: Selection, total: u64) -> Self {
        Solutions {
            n,
            selection,
            total,
            window_start: 0,
            window: Vec::new(),
        }
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Which solutions these are.
    pub fn selection(&self) -> Selection {
        self.selection
    }

    /// How many solutions there are.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Solution `index` (from 0), or `None` past the last one.
    pub fn get(&mut self, index: u64) -> Option<&[usize]> {
        if index >= self.total {
            return None;
        }
        let end = self.window_start + self.window.len() as u64;
        if !(self.window_start..end).contains(&index) {
            // Centre the new window on the solution asked for, so a step either way stays in it.
            self.fill_window(index.saturating_sub(WINDOW / 2));
        }
        let offset = usize::try_from(index - self.window_start).ok()?;
        self.window.get(offset).map(Vec::as_slice)
    }

    /// The index of `queens` among these solutions, or `None` when it is not one of them.
    pub fn index_of(&self, queens: &[usize]) -> Option<u64> {
        if queens.len() != self.n || !self.selection.admits(queens) {
            return None;
        }
        let mut index = 0;
        let mut found = None;
        each_solution(self.n, &mut |q| {
            if !self.selection.admits(q) {
                return ControlFlow::Continue(());
            }
            if q == queens {
                found = Some(index);
                return ControlFlow::Break(());
            }
            if q > queens {
                return ControlFlow::Break(());
            }
            index += 1;
            ControlFlow::Continue(())
        });
        found
    }

    /// Holds solutions `start..start + WINDOW` (fewer at the end). Every solution's mirror
    /// image (column c to N-1-c) is a solution, and mirroring reverses the lexicographic order,
    /// so solution `i` is the mirror of solution `total-1-i`: a window in the second half of
    /// every solution is read, mirrored, from the first half, and no search goes past the middle.
    fn fill_window(&mut self, start: u64) {
        let end = (start + WINDOW).min(self.total);
        self.window_start = start;
        if self.selection == Selection::All && start > self.total - end {
            let last = self.n - 1;
            self.window = self.read(self.total - end, end - start);
            for queens in &mut self.window {
                queens.iter_mut().for_each(|c| *c = last - *c);
            }
            self.window.reverse();
        } else {
            self.window = self.read(start, end - start);
        }
    }

    /// Solutions `start..start + len` of the selection, by one search from the beginning.
    fn read(&self, start: u64, len: u64) -> Vec<Vec<usize>> {
        let mut window = Vec::new();
        let mut index = 0u64;
        let selection = self.selection;
        each_solution(self.n, &mut |q| {
            if !selection.admits(q) {
                return ControlFlow::Continue(());
            }
            if index >= start {
                window.push(q.to_vec());
                if window.len() as u64 == len {
                    return ControlFlow::Break(());
                }
            }
            index += 1;
            ControlFlow::Continue(())
        });
        window
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (n, total, unique) from the reference table (OEIS A000170 and A002562).
    fn known_counts() -> Vec<(usize, u64, u64)> {
        queens_core::reference::known()
            .into_iter()
            .map(|k| (k.n, k.total as u64, k.unique as u64))
            .collect()
    }

    fn listed(n: usize, selection: Selection) -> Vec<Vec<usize>> {
        let mut all = Vec::new();
        each_solution(n, &mut |q| {
            if selection.admits(q) {
                all.push(q.to_vec());
            }
            ControlFlow::Continue(())
        });
        all
    }

    fn solutions(n: usize, selection: Selection) -> Solutions {
        let (total, unique) = totals(n).unwrap();
        match selection {
            Selection::All => Solutions::new(n, selection, total),
            Selection::Unique => Solutions::new(n, selection, unique),
        }
    }

    #[test]
    fn the_selections_and_their_totals_match_the_known_counts() {
        for (n, total, unique) in known_counts().into_iter().filter(|&(n, ..)| n <= 10) {
            assert_eq!(listed(n, Selection::All).len() as u64, total, "n = {n}");
            assert_eq!(listed(n, Selection::Unique).len() as u64, unique, "n = {n}");
            assert_eq!(totals(n).unwrap(), (total, unique), "n = {n}");
        }
    }

    #[test]
    fn a_representative_is_the_smallest_image_and_is_canonical() {
        let all = listed(8, Selection::All);
        let classes: std::collections::BTreeSet<Vec<usize>> =
            all.iter().map(|q| representative(q)).collect();
        assert_eq!(classes.len(), 12);
        assert!(classes.iter().all(|q| is_canonical(q) && all.contains(q)));
        assert_eq!(
            representative(&[7, 3, 0, 2, 5, 1, 6, 4]),
            [0, 4, 7, 5, 2, 6, 1, 3]
        );
    }

    #[test]
    fn every_index_gives_the_listed_solution_in_any_order_of_visits() {
        for selection in [Selection::All, Selection::Unique] {
            let all = listed(10, selection);
            let mut solutions = solutions(10, selection);
            let count = all.len();
            // Forwards, backwards, and big jumps across windows.
            let order = (0..count)
                .chain((0..count).rev())
                .chain((0..count).step_by(97).rev());
            for i in order {
                assert_eq!(solutions.get(i as u64), Some(all[i].as_slice()), "{i}");
            }
            assert_eq!(solutions.get(count as u64), None);
            assert!(solutions.window.len() as u64 <= WINDOW);
        }
    }

    #[test]
    fn the_mirrored_second_half_matches_the_listing_for_every_small_board() {
        for n in 1..=9 {
            let all = listed(n, Selection::All);
            let mut solutions = solutions(n, Selection::All);
            for i in (0..all.len()).rev() {
                assert_eq!(
                    solutions.get(i as u64),
                    Some(all[i].as_slice()),
                    "n = {n}, {i}"
                );
            }
        }
    }

    #[test]
    fn index_of_finds_a_solution_and_refuses_others() {
        let all = solutions(8, Selection::All);
        assert_eq!(all.index_of(&[0, 4, 7, 5, 2, 6, 1, 3]), Some(0));
        assert_eq!(all.index_of(&[0, 5, 7, 2, 6, 3, 1, 4]), Some(1));
        assert_eq!(all.index_of(&[7, 3, 0, 2, 5, 1, 6, 4]), Some(91));
        assert_eq!(all.index_of(&[0, 1, 2, 3, 4, 5, 6, 7]), None);
        let unique = solutions(8, Selection::Unique);
        assert_eq!(unique.index_of(&[0, 4, 7, 5, 2, 6, 1, 3]), Some(0));
        assert_eq!(unique.index_of(&[7, 3, 0, 2, 5, 1, 6, 4]), None);
    }
}
