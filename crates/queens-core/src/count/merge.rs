//! The merge of a count's shard results into the count of the whole board: every shard there
//! exactly once, all of the same board, number of shards and split, sums within 128 bits, and
//! the sum a count some board can have ([`check_complete`], [`classes_of_eighths`]), so that a
//! lost, repeated, damaged or foreign part never yields a silently wrong total. Each part has
//! been read and checked alone by `shard_result/` (its checksum, its board, its split of that
//! board); what needs several parts is checked here. Memory and time are proportional to the
//! parts given, never to a number a part claims: the missing shards are found by walking the
//! gaps between those given. It calls the shard results, the invariants and the shared types.

use std::collections::BTreeMap;
use std::fmt;

use thiserror::Error;

use super::invariants::{check_complete, classes_of_eighths, Impossible};
use super::shard::Shard;
use super::shard_result::ShardResult;
use super::split::Split;
use super::types::Counts;

/// How many missing shards a [`MergeError::Missing`] names (it counts them all).
pub const MISSING_NAMED: usize = 20;

/// The count of the whole board that the shard results of a count add up to.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The board size.
    pub n: usize,
    /// The solutions and the symmetry classes of the whole board (the shards' eighths of
    /// classes, for a split that counts them so, added up and divided by 8).
    pub counts: Counts,
    /// The seconds the shards took, added up.
    pub seconds: f64,
    /// How many shards the count had.
    pub shards: u64,
    /// The split the shards share.
    pub split: Split,
    /// How many subproblems the split makes of the board.
    pub subproblems: usize,
}

/// Why shard results do not add up to a count of the whole board. Each part is named as the
/// caller named it (a file, or a file and a line).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum MergeError {
    /// No part at all.
    #[error("no shard result given")]
    Empty,
    /// A part of another board than the first part's.
    #[error("{name} does not belong with the others: N = {n} but {first} has N = {first_n}")]
    OtherBoard {
        /// The part.
        name: String,
        /// Its board.
        n: usize,
        /// The first part.
        first: String,
        /// The first part's board.
        first_n: usize,
    },
    /// A part of a count in another number of shards than the first part's.
    #[error(
        "{name} does not belong with the others: it is one of {shards} shards but {first} is \
         one of {first_shards}"
    )]
    OtherShards {
        /// The part.
        name: String,
        /// Its number of shards.
        shards: u64,
        /// The first part.
        first: String,
        /// The first part's number of shards.
        first_shards: u64,
    },
    /// A part of another split (or of another number of subproblems) than the first part's.
    #[error(
        "{name} does not belong with the others: its split is {split} of {subproblems} \
         subproblems but {first} has {first_split} of {first_subproblems}"
    )]
    OtherSplit {
        /// The part.
        name: String,
        /// Its split.
        split: Split,
        /// Its subproblems.
        subproblems: usize,
        /// The first part.
        first: String,
        /// The first part's split.
        first_split: Split,
        /// The first part's subproblems.
        first_subproblems: usize,
    },
    /// One shard given by two parts.
    #[error(
        "shard {shard} is given twice: {first} and {second}{}",
        if first == second { " (the same name: is one file given twice?)" } else { "" }
    )]
    Twice {
        /// The shard.
        shard: Shard,
        /// The part that gave it first.
        first: String,
        /// The part that gave it again.
        second: String,
    },
    /// The totals or the classes add up past 2^128 - 1.
    #[error(
        "the totals add up past 2^128 - 1 at {name}: no board the engine counts has that many \
         solutions, so some part is wrong"
    )]
    Overflow {
        /// The part whose counts went past.
        name: String,
    },
    /// The seconds add up to no finite number.
    #[error(
        "the seconds add up past the largest number JSON holds at {name}: no run took that \
         long, so some part is wrong"
    )]
    Seconds {
        /// The part whose seconds went past.
        name: String,
    },
    /// Shards of the count are not given.
    #[error("missing shards of {shards}: {}", Missing(named, *missing))]
    Missing {
        /// How many shards the count has.
        shards: u64,
        /// How many are missing.
        missing: u64,
        /// The first [`MISSING_NAMED`] missing ones, in increasing order.
        named: Vec<u64>,
    },
    /// The parts add up to a count no board can have.
    #[error(
        "the parts add up to a count no board of N = {n} can have, so some part is wrong \
         (whatever its checksum says): {why}"
    )]
    Impossible {
        /// The board size.
        n: usize,
        /// What no board can have.
        why: Impossible,
    },
}

/// The missing shards named, and how many in all when not all are named.
struct Missing<'a>(&'a [u64], u64);

impl fmt::Display for Missing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, i) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{i}")?;
        }
        if self.1 > self.0.len() as u64 {
            write!(f, ", ... ({} in all)", self.1)?;
        }
        Ok(())
    }
}

/// Adds up the shard results `parts`, each named (a file, or a file and a line), into the count
/// of the whole board, after checking that they are every shard of one count exactly once: the
/// same board, number of shards and split as the first part, no shard twice, none missing,
/// sums within 2^128 - 1 and finite seconds, and a sum some board can have (for a split that
/// counts eighths of classes, their sum divided by 8 is the number of classes). The first
/// fault found is the error, in that order, part after part.
///
/// # Example
/// ```
/// use queens_core::count::shard_result::{result_line, ShardResult};
/// use queens_core::count::{merge, Counts, MergeError, Run, Shard};
///
/// let mut parts = Vec::new();
/// for index in 0..3 {
///     let shard = Shard::new(index, 3)?;
///     let run = Run::new(8)?.shard(shard).threads(1);
///     let counts = run.execute()?;
///     let line = result_line(8, counts, 0.1, Some(shard), &run.split(), run.subproblems());
///     parts.push((format!("part{index}.json"), ShardResult::parse("part", &line)?));
/// }
/// let merged = merge(&parts)?;
/// assert_eq!(merged.counts, Counts { total: 92, unique: 12 });
/// let err = merge(&parts[..2]).unwrap_err();
/// assert_eq!(err.to_string(), "missing shards of 3: 2");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn merge<S: AsRef<str>>(parts: &[(S, ShardResult)]) -> Result<Merged, MergeError> {
    let name = |s: &S| s.as_ref().to_string();
    let Some((first_name, first)) = parts.first() else {
        return Err(MergeError::Empty);
    };
    let shards = first.shard.count();
    let mut seen: BTreeMap<u64, &S> = BTreeMap::new();
    let mut sum = Counts::default();
    let mut seconds = 0.0;
    for (part_name, p) in parts {
        if p.n != first.n {
            return Err(MergeError::OtherBoard {
                name: name(part_name),
                n: p.n,
                first: name(first_name),
                first_n: first.n,
            });
        }
        if p.shard.count() != shards {
            return Err(MergeError::OtherShards {
                name: name(part_name),
                shards: p.shard.count(),
                first: name(first_name),
                first_shards: shards,
            });
        }
        if p.split != first.split || p.subproblems != first.subproblems {
            return Err(MergeError::OtherSplit {
                name: name(part_name),
                split: p.split,
                subproblems: p.subproblems,
                first: name(first_name),
                first_split: first.split,
                first_subproblems: first.subproblems,
            });
        }
        if let Some(other) = seen.insert(p.shard.index(), part_name) {
            return Err(MergeError::Twice {
                shard: p.shard,
                first: name(other),
                second: name(part_name),
            });
        }
        sum = super::types::add_counts(sum, p.counts).ok_or_else(|| MergeError::Overflow {
            name: name(part_name),
        })?;
        seconds += p.seconds;
        if !seconds.is_finite() {
            return Err(MergeError::Seconds {
                name: name(part_name),
            });
        }
    }
    // Every index seen is below `shards`, so the missing ones number `shards - seen`; the first
    // few are found by walking the gaps between the indices seen, never listing them all.
    let missing = shards - seen.len() as u64;
    if missing > 0 {
        let mut named = Vec::new();
        let mut next = 0u64;
        for &i in seen.keys().chain(std::iter::once(&shards)) {
            while next < i && named.len() < MISSING_NAMED {
                named.push(next);
                next += 1;
            }
            if named.len() == MISSING_NAMED {
                break;
            }
            next = i + 1;
        }
        return Err(MergeError::Missing {
            shards,
            missing,
            named,
        });
    }
    // The shards of a split in eighths report eighths of classes (Burnside's lemma holds for
    // the whole board only): their sum, divided by 8, is the number of classes. (Shard 0/1 is
    // the whole board, whose classes are already counted.)
    let n = first.n;
    let possible = if first.split.unique_in_eighths() && shards > 1 {
        classes_of_eighths(n, sum.total, sum.unique).map(|classes| sum.unique = classes)
    } else {
        check_complete(n, sum)
    };
    possible.map_err(|why| MergeError::Impossible { n, why })?;
    Ok(Merged {
        n,
        counts: sum,
        seconds,
        shards,
        split: first.split,
        subproblems: first.subproblems,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::shard_result::result_line;
    use crate::count::Run;

    /// The shard results of the `m` shards of N = `n` by `split`, counted, named `part{i}`.
    fn parts(n: usize, split: &str, m: u64) -> Vec<(String, ShardResult)> {
        (0..m)
            .map(|i| {
                let shard = Shard::new(i, m).unwrap();
                let run = Run::of_split(n, split, shard).unwrap().threads(1);
                let counts = run.execute().unwrap();
                let line =
                    result_line(n, counts, 0.5, Some(shard), &run.split(), run.subproblems());
                (format!("part{i}"), ShardResult::parse("p", &line).unwrap())
            })
            .collect()
    }

    fn known(n: usize) -> Counts {
        let k = crate::reference::known_for(n).unwrap();
        Counts {
            total: k.total,
            unique: k.unique,
        }
    }

    #[test]
    fn the_shards_of_every_split_merge_into_the_known_count() {
        for (n, split, m) in [
            (10, "frame1-v1", 3),
            (10, "frame1-v1", 1),
            (11, "frame1-rows2-v1", 4),
            (12, "halves4-v1", 5),
            (12, "halves4-v1", 1),
        ] {
            let merged = merge(&parts(n, split, m)).unwrap();
            assert_eq!(merged.counts, known(n), "N = {n}, {split}, {m} shards");
            assert_eq!((merged.n, merged.shards), (n, m));
            assert_eq!(merged.split.to_string(), split);
            assert_eq!(merged.seconds, 0.5 * m as f64);
        }
    }

    #[test]
    fn no_part_is_refused() {
        let none: [(String, ShardResult); 0] = [];
        assert_eq!(merge(&none), Err(MergeError::Empty));
    }

    #[test]
    fn a_part_of_another_board_shard_count_or_split_is_refused_naming_both() {
        let ten = parts(10, "frame1-v1", 3);
        let mut mixed = ten.clone();
        mixed[2] = parts(9, "frame1-v1", 3).remove(2);
        assert!(matches!(
            merge(&mixed),
            Err(MergeError::OtherBoard {
                n: 9,
                first_n: 10,
                ..
            })
        ));
        let err = merge(&mixed).unwrap_err().to_string();
        assert!(err.starts_with("part2 does not belong") && err.contains("part0 has N = 10"));
        let mut mixed = ten.clone();
        mixed[1] = parts(10, "frame1-v1", 4).remove(1);
        assert_eq!(
            merge(&mixed).unwrap_err(),
            MergeError::OtherShards {
                name: "part1".into(),
                shards: 4,
                first: "part0".into(),
                first_shards: 3
            }
        );
        let mut mixed = ten;
        mixed[1] = parts(10, "frame1-rows2-v1", 3).remove(1);
        let err = merge(&mixed).unwrap_err();
        assert!(
            matches!(
                err,
                MergeError::OtherSplit {
                    split: Split::Pieces { depth: 2 },
                    first_split: Split::Frames,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn a_shard_given_twice_or_missing_is_refused() {
        let ten = parts(10, "frame1-v1", 3);
        let twice = [ten[0].clone(), ten[1].clone(), ten[1].clone()];
        assert_eq!(
            merge(&twice).unwrap_err().to_string(),
            "shard 1/3 is given twice: part1 and part1 (the same name: is one file given twice?)"
        );
        let err = merge(&[ten[2].clone()]).unwrap_err();
        assert_eq!(
            err,
            MergeError::Missing {
                shards: 3,
                missing: 2,
                named: vec![0, 1]
            }
        );
        // All the missing named: a list with no leading comma and no count after it.
        assert_eq!(err.to_string(), "missing shards of 3: 0, 1");
    }

    /// A count of many shards names the first 20 missing and counts them all, without listing
    /// the others.
    #[test]
    fn the_first_twenty_missing_shards_are_named_and_all_counted() {
        let mut one = parts(8, "frame1-v1", 1).remove(0);
        one.1.shard = Shard::new(5, 1 << 20).unwrap();
        one.1.counts = Counts::default();
        let err = merge(&[one]).unwrap_err();
        let MergeError::Missing { missing, named, .. } = &err else {
            panic!("{err}")
        };
        assert_eq!(*missing, (1 << 20) - 1);
        let want: Vec<u64> = (0..5).chain(6..21).collect();
        assert_eq!(*named, want);
        assert!(
            err.to_string().ends_with(", 20, ... (1048575 in all)"),
            "{err}"
        );
    }

    #[test]
    fn sums_past_the_largest_total_or_time_are_refused() {
        let mut two = parts(10, "frame1-v1", 2);
        two[0].1.counts.total = u128::MAX;
        assert_eq!(
            merge(&two).unwrap_err(),
            MergeError::Overflow {
                name: "part1".into()
            }
        );
        let mut two = parts(10, "frame1-v1", 2);
        two[0].1.seconds = f64::MAX;
        two[1].1.seconds = f64::MAX;
        assert_eq!(
            merge(&two).unwrap_err(),
            MergeError::Seconds {
                name: "part1".into()
            }
        );
    }

    /// Parts each possible alone whose sum no board can have: an odd total, or eighths of
    /// classes that are no whole number of classes.
    #[test]
    fn a_sum_no_board_can_have_is_refused() {
        // The board and the reason of a refusal as impossible, and its message.
        let refused = |parts: &[(String, ShardResult)]| match merge(parts).unwrap_err() {
            MergeError::Impossible { n, why } => {
                let message = MergeError::Impossible {
                    n,
                    why: why.clone(),
                }
                .to_string();
                (n, why, message)
            }
            other => panic!("refused for another reason: {other}"),
        };
        let mut two = parts(10, "frame1-v1", 2);
        two[1].1.counts.total += 1;
        let (n, why, message) = refused(&two);
        assert!(
            n == 10 && matches!(why, Impossible::OddTotal { .. }),
            "{message}"
        );
        let mut halves = parts(12, "halves4-v1", 2);
        halves[1].1.counts.total += 2;
        halves[1].1.counts.unique += 2;
        let (_, why, message) = refused(&halves);
        assert!(matches!(why, Impossible::Eighths { .. }), "{message}");
        assert!(message.contains("not a multiple of 8"), "{message}");
    }
}
