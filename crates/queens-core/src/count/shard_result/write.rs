//! The writing of a shard result: its JSON line, with the checksum of its content (the same
//! line whatever the JSON's spacing), as `queens count --json` prints it. It calls only the
//! engine's checksum.

use std::fmt::{self, Write as _};

use crate::count::checksum::checksum;
use crate::count::mac;
use crate::count::shard::Shard;
use crate::count::split::Split;
use crate::count::types::Counts;

/// One shard's result, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardResult {
    /// The board size.
    pub n: usize,
    /// The shard's share of the solutions and of the classes (eighths of classes for the
    /// half-board engine's shards of more than one).
    pub counts: Counts,
    /// The seconds the shard took.
    pub seconds: f64,
    /// Which shard.
    pub shard: Shard,
    /// The split, one this binary makes of the board.
    pub split: Split,
    /// How many subproblems the split makes of the whole board.
    pub subproblems: usize,
}

/// What a result's `unique` holds, written in its `unique_unit` field: whole symmetry classes,
/// or eighths of them (the shards of more than one of a split that sums classes in eighths,
/// [`Split::unique_in_eighths`], which `queens merge` divides by 8 once summed). It follows
/// from the split and the shard, so the checksum does not cover it: a reader checks it against
/// them instead (and a line without it, as written before issue 39, is read as before).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UniqueUnit {
    /// `"classes"`: the number of classes under the 8 rotations and reflections.
    Classes,
    /// `"eighths"`: eighths of classes (8 per class), summed over the shards before dividing.
    Eighths,
}

impl UniqueUnit {
    /// What `unique` holds in the result of `shard` (`None`: a whole count) by `split`; a split
    /// this binary does not know is taken to count classes.
    pub fn of(split: &str, shard: Option<Shard>) -> UniqueUnit {
        let in_eighths = split.parse::<Split>().is_ok_and(Split::unique_in_eighths);
        if in_eighths && shard.is_some_and(|s| s.count() > 1) {
            UniqueUnit::Eighths
        } else {
            UniqueUnit::Classes
        }
    }

    /// The name written in the JSON: `classes` or `eighths`.
    pub fn name(self) -> &'static str {
        match self {
            UniqueUnit::Classes => "classes",
            UniqueUnit::Eighths => "eighths",
        }
    }
}

impl fmt::Display for UniqueUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a result's checksum and MAC cover: its content but `unique_unit` (see the module's
/// documentation), `shard` and `shards` as written, `None` when absent.
#[derive(Debug, Clone, Copy)]
pub struct Covered<'a> {
    /// The board size.
    pub n: usize,
    /// The counts.
    pub counts: Counts,
    /// The seconds the count took.
    pub seconds: f64,
    /// The shard's index.
    pub shard: Option<u64>,
    /// The number of shards.
    pub shards: Option<u64>,
    /// The split's name.
    pub split: &'a str,
    /// The subproblems of the split.
    pub subproblems: usize,
}

impl Covered<'_> {
    /// The canonical line of the content, which the checksum and the MAC are computed over.
    pub fn canonical(&self) -> String {
        let or_dash = |x: Option<u64>| x.map_or("-".to_string(), |x| x.to_string());
        format!(
            "queens-count-result 2 n={} total={} unique={} seconds={} shard={} shards={} \
             split={} subproblems={}",
            self.n,
            self.counts.total,
            self.counts.unique,
            self.seconds,
            or_dash(self.shard),
            or_dash(self.shards),
            self.split,
            self.subproblems
        )
    }

    /// The checksum: the FNV-1a hash of the [`Covered::canonical`] line.
    pub fn checksum(&self) -> String {
        checksum(self.canonical().as_bytes())
    }
}

/// The JSON line of a count's result, with its checksum and without a newline: what
/// `queens count --json` prints, `shard` `None` for a whole count (whose line has no `shard`
/// nor `shards`). After `subproblems` comes `unique_unit` ([`UniqueUnit`]), which the checksum
/// does not cover. `seconds` is written within what the reader accepts (0 to
/// [`MAX_RUN_SECONDS`](crate::count::MAX_RUN_SECONDS); 0 for a time that is not a number or is
/// negative), so that the line always reads back.
pub fn result_line(
    n: usize,
    counts: Counts,
    seconds: f64,
    shard: Option<Shard>,
    split: &str,
    subproblems: usize,
) -> String {
    let seconds = crate::count::types::recordable_seconds(seconds);
    let covered = Covered {
        n,
        counts,
        seconds,
        shard: shard.map(|s| s.index()),
        shards: shard.map(|s| s.count()),
        split,
        subproblems,
    };
    let (canonical, sum) = (covered.canonical(), covered.checksum());
    let mut line = format!(
        "{{\"n\":{n},\"total\":{},\"unique\":{},\"seconds\":{}",
        counts.total,
        counts.unique,
        Seconds(seconds)
    );
    if let Some(s) = shard {
        let _ = write!(line, ",\"shard\":{},\"shards\":{}", s.index(), s.count());
    }
    let _ = write!(
        line,
        ",\"split\":{},\"subproblems\":{subproblems},\"unique_unit\":\"{}\",\"checksum\":{}",
        JsonString(split),
        UniqueUnit::of(split, shard),
        JsonString(&sum)
    );
    // Under a key, the MAC of the same canonical line (`mac.rs`).
    if let Some(key) = mac::key() {
        let _ = write!(
            line,
            ",\"mac\":{}",
            JsonString(&mac::tag(key, canonical.as_bytes()))
        );
    }
    line.push('}');
    line
}

impl ShardResult {
    /// What this result's `unique` holds.
    pub fn unique_unit(&self) -> UniqueUnit {
        UniqueUnit::of(&self.split.to_string(), Some(self.shard))
    }

    /// This result's line (see [`result_line`]).
    pub fn to_line(&self) -> String {
        result_line(
            self.n,
            self.counts,
            self.seconds,
            Some(self.shard),
            &self.split.to_string(),
            self.subproblems,
        )
    }
}

/// Seconds as JSON: the shortest text that reads back as the same number, with a `.0` on whole
/// numbers; a number that is not finite as `null` (both as `serde_json` writes them), which
/// [`result_line`] never hands it.
struct Seconds(f64);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_finite() {
            write!(f, "{:?}", self.0)
        } else {
            f.write_str("null")
        }
    }
}

/// A string as JSON, in quotes, with `"`, `\` and control characters escaped.
struct JsonString<'a>(&'a str);

impl fmt::Display for JsonString<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if c < ' ' => write!(f, "\\u{:04x}", c as u32)?,
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}
