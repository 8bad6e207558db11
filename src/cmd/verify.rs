//! `queens verify [FILE]`: says for each placement read whether it is a solution.

use std::fs;
use std::io::{self, Read, Write};

use anyhow::Context;
use queens_core::parse::{parse_entries, Entry};
use queens_core::{find_flaw, find_flaw_in_squares};

use crate::cli::VerifyArgs;
use crate::status::Status;

/// Runs `queens verify`.
pub fn run(args: &VerifyArgs) -> anyhow::Result<Status> {
    let (name, text) = match args.file.as_deref() {
        Some(path) if path.as_os_str() != "-" => {
            let text = fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            (path.display().to_string(), text)
        }
        _ => {
            let mut text = String::new();
            io::stdin()
                .read_to_string(&mut text)
                .context("cannot read standard input")?;
            ("standard input".to_string(), text)
        }
    };
    let entries = parse_entries(&text).with_context(|| format!("in {name}"))?;
    if entries.is_empty() {
        anyhow::bail!("{name} holds no placement (expected positions lines or board blocks)");
    }
    let mut out = super::stdout();
    let mut all_good = true;
    for located in &entries {
        let flaw = match &located.entry {
            Entry::Positions(queens) => find_flaw(queens),
            Entry::Board { n, queens } => find_flaw_in_squares(*n, queens.iter().copied()),
        };
        all_good &= flaw.is_none();
        if args.quiet {
            continue;
        }
        let n = located.entry.size();
        match flaw {
            None => writeln!(out, "line {}: {n}x{n}: solution", located.line)?,
            Some(flaw) => writeln!(
                out,
                "line {}: {n}x{n}: not a solution: {flaw}",
                located.line
            )?,
        }
    }
    out.flush()?;
    Ok(if all_good {
        Status::Success
    } else {
        Status::No
    })
}
