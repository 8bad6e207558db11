//! The splits of a board into subproblems, typed: whole canonical frames (`frame1-v1`), frames
//! cut into pieces by the queens of their first `D` free rows (`frame1-rowsD-v1`), and the
//! half-board engine's patterns on `K` columns (`halvesK-v1`). Shard results and checkpoints
//! carry the name of their split, so that parts of different splits are never summed; this
//! file is the one place that writes those names and reads them back, and they are the names
//! the first binaries wrote, so files on disk keep reading. A split belongs to the subproblems,
//! not to an engine: any engine that counts the frames' subproblems counts `frame1-v1`.
//! Which boards an engine splits a given way, and into how many subproblems, the engines say
//! ([`Split::fits`], [`Split::subproblems`] and [`Split::shard_possible`], in `plan.rs`). It
//! calls only the shard.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::shard::Shard;

/// The name of the split of whole canonical frames ([`Split::Frames`]), the one the first
/// binaries made at every N.
pub const SPLIT: &str = "frame1-v1";

/// How a count splits a board into subproblems. Its text form ([`fmt::Display`],
/// [`FromStr`]) is the name shard results and checkpoints carry.
///
/// # Example
/// ```
/// use queens_core::count::Split;
///
/// let split: Split = "frame1-rows3-v1".parse().unwrap();
/// assert_eq!(split, Split::Pieces { depth: 3 });
/// assert_eq!(split.to_string(), "frame1-rows3-v1");
/// assert_eq!(Split::Frames.subproblems(8), Some(queens_core::count::subproblems(8).len()));
/// assert!("halves08-v1".parse::<Split>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Split {
    /// The canonical frames, each one subproblem (`frame1-v1`).
    Frames,
    /// The canonical frames, each cut into pieces by the queens of its first `depth` free rows
    /// (`frame1-rowsD-v1`, `depth` from 1). The subproblems are the frames; their pieces are
    /// dealt over the shards, and their classes are summed in eighths.
    Pieces {
        /// The rows each frame is cut at.
        depth: usize,
    },
    /// The half-board engine's subproblems with `columns` pattern columns (`halvesK-v1`);
    /// classes are summed in eighths.
    Halves {
        /// The pattern columns.
        columns: usize,
    },
}

/// A name that is no split's (or not written as this binary writes it).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "'{0}' is not the name of a split (frame1-v1, frame1-rowsD-v1 with D from 1, or halvesK-v1 \
     with K even)"
)]
pub struct UnknownSplit(pub String);

impl Split {
    /// The frame split cut at `depth` rows: [`Split::Frames`] for 0.
    pub fn of_frames(depth: usize) -> Split {
        if depth == 0 {
            Split::Frames
        } else {
            Split::Pieces { depth }
        }
    }

    /// The rows the frames are cut at: 0 for whole frames and for the half-board engine.
    pub fn depth(self) -> usize {
        match self {
            Split::Pieces { depth } => depth,
            Split::Frames | Split::Halves { .. } => 0,
        }
    }

    /// Whether the parts of this split count classes in eighths (summed, then divided by 8 for
    /// the whole board): the half-board engine's splits and the frames cut into pieces.
    pub fn unique_in_eighths(self) -> bool {
        !matches!(self, Split::Frames)
    }

    /// Whether the subproblems are cut into pieces dealt over the shards: then every
    /// subproblem is part of every shard's work, and a checkpoint saves the pieces counted of
    /// the subproblems begun.
    pub fn has_pieces(self) -> bool {
        matches!(self, Split::Pieces { .. })
    }

    /// The subproblems (of the `subproblems` of the whole board) that `shard` works on: the
    /// shard's share, or every one when the split deals pieces ([`Split::has_pieces`]).
    pub fn select(self, shard: Shard, subproblems: usize) -> Vec<usize> {
        if self.has_pieces() {
            Shard::WHOLE.select(subproblems)
        } else {
            shard.select(subproblems)
        }
    }
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Split::Frames => f.write_str(SPLIT),
            Split::Pieces { depth } => write!(f, "frame1-rows{depth}-v1"),
            Split::Halves { columns } => write!(f, "halves{columns}-v1"),
        }
    }
}

impl FromStr for Split {
    type Err = UnknownSplit;

    /// Reads a split's name, written exactly as [`fmt::Display`] writes it (no sign, no
    /// leading zero, no depth 0, an even number of pattern columns); whether the split fits a
    /// given board is [`Split::fits`]. A `Split` built with depth 0 or an odd number of
    /// columns fits no board, and its name is refused here: every split that fits a board
    /// reads back from its name.
    fn from_str(s: &str) -> Result<Split, UnknownSplit> {
        let number = |rest: &str| -> Option<usize> { rest.strip_suffix("-v1")?.parse().ok() };
        let split = if s == SPLIT {
            Some(Split::Frames)
        } else if let Some(rest) = s.strip_prefix("frame1-rows") {
            number(rest)
                .filter(|&depth| depth > 0)
                .map(|depth| Split::Pieces { depth })
        } else if let Some(rest) = s.strip_prefix("halves") {
            number(rest)
                .filter(|columns| columns % 2 == 0)
                .map(|columns| Split::Halves { columns })
        } else {
            None
        };
        split
            .filter(|split| split.to_string() == s)
            .ok_or_else(|| UnknownSplit(crate::text::shorten(s, 64)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_split_reads_back_its_own_name_and_the_names_on_disk_keep_their_meaning() {
        for (name, split) in [
            ("frame1-v1", Split::Frames),
            ("frame1-rows1-v1", Split::Pieces { depth: 1 }),
            ("frame1-rows12-v1", Split::Pieces { depth: 12 }),
            ("halves0-v1", Split::Halves { columns: 0 }),
            ("halves8-v1", Split::Halves { columns: 8 }),
            ("halves22-v1", Split::Halves { columns: 22 }),
        ] {
            assert_eq!(name.parse::<Split>(), Ok(split), "{name}");
            assert_eq!(split.to_string(), name);
        }
        assert_eq!(SPLIT, Split::Frames.to_string());
        assert_eq!(Split::of_frames(0), Split::Frames);
        assert_eq!(Split::of_frames(3), Split::Pieces { depth: 3 });
    }

    #[test]
    fn every_split_that_fits_a_board_reads_back_and_the_others_fit_none() {
        let candidates = (0..=16)
            .map(|depth| Split::Pieces { depth })
            .chain((0..=30).map(|columns| Split::Halves { columns }))
            .chain([Split::Frames]);
        for split in candidates {
            let fits_some = (1..=27).any(|n| split.fits(n));
            let reads_back = split.to_string().parse::<Split>() == Ok(split);
            assert!(!fits_some || reads_back, "{split:?}");
        }
        for odd in [Split::Pieces { depth: 0 }, Split::Halves { columns: 7 }] {
            assert!(!(1..=27).any(|n| odd.fits(n)), "{odd:?}");
        }
    }

    #[test]
    fn a_name_not_written_as_this_binary_writes_it_is_no_split() {
        for bad in [
            "",
            "frame1",
            "frame1-v2",
            "frame1-rows0-v1",
            "frame1-rows03-v1",
            "frame1-rows+3-v1",
            "frame1-rows-v1",
            "frame1-rows3-v2",
            "halves-v1",
            "halves08-v1",
            "halves7-v1",
            "halves8",
            "halves99999999999999999999999-v1",
            "Halves8-v1",
        ] {
            let err = bad.parse::<Split>().unwrap_err();
            assert!(err.to_string().contains("not the name of a split"), "{bad}");
        }
    }

    #[test]
    fn only_the_split_of_whole_frames_counts_whole_classes_and_only_pieces_are_dealt() {
        let (frames, pieces, halves) = (
            Split::Frames,
            Split::Pieces { depth: 2 },
            Split::Halves { columns: 6 },
        );
        assert!(!frames.unique_in_eighths());
        assert!(pieces.unique_in_eighths() && halves.unique_in_eighths());
        assert!(pieces.has_pieces() && !frames.has_pieces() && !halves.has_pieces());
        assert_eq!((frames.depth(), pieces.depth(), halves.depth()), (0, 2, 0));
        let shard = Shard::new(1, 3).unwrap();
        assert_eq!(frames.select(shard, 7), vec![1, 4]);
        assert_eq!(halves.select(shard, 7), vec![1, 4]);
        assert_eq!(pieces.select(shard, 7), (0..7).collect::<Vec<_>>());
    }
}
