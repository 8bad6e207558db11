//! Checkpoint files: which subproblems of a run are counted, what each one contributed, and
//! their sum, saved atomically and checked when read.
//!
//! The idea: a run's state between subproblems is small — one bit per subproblem, each
//! finished subproblem's two counts and their sums — so it is written whole, as a short text
//! file, to a new temporary file beside the target (created exclusively, so never through a
//! symlink nor over another run's file), flushed to the disk (`fsync`) and renamed over the
//! target. A rename is atomic on POSIX file systems, so the file is always either the previous
//! or the new state, never a torn one, and a run killed at any moment loses at most the work
//! since the last save. The same command run again loads the file, skips the subproblems it
//! lists and adds the rest, so the final count is exact.
//!
//! A file that does not say exactly what a run saved is refused, never resumed: its last line
//! is a checksum of every line before it (see `checksum.rs`), and every field is checked
//! against the others — the number of finished subproblems against the bits, the bits against
//! the plan and the shard, each part against the list of bits, the totals against the sum of
//! the parts. Source: the write-to-temporary-then-rename pattern of durable file updates (as in
//! maildir and most databases' control files). Cost: O(subproblems) bytes per save, about 30
//! per finished subproblem (under 2 MB for N = 27).
//!
//! The format (version 2), one `key value` per line, in this order, each exactly once:
//!
//! ```text
//! queens-count-checkpoint 2
//! n 12
//! split frame1-v1
//! subproblems 130
//! shard 0/1
//! finished 2
//! total 24
//! unique 3
//! seconds 1.5
//! cpu-seconds 2.9
//! done 000000000000000100000000000000000000000000000002
//! parts 0:16/2 129:8/1
//! checksum fnv1a64:0123456789abcdef (the real one is computed)
//! ```
//!
//! `seconds` and `cpu-seconds` are the wall time and the processor time (every thread, user and
//! system) the run has taken so far, over every session that counted it. `cpu-seconds` came
//! later than the rest of version 2: a file without it (written by an older `queens`) is read,
//! and the run resumed from it does not know its processor time, so it writes no such line
//! either.
//!
//! `done` is the bit set of finished subproblems, 16 hexadecimal digits per 64 subproblems
//! (word `k` holds subproblems `64k..64k+63`, lowest bit first). `parts` lists each finished
//! subproblem as `index:total/unique`, in increasing order. `checksum` is the FNV-1a hash of
//! every byte before its line.
//!
//! A split that cuts frames into pieces (`frame1-rowsD-v1`, see `pieces`) has one more line,
//! after `parts`: `pieces`, the frames begun and not finished, in increasing order, each as
//! `index@next:total/unique` followed by `+start-end` for each range of pieces counted above
//! the watermark `next` (for example `pieces 17@5:48/48+8-14+20-20`). There `unique` and the
//! parts' classes are in eighths, and every frame belongs to every shard (its pieces are
//! dealt over the shards). `total` and `unique` are the sums of the finished frames' parts; the
//! pieces' sums are added when their frame is finished.
//!
//! Version 1 (no parts, no checksum), written by the first `queens` binaries, is refused with a
//! message that says so: such a file cannot be told from a damaged one.

use std::collections::hash_map::RandomState;
use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::checksum;
use super::control::Tally;
use super::frames::pieces::{self, FramePieces};
use super::mac;
use super::shard::Shard;
use super::split::Split;
use super::types::{add_counts, CountError, Counts, MAX_N};

mod bound;
use bound::{head_limit, HeadProblem, HEAD_BYTES};

const MAGIC: &str = "queens-count-checkpoint";
const VERSION: &str = "2";

/// The most subproblems a checkpoint may list (the plan of N = 32 has about 60,000); a file
/// saying more is refused before anything proportional to it is allocated.
pub const MAX_SUBPROBLEMS: usize = 1 << 24;

/// The saved state of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// The board size.
    pub n: usize,
    /// The name of the split, as the file says it (see [`Split`]; a name no split has is
    /// read, and refused when the checkpoint is resumed).
    pub split: String,
    /// How many subproblems the whole board has.
    pub subproblems: usize,
    /// Which shard the run counts.
    pub shard: Shard,
    /// What is counted so far.
    pub tally: Tally,
    /// Seconds spent counting so far, over every session of the run.
    pub seconds: f64,
    /// Processor seconds spent so far (every thread, user and system), over every session of
    /// the run; `None` when a session's are not known (see the module's documentation).
    pub cpu_seconds: Option<f64>,
}

/// The time a run has taken, over every session that counted it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Spent {
    /// Wall seconds.
    pub seconds: f64,
    /// Processor seconds, every thread, user and system; `None` when not known.
    pub cpu_seconds: Option<f64>,
}

impl Checkpoint {
    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{MAGIC} {VERSION}");
        let _ = writeln!(s, "n {}", self.n);
        let _ = writeln!(s, "split {}", self.split);
        let _ = writeln!(s, "subproblems {}", self.subproblems);
        let _ = writeln!(s, "shard {}", self.shard);
        let _ = writeln!(s, "finished {}", self.tally.finished);
        let _ = writeln!(s, "total {}", self.tally.counts.total);
        let _ = writeln!(s, "unique {}", self.tally.counts.unique);
        let _ = writeln!(s, "seconds {}", self.seconds);
        if let Some(cpu) = self.cpu_seconds {
            let _ = writeln!(s, "cpu-seconds {cpu}");
        }
        s.push_str("done ");
        for word in &self.tally.done {
            let _ = write!(s, "{word:016x}");
        }
        s.push_str("\nparts");
        for i in self.tally.finished_subproblems() {
            let p = self.tally.parts[i];
            let _ = write!(s, " {i}:{}/{}", p.total, p.unique);
        }
        s.push('\n');
        if has_pieces(self.n, &self.split) {
            s.push_str("pieces");
            for (f, fp) in &self.tally.pieces {
                let _ = write!(
                    s,
                    " {f}@{}:{}/{}",
                    fp.next, fp.counts.total, fp.counts.unique
                );
                for (start, end) in &fp.above {
                    let _ = write!(s, "+{start}-{end}");
                }
            }
            s.push('\n');
        }
        let sum = checksum::checksum(s.as_bytes());
        let _ = writeln!(s, "checksum {sum}");
        // Under a key, one more line: the MAC of every byte before it (`mac.rs`).
        if let Some(key) = mac::key() {
            let tag = mac::tag(key, s.as_bytes());
            let _ = writeln!(s, "mac {tag}");
        }
        s
    }

    /// Parses a file's text and checks that its fields agree; `path` only names the file in
    /// errors.
    pub fn from_text(path: &Path, text: &str) -> Result<Checkpoint, CountError> {
        let bad = |reason: String| CountError::CheckpointMalformed {
            path: path.display().to_string(),
            reason,
        };
        // The version first, so that an old file is named as such rather than as damaged.
        let first = text.split('\n').next().unwrap_or("");
        match first.strip_prefix(MAGIC).and_then(|v| v.strip_prefix(' ')) {
            Some(VERSION) => {}
            Some("1") => {
                return Err(bad(
                    "it is a version 1 checkpoint, written by a queens binary from before \
                     checkpoints carried checksums and per-subproblem counts; this binary \
                     reads version 2 only and cannot tell a version 1 file from a damaged one: \
                     finish that run with the binary that started it, or delete the file and \
                     count again"
                        .to_string(),
                ))
            }
            Some(v) if v.ends_with('\r') => {
                return Err(bad(
                    "line 1 ends in a carriage return (was the file saved with Windows line \
                     endings?): a checkpoint's lines end in a line feed only"
                        .to_string(),
                ))
            }
            Some(v) => {
                return Err(bad(format!(
                    "unknown version '{v}' (this binary reads version {VERSION})"
                )))
            }
            None => {
                return Err(bad(format!(
                    "its first line should be '{MAGIC} {VERSION}', found '{}'",
                    shorten(first)
                )))
            }
        }
        // A last line `mac` (written under a key) covers every byte before it; under a key it
        // is required and checked, without one it is set aside unchecked.
        let (text, claimed_mac) = split_mac(text);
        if let Some(key) = mac::key() {
            match claimed_mac {
                None => {
                    return Err(bad(
                        "it has no MAC, but QUEENS_KEY is set: under a key every \
                         checkpoint must be signed; it was written without the key (unset \
                         QUEENS_KEY to resume it, checked by its checksum only)"
                            .into(),
                    ))
                }
                Some(claimed) if !mac::verify(key, text.as_bytes(), claimed) => {
                    return Err(bad("its MAC does not match its content under QUEENS_KEY: \
                         the file was edited, or signed with another key"
                        .into()))
                }
                Some(_) => {}
            }
        }
        // The checksum covers every byte before the last line.
        let body_end = match text.strip_suffix('\n') {
            Some(rest) => rest.rfind('\n').map(|i| i + 1),
            None => {
                return Err(bad(
                    "it does not end with a line break: it is cut short".into()
                ))
            }
        };
        let Some(body_end) = body_end else {
            return Err(bad("it ends before the 'checksum' line".into()));
        };
        let (body, last) = text.split_at(body_end);
        let Some(claimed) = last.trim_end_matches('\n').strip_prefix("checksum ") else {
            return Err(bad(format!(
                "its last line should be the 'checksum' line, found '{}'",
                shorten(last.trim_end_matches('\n'))
            )));
        };
        let actual = checksum::checksum(body.as_bytes());
        if claimed != actual {
            return Err(bad(format!(
                "its checksum says {} but its content gives {actual}: the file was damaged or \
                 edited",
                shorten(claimed)
            )));
        }

        let mut lines = Fields(body.lines().skip(1).peekable());
        let mut field = |key: &str| lines.field(key, &bad);
        let n: usize = decimal(field("n")?, "n", &bad)?;
        if !(1..=MAX_N).contains(&n) {
            return Err(bad(format!("'n' is {n}, not from 1 to {MAX_N}")));
        }
        let split = field("split")?.to_string();
        let subproblems: usize = decimal(field("subproblems")?, "subproblems", &bad)?;
        if subproblems > MAX_SUBPROBLEMS {
            return Err(bad(format!(
                "'subproblems' is {subproblems}, more than any plan has ({MAX_SUBPROBLEMS} at most)"
            )));
        }
        let shard_text = field("shard")?;
        let shard: Shard = shard_text
            .parse()
            .map_err(|e| bad(format!("bad 'shard': {e}")))?;
        let finished: u64 = decimal(field("finished")?, "finished", &bad)?;
        let total: u128 = decimal(field("total")?, "total", &bad)?;
        let unique: u128 = decimal(field("unique")?, "unique", &bad)?;
        let seconds = seconds_of(field("seconds")?, "seconds", &bad)?;
        // Optional (see the module's documentation): a file without it is read.
        let cpu_seconds = lines
            .optional("cpu-seconds")
            .map(|text| seconds_of(text, "cpu-seconds", &bad))
            .transpose()?;
        let mut field = |key: &str| lines.field(key, &bad);
        let hex = field("done")?;
        let parts_text = field("parts")?;
        // With pieces, every frame is in every shard and the classes are eighths.
        let cut = has_pieces(n, &split);
        let pieces_text = if cut { Some(field("pieces")?) } else { None };
        if let Some(extra) = lines.0.next() {
            return Err(bad(format!(
                "unexpected line '{}' before the checksum",
                shorten(extra)
            )));
        }

        let words = subproblems.div_ceil(64);
        if hex.len() != 16 * words || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad(format!(
                "'done' should have {} hexadecimal digits for {subproblems} subproblems",
                16 * words
            )));
        }
        let mut done = Vec::with_capacity(words);
        for k in 0..words {
            let word = u64::from_str_radix(&hex[16 * k..16 * k + 16], 16)
                .map_err(|_| bad("'done' is not hexadecimal".to_string()))?;
            done.push(word);
        }
        let counted: u64 = done.iter().map(|w| u64::from(w.count_ones())).sum();
        if counted != finished {
            return Err(bad(format!(
                "'finished' says {finished} but 'done' lists {counted} subproblems"
            )));
        }
        let mut tally = Tally {
            done,
            finished,
            parts: vec![Counts::default(); subproblems],
            counts: Counts { total, unique },
            pieces: Default::default(),
        };
        let spare = words * 64 - subproblems;
        if let Some(&last) = tally.done.last().filter(|_| spare > 0) {
            let beyond = last >> (64 - spare);
            if beyond != 0 {
                let i = subproblems + beyond.trailing_zeros() as usize;
                return Err(bad(format!(
                    "'done' lists subproblem {i}, past the {subproblems} of the plan"
                )));
            }
        }
        if let Some(i) = tally
            .finished_subproblems()
            .find(|&i| !cut && !shard.contains(i))
        {
            return Err(bad(format!(
                "'done' lists subproblem {i}, which is not in shard {shard}"
            )));
        }

        // Each finished subproblem's part, in the order of the bits; the totals are their sum.
        // (A split whose classes are eighths may have more of them than solutions; a name no
        // split has is refused when the checkpoint is resumed.)
        let eighths = split.parse().ok().is_none_or(Split::unique_in_eighths);
        let finished_list: Vec<usize> = tally.finished_subproblems().collect();
        let mut expected = finished_list.into_iter();
        let mut sum = Counts::default();
        for entry in parts_text.split(' ').filter(|e| !e.is_empty()) {
            let parsed = entry.split_once(':').and_then(|(i, counts)| {
                let (t, u) = counts.split_once('/')?;
                Some((i, t, u))
            });
            let Some((i, t, u)) = parsed else {
                return Err(bad(format!(
                    "'parts' entry '{}' is not index:total/unique",
                    shorten(entry)
                )));
            };
            let i: usize = decimal(i, "parts", &bad)?;
            let part = Counts {
                total: decimal(t, "parts", &bad)?,
                unique: decimal(u, "parts", &bad)?,
            };
            match expected.next() {
                Some(e) if e == i => {}
                Some(e) => {
                    return Err(bad(format!(
                        "'parts' gives subproblem {i} where 'done' says the next finished one \
                         is {e}"
                    )))
                }
                None => {
                    return Err(bad(format!(
                        "'parts' gives subproblem {i}, but 'done' lists only {finished}"
                    )))
                }
            }
            // (The half-board engine counts eighths of classes: its first part holds the
            // solutions fixed by the turns, and no bound of the kind holds for its parts.)
            if part.unique > part.total && !eighths {
                return Err(bad(format!(
                    "'parts' gives subproblem {i} more classes ({}) than solutions ({})",
                    part.unique, part.total
                )));
            }
            sum = add_counts(sum, part).ok_or_else(|| {
                bad("the 'parts' add up past the largest total (2^128 - 1)".to_string())
            })?;
            tally.parts[i] = part;
        }
        if let Some(e) = expected.next() {
            return Err(bad(format!(
                "'done' lists subproblem {e} but 'parts' does not give its counts"
            )));
        }
        if sum.total != total {
            return Err(bad(format!(
                "'total' says {total} but the parts add up to {}",
                sum.total
            )));
        }
        if sum.unique != unique {
            return Err(bad(format!(
                "'unique' says {unique} but the parts add up to {}",
                sum.unique
            )));
        }
        if let Some(text) = pieces_text {
            tally.pieces = parse_pieces(text, &tally, shard, &bad)?;
        }
        Ok(Checkpoint {
            n,
            split,
            subproblems,
            shard,
            tally,
            seconds,
            cpu_seconds,
        })
    }

    /// Loads the checkpoint at `path` for a run of the `n` x `n` board, or `None` when there
    /// is no such file. Only a regular file is read, and no further than the largest
    /// checkpoint its split of `n` can have ([`bound::max_bytes`]): a file that says it is of
    /// another board is refused after its first lines, one longer than that bound from its
    /// size alone.
    pub fn load(path: &Path, n: usize) -> Result<Option<Checkpoint>, CountError> {
        let name = || path.display().to_string();
        let io_error = |source| CountError::CheckpointIo {
            path: name(),
            source,
        };
        let bad = |reason: String| CountError::CheckpointMalformed {
            path: name(),
            reason,
        };
        let file = match File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(io_error(source)),
        };
        let meta = file.metadata().map_err(io_error)?;
        if !meta.is_file() {
            return Err(bad(
                "it is not a regular file (a device, pipe or folder)".to_string()
            ));
        }
        let mut bytes = Vec::new();
        let mut reader = io::Read::take(file, HEAD_BYTES);
        io::Read::read_to_end(&mut reader, &mut bytes).map_err(io_error)?;
        if bytes.len() as u64 == HEAD_BYTES {
            // A long file: its first lines name the board and the split, which bound the rest.
            let head = String::from_utf8_lossy(&bytes);
            let limit = head_limit(&head, n).map_err(|e| match e {
                HeadProblem::Malformed(reason) => bad(reason),
                HeadProblem::OtherBoard(m) => CountError::CheckpointMismatch {
                    path: name(),
                    reason: format!("it is for N = {m}, not N = {n}"),
                },
            })?;
            let too_long = |len: u64| {
                bad(format!(
                    "it is {len} bytes long, more than the {limit} bytes the largest \
                     checkpoint of its split can take"
                ))
            };
            if meta.len() > limit {
                return Err(too_long(meta.len()));
            }
            let mut file = reader.into_inner();
            let mut rest = io::Read::take(&mut file, limit + 1 - HEAD_BYTES);
            io::Read::read_to_end(&mut rest, &mut bytes).map_err(io_error)?;
            if bytes.len() as u64 > limit {
                return Err(too_long(bytes.len() as u64));
            }
        }
        let text =
            String::from_utf8(bytes).map_err(|_| bad("it is not text (not UTF-8)".to_string()))?;
        Checkpoint::from_text(path, &text).map(Some)
    }

    /// Refuses a checkpoint of another board, split or shard.
    pub fn check_matches(
        &self,
        path: &Path,
        n: usize,
        split: &str,
        subproblems: usize,
        shard: Shard,
    ) -> Result<(), CountError> {
        let reason = if self.n != n {
            format!("it is for N = {}, not N = {n}", self.n)
        } else if self.split != split || self.subproblems != subproblems {
            format!(
                "it is for the split {} of {} subproblems, not {split} of {subproblems}",
                self.split, self.subproblems,
            )
        } else if self.shard != shard {
            format!("it is for shard {}, not shard {shard}", self.shard)
        } else {
            return Ok(());
        };
        Err(CountError::CheckpointMismatch {
            path: path.display().to_string(),
            reason,
        })
    }

    /// Writes the checkpoint to `path` atomically: a new temporary file in the same directory
    /// (see [`create_temporary`]), flushed to the disk, then renamed over `path`.
    pub fn save(&self, path: &Path) -> Result<(), CountError> {
        let io_err = |source| CountError::CheckpointIo {
            path: path.display().to_string(),
            source,
        };
        // Through a symbolic link, the file it points to is replaced and the link kept.
        let target = through_links(path);
        let (mut file, temp) = create_temporary(&target).map_err(io_err)?;
        let written = (|| {
            file.write_all(self.to_text().as_bytes())?;
            file.sync_all()?;
            drop(file);
            fs::rename(&temp, &target)?;
            sync_parent(&target);
            Ok(())
        })();
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written.map_err(io_err)
    }
}

/// `text` without its last line when that line is a `mac` line, and the MAC it claims.
fn split_mac(text: &str) -> (&str, Option<&str>) {
    let Some(rest) = text.strip_suffix('\n') else {
        return (text, None);
    };
    let start = rest.rfind('\n').map_or(0, |i| i + 1);
    match rest[start..].strip_prefix("mac ") {
        Some(claimed) => (&text[..start], Some(claimed)),
        None => (text, None),
    }
}

/// Whether the split named `split` of the `n` x `n` board deals pieces (a `pieces` line).
fn has_pieces(n: usize, split: &str) -> bool {
    pieces::depth_of_split(n, split).is_some_and(|d| d > 0)
}

/// Parses the `pieces` line of a checkpoint whose finished frames are in `tally`: frames in
/// increasing order, none finished, each watermark and range end a piece of the shard, ranges
/// increasing, above the watermark, neither empty nor adjacent.
fn parse_pieces(
    text: &str,
    tally: &Tally,
    shard: Shard,
    bad: &dyn Fn(String) -> CountError,
) -> Result<std::collections::BTreeMap<usize, FramePieces>, CountError> {
    let mut out = std::collections::BTreeMap::new();
    let frames = tally.parts.len();
    let step = shard.count;
    for entry in text.split(' ').filter(|e| !e.is_empty()) {
        let malformed = || {
            bad(format!(
                "'pieces' entry '{}' is not index@next:total/unique+start-end...",
                shorten(entry)
            ))
        };
        let (f, rest) = entry.split_once('@').ok_or_else(malformed)?;
        let (next, rest) = rest.split_once(':').ok_or_else(malformed)?;
        let mut ranges = rest.split('+');
        let (t, u) = ranges
            .next()
            .and_then(|c| c.split_once('/'))
            .ok_or_else(malformed)?;
        let f: usize = decimal(f, "pieces", bad)?;
        if f >= frames {
            return Err(bad(format!(
                "'pieces' gives frame {f}, past the {frames} of the plan"
            )));
        }
        if out.keys().next_back().is_some_and(|&last| last >= f) {
            return Err(bad(format!(
                "'pieces' gives frame {f} out of increasing order"
            )));
        }
        if tally.is_done(f) {
            return Err(bad(format!(
                "'pieces' gives frame {f}, which 'done' lists as finished"
            )));
        }
        let mut fp = FramePieces::new(shard, f);
        let of_shard = |p: u64| pieces::in_shard(shard, f, p);
        fp.next = decimal(next, "pieces", bad)?;
        if !of_shard(fp.next) {
            return Err(bad(format!(
                "'pieces' gives frame {f} the next piece {}, which is not in shard {shard}",
                fp.next
            )));
        }
        fp.counts = Counts {
            total: decimal(t, "pieces", bad)?,
            unique: decimal(u, "pieces", bad)?,
        };
        let mut floor = fp.next.checked_add(step);
        for range in ranges {
            let (a, b) = range.split_once('-').ok_or_else(malformed)?;
            let (a, b): (u64, u64) = (decimal(a, "pieces", bad)?, decimal(b, "pieces", bad)?);
            // Above the watermark (the watermark's own piece is not counted, or the watermark
            // would be past it), after the previous range and not adjacent to it.
            let lowest = floor.ok_or_else(malformed)?;
            if a < lowest || b < a || !of_shard(a) || !of_shard(b) {
                return Err(bad(format!(
                    "'pieces' gives frame {f} the range {a}-{b}, which is not a range of shard \
                     {shard}'s pieces above its watermark {} and its previous range",
                    fp.next
                )));
            }
            fp.above.insert(a, b);
            floor = b.checked_add(2 * step);
        }
        out.insert(f, fp);
    }
    Ok(out)
}

/// Parses a whole number written in decimal digits only (no sign, no spaces).
fn decimal<T: std::str::FromStr>(
    v: &str,
    key: &str,
    bad: &dyn Fn(String) -> CountError,
) -> Result<T, CountError> {
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(format!(
            "'{key}' is not a whole number: '{}'",
            shorten(v)
        )));
    }
    v.parse()
        .map_err(|_| bad(format!("'{key}' is out of range: '{}'", shorten(v))))
}

/// The lines of a checkpoint after its first, each `key value`, read in their order.
struct Fields<'a, I: Iterator<Item = &'a str>>(std::iter::Peekable<I>);

impl<'a, I: Iterator<Item = &'a str>> Fields<'a, I> {
    /// The value of the next line when it is the `key` line (which then is read).
    fn optional(&mut self, key: &str) -> Option<&'a str> {
        let line = *self.0.peek()?;
        let value = match line.split_once(' ') {
            Some((k, v)) if k == key => v,
            None if line == key => "",
            _ => return None,
        };
        self.0.next();
        Some(value)
    }

    /// The value of the next line, which must be the `key` line.
    fn field(
        &mut self,
        key: &str,
        bad: &dyn Fn(String) -> CountError,
    ) -> Result<&'a str, CountError> {
        self.optional(key).ok_or_else(|| match self.0.peek() {
            None => bad(format!("it ends before the '{key}' line")),
            Some(line) => bad(format!(
                "expected the '{key}' line, found '{}'",
                shorten(line)
            )),
        })
    }
}

/// Parses a finite, non-negative number of seconds.
fn seconds_of(v: &str, key: &str, bad: &dyn Fn(String) -> CountError) -> Result<f64, CountError> {
    v.parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| {
            bad(format!(
                "'{key}' is not a number of seconds: '{}'",
                shorten(v)
            ))
        })
}

/// At most 60 characters of `s`, for error messages.
fn shorten(s: &str) -> String {
    crate::text::shorten(s, 60)
}

/// Creates a new temporary file in the folder of `path`, named after it with the process id
/// and a random number (`.NAME.PID.RANDOM.tmp`), exclusively: `create_new` (`O_CREAT | O_EXCL`)
/// fails on any existing name, a symlink included, so the write can never land in another
/// file, nor in another run's temporary file. Tries a few names.
pub fn create_temporary(path: &Path) -> io::Result<(File, PathBuf)> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "the checkpoint path names no file",
        )
    })?;
    let mut last = None;
    for _ in 0..16 {
        let random = RandomState::new().build_hasher().finish();
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".{}.{random:016x}.tmp", std::process::id()));
        let temp = path.with_file_name(temp_name);
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((file, temp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// Whether `file_name` is a temporary file of the checkpoint named `name`, as
/// [`create_temporary`] names them: `.NAME.PID.RANDOM.tmp`, PID decimal and RANDOM 16
/// hexadecimal digits. Nothing else matches, so no other file of the folder is ever taken
/// for one.
pub fn is_temporary_of(name: &std::ffi::OsStr, file_name: &std::ffi::OsStr) -> bool {
    let (Some(name), Some(file)) = (name.to_str(), file_name.to_str()) else {
        return false;
    };
    let Some(rest) = (file.strip_prefix('.'))
        .and_then(|f| f.strip_prefix(name))
        .and_then(|f| f.strip_prefix('.'))
        .and_then(|f| f.strip_suffix(".tmp"))
    else {
        return false;
    };
    let Some((pid, random)) = rest.split_once('.') else {
        return false;
    };
    !pid.is_empty()
        && pid.bytes().all(|b| b.is_ascii_digit())
        && random.len() == 16
        && random.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Removes the temporary files that saves of the checkpoint `path` left behind (a process
/// killed between creating its temporary file and renaming it: SIGKILL, a power cut), and
/// returns how many it removed. Only the caller holding the checkpoint's lock may call it:
/// every run that saves holds that lock, so no temporary file of the checkpoint is being
/// written, whatever process id its name carries (a process id says nothing about the
/// processes of another machine sharing the folder). The folder is the one of the file the
/// path resolves to through its links, where saves write. Files that cannot be removed are
/// left, silently: they cost only space.
pub fn remove_stale_temporaries(path: &Path) -> usize {
    let target = through_links(path);
    let Some(name) = target.file_name() else {
        return 0;
    };
    let folder = match target.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(folder) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        if !is_temporary_of(name, &entry.file_name()) {
            continue;
        }
        // Only regular files: a link or a folder of that name is not a save's.
        let regular = entry.file_type().is_ok_and(|t| t.is_file());
        if regular && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// `path` with the symbolic links of its last component followed (at most 40, as Linux's
/// `MAXSYMLINKS`), so that a save through a link replaces the file the link points to, not the
/// link. The target may not exist yet.
fn through_links(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        let Ok(target) = fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(folder) => folder.join(target),
            None => target,
        };
    }
    path
}

/// Makes the rename itself durable where the platform allows opening a directory.
fn sync_parent(path: &Path) {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(parent) {
        let _ = dir.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::super::SPLIT;
    use super::bound::max_bytes;
    use super::*;

    fn sample() -> Checkpoint {
        let mut tally = Tally::new(130);
        tally.record(
            0,
            Counts {
                total: 16,
                unique: 2,
            },
        );
        tally.record(
            129,
            Counts {
                total: 8,
                unique: 1,
            },
        );
        Checkpoint {
            n: 12,
            split: super::super::SPLIT.to_string(),
            subproblems: 130,
            shard: Shard::WHOLE,
            tally,
            seconds: 1.5,
            cpu_seconds: Some(2.9),
        }
    }

    /// The fullest checkpoint of a split: every subproblem finished with 39-digit counts.
    fn fullest(n: usize, split: &str) -> Checkpoint {
        let subproblems = split.parse::<Split>().unwrap().subproblems(n).unwrap();
        let mut tally = Tally::new(subproblems);
        let big = Counts {
            total: u128::MAX / subproblems as u128 / 2,
            unique: u128::MAX / subproblems as u128 / 2,
        };
        for i in 0..subproblems {
            tally.record(i, big);
        }
        Checkpoint {
            n,
            split: split.to_string(),
            subproblems,
            shard: Shard::WHOLE,
            tally,
            seconds: f64::MAX,
            cpu_seconds: Some(f64::MAX),
        }
    }

    #[test]
    fn the_fullest_checkpoints_fit_the_bound_the_reader_reads_within() {
        for (n, split) in [
            (12, "frame1-v1"),
            (16, "halves10-v1"),
            (20, "frame1-rows3-v1"),
        ] {
            let c = fullest(n, split);
            let text = c.to_text();
            assert!(
                text.len() as u64 <= max_bytes(n, split).unwrap(),
                "{n} {split}"
            );
            let dir = tempfile_dir("fullest");
            let path = dir.join("run.ckpt");
            c.save(&path).unwrap();
            assert_eq!(Checkpoint::load(&path, n).unwrap(), Some(c), "{n} {split}");
            fs::remove_dir_all(&dir).unwrap();
        }
        assert_eq!(max_bytes(12, "halves99-v1"), None);
    }

    fn tempfile_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("queens-ckpt-{tag}-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_long_file_is_refused_from_its_size_or_its_first_lines_without_reading_it_all() {
        let dir = tempfile_dir("long");
        let path = dir.join("run.ckpt");
        // A sparse gigabyte behind a valid header: refused by its size alone.
        let header = sample().to_text();
        fs::write(&path, &header).unwrap();
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(1 << 30)
            .unwrap();
        let err = Checkpoint::load(&path, 12).unwrap_err().to_string();
        assert!(
            err.contains("1073741824 bytes long, more than the"),
            "{err}"
        );
        // A long file of another board: refused as such after its first lines.
        let err = Checkpoint::load(&path, 13).unwrap_err().to_string();
        assert!(err.contains("it is for N = 12, not N = 13"), "{err}");
        // A long file of no known version or split.
        let long = |first: &str, rest: &str| format!("{first}\n{rest}{}", "x".repeat(5000));
        fs::write(&path, long("queens-count-checkpoint 2\r", "n 12\n")).unwrap();
        let err = Checkpoint::load(&path, 12).unwrap_err().to_string();
        assert!(err.contains("carriage return"), "{err}");
        fs::write(
            &path,
            long("queens-count-checkpoint 2", "n 12\nsplit nope\n"),
        )
        .unwrap();
        let err = Checkpoint::load(&path, 12).unwrap_err().to_string();
        assert!(err.contains("split 'nope' is not one"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn devices_are_not_read_as_checkpoints() {
        for device in ["/dev/zero", "/dev/null"] {
            if Path::new(device).exists() {
                let err = Checkpoint::load(Path::new(device), 12)
                    .unwrap_err()
                    .to_string();
                assert!(err.contains("not a regular file"), "{err}");
            }
        }
    }

    /// A checkpoint of shard 1/3 of a plan of pieces: frame 3 finished, frame 5 begun (its
    /// shard's pieces are 2, 5, 8, ...: 2 counted, 5 not, 8..=14 and 20 counted).
    fn sample_pieces() -> Checkpoint {
        let shard = Shard::new(1, 3).unwrap();
        let mut tally = Tally::new(130);
        let eight = Counts {
            total: 8,
            unique: 8,
        };
        tally.record(3, eight);
        let mut fp = FramePieces::new(shard, 5);
        for p in [2, 8, 11, 14, 20] {
            fp.record(p, 3, eight);
        }
        tally.pieces.insert(5, fp);
        Checkpoint {
            n: 12,
            split: "frame1-rows2-v1".to_string(),
            subproblems: 130,
            shard,
            tally,
            seconds: 1.5,
            cpu_seconds: Some(2.9),
        }
    }

    #[test]
    fn a_checkpoint_of_pieces_round_trips_and_its_forgeries_are_refused() {
        let c = sample_pieces();
        let text = c.to_text();
        assert!(text.contains("\npieces 5@5:40/40+8-14+20-20\n"), "{text}");
        assert_eq!(Checkpoint::from_text(Path::new("x"), &text).unwrap(), c);
        let forged = |from: &str, to: &str| {
            assert!(text.contains(from), "{from}");
            refused(&resealed(&text.replacen(from, to, 1)))
        };
        assert!(forged("\npieces 5@", "\npieces 3@").contains("lists as finished"));
        assert!(forged("\npieces 5@5:", "\npieces 5@6:").contains("not in shard 1/3"));
        assert!(forged("+8-14+20-20", "+8-14+17-20").contains("range 17-20"));
        assert!(forged("+8-14", "+5-14").contains("range 5-14"));
        assert!(forged("+8-14", "+8-13").contains("range 8-13"));
        assert!(forged("+8-14", "+14-8").contains("range 14-8"));
        assert!(forged("5@5:40/40", "5@5:40").contains("is not index@next"));
        assert!(forged("5@5:40/40", "130@5:40/40").contains("past the 130"));
        assert!(forged(" 5@5:40/40+8-14+20-20", " 5@5:40/40 5@5:0/0").contains("increasing"));
        assert!(forged("\npieces 5@5:40/40+8-14+20-20", "").contains("'pieces' line"));
        // Whole frames have no such line.
        let whole = sample().to_text();
        assert!(!whole.contains("pieces"));
        let extra = whole.replace("\nchecksum", "\npieces\nchecksum");
        assert!(refused(&resealed(&extra)).contains("unexpected line"));
    }

    /// The text with its checksum line recomputed, as a careful forger would.
    fn resealed(text: &str) -> String {
        let body_end = text.trim_end_matches('\n').rfind('\n').unwrap() + 1;
        let body = &text[..body_end];
        format!("{body}checksum {}\n", checksum::checksum(body.as_bytes()))
    }

    fn refused(text: &str) -> String {
        match Checkpoint::from_text(Path::new("x.ckpt"), text) {
            Ok(c) => panic!("accepted {c:?} from\n{text}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_checkpoint_survives_a_save_and_a_load() {
        let dir = std::env::temp_dir().join(format!("queens-ckpt-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        let c = sample();
        c.save(&path).unwrap();
        c.save(&path).unwrap();
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["run.ckpt"], "no temporary file is left");
        assert_eq!(Checkpoint::load(&path, 12).unwrap(), Some(c));
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(Checkpoint::load(&path, 12).unwrap(), None);
    }

    #[test]
    fn the_text_is_its_own_checksummed_round_trip() {
        let c = sample();
        let text = c.to_text();
        assert!(text.contains("\nparts 0:16/2 129:8/1\n"), "{text}");
        assert!(text
            .lines()
            .last()
            .unwrap()
            .starts_with("checksum fnv1a64:"));
        assert_eq!(resealed(&text), text);
        assert_eq!(Checkpoint::from_text(Path::new("x"), &text).unwrap(), c);
    }

    /// The processor time is written after the wall time; a file without it (from a `queens`
    /// older than the line) is read, with the time unknown, and written back without it.
    #[test]
    fn the_processor_time_is_kept_and_may_be_missing() {
        let text = sample().to_text();
        assert!(
            text.contains("\nseconds 1.5\ncpu-seconds 2.9\ndone "),
            "{text}"
        );
        let older = resealed(&text.replace("cpu-seconds 2.9\n", ""));
        let read = Checkpoint::from_text(Path::new("x"), &older).unwrap();
        assert_eq!(read.cpu_seconds, None);
        assert_eq!(read.seconds, 1.5);
        assert_eq!(read.to_text(), older);
    }

    #[test]
    fn damaged_checkpoints_are_refused_with_the_reason() {
        let text = sample().to_text();
        let cases = [
            (text.replace("finished 2", "finished 3"), "checksum says"),
            (
                resealed(&text.replace("finished 2", "finished 3")),
                "'finished' says 3",
            ),
            (
                resealed(&text.replace("n 12", "n twelve")),
                "'n' is not a whole number",
            ),
            (resealed(&text.replace("n 12", "n 33")), "not from 1 to 32"),
            (
                text.replace("queens-count-checkpoint 2", "hello"),
                "first line",
            ),
            (
                text.lines().take(4).collect::<Vec<_>>().join("\n"),
                "line break",
            ),
            (
                text.lines().take(4).map(|l| format!("{l}\n")).collect(),
                "checksum",
            ),
            (
                resealed(&text.replace("total 24", "total 25")),
                "'total' says 25 but the parts add up to 24",
            ),
            (
                resealed(&text.replace("unique 3", "unique 4")),
                "'unique' says 4",
            ),
            (
                resealed(&text.replace("129:8/1", "129:8/9")),
                "more classes",
            ),
            (
                resealed(&text.replace(" 129:8/1", "")),
                "does not give its counts",
            ),
            (
                resealed(&text.replace("129:8/1", "128:8/1")),
                "'done' says the next finished one is 129",
            ),
            (
                resealed(&text.replace("129:8/1", "129:8/1 129:8/1")),
                "lists only 2",
            ),
            (
                resealed(&text.replace("seconds 1.5", "seconds -1")),
                "'seconds'",
            ),
            (
                resealed(&text.replace("\nseconds 1.5", "\nseconds 1.5\nseconds 1.5")),
                "expected the 'done' line",
            ),
            (
                resealed(&text.replace("cpu-seconds 2.9", "cpu-seconds -1")),
                "'cpu-seconds' is not a number of seconds",
            ),
            (
                resealed(&text.replace("cpu-seconds 2.9", "cpu-seconds inf")),
                "'cpu-seconds' is not a number of seconds",
            ),
            (
                resealed(&text.replace("cpu-seconds 2.9\n", "cpu-seconds 2.9\ncpu-seconds 2.9\n")),
                "expected the 'done' line",
            ),
            (
                resealed(&text.replace("parts ", "parts 5:1/1 ")),
                "'parts' gives subproblem 5",
            ),
            (
                resealed(&text.replace("shard 0/1", "shard 1/2")),
                "not in shard 1/2",
            ),
            (
                resealed(&text.replace("subproblems 130", "subproblems 99999999999")),
                "more than any plan",
            ),
            (
                resealed(&text.replace("total 24", "total +24")),
                "'total' is not a whole number",
            ),
            (
                resealed(
                    &text.replace("total 24", "total 340282366920938463463374607431768211456"),
                ),
                "out of range",
            ),
            (
                resealed(&text.replace("0:16/2", "0:340282366920938463463374607431768211455/2")),
                "past the largest total",
            ),
            (text.replace('\n', "\r\n"), "carriage return"),
            (
                text.replace("queens-count-checkpoint 2", "queens-count-checkpoint 3"),
                "unknown version '3'",
            ),
        ];
        for (bad, why) in cases {
            let err = refused(&bad);
            assert!(err.contains(why), "wanted '{why}', got: {err}");
            assert!(err.contains("x.ckpt"), "{err}");
        }
    }

    #[test]
    fn a_bit_past_the_plan_is_refused() {
        let mut c = sample();
        c.tally.done[2] |= 1 << 5; // subproblem 133 of 130
        c.tally.finished += 1;
        let err = refused(&c.to_text());
        assert!(err.contains("subproblem 133, past the 130"), "{err}");
    }

    #[test]
    fn every_single_character_changed_is_refused() {
        for sample in [sample(), sample_pieces()] {
            every_change_refused(&sample.to_text());
        }
    }

    fn every_change_refused(text: &str) {
        let bytes = text.as_bytes();
        let mut accepted = 0;
        for i in 0..bytes.len() {
            for b in [b'0', b'1', b'9', b'a', b'f', b' ', b'\n', b'x'] {
                if bytes[i] == b {
                    continue;
                }
                let mut copy = bytes.to_vec();
                copy[i] = b;
                let Ok(copy) = String::from_utf8(copy) else {
                    continue;
                };
                if Checkpoint::from_text(Path::new("x"), &copy).is_ok() {
                    accepted += 1;
                }
            }
        }
        assert_eq!(accepted, 0);
    }

    #[test]
    fn a_version_1_checkpoint_is_refused_as_such() {
        let v1 = "queens-count-checkpoint 1\nn 12\nsplit frame1-v1\nsubproblems 130\n\
                  shard 0/1\nfinished 0\ntotal 0\nunique 0\nseconds 0\ndone \
                  000000000000000000000000000000000000000000000000\n";
        let err = refused(v1);
        assert!(err.contains("version 1 checkpoint"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn only_the_names_of_its_temporary_files_are_taken_for_them() {
        let name = std::ffi::OsStr::new("run.ck");
        let is = |f: &str| is_temporary_of(name, std::ffi::OsStr::new(f));
        assert!(is(".run.ck.1234.0123456789abcdef.tmp"));
        assert!(!is("run.ck"));
        assert!(!is("run.ck.lock"));
        assert!(!is(".run.ck.1234.0123456789abcdef.tmp~"));
        assert!(!is(".run.ck.12a4.0123456789abcdef.tmp"));
        assert!(!is(".run.ck..0123456789abcdef.tmp"));
        assert!(!is(".run.ck.1234.0123456789abcde.tmp"));
        assert!(!is(".run.ck.1234.0123456789abcdeg.tmp"));
        assert!(!is(".other.ck.1234.0123456789abcdef.tmp"));
        assert!(!is(".run.ckx.1234.0123456789abcdef.tmp"));
    }

    #[test]
    fn stale_temporary_files_of_the_checkpoint_are_removed_and_nothing_else() {
        let dir = tempfile_dir("stale");
        let path = dir.join("run.ck");
        sample().save(&path).unwrap();
        let stale = [
            ".run.ck.1.0123456789abcdef.tmp",
            ".run.ck.4194303.fedcba9876543210.tmp",
        ];
        let kept = [".other.ck.1.0123456789abcdef.tmp", "run.ck.lock", "notes"];
        for f in stale.iter().chain(&kept) {
            fs::write(dir.join(f), "x").unwrap();
        }
        // A folder of a temporary file's name is not a save's.
        let folder = ".run.ck.2.0123456789abcdef.tmp";
        fs::create_dir(dir.join(folder)).unwrap();
        assert_eq!(remove_stale_temporaries(&path), 2);
        for f in stale {
            assert!(!dir.join(f).exists(), "{f} is left");
        }
        for f in kept.iter().chain([&folder]) {
            assert!(dir.join(f).exists(), "{f} is removed");
        }
        assert!(Checkpoint::load(&path, sample().n).unwrap().is_some());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_temporary_name_taken_by_a_symlink_is_never_written_through() {
        let dir = std::env::temp_dir().join(format!("queens-ckpt-link-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim");
        fs::write(&victim, "precious").unwrap();
        let link = dir.join("taken.tmp");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        // The way every temporary file is opened refuses an existing name, a symlink included.
        let opened = OpenOptions::new().write(true).create_new(true).open(&link);
        assert_eq!(opened.unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        // And a save goes to a fresh name beside the target, then over the target only.
        let target = dir.join("run.ckpt");
        std::os::unix::fs::symlink(&victim, dir.join("run.ckpt.tmp")).unwrap();
        sample().save(&target).unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        let (_, temp) = create_temporary(&target).unwrap();
        assert!(temp.starts_with(&dir) && temp != target);
        let name = temp.file_name().unwrap().to_str().unwrap();
        assert!(
            name.starts_with(".run.ckpt.") && name.ends_with(".tmp"),
            "{name}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_checkpoint_of_another_run_is_refused() {
        let c = sample();
        let p = Path::new("x");
        assert!(c.check_matches(p, 12, SPLIT, 130, Shard::WHOLE).is_ok());
        let err = c
            .check_matches(p, 13, SPLIT, 130, Shard::WHOLE)
            .unwrap_err();
        assert!(err.to_string().contains("N = 12, not N = 13"));
        let err = c.check_matches(p, 12, SPLIT, 130, Shard::new(1, 2).unwrap());
        assert!(err.unwrap_err().to_string().contains("shard 0/1"));
    }
}
