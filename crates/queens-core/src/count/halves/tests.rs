//! The half-board engine against a plain row-by-row search: every subproblem of every split
//! of the small boards, the portable and the AVX2 counts, and the known totals and classes.

use std::sync::atomic::AtomicBool;

use super::bitslice::SPLIT_FROM;
use super::pattern::{count_pattern, count_with, Scratch, Which};
use super::plan::{feasible, spread, Part, Plan};
use crate::count::Counts;

/// Every solution of the `n` x `n` board, listed by a plain row-by-row search (nothing of
/// the engine: no halves, no join) and tallied by what decides its subproblem: the columns
/// of its rows `0..n/2`, and the column of row `n/2`. One search per board answers for
/// every pattern of every split, where a search per pattern cost a whole board each time
/// (N = 14 then took seconds in the test profile).
struct Listed {
    /// The number of solutions of each (upper half's columns, row `n/2`'s column).
    by_key: std::collections::HashMap<(u32, u32), u64>,
    /// `S180 + 2 S90`: what the fixed-point subproblem adds, in eighths of classes.
    fixed: u128,
}

impl Listed {
    fn new(n: usize) -> Listed {
        fn go(n: usize, q: &mut Vec<u32>, c: u32, l: u32, r: u32, out: &mut Listed) {
            if q.len() == n {
                let h = n / 2;
                let upper = q[..h].iter().fold(0, |acc, &x| acc | 1 << x);
                *out.by_key.entry((upper, 1 << q[h])).or_default() += 1;
                let at = |i: usize| q[i] as usize;
                let half = (0..n).all(|i| at(n - 1 - i) == n - 1 - at(i));
                let quarter = (0..n).all(|i| at(at(i)) == n - 1 - i);
                out.fixed += u128::from(half) + 2 * u128::from(quarter);
                return;
            }
            let mut f = ((1u32 << n) - 1) & !(c | l | r);
            while f != 0 {
                let b = f & f.wrapping_neg();
                f ^= b;
                q.push(b.trailing_zeros());
                go(n, q, c | b, (l | b) << 1, (r | b) >> 1, out);
                q.pop();
            }
        }
        let mut out = Listed {
            by_key: Default::default(),
            fixed: 0,
        };
        go(n, &mut Vec::with_capacity(n), 0, 0, 0, &mut out);
        out
    }

    /// The solutions whose rows `0..n/2` use exactly the columns `upper` among the
    /// pattern columns `cols`, and whose row `n/2` has its queen on a column of `first`.
    fn count(&self, cols: u32, upper: u32, first: u32) -> u64 {
        self.by_key
            .iter()
            .filter(|&(&(u, m), _)| u & cols == upper && m & first != 0)
            .map(|(_, &c)| c)
            .sum()
    }
}

/// Issue 11: "the new engine and the plain engine agree on every subproblem of N = 8..14".
/// Every subproblem of the plans of N = 4..14 with 0 to 8 pattern columns (the default of
/// N = 14 is 6), the middle-row classes of odd boards included, and every other pattern
/// (the non-canonical ones, whose counts the plans take from their orbits), by the join and
/// by the plain search's solutions in the subproblem; the fixed-point subproblem by
/// turning every listed solution.
/// The count of one subproblem by the engine, never cancelled and with room to grow.
fn counted(n: usize, cols: u32, upper: u32, first: u32) -> u64 {
    count_pattern(n, cols, upper, first, &AtomicBool::new(false))
        .expect("room for the halves")
        .expect("not cancelled")
}

#[test]
fn every_subproblem_of_8_to_14_counts_what_the_plain_search_counts() {
    let never = AtomicBool::new(false);
    for n in 4..=14 {
        let all = (1u32 << n) - 1;
        let listed = Listed::new(n);
        for k in [0, 2, 4, 6, 8].into_iter().filter(|&k| k <= n) {
            let plan = Plan::new(n, k);
            let cols = plan.pattern_columns;
            for (i, &part) in plan.parts.iter().enumerate() {
                let Part::Pattern { upper, first, .. } = part else {
                    assert_eq!(
                        plan.solve(i, &never).unwrap().unwrap().unique,
                        listed.fixed,
                        "n = {n}, the fixed points"
                    );
                    continue;
                };
                assert_eq!(
                    counted(n, cols, upper, first),
                    listed.count(cols, upper, first),
                    "n = {n}, k = {k}, pattern {upper:b}, first {first:b}"
                );
            }
            // Every pattern, canonical or not, with the middle row unrestricted.
            let members: Vec<u32> = (0..n as u32).filter(|c| cols >> c & 1 == 1).collect();
            for bits in 0u32..1 << members.len() {
                let p = spread(bits, &members);
                let want = listed.count(cols, p, all);
                let got = if feasible(n, n / 2, cols, p) {
                    counted(n, cols, p, all)
                } else {
                    0
                };
                assert_eq!(got, want, "n = {n}, k = {k}, pattern {p:b}");
            }
        }
    }
}

#[test]
fn a_restricted_first_lower_row_counts_what_the_plain_search_counts() {
    for n in [7, 9, 11, 12] {
        let listed = Listed::new(n);
        let plan = Plan::new(n, 4);
        let cols = plan.pattern_columns;
        for &part in &plan.parts {
            let Part::Pattern { upper, .. } = part else {
                continue;
            };
            for c in 0..n {
                let first = 1 << c | 1 << ((c + 3) % n);
                assert_eq!(
                    counted(n, cols, upper, first),
                    listed.count(cols, upper, first),
                    "n = {n}, pattern {upper:b}, first {first:b}"
                );
            }
        }
    }
}

#[test]
fn the_portable_count_and_the_one_chosen_at_run_time_agree() {
    // Boards large enough for split groups (SPLIT_FROM halves) in some patterns.
    let never = AtomicBool::new(false);
    let mut scratch = Scratch::default();
    let mut split = 0;
    for n in [13, 14, 15] {
        let plan = Plan::new(n, 2);
        for &part in &plan.parts {
            let Part::Pattern { upper, first, .. } = part else {
                continue;
            };
            let cols = plan.pattern_columns;
            let portable = count_with::<false>(
                Which {
                    n,
                    cols,
                    upper,
                    first,
                },
                &mut scratch,
                &never,
            );
            split += usize::from(scratch.lowers.len() > 64 * SPLIT_FROM);
            assert_eq!(
                portable,
                count_pattern(n, cols, upper, first, &never),
                "n = {n}"
            );
        }
    }
    assert!(split > 0);
}

#[test]
fn plans_count_the_known_totals_and_classes() {
    let never = AtomicBool::new(false);
    for known in crate::reference::known().into_iter().filter(|k| k.n <= 14) {
        for k in [0, 2, 4, 6, 8] {
            let plan = Plan::new(known.n, k);
            let mut sum = Counts::default();
            for i in 0..plan.len() {
                let c = plan.solve(i, &never).unwrap().unwrap();
                sum.total += c.total;
                sum.unique += c.unique;
            }
            assert_eq!(sum.total, known.total, "n = {}, k = {k}", known.n);
            assert_eq!(
                plan.classes(sum.unique),
                known.unique,
                "n = {}, k = {k}",
                known.n
            );
        }
    }
}
