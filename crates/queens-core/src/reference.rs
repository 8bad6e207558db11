//! Known answers: the number of solutions (OEIS A000170) and of symmetry classes (OEIS A002562)
//! for N = 1..27, from the table in `data/queens-counts.tsv` inside this crate.
//!
//! Q(27) was computed in 2016 by the Q27 project (TU Dresden); no larger term is known. The table
//! is compiled into the library, so tests, benches and tools check against it without reading
//! anything outside the repository.

/// The table as shipped: a header line, then `n<TAB>total<TAB>unique` per line.
const TABLE: &str = include_str!("../data/queens-counts.tsv");

/// One row of the reference table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    /// The board size.
    pub n: usize,
    /// Its number of solutions (OEIS A000170).
    pub total: u128,
    /// Its number of solutions distinct under rotation and reflection (OEIS A002562).
    pub unique: u128,
}

/// Every row of the table, N = 1 first.
///
/// # Example
/// ```
/// let eight = queens_core::reference::known().into_iter().find(|k| k.n == 8).unwrap();
/// assert_eq!((eight.total, eight.unique), (92, 12));
/// ```
pub fn known() -> Vec<Known> {
    TABLE
        .lines()
        .skip(1)
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut fields = line.split('\t').map(|f| f.trim().parse::<u128>());
            let mut next = || match fields.next() {
                Some(Ok(v)) => v,
                _ => panic!("data/queens-counts.tsv: malformed line {line:?}"),
            };
            Known {
                n: next() as usize,
                total: next(),
                unique: next(),
            }
        })
        .collect()
}

/// The row of `n`, when the table has one.
pub fn known_for(n: usize) -> Option<Known> {
    known().into_iter().find(|k| k.n == n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_runs_from_one_to_twenty_seven_with_the_classic_values() {
        let rows = known();
        assert_eq!(rows.len(), 27);
        assert!(rows.iter().enumerate().all(|(i, k)| k.n == i + 1));
        assert_eq!(known_for(8).map(|k| (k.total, k.unique)), Some((92, 12)));
        assert_eq!(
            known_for(27).map(|k| k.total),
            Some(234_907_967_154_122_528)
        );
        assert_eq!(known_for(28), None);
    }
}
