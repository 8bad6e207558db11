//! The reading of a checkpoint's text: its version, MAC and checksum first, then every field in
//! its order, each checked against the others (the finished subproblems against the bits, the
//! bits against the plan and the shard, each part against the bits, the totals against the sum
//! of the parts, the pieces against their shard), so that a file that does not say exactly what
//! a run saved is refused with the reason, never resumed.

use std::path::Path;

use super::state::{has_pieces, shorten, Checkpoint, MAGIC, MAX_SUBPROBLEMS, VERSION};
use crate::count::control::Tally;
use crate::count::frames::pieces::{self, FramePieces};
use crate::count::shard::Shard;
use crate::count::split::Split;
use crate::count::types::MAX_RUN_SECONDS;
use crate::count::types::{add_counts, CountError, Counts, MAX_N};
use crate::count::{checksum, mac};

impl Checkpoint {
    /// Parses a file's text and checks that its fields agree; `path` only names the file in
    /// errors. Whether they agree with a run (the board's split has that many subproblems, the
    /// parts are possible) is checked when the run resumes it ([`Run::resume`]).
    ///
    /// Memory: the checkpoint holds 32 bytes for each subproblem its `subproblems` line
    /// claims (at most [`MAX_SUBPROBLEMS`]), up to 128 times the text's `done` line. [`load`]
    /// reads no more of a file than the largest checkpoint of its board's split; text from
    /// elsewhere should be bounded the same way before it is given here.
    ///
    /// [`Run::resume`]: crate::count::Run::resume
    /// [`load`]: Checkpoint::load
    pub fn from_text(path: &Path, text: &str) -> Result<Checkpoint, CountError> {
        let bad = |reason: String| CountError::CheckpointMalformed {
            path: path.display().to_string(),
            reason,
        };
        if text.is_empty() {
            return Err(bad(
                "it is empty (no save leaves an empty file: something else made or emptied \
                 it); delete it to start the run afresh"
                    .to_string(),
            ));
        }
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
        let lower_hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        if hex.len() != 16 * words || !hex.bytes().all(lower_hex) {
            return Err(bad(format!(
                "'done' should have {} lower-case hexadecimal digits for {subproblems} subproblems",
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
    let step = shard.count();
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

/// Parses a whole number written in decimal digits only, as a save writes it (no sign, no
/// spaces, no leading zero).
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
    if v.len() > 1 && v.starts_with('0') {
        return Err(bad(format!(
            "'{key}' has a leading zero: '{}' (a save writes none)",
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

/// Parses a number of seconds from 0 to [`MAX_RUN_SECONDS`] (`-0` is 0).
fn seconds_of(v: &str, key: &str, bad: &dyn Fn(String) -> CountError) -> Result<f64, CountError> {
    v.parse()
        .ok()
        .filter(|s: &f64| (0.0..=MAX_RUN_SECONDS).contains(s))
        .map(|s| s + 0.0)
        .ok_or_else(|| {
            bad(format!(
                "'{key}' is not a number of seconds from 0 to 10^12: '{}'",
                shorten(v)
            ))
        })
}
