//! `queens merge FILE...`: adds up the shard results of `queens count --shard I/M --json`.
//!
//! A file holds one result or several, one JSON object per line (as collected from many
//! machines by GNU parallel). This command reads the files, a line at a time and never more
//! than `MAX_LINE` bytes of one, and at most `queens_core::count::MAX_SHARDS` results in all;
//! each line is read and checked alone by `queens_core::count::shard_result` (the same code
//! writes the lines), and the set of them by `queens_core::count::merge` (every shard there
//! once, the same board, shards and split, sums in range, a sum some board can have), whose
//! errors name the files or the shards at fault. `--recount K` recounts K random parts, each
//! whole shard by the plain search of its subproblems, before the sum is printed.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use anyhow::{bail, Context};
use queens_core::count::shard_result::{Parser, ShardResult, MAX_LINE};
use queens_core::count::{self, Run, MAX_SHARDS};
use serde::Serialize;

use crate::cli::MergeArgs;
use crate::json::round_ms;
use crate::status::Status;

/// The merged result, as `--json` prints it.
#[derive(Debug, Serialize)]
struct MergedJson {
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
    let mut parts: Vec<(String, ShardResult)> = Vec::new();
    let mut parser = Parser::new();
    for path in &args.files {
        parts.extend(read_parts(path, MAX_PARTS - parts.len(), &mut parser)?);
    }
    let merged = count::merge(&parts)?;
    if let Some(k) = args.recount {
        if !recount(&parts, k)? {
            return Ok(Status::No);
        }
    }
    let mut out = super::stdout();
    if args.json {
        let json = MergedJson {
            n: merged.n,
            total: merged.counts.total,
            unique: merged.counts.unique,
            seconds: round_ms(merged.seconds),
            shards: merged.shards,
            split: merged.split.to_string(),
            subproblems: merged.subproblems,
        };
        serde_json::to_writer(&mut out, &json)?;
        writeln!(out)?;
    } else if args.unique {
        writeln!(out, "{}", merged.counts.unique)?;
    } else {
        writeln!(out, "{}", merged.counts.total)?;
    }
    out.flush()?;
    Ok(Status::Success)
}

/// The shard results of a file: one JSON object per line (blank lines skipped), at most
/// `room` of them. Each is named after the file, and the line number when the file holds
/// several, and checked on its own by `queens_core::count::shard_result` (syntax, checksum,
/// board, counts, shard, split) before any other is read. The file is streamed twice (once to
/// count its lines, once to read them), a line at a time and never more than [`MAX_LINE`]
/// bytes of one, so memory is the results kept, whatever the file holds.
fn read_parts(
    path: &Path,
    room: usize,
    parser: &mut Parser,
) -> anyhow::Result<Vec<(String, ShardResult)>> {
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
        let name = if lines == 1 {
            path.display().to_string()
        } else {
            format!("{} line {}", path.display(), i + 1)
        };
        let part = parser.parse(&name, line)?;
        parts.push((name, part));
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

/// `--recount K`: recounts K of the parts chosen at random, each whole shard by the plain
/// search of its subproblems ([`Run::recount_shard`]), saying on standard error whether each
/// agrees. Whether all agree.
fn recount(parts: &[(String, ShardResult)], k: u64) -> anyhow::Result<bool> {
    let all: Vec<usize> = (0..parts.len()).collect();
    let k = usize::try_from(k).unwrap_or(usize::MAX);
    let chosen = queens_core::random::Rng::from_entropy().sample(&all, k);
    let mut disagree = 0usize;
    for &i in &chosen {
        let (name, p) = &parts[i];
        let Some(run) = Run::by_split(p.n, p.split, p.shard) else {
            bail!("{name}: the split {} cannot be recounted", p.split);
        };
        let Some(again) = run.threads(1).recount_shard() else {
            bail!("{name}: the recount was cancelled");
        };
        let verdict = if again == p.counts {
            "agrees"
        } else {
            disagree += 1;
            "DISAGREES"
        };
        eprintln!(
            "queens: shard {} ({name}): saved {}/{}, recounted {}/{}: {verdict}",
            p.shard, p.counts.total, p.counts.unique, again.total, again.unique
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
