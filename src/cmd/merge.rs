//! `queens merge FILE...`: adds up the shard results of `queens count --shard I/M --json`.
//!
//! A file holds one result or several, one JSON object per line (as collected from many
//! machines by GNU parallel). Every result must be of the same board, split and number of
//! shards, and every shard must be present exactly once; otherwise the merge refuses, naming
//! the files or the shards at fault, so that a lost or repeated shard never yields a silently
//! wrong total.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use crate::cli::MergeArgs;
use crate::status::Status;

/// The fields of a shard result that the merge reads.
#[derive(Debug, Deserialize)]
struct Part {
    n: usize,
    total: u128,
    unique: u128,
    seconds: f64,
    shard: Option<u64>,
    shards: Option<u64>,
    split: String,
    subproblems: usize,
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

/// Runs `queens merge`.
pub fn run(args: &MergeArgs) -> anyhow::Result<Status> {
    let mut parts: Vec<(PathBuf, Part)> = Vec::new();
    for path in &args.files {
        parts.extend(read_parts(path)?);
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

/// The shard results of a file: one JSON object per line (blank lines skipped). Each is
/// labelled with the file's name, and the line number when the file holds several.
fn read_parts(path: &Path) -> anyhow::Result<Vec<(PathBuf, Part)>> {
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
    lines
        .iter()
        .map(|&(i, line)| {
            let label = if lines.len() == 1 {
                path.to_path_buf()
            } else {
                PathBuf::from(format!("{} line {}", path.display(), i + 1))
            };
            let part = serde_json::from_str(line.trim()).with_context(|| {
                format!(
                    "{} is not a shard result of `queens count --shard I/M --json`",
                    label.display()
                )
            })?;
            Ok((label, part))
        })
        .collect()
}

fn merge(parts: &[(PathBuf, Part)]) -> anyhow::Result<Merged> {
    let (first_path, first) = &parts[0];
    let shards_of = |path: &Path, p: &Part| -> anyhow::Result<(u64, u64)> {
        match (p.shard, p.shards) {
            (Some(i), Some(m)) if i < m => Ok((i, m)),
            _ => bail!(
                "{} is not a shard result: it has no valid \"shard\" and \"shards\" (count \
                 with --shard I/M --json)",
                path.display()
            ),
        }
    };
    let (_, shards) = shards_of(first_path, first)?;
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
        merged.total += p.total;
        merged.unique += p.unique;
        merged.seconds += p.seconds;
    }
    let missing: Vec<String> = (0..shards)
        .filter(|i| !seen.contains_key(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        let shown = if missing.len() > 20 {
            format!(
                "{}, ... ({} in all)",
                missing[..20].join(", "),
                missing.len()
            )
        } else {
            missing.join(", ")
        };
        bail!("missing shards of {shards}: {shown}");
    }
    // The half-board engine's shards report eighths of classes (Burnside's lemma holds for
    // the whole board only): their sum, divided by 8, is the number of classes. (Shard 0/1 is
    // the whole board, whose classes are already counted.)
    if merged.split.starts_with("halves") && shards > 1 {
        merged.unique /= 8;
    }
    Ok(merged)
}
