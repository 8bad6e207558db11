//! `queens merge FILE...`: adds up the shard results of `queens count --shard I/M --json`.
//!
//! A file holds one result or several, one JSON object per line (as collected from many
//! machines by GNU parallel). Every result must carry a valid checksum (results of binaries
//! from before checksums are refused, saying so), be of a board the engine counts, of the
//! engine's split of that board, and of the same number of shards (at most
//! `queens_core::count::MAX_SHARDS`); every shard must be present exactly once; and the sums
//! must fit in 128 bits. Otherwise the merge refuses, naming the files or the shards at fault,
//! so that a lost, repeated, damaged or foreign part never yields a silently wrong total.
//! Memory and time are proportional to the parts given, never to a number a part claims.
//! Each line is read and checked alone by `queens_core::count::shard_result` (the same code
//! writes the lines); what needs several parts is checked here, and the sum must be a count
//! some board can have (`queens_core::count::check_complete`: an even total, classes between
//! an eighth and a half of it), so that a part edited and re-signed is refused all the same.
//! The parts may come from machines with any number of cores: the split depends on N and the
//! memory budget only. `--recount K` recounts K random parts, each whole shard by the plain
//! search of its subproblems, before the sum is printed.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use queens_core::count::shard_result::{Parser, ShardResult, MAX_LINE};
use queens_core::count::{self, Run, MAX_SHARDS};
use serde::Serialize;

use crate::cli::MergeArgs;
use crate::json::round_ms;
use crate::status::Status;

/// The merged result.
#[derive(Debug, Serialize)]
struct Merged {
    n: usize,
    total: u128,
    unique: u128,
    seconds: f64,
    shards: u64,
    split: String,
    subproblems: usize,
}

/// The most results (lines) `merge` reads in all: one per shard, and no more shards exist.
const MAX_PARTS: usize = MAX_SHARDS as usize;

/// Runs `queens merge`.
pub fn run(args: &MergeArgs) -> anyhow::Result<Status> {
    let mut parts: Vec<(PathBuf, ShardResult)> = Vec::new();
    let mut parser = Parser::new();
    for path in &args.files {
        parts.extend(read_parts(path, MAX_PARTS - parts.len(), &mut parser)?);
    }
    let mut merged = merge(&parts)?;
    merged.seconds = round_ms(merged.seconds);
    if let Some(k) = args.recount {
        if !recount(&parts, k)? {
            return Ok(Status::No);
        }
    }
    let mut out = super::stdout();
    if args.json {
        serde_json::to_writer(&mut out, &merged)?;
        writeln!(out)?;
    } else if args.unique {
        writeln!(out, "{}", merged.unique)?;
    } else {
        writeln!(out, "{}", merged.total)?;
    }
    out.flush()?;
    Ok(Status::Success)
}

/// The shard results of a file: one JSON object per line (blank lines skipped), at most
/// `room` of them. Each is labelled with the file's name, and the line number when the file
/// holds several, and checked on its own by `queens_core::count::shard_result` (syntax,
/// checksum, board, counts, shard, split) before any other is read. The file is streamed twice
/// (once to count its lines, once to read them), a line at a time and never more than
/// [`MAX_LINE`] bytes of one, so memory is the results kept, whatever the file holds.
fn read_parts(
    path: &Path,
    room: usize,
    parser: &mut Parser,
) -> anyhow::Result<Vec<(PathBuf, ShardResult)>> {
    let mut lines = 0usize;
    for_each_line(path, |_, _| {
        lines += 1;
        if lines > room {
            bail!(
                "{} brings the results to more than {MAX_PARTS}, the most shards a count has",
                path.display()
            );
        }
        Ok(())
    })?;
    if lines == 0 {
        bail!("{} is empty: it holds no shard result", path.display());
    }
    let mut parts = Vec::with_capacity(lines);
    for_each_line(path, |i, line| {
        let label = if lines == 1 {
            path.to_path_buf()
        } else {
            PathBuf::from(format!("{} line {}", path.display(), i + 1))
        };
        let part = parser.parse(&label.display().to_string(), line)?;
        parts.push((label, part));
        Ok(())
    })?;
    Ok(parts)
}

/// Calls `f` with the number (from 0) and the text (trimmed) of every line of `path` that is
/// not blank; a line longer than [`MAX_LINE`] bytes, or not UTF-8, is an error naming it.
fn for_each_line(
    path: &Path,
    mut f: impl FnMut(usize, &str) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let file = fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut reader = BufReader::new(file);
    let mut buf = Vec::with_capacity(256);
    for i in 0.. {
        buf.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 2)
            .read_until(b'\n', &mut buf)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if read == 0 {
            return Ok(());
        }
        if buf.len() > MAX_LINE + 1 || (buf.len() == MAX_LINE + 1 && buf.last() != Some(&b'\n')) {
            bail!(
                "{} line {}: longer than {MAX_LINE} bytes, which no shard result is",
                path.display(),
                i + 1
            );
        }
        let Ok(line) = std::str::from_utf8(&buf) else {
            bail!("{} line {}: not text (not UTF-8)", path.display(), i + 1);
        };
        let line = line.trim();
        if !line.is_empty() {
            f(i, line)?;
        }
    }
    Ok(())
}

fn merge(parts: &[(PathBuf, ShardResult)]) -> anyhow::Result<Merged> {
    let Some((first_path, first)) = parts.first() else {
        bail!("no shard result given");
    };
    // Each part is of a split this binary makes, of as many subproblems as it makes (checked
    // per line); the others must agree with the first.
    let shards = first.shard.count;
    let mut seen: BTreeMap<u64, &Path> = BTreeMap::new();
    let mut merged = Merged {
        n: first.n,
        total: 0,
        unique: 0,
        seconds: 0.0,
        shards,
        split: first.split.to_string(),
        subproblems: first.subproblems,
    };
    for (path, p) in parts {
        let (index, m) = (p.shard.index, p.shard.count);
        let differs = if p.n != first.n {
            Some(format!(
                "N = {} but {} has N = {}",
                p.n,
                first_path.display(),
                first.n
            ))
        } else if m != shards {
            Some(format!(
                "it is one of {m} shards but {} is one of {shards}",
                first_path.display()
            ))
        } else if p.split != first.split || p.subproblems != first.subproblems {
            Some(format!(
                "its split is {} of {} subproblems but {} has {} of {}",
                p.split,
                p.subproblems,
                first_path.display(),
                first.split,
                first.subproblems
            ))
        } else {
            None
        };
        if let Some(why) = differs {
            bail!("{} does not belong with the others: {why}", path.display());
        }
        if let Some(other) = seen.insert(index, path) {
            bail!(
                "shard {index}/{shards} is given twice: {} and {}",
                other.display(),
                path.display()
            );
        }
        let overflow = || {
            anyhow::anyhow!(
                "the totals add up past 2^128 - 1 at {}: no board the engine counts has that \
                 many solutions, so some part is wrong",
                path.display()
            )
        };
        merged.total = merged
            .total
            .checked_add(p.counts.total)
            .ok_or_else(overflow)?;
        merged.unique = merged
            .unique
            .checked_add(p.counts.unique)
            .ok_or_else(overflow)?;
        merged.seconds += p.seconds;
        if !merged.seconds.is_finite() {
            bail!(
                "the seconds add up past the largest number JSON holds at {}: no run took that \
                 long, so some part is wrong",
                path.display()
            );
        }
    }
    // Every index seen is below `shards`, so the missing ones number `shards - seen`; the first
    // twenty are found by walking the gaps between the indices seen, never listing them all.
    let missing = shards - seen.len() as u64;
    if missing > 0 {
        let mut shown: Vec<String> = Vec::new();
        let mut next = 0u64;
        for &i in seen.keys().chain(std::iter::once(&shards)) {
            while next < i && shown.len() < 20 {
                shown.push(next.to_string());
                next += 1;
            }
            if shown.len() == 20 {
                break;
            }
            next = i + 1;
        }
        let list = shown.join(", ");
        if missing > shown.len() as u64 {
            bail!("missing shards of {shards}: {list}, ... ({missing} in all)");
        }
        bail!("missing shards of {shards}: {list}");
    }
    // The half-board engine's shards and those of pieces report eighths of classes (Burnside's lemma holds for
    // the whole board only): their sum, divided by 8, is the number of classes. (Shard 0/1 is
    // the whole board, whose classes are already counted.)
    let eighths = first.split.unique_in_eighths() && shards > 1;
    let possible = if eighths {
        count::classes_of_eighths(merged.n, merged.total, merged.unique).map(|u| merged.unique = u)
    } else {
        count::check_complete(
            merged.n,
            count::Counts {
                total: merged.total,
                unique: merged.unique,
            },
        )
    };
    if let Err(why) = possible {
        bail!(
            "the parts add up to a count no board of N = {} can have, so some part is wrong \
             (whatever its checksum says): {why}",
            merged.n
        );
    }
    Ok(merged)
}

/// `--recount K`: recounts K of the parts chosen at random, each whole shard by the plain
/// search of its subproblems ([`Run::recount_shard`]), saying on standard error whether each
/// agrees. Whether all agree.
fn recount(parts: &[(PathBuf, ShardResult)], k: u64) -> anyhow::Result<bool> {
    let all: Vec<usize> = (0..parts.len()).collect();
    let k = usize::try_from(k).unwrap_or(usize::MAX);
    let chosen = queens_core::random::Rng::from_entropy().sample(&all, k);
    let mut disagree = 0usize;
    for &i in &chosen {
        let (path, p) = &parts[i];
        let Some(run) = Run::of_split(p.n, &p.split.to_string(), p.shard) else {
            bail!(
                "{}: the split {} cannot be recounted",
                path.display(),
                p.split
            );
        };
        let Some(again) = run.threads(1).recount_shard() else {
            bail!("{}: the recount was cancelled", path.display());
        };
        let verdict = if again == p.counts {
            "agrees"
        } else {
            disagree += 1;
            "DISAGREES"
        };
        eprintln!(
            "queens: shard {} ({}): saved {}/{}, recounted {}/{}: {verdict}",
            p.shard,
            path.display(),
            p.counts.total,
            p.counts.unique,
            again.total,
            again.unique
        );
    }
    if disagree > 0 {
        eprintln!(
            "queens: error: {disagree} of {} recounted shards disagree: the merge is refused",
            chosen.len()
        );
    } else {
        eprintln!("queens: all {} recounted shards agree", chosen.len());
    }
    Ok(disagree == 0)
}
