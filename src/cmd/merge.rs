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
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{bail, Context};
use queens_core::count::shard_result::{Parser, ShardResult, UniqueUnit, MAX_LINE};
use queens_core::count::{self, Run, MAX_SHARDS};
use serde::Serialize;

use crate::cli::{MergeArgs, Recount};
use crate::json::round_ms;
use crate::output::note;
use crate::status::Status;

/// The merged result, as `--format json` (`--json`) prints it.
#[derive(Debug, Serialize)]
struct MergedJson {
    n: usize,
    total: u128,
    unique: u128,
    /// Always `classes`: the eighths of the shards are divided by 8 once summed.
    unique_unit: &'static str,
    seconds: f64,
    shards: u64,
    split: String,
    subproblems: usize,
}

/// The most results (lines) `merge` reads in all: one per shard, and no more shards exist.
const MAX_PARTS: usize = MAX_SHARDS as usize;

/// Runs `queens merge`.
pub fn run(args: &MergeArgs) -> anyhow::Result<Status> {
    let json = args.json()?;
    let mut parts: Vec<(String, ShardResult)> = Vec::new();
    let mut parser = Parser::new();
    let mut seen = Seen::default();
    for path in &args.files {
        seen.check(path)?;
        parts.extend(read_parts(path, MAX_PARTS - parts.len(), &mut parser)?);
    }
    let merged = count::merge(&parts)?;
    if let Some(how) = args.recount {
        if !recount(&parts, how, args.threads)? {
            return Ok(Status::No);
        }
    }
    let text = if json {
        let json = MergedJson {
            n: merged.n,
            total: merged.counts.total,
            unique: merged.counts.unique,
            unique_unit: UniqueUnit::Classes.name(),
            seconds: round_ms(merged.seconds),
            shards: merged.shards,
            split: merged.split.to_string(),
            subproblems: merged.subproblems,
        };
        serde_json::to_string(&json)?
    } else if args.unique {
        merged.counts.unique.to_string()
    } else {
        merged.counts.total.to_string()
    };
    crate::output::print_result(&text)?;
    Ok(Status::Success)
}

/// The shard results of a file (`-`: standard input): one JSON object per line (blank lines
/// skipped), at most `room` of them. Each is named after the file, and the line number when the
/// file holds several, and checked on its own by `queens_core::count::shard_result` (syntax,
/// checksum, board, counts, shard, split) before the next but one is read. The file is read
/// once, so pipes, `/dev/stdin` and `<(...)` work: a line waits for the next one to be read
/// before it is checked, so that it is named with its line number exactly when the file holds
/// another. A line at a time and never more than [`MAX_LINE`] bytes of one, so memory is the
/// results kept, whatever the file holds.
fn read_parts(
    path: &Path,
    room: usize,
    parser: &mut Parser,
) -> anyhow::Result<Vec<(String, ShardResult)>> {
    let shown = shown(path);
    let mut parts = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    let mut lines = 0usize;
    let mut parse = |i: usize, line: &str, alone: bool| -> anyhow::Result<()> {
        let name = if alone {
            shown.clone()
        } else {
            format!("{shown} line {}", i + 1)
        };
        let part = parser.parse(&name, line)?;
        parts.push((name, part));
        Ok(())
    };
    for_each_line(path, &shown, |i, line| {
        lines += 1;
        if lines > room {
            bail!(
                "{shown} brings the results to more than {MAX_PARTS}, the most shards a count has"
            );
        }
        if let Some((j, before)) = pending.replace((i, line.to_string())) {
            parse(j, &before, false)?;
        }
        Ok(())
    })?;
    match pending {
        None => bail!("{shown} is empty: it holds no shard result"),
        Some((i, line)) => parse(i, &line, lines == 1)?,
    }
    Ok(parts)
}

/// The files read so far, by device and inode, so that one file given under two names (a
/// symbolic or hard link, `./a` and `a`, `-` and `/dev/stdin`) is refused at once with that
/// said, instead of as a shard given twice (or, for a pipe read the second time, as empty).
#[derive(Default)]
struct Seen(Vec<((u64, u64), String)>);

impl Seen {
    fn check(&mut self, path: &Path) -> anyhow::Result<()> {
        let Some(id) = file_id(path) else {
            return Ok(()); // unreadable: reading it says why
        };
        let shown = shown(path);
        if let Some((_, first)) = self.0.iter().find(|(seen, _)| *seen == id) {
            if *first == shown {
                bail!("{shown} is given twice: each shard result is read once");
            }
            bail!("{first} and {shown} are the same file: each shard result is read once");
        }
        self.0.push((id, shown));
        Ok(())
    }
}

/// The device and inode of the file `path` names (`-`: standard input), where the system has
/// them.
#[cfg(unix)]
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let meta = if path == Path::new("-") {
        let stdin = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
        fs::File::from(stdin).metadata().ok()?
    } else {
        fs::metadata(path).ok()?
    };
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn file_id(_path: &Path) -> Option<(u64, u64)> {
    None
}

/// How a file is named in messages: `-` is standard input.
fn shown(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".to_string()
    } else {
        queens_core::text::escape_path(path)
    }
}

/// Calls `f` with the number (from 0) and the text (trimmed, the first without a byte-order
/// mark) of every line of `path` (`-`: standard input) that is not blank; a line longer than
/// [`MAX_LINE`] bytes, or not UTF-8, is an error naming it (`shown`).
fn for_each_line(
    path: &Path,
    shown: &str,
    mut f: impl FnMut(usize, &str) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let input: Box<dyn Read> = if path == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(fs::File::open(path).with_context(|| format!("cannot read {shown}"))?)
    };
    let mut reader = BufReader::new(input);
    let mut buf = Vec::with_capacity(256);
    for i in 0.. {
        buf.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 2)
            .read_until(b'\n', &mut buf)
            .with_context(|| format!("cannot read {shown}"))?;
        if read == 0 {
            return Ok(());
        }
        if buf.len() > MAX_LINE + 1 || (buf.len() == MAX_LINE + 1 && buf.last() != Some(&b'\n')) {
            bail!(
                "{shown} line {}: longer than {MAX_LINE} bytes, which no shard result is",
                i + 1
            );
        }
        let Ok(line) = std::str::from_utf8(&buf) else {
            bail!("{shown} line {}: not text (not UTF-8)", i + 1);
        };
        // A UTF-8 byte-order mark that an editor put at the start of the file is skipped, as
        // `verify` and `complete` skip it (it was "expected `{` at byte 1").
        let line = if i == 0 {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        } else {
            line
        };
        let line = line.trim();
        if !line.is_empty() {
            f(i, line)?;
        }
    }
    Ok(())
}

/// `--recount K` (or `P%`): recounts that many of the parts chosen at random, each whole shard
/// by the plain search of its subproblems ([`Run::recount_shard_parallel`], on `threads`
/// threads), saying on standard error whether each agrees. Whether all agree.
fn recount(parts: &[(String, ShardResult)], how: Recount, threads: usize) -> anyhow::Result<bool> {
    let all: Vec<usize> = (0..parts.len()).collect();
    let chosen = queens_core::random::Rng::from_entropy().sample(&all, how.of(parts.len()));
    let mut disagree = 0usize;
    for &i in &chosen {
        let (name, p) = &parts[i];
        let Some(run) = Run::by_split(p.n, p.split, p.shard) else {
            bail!("{name}: the split {} cannot be recounted", p.split);
        };
        let Some(again) = run.recount_shard_parallel(threads)? else {
            bail!("{name}: the recount was cancelled");
        };
        let verdict = if again == p.counts {
            "agrees"
        } else {
            disagree += 1;
            "DISAGREES"
        };
        note!(
            "queens: shard {} ({name}): saved {}/{}, recounted {}/{}: {verdict}",
            p.shard,
            p.counts.total,
            p.counts.unique,
            again.total,
            again.unique
        );
    }
    if disagree > 0 {
        note!(
            "queens: error: {disagree} of {} recounted shards disagree: the merge is refused",
            chosen.len()
        );
    } else {
        note!("queens: all {} recounted shards agree", chosen.len());
    }
    Ok(disagree == 0)
}
