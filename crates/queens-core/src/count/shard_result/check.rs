//! The reading and checking of one shard result: its syntax (`json.rs`), its checksum
//! (`write.rs`), its board, counts, time and shard, and its split against the plans this
//! binary makes; a [`Parser`] builds each split's plan once.

use super::error::{cut, ShardResultError};
use super::json::fields;
use super::json::Fields;
use super::write::{Covered, ShardResult, UniqueUnit};
use crate::count::checksum::checksum;
use crate::count::mac;
use crate::count::shard::{Shard, MAX_SHARDS};
use crate::count::split::Split;
use crate::count::types::{Counts, MAX_N};

impl ShardResult {
    /// Reads and checks one line, named `name` in errors (see [`Parser::parse`]).
    ///
    /// # Example
    /// ```
    /// use queens_core::count::shard_result::{result_line, ShardResult, ShardResultError};
    /// use queens_core::count::{Counts, Shard, Split, SPLIT};
    ///
    /// let plan = Split::Frames.subproblems(8).unwrap();
    /// let counts = Counts { total: 92, unique: 12 };
    /// let line = result_line(8, counts, 0.5, Some(Shard::WHOLE), SPLIT, plan);
    /// let part = ShardResult::parse("part.json", &line)?;
    /// assert_eq!((part.counts, part.shard), (counts, Shard::WHOLE));
    /// // The same count, edited.
    /// let edited = line.replace("\"total\":92", "\"total\":93");
    /// let err = ShardResult::parse("part.json", &edited).unwrap_err();
    /// assert!(matches!(err, ShardResultError::Checksum { .. }));
    /// # Ok::<(), ShardResultError>(())
    /// ```
    pub fn parse(name: &str, line: &str) -> Result<ShardResult, ShardResultError> {
        Parser::new().parse(name, line)
    }
}

/// A reader of many result lines: it remembers the splits it has checked, so that the plan of
/// each is built once (there are a few hundred known splits, so the memory stays small).
#[derive(Debug, Default)]
pub struct Parser {
    pub(super) known: Vec<(usize, Split, usize)>,
}

impl Parser {
    /// A reader that has checked no split yet.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Reads one line (surrounding whitespace allowed) and checks it, in this order: its
    /// syntax, its checksum, its N, classes against solutions, its time, its shard, its split
    /// (and the unit of `unique` it implies, when the line names one).
    pub fn parse(&mut self, name: &str, line: &str) -> Result<ShardResult, ShardResultError> {
        let f = fields(line).map_err(|syntax| ShardResultError::Malformed {
            name: name.to_string(),
            syntax,
        })?;
        let name = || name.to_string();
        let counts = Counts {
            total: f.total,
            unique: f.unique,
        };
        let Some(claimed) = &f.checksum else {
            return Err(ShardResultError::NoChecksum { name: name() });
        };
        let canonical = covered(&f).canonical();
        let actual = checksum(canonical.as_bytes());
        if *claimed != actual {
            return Err(ShardResultError::Checksum {
                name: name(),
                claimed: cut(claimed),
                actual,
            });
        }
        // Under a key, the MAC is required and must match; without one it is not checked.
        if let Some(key) = mac::key() {
            match &f.mac {
                None => return Err(ShardResultError::NoMac { name: name() }),
                Some(claimed) if !mac::verify(key, canonical.as_bytes(), claimed) => {
                    return Err(ShardResultError::BadMac { name: name() })
                }
                Some(_) => {}
            }
        }
        if !(1..=MAX_N).contains(&f.n) {
            return Err(ShardResultError::Size {
                name: name(),
                n: f.n,
            });
        }
        // (The half-board engine's shards and those of pieces report eighths of classes, which
        // may exceed the total; a name no split has is refused below.)
        let split: Option<Split> = f.split.parse().ok();
        if f.unique > f.total && !split.is_none_or(Split::unique_in_eighths) {
            return Err(ShardResultError::MoreClasses {
                name: name(),
                unique: f.unique,
                total: f.total,
            });
        }
        if !(0.0..=crate::count::MAX_RUN_SECONDS).contains(&f.seconds) {
            return Err(ShardResultError::Time { name: name() });
        }
        let shard = match (f.shard, f.shards) {
            (Some(_), Some(shards)) if shards > MAX_SHARDS => {
                return Err(ShardResultError::TooManyShards {
                    name: name(),
                    shards,
                })
            }
            (Some(index), Some(count)) => Shard::new(index, count)
                .map_err(|_| ShardResultError::NotSharded { name: name() })?,
            _ => return Err(ShardResultError::NotSharded { name: name() }),
        };
        // What the split's engine says no shard can have (a half-board shard's eighths).
        if split.is_some_and(|split| !split.shard_possible(f.n, shard, counts)) {
            return Err(ShardResultError::HalvesEighths {
                name: name(),
                unique: f.unique,
                total: f.total,
            });
        }
        let unknown = || ShardResultError::UnknownSplit {
            name: name(),
            split: cut(&f.split),
            n: f.n,
        };
        let split = split.ok_or_else(unknown)?;
        // `unique_unit` follows from the split and the shard (the checksum does not cover it):
        // absent, as before issue 39, or the one they give.
        let unit = UniqueUnit::of(&f.split, Some(shard));
        if let Some(claimed) = f.unique_unit.as_deref().filter(|c| *c != unit.name()) {
            return Err(ShardResultError::UniqueUnit {
                name: name(),
                claimed: cut(claimed),
                unit,
            });
        }
        let plan = self.plan(f.n, split).ok_or_else(unknown)?;
        if plan != f.subproblems {
            return Err(ShardResultError::Plan {
                name: name(),
                split,
                subproblems: f.subproblems,
                n: f.n,
                plan,
            });
        }
        Ok(ShardResult {
            n: f.n,
            counts,
            seconds: f.seconds,
            shard,
            split,
            subproblems: f.subproblems,
        })
    }

    /// The subproblems of the split `split` of N = `n`, built once per known split.
    fn plan(&mut self, n: usize, split: Split) -> Option<usize> {
        if let Some(&(_, _, plan)) = self.known.iter().find(|k| k.0 == n && k.1 == split) {
            return Some(plan);
        }
        // Only known splits are remembered, and there are finitely many.
        let plan = split.subproblems(n)?;
        self.known.push((n, split, plan));
        Some(plan)
    }
}

/// What the checksum of the result read as `f` covers.
pub(super) fn covered(f: &Fields) -> Covered<'_> {
    Covered {
        n: f.n,
        counts: Counts {
            total: f.total,
            unique: f.unique,
        },
        seconds: f.seconds,
        shard: f.shard,
        shards: f.shards,
        split: &f.split,
        subproblems: f.subproblems,
    }
}
