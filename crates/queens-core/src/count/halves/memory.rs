//! The memory model of the half-board engine: how many halves an `N` x `N` board has, and so
//! how many bytes one thread needs for the largest subproblem of a split. It calls nothing;
//! `plan.rs` asks it whether a split fits a budget.

/// The number of ways to fill rows `0..N/2` of the `N` x `N` board (measured; an estimate
/// past N = 18), used to size the subproblems before any is counted.
fn halves_estimate(n: usize) -> f64 {
    const KNOWN: [f64; 19] = [
        1.0,
        1.0,
        2.0,
        6.0,
        6.0,
        18.0,
        28.0,
        130.0,
        344.0,
        1614.0,
        3916.0,
        21362.0,
        52856.0,
        335010.0,
        835056.0,
        6120136.0,
        15324708.0,
        127045452.0,
        318853768.0,
    ];
    // For odd N the larger half (ceil(N/2) rows) is listed.
    if n < KNOWN.len() {
        KNOWN[n]
    } else {
        // Odd steps grow by about 8.3, even ones by about 2.5 (the larger half of an odd
        // board is a row taller); two steps by about 21.
        let mut v = KNOWN[18];
        for m in 19..=n {
            v *= if m % 2 == 1 { 8.5 } else { 2.6 };
        }
        v
    }
}

/// The memory one thread needs for the largest subproblem of the `n` x `n` board with `k`
/// pattern columns (an estimate: the halves of a pattern, 16 bytes each per side, for the
/// largest pattern: `largest_over_mean` times the average). Past the boards the engine counts,
/// the estimate grows on to `u64::MAX` (the cast saturates), never wraps.
pub fn bytes_per_thread(n: usize, k: usize) -> u64 {
    // (Past N = 64 the estimate is far past u64 already: the loop below stops there.)
    let n = n.min(64);
    let k = k.min(n & !1);
    let per_pattern = largest_over_mean(k) * halves_estimate(n) / 2f64.powi(k as i32);
    (2.0 * 16.0 * per_pattern) as u64 + (1 << 20)
}

/// How many times the average pattern's halves the largest pattern of a split of `k` pattern
/// columns holds, as the memory model assumes it. The patterns' spread grows with `k`: a whole
/// run of N = 21 (k = 14) on two threads peaked at 697 MiB against 671 modelled for two threads
/// with a factor 3, and the largest subproblem run alone on one thread at 728 MiB at N = 23
/// (k = 18) against 463, and at 656 MiB at N = 24 (k = 20) against 301 (docs/performance.md). So 3.5 up to k = 14, then doubling every 4
/// columns (7 at k = 18, 9.9 at k = 20: above the 4.7 and 6.5 those peaks imply).
fn largest_over_mean(k: usize) -> f64 {
    3.5 * 2f64.powf(k.saturating_sub(14) as f64 / 4.0)
}

#[cfg(test)]
mod model {
    use super::*;
    use crate::count::halves::plan::Plan;

    /// The measured peaks of the largest subproblems (one thread, docs/performance.md) are
    /// within the model, and two threads of N = 23 and 24 get a split that fits 1 GiB by it.
    #[test]
    fn the_memory_model_covers_the_measured_peaks() {
        let mib = |b: u64| b as f64 / f64::from(1 << 20);
        // (N = 21: a whole run on two threads; the others: one subproblem on one thread.)
        for (n, k, threads, measured) in [
            (21, 14, 2, 697.0),
            (22, 14, 1, 733.0),
            (23, 18, 1, 728.0),
            (24, 20, 1, 656.0),
        ] {
            let model = mib(threads * bytes_per_thread(n, k));
            assert!(
                model >= measured,
                "N = {n}, k = {k}: model {model:.0} MiB, measured {measured} MiB"
            );
        }
        for n in [23, 24] {
            let plan = Plan::fitting(n, 1 << 30).unwrap();
            let k = plan.pattern_columns.count_ones() as usize;
            assert!(2 * bytes_per_thread(n, k) <= 1 << 30, "N = {n}, k = {k}");
        }
    }
}
