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

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use queens_core::count::{self, MAX_N, MAX_SHARDS};
use serde::{Deserialize, Serialize};

use crate::cli::MergeArgs;
use crate::json::part_checksum;
use crate::status::Status;

/// The fields of a shard result, all required and none other allowed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Part {
    n: usize,
    total: u128,
    unique: u128,
    seconds: f64,
    shard: Option<u64>,
    shards: Option<u64>,
    split: String,
    subproblems: usize,
    checksum: Option<String>,
}

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
    let mut parts: Vec<(PathBuf, Part)> = Vec::new();
    for path in &args.files {
        parts.extend(read_parts(path, MAX_PARTS - parts.len())?);
    }
    let mut merged = merge(&parts)?;
    merged.seconds = super::count::round_ms(merged.seconds);
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
/// holds several, and checked on its own (checksum, board, split) before any other is read.
fn read_parts(path: &Path, room: usize) -> anyhow::Result<Vec<(PathBuf, Part)>> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    if lines.is_empty() {
        bail!("{} is empty: it holds no shard result", path.display());
    }
    if lines.len() > room {
        bail!(
            "{} brings the results to more than {MAX_PARTS}, the most shards a count has",
            path.display()
        );
    }
    lines
        .iter()
        .map(|&(i, line)| {
            let label = if lines.len() == 1 {
                path.to_path_buf()
            } else {
                PathBuf::from(format!("{} line {}", path.display(), i + 1))
            };
            let part: Part = serde_json::from_str(line.trim()).with_context(|| {
                format!(
                    "{} is not a shard result of `queens count --shard I/M --json`",
                    label.display()
                )
            })?;
            check_part(&label, &part)?;
            Ok((label, part))
        })
        .collect()
}

/// The checks one part passes alone: its checksum, its board, its counts.
fn check_part(label: &Path, p: &Part) -> anyhow::Result<()> {
    let Some(claimed) = &p.checksum else {
        bail!(
            "{} has no checksum: it was written by a queens binary from before shard results \
             carried one, and cannot be told from a damaged or edited one; count that shard \
             again",
            label.display()
        );
    };
    let actual = part_checksum(
        p.n,
        p.total,
        p.unique,
        p.seconds,
        p.shard,
        p.shards,
        &p.split,
        p.subproblems,
    );
    if *claimed != actual {
        bail!(
            "{}: its checksum says {claimed} but its content gives {actual}: the result was \
             damaged or edited",
            label.display()
        );
    }
    if !(1..=MAX_N).contains(&p.n) {
        bail!(
            "{} is for N = {}, but the counting engine counts N from 1 to {MAX_N}",
            label.display(),
            p.n
        );
    }
    // (The half-board engine's shards and those of pieces report eighths of classes, which
    // may exceed the total.)
    if p.unique > p.total && !count::unique_in_eighths(&p.split) {
        bail!(
            "{} has more classes ({}) than solutions ({})",
            label.display(),
            p.unique,
            p.total
        );
    }
    if !(p.seconds.is_finite() && p.seconds >= 0.0) {
        bail!("{} has a negative or infinite time", label.display());
    }
    Ok(())
}

fn merge(parts: &[(PathBuf, Part)]) -> anyhow::Result<Merged> {
    let Some((first_path, first)) = parts.first() else {
        bail!("no shard result given");
    };
    let shards_of = |path: &Path, p: &Part| -> anyhow::Result<(u64, u64)> {
        match (p.shard, p.shards) {
            (Some(i), Some(m)) if i < m && m <= MAX_SHARDS => Ok((i, m)),
            (Some(_), Some(m)) if m > MAX_SHARDS => bail!(
                "{} says the count has {m} shards, more than the {MAX_SHARDS} a count may have",
                path.display()
            ),
            _ => bail!(
                "{} is not a shard result: it has no valid \"shard\" and \"shards\" (count \
                 with --shard I/M --json)",
                path.display()
            ),
        }
    };
    let (_, shards) = shards_of(first_path, first)?;
    // The plan is built once, for the first part; the others must agree with it.
    match count::split_subproblems(first.n, &first.split) {
        Some(plan) if plan == first.subproblems => {}
        Some(plan) => bail!(
            "{} is of the split {} of {} subproblems, but this binary splits N = {} that way \
             into {plan}: parts of different splits cannot be added",
            first_path.display(),
            first.split,
            first.subproblems,
            first.n,
        ),
        None => bail!(
            "{} is of the split {}, which this binary does not make of N = {} (it makes {} and \
             the halvesK-v1 splits): parts of different splits cannot be added",
            first_path.display(),
            first.split,
            first.n,
            count::SPLIT
        ),
    }
    let mut seen: BTreeMap<u64, &Path> = BTreeMap::new();
    let mut merged = Merged {
        n: first.n,
        total: 0,
        unique: 0,
        seconds: 0.0,
        shards,
        split: first.split.clone(),
        subproblems: first.subproblems,
    };
    for (path, p) in parts {
        let (index, m) = shards_of(path, p)?;
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
        merged.total = merged.total.checked_add(p.total).ok_or_else(overflow)?;
        merged.unique = merged.unique.checked_add(p.unique).ok_or_else(overflow)?;
        merged.seconds += p.seconds;
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
    if count::unique_in_eighths(&merged.split) && shards > 1 {
        merged.unique /= 8;
    }
    Ok(merged)
}
