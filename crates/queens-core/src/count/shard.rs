//! Shards: deterministic, disjoint parts of a count, to spread one board over many machines.
//!
//! The idea: the subproblems of a board are numbered in a fixed order (see `frame`), and shard
//! `I` of `M` takes those whose number is `I` modulo `M`. Dealing them round-robin mixes cheap
//! and dear subproblems, so the shards take about the same time; any runner that can start
//! `M` commands (GNU parallel, a Slurm job array, a Kubernetes indexed Job) can run them, and the
//! parts add up to the whole. Source: the usual static cyclic distribution of parallel loops.
//! Cost: O(number of subproblems) to list a shard.

use std::fmt;
use std::str::FromStr;

use super::types::CountError;

/// Shard `index` of `count`: made only by [`Shard::new`] or parsed, so always one of
/// `index < count <= MAX_SHARDS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

/// The most shards a count may be split into: far more than any cluster has cores, and few
/// enough that whoever lists the shards (`queens merge`, naming the missing ones) can afford to.
pub const MAX_SHARDS: u64 = 1 << 20;

impl Shard {
    /// The whole run, as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// A shard, if `index < count <= MAX_SHARDS`.
    pub fn new(index: u64, count: u64) -> Result<Shard, CountError> {
        if index < count && count <= MAX_SHARDS {
            Ok(Shard { index, count })
        } else {
            Err(CountError::BadShard(format!("{index}/{count}")))
        }
    }

    /// Which part, 0-based.
    pub fn index(self) -> u64 {
        self.index
    }

    /// How many parts.
    pub fn count(self) -> u64 {
        self.count
    }

    /// Whether subproblem `i` belongs to this shard.
    pub fn contains(self, i: usize) -> bool {
        i as u64 % self.count == self.index
    }

    /// The subproblems of this shard, out of `subproblems`.
    pub fn select(self, subproblems: usize) -> Vec<usize> {
        (0..subproblems).filter(|&i| self.contains(i)).collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = CountError;

    /// Parses `I/M`: two numbers of decimal digits only (no sign, no space) around one `/`.
    fn from_str(s: &str) -> Result<Shard, CountError> {
        let bad = || CountError::BadShard(crate::text::shorten(s, 64));
        let number = |t: &str| crate::text::decimal(t).map_err(|_| bad());
        let (i, m) = s.split_once('/').ok_or_else(bad)?;
        Shard::new(number(i)?, number(m)?).map_err(|_| bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_refuse_bad_forms() {
        assert_eq!(
            "2/5".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 5 }
        );
        assert_eq!("0/1048576".parse::<Shard>().unwrap().count, MAX_SHARDS);
        for bad in [
            "5/5",
            "1/0",
            "x/2",
            "3",
            "-1/2",
            "",
            "0/1048577",
            "+2/5",
            " 2/5",
            "2/ 5",
            "2/5 ",
            "2/+5",
            "1/2/3",
        ] {
            let err = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(err.contains(&format!("'{bad}'")), "{err}");
        }
    }

    #[test]
    fn the_shards_of_a_split_are_disjoint_and_cover_everything() {
        let m = 7;
        let mut seen = vec![0; 100];
        for i in 0..m {
            for j in Shard::new(i, m).unwrap().select(100) {
                seen[j] += 1;
            }
        }
        assert!(seen.iter().all(|&k| k == 1));
    }
}
