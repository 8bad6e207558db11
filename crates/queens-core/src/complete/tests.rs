//! The completion searches against independent answers: counts by filtering the full list of
//! solutions, completions checked pairwise, the bounded phases of a solve, the memory budget,
//! and the readers of CSPLib parameter files and drawn boards.

use super::exact::Search;
use super::solve::{EXACT_PROBE, LOCAL_FROM, LOCAL_TRIES_PER_ROW};
use super::*;
use crate::board::{Flaw, Line, Square};
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

/// The trail of the exact search is never given room past its worst case, every domain bit
/// (k^2 entries for k free rows), which `memory_needed` counts: a vector left to double could
/// take up to twice that (on the empty 10x10 board, room for 128 entries of the 100 there are).
#[test]
fn the_trail_of_the_exact_search_stays_within_its_worst_case() {
    for n in 7..=12 {
        let inst = Instance {
            n,
            fixed: Vec::new(),
        };
        let mut search = Search::new(&inst).unwrap();
        let mut count = 0u64;
        let _ = search.run(&mut |_| {
            count += 1;
            std::ops::ControlFlow::Continue(())
        });
        assert_eq!(count, [40, 92, 352, 724, 2680, 14200][n - 7]);
        let (room, most) = search.trail_room();
        assert!(
            room <= most,
            "N = {n}: room for {room} entries, at most {most}"
        );
    }
}

/// A count that is never told to stop is the count, and it asks `stop` all along the search
/// (not only before it starts), so that a stop comes within a few hundred placements.
#[test]
fn a_count_that_may_be_stopped_asks_all_along_and_counts_all_when_not_stopped() {
    let board = Instance {
        n: 12,
        fixed: Vec::new(),
    };
    let looks = std::cell::Cell::new(0u64);
    let never = || {
        looks.set(looks.get() + 1);
        false
    };
    let end = board.count_within_until(DEFAULT_BUDGET, &never).unwrap();
    assert_eq!(end, CountEnd::Finished(Counted::Completions(14200)));
    // The 12x12 search tries over 100,000 placements: hundreds of looks at one per 256.
    assert!(looks.get() > 100, "stop was asked {} times", looks.get());
}

/// A count far too long to finish (a corner queen on 40x40) told to stop ends at once, with the
/// completions found by then; a stop already asked before the search ends it with none found.
#[test]
fn a_count_told_to_stop_ends_with_the_completions_found_so_far() {
    let corner = Instance {
        n: 40,
        fixed: vec![sq(0, 0)],
    };
    let looks = std::cell::Cell::new(0u64);
    let at_the_thousandth = || {
        looks.set(looks.get() + 1);
        looks.get() >= 1000
    };
    let end = corner
        .count_within_until(DEFAULT_BUDGET, &at_the_thousandth)
        .unwrap();
    assert!(matches!(end, CountEnd::Stopped { .. }), "{end:?}");
    assert_eq!(looks.get(), 1000, "asked again after it said stop");
    let end = corner.count_within_until(DEFAULT_BUDGET, &|| true).unwrap();
    assert_eq!(end, CountEnd::Stopped { found: 0 });
    // Stopped part way through 10x10 with a corner queen, fewer than all its completions.
    let small = Instance {
        n: 10,
        fixed: vec![sq(0, 0)],
    };
    let Counted::Completions(all) = small.count().unwrap() else {
        panic!("the corner queen is alone");
    };
    let looks = std::cell::Cell::new(0u64);
    let soon = || {
        looks.set(looks.get() + 1);
        looks.get() >= 3
    };
    match small.count_within_until(DEFAULT_BUDGET, &soon).unwrap() {
        CountEnd::Stopped { found } => assert!(found < all, "{found} of {all}"),
        other => panic!("not stopped: {other:?}"),
    }
    // Queens that attack are an answer, found before any search: no stop is asked for.
    let attacking = Instance {
        n: 8,
        fixed: vec![sq(0, 0), sq(1, 1)],
    };
    assert!(matches!(
        attacking
            .count_within_until(DEFAULT_BUDGET, &|| true)
            .unwrap(),
        CountEnd::Finished(Counted::GivenQueensAttack(_))
    ));
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
        let bounded = probed.or_else(|| local::search(&inst, 0x5eed, tries).unwrap());
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
        let q = local::search(&inst, 7, 1 << 24)
            .unwrap()
            .expect("a completion");
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
    assert_eq!(local::search(&inst, 1, 10_000), Ok(None));
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

/// The short exact search that goes first must not refuse what local search completes: with
/// 1,999 free rows the exact search needs 31 MiB, local search about 100 KiB, and a budget of
/// 20 MiB was refused ("the exact completion search ... needs 32617768 bytes") while the same
/// board with 2,001 free rows, past the probe, was completed.
#[test]
fn a_board_whose_exact_search_is_over_the_budget_is_completed_by_local_search() {
    let budget = 20 << 20;
    for n in [2000, 2001, 2002] {
        let inst = Instance {
            n,
            fixed: vec![sq(0, 0)],
        };
        assert!(inst.memory_needed() > budget);
        match inst.solve_within(budget) {
            Ok(Completion::Found(q)) => assert!(is_solution(&q) && q[0] == 0, "n = {n}"),
            other => panic!("n = {n}: {other:?}"),
        }
    }
    // With fewer free rows than local search takes, the exact search's need is still named.
    let small = Instance {
        n: 8,
        fixed: vec![sq(0, 3)],
    };
    assert!(matches!(
        small.solve_within(100),
        Err(InstanceError::Budget(_))
    ));
}

#[test]
fn memory_the_allocator_refuses_is_over_budget_even_with_no_limit() {
    // 2^32 - 1 rows with no queen given: 32 GiB for each diagonal's counters, more than the
    // allocator gives here (else the test says it skipped), past a budget of u64::MAX.
    let n = MAX_N;
    if !crate::alloc::refuses(8 * n) {
        return;
    }
    let inst = Instance {
        n,
        fixed: Vec::new(),
    };
    let err = inst.solve_within(u64::MAX).unwrap_err();
    assert!(
        matches!(&err, InstanceError::Budget(crate::Error::OverBudget { needed, budget: u64::MAX, .. })
            if *needed == local::memory_needed(n, n)),
        "{err}"
    );
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

/// A square given twice and two given queens that attack each other are named by the lines of
/// the CSPLib file that gave them; a drawn board, and an instance not read from text, keep
/// none (a drawn board names its queens by the rows of the drawing).
#[test]
fn a_square_given_twice_and_attacking_queens_are_named_by_the_lines_that_gave_them() {
    let read = |text| read_instance_within(text, DEFAULT_BUDGET).unwrap();
    let twice = read("letting n = 8\nletting init = [\n  [0, 3],\n  [5, 2],\n  [0, 3]\n]\n");
    assert_eq!(
        (twice.line_of(0), twice.line_of(2), twice.line_of(3)),
        (Some(3), Some(5), None)
    );
    assert_eq!(
        twice.instance.count(),
        Err(InstanceError::Duplicate(sq(0, 3)))
    );
    let located = twice.locate_duplicate(sq(0, 3)).unwrap();
    assert_eq!(
        located,
        InstanceParseError::Duplicate {
            line: 5,
            square: sq(0, 3),
            first: 3
        }
    );
    assert_eq!(
        located.to_string(),
        "line 5: the queen at row 0, column 3 is given twice (first on line 3)"
    );
    assert_eq!(twice.locate_duplicate(sq(5, 2)), None, "given once");
    let one_line = read("letting n = 8 letting init = [[0, 3], [0, 3]]");
    assert_eq!(
        one_line.locate_duplicate(sq(0, 3)).unwrap().to_string(),
        "line 1: the queen at row 0, column 3 is given twice on this line"
    );

    let attack = read("letting n = 8\nletting init = [[0, 0],\n  [5, 2],\n  [3, 3]]\n");
    let Counted::GivenQueensAttack(flaw) = attack.instance.count().unwrap() else {
        panic!("the queens attack");
    };
    let located = attack.locate_attack(flaw);
    assert_eq!((located.flaw, located.lines), (flaw, Some((2, 4))));
    assert_eq!(
        located.to_string(),
        "the queens at row 0, column 0 and row 3, column 3 attack each other along a diagonal \
         (given on lines 2 and 4)"
    );
    let same = read("letting n = 8\nletting init = [[0, 0], [3, 3]]\n");
    let Completion::GivenQueensAttack(flaw) = same.instance.solve().unwrap() else {
        panic!("the queens attack");
    };
    assert!(
        same.locate_attack(flaw)
            .to_string()
            .ends_with("along a diagonal (both given on line 2)"),
        "{}",
        same.locate_attack(flaw)
    );

    // No lines: a drawn board (its rows name where each queen is drawn), an instance made in
    // code.
    let drawn = read("# a comment\n.Q..\nQQ..\n....\n....\n");
    assert_eq!(drawn.line_of(0), None);
    let Counted::GivenQueensAttack(flaw) = drawn.instance.count().unwrap() else {
        panic!("the queens attack");
    };
    assert_eq!(drawn.locate_attack(flaw).lines, None);
    assert_eq!(drawn.locate_attack(flaw).to_string(), flaw.to_string());
    let made = InstanceFile::from(Instance {
        n: 8,
        fixed: vec![sq(1, 1), sq(1, 1)],
    });
    assert_eq!(made.locate_duplicate(sq(1, 1)), None);
    // The reader without lines reads the same instance.
    assert_eq!(
        parse_instance_within(
            "letting n = 8\nletting init = [[0, 0],\n  [5, 2],\n  [3, 3]]\n",
            DEFAULT_BUDGET
        )
        .unwrap(),
        attack.instance
    );
}

/// A CSPLib file saved with a UTF-8 byte-order mark was refused (`line 1: unexpected
/// '\u{feff}' in a CSPLib parameter file`), while a drawn board with one was read.
#[test]
fn a_byte_order_mark_at_the_start_of_an_instance_is_skipped() {
    let text = "\u{feff}letting n = 8\r\nletting init = [[0, 3], [5, 2]]\r\n";
    let inst = parse_instance(text).unwrap();
    assert_eq!((inst.n, inst.fixed), (8, vec![sq(0, 3), sq(5, 2)]));
    let board = parse_instance("\u{feff}....\n.Q..\n....\n....\n").unwrap();
    assert_eq!((board.n, board.fixed), (4, vec![sq(1, 1)]));
    // Only at the start: elsewhere it is still an unexpected character, at its line.
    assert!(matches!(
        parse_instance("letting n = 8\n\u{feff}letting init = []\n"),
        Err(InstanceParseError::Malformed { line: 2, .. })
    ));
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
        // A parameter given twice (the second would have been taken, or the lists merged).
        ("letting n = 8\nletting n = 9\n", 2, "given on line 1"),
        (
            "letting n = 8\nletting init = [[0, 0]]\n\nletting init = [[1, 5]]\n",
            4,
            "'letting init' again",
        ),
        (
            "letting x = 1\nletting n = 8 letting x = 2\n",
            2,
            "'letting x' again",
        ),
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
    // A line of neither form is named against the forms an instance has: no positions line.
    let err = parse_instance("\n0:0\n").unwrap_err().to_string();
    assert!(
        err.starts_with("line 2: '0:0' is neither a board row") && !err.contains("positions"),
        "{err}"
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
    // A positions line off the board is no instance either: not the reader's hint on how
    // positions are read (`echo 8 | queens complete -` was told "a placement of N queens has N
    // numbers", and the placement was then refused).
    for text in ["8\n", "0 9\n", "99999999999999999999999\n", ".Q\nQ.\n\n5\n"] {
        assert_eq!(
            parse_instance(text),
            Err(InstanceParseError::NotOneBoard),
            "{text:?}"
        );
    }
    assert!(matches!(
        parse_instance("Q..\n...\n"),
        Err(InstanceParseError::Board(_))
    ));
}
