//! The memory of the check `queens verify` runs on a drawn board, counted by a global
//! allocator of this test binary's own: it must fit in what the reader's budget leaves it,
//! [`BYTES_PER_BOARD_COLUMN`] a column less the queens the reader keeps.
//!
//! `verify` ran `find_flaw_in_squares`, whose hash maps took about 200 bytes a row (a
//! 20,000 x 20,000 board under `--max-memory 1600000` peaked 4 MB above the program's own);
//! it runs `find_flaw_on_board` now, one bit per line of the board, through
//! `CompactEntry::find_flaw`, the check it runs on every entry read, which is what is counted
//! here: a change of that check back to the maps fails this test. (The two checks name the
//! same flaw of any squares, `board/check.rs` tests that, so only their memory tells them
//! apart; it is counted, not timed.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use queens_core::board::find_flaw_on_board;
use queens_core::parse::{CompactEntry, BYTES_PER_BOARD_COLUMN};
use queens_core::{find_flaw_in_squares, Square};

/// Counts the bytes allocated now and the most at once since the last reset.
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = NOW.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
        PEAK.fetch_max(now, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Ordering::SeqCst);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes `check` holds at once beyond what was allocated before it.
fn peak_of(check: impl FnOnce()) -> usize {
    let before = NOW.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    check();
    PEAK.load(Ordering::SeqCst) - before
}

/// One test only: the counters are global, and tests run on threads side by side.
#[test]
fn the_check_of_a_drawn_board_fits_in_what_the_reader_budgets_for_it() {
    let n = 20_000;
    let solution = queens_core::solve::construct::solution(n)
        .expect("a size construct takes")
        .expect("a solution");
    let squares: Vec<Square> = (solution.iter().enumerate())
        .map(|(row, &col)| Square { row, col })
        .collect();
    // The reader keeps up to two queens a row, 16 bytes each, twice that while the list grows.
    let left = (BYTES_PER_BOARD_COLUMN as usize - 2 * 2 * 16) * n;
    let on_board = peak_of(|| assert_eq!(find_flaw_on_board(n, &squares), None));
    assert!(
        on_board <= n,
        "find_flaw_on_board took {on_board} bytes for {n} rows, more than a byte a row"
    );
    // The check `verify` runs on the entry the reader hands it: the same bound, on a board and
    // on a positions line, and with a flaw to name (a queen moved onto another's column).
    let board = CompactEntry::Board {
        n,
        queens: squares.clone(),
    };
    let columns: Vec<u32> = solution.iter().map(|&c| c as u32).collect();
    let mut flawed = squares.clone();
    flawed[n - 1].col = flawed[0].col;
    let flawed = CompactEntry::Board { n, queens: flawed };
    for (what, entry, solution) in [
        ("board", board, true),
        ("positions line", CompactEntry::Positions(columns), true),
        ("flawed board", flawed, false),
    ] {
        let verified = peak_of(|| assert_eq!(entry.find_flaw().is_none(), solution, "{what}"));
        assert!(
            verified <= n,
            "verify's check of a {n}-row {what} took {verified} bytes, more than a byte a row"
        );
    }
    // The maps of the check of any squares do not fit: `verify` must not run it on boards.
    let maps = peak_of(|| assert_eq!(find_flaw_in_squares(n, squares.iter().copied()), None));
    assert!(
        maps > left,
        "find_flaw_in_squares took {maps} bytes for {n} rows, within the {left} left to the check"
    );
}
