//! Known answers (OEIS A000170 and A002562, from the crate's `data/queens-counts.tsv`) and
//! agreement between every solver.

use std::ops::ControlFlow;

use proptest::prelude::*;
use queens_core::internals::bitboard_count;
use queens_core::reference::{known, Known};
use queens_core::{find_flaw, Algorithm, SearchOptions};

fn known_counts() -> Vec<Known> {
    known()
}

/// Compares every pair of queens: an independent check that shares no code with the library.
fn pairwise_valid(queens: &[usize]) -> bool {
    let n = queens.len();
    queens.iter().all(|&c| c < n)
        && (0..n).all(|i| {
            (i + 1..n).all(|j| queens[i] != queens[j] && queens[i].abs_diff(queens[j]) != j - i)
        })
}

fn list(algo: Algorithm, n: usize) -> Vec<Vec<usize>> {
    algo.all_solutions(n, &SearchOptions::default()).unwrap()
}

#[test]
fn every_solver_lists_the_same_valid_solutions_in_lexicographic_order_up_to_ten() {
    let known = known_counts();
    for n in 1..=10 {
        let reference = list(Algorithm::Bitboard, n);
        assert_eq!(
            reference.len() as u64,
            known[n - 1].total as u64,
            "bitboard, n = {n}"
        );
        assert!(reference.iter().all(|q| pairwise_valid(q)), "n = {n}");
        assert!(
            reference.windows(2).all(|w| w[0] < w[1]),
            "n = {n}: not strictly increasing"
        );
        for algo in Algorithm::ALL {
            assert_eq!(list(algo, n), reference, "{algo} differs at n = {n}");
        }
    }
}

#[test]
fn every_solver_counts_the_known_totals_up_to_twelve() {
    for k in known_counts().iter().filter(|k| k.n <= 12) {
        for algo in Algorithm::ALL {
            let got = algo
                .count_by_enumeration(k.n, &SearchOptions::default())
                .unwrap();
            assert_eq!(u128::from(got), k.total, "{algo}, n = {}", k.n);
        }
    }
}

#[test]
fn the_bitboard_counts_the_known_totals_up_to_fourteen() {
    for k in known_counts().iter().filter(|k| k.n <= 14) {
        assert_eq!(
            u128::from(bitboard_count(k.n)),
            k.total,
            "count, n = {}",
            k.n
        );
        let listed = Algorithm::Bitboard
            .count_by_enumeration(k.n, &SearchOptions::default())
            .unwrap();
        assert_eq!(u128::from(listed), k.total, "listing, n = {}", k.n);
    }
}

#[test]
fn boards_of_two_and_three_have_no_first_solution() {
    for algo in Algorithm::ALL {
        for n in [2, 3] {
            assert_eq!(
                algo.first_solution(n, &SearchOptions::default()).unwrap(),
                None
            );
        }
    }
}

#[test]
fn sizes_outside_an_algorithm_are_refused() {
    assert!(Algorithm::Wirth.check_size(0).is_err());
    // Every public entry point checks its size: no empty solution for N = 0, no silent
    // nothing for a board wider than the bitmask.
    for algo in Algorithm::ALL {
        assert!(
            algo.count_by_enumeration(0, &SearchOptions::default())
                .is_err(),
            "{algo}"
        );
    }
    assert!(Algorithm::Bitboard
        .for_each_solution(65, &SearchOptions::default(), &mut |_| ControlFlow::Break(
            ()
        ))
        .is_err());
    let err = Algorithm::Bitboard
        .first_solution(65, &SearchOptions::default())
        .unwrap_err();
    assert!(err.to_string().contains("up to 64"), "{err}");
}

fn algorithm() -> impl Strategy<Value = Algorithm> {
    prop::sample::select(Algorithm::ALL.to_vec())
}

proptest! {
    /// The k-th solution of any solver is the k-th of the bitboard, and is valid.
    #[test]
    fn any_solver_stopped_anywhere_agrees_with_the_bitboard(
        algo in algorithm(),
        n in 1usize..=10,
        k in 0usize..800,
    ) {
        let mut nth = None;
        let mut seen = 0;
        let _ = algo.for_each_solution(n, &SearchOptions::default(), &mut |q| {
            if seen == k {
                nth = Some(q.to_vec());
                return ControlFlow::Break(());
            }
            seen += 1;
            ControlFlow::Continue(())
        }).unwrap();
        let reference = list(Algorithm::Bitboard, n);
        prop_assert_eq!(nth.clone(), reference.get(k).cloned());
        if let Some(q) = nth {
            prop_assert!(pairwise_valid(&q));
        }
    }

    /// The O(N) check agrees with comparing every pair, on arbitrary placements.
    #[test]
    fn the_check_agrees_with_the_pairwise_comparison(
        queens in (1usize..12).prop_flat_map(|n| prop::collection::vec(0..n, n))
    ) {
        prop_assert_eq!(find_flaw(&queens).is_none(), pairwise_valid(&queens));
    }
}
