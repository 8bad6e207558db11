//! `queens complete N --fixed R:C,...` and `queens complete FILE`: one solution containing the
//! given queens, or (`--count`) how many there are.

use std::fs;
use std::io::{self, Read, Write};

use anyhow::Context;
use queens_core::complete::{parse_instance, Completion, Counted, Instance};

use crate::cli::CompleteArgs;
use crate::format::write_stream;
use crate::status::Status;

/// Runs `queens complete`.
pub fn run(args: &CompleteArgs) -> anyhow::Result<Status> {
    let instance = read_instance(args)?;
    let n = instance.n;
    let mut out = super::stdout();
    if args.count {
        let count = match instance.count()? {
            Counted::Completions(count) => {
                if count == 0 {
                    eprintln!("queens: no completion: {}", impossible(&instance));
                }
                count
            }
            Counted::GivenQueensAttack(flaw) => {
                eprintln!("queens: no completion: {flaw}");
                0
            }
        };
        writeln!(out, "{count}")?;
        out.flush()?;
        return Ok(if count > 0 {
            Status::Success
        } else {
            Status::No
        });
    }
    args.format.check_size(n)?;
    match instance.solve()? {
        Completion::Found(queens) => {
            write_stream(args.format, &mut out, n, queens.into_iter())?;
            out.flush().context("writing the solution")?;
            Ok(Status::Success)
        }
        Completion::GivenQueensAttack(flaw) => {
            eprintln!("queens: no completion: {flaw}");
            Ok(Status::No)
        }
        Completion::Impossible => {
            eprintln!("queens: no completion: {}", impossible(&instance));
            Ok(Status::No)
        }
    }
}

fn impossible(instance: &Instance) -> String {
    let n = instance.n;
    let k = instance.fixed.len();
    format!(
        "no solution of the {n}x{n} board contains the {k} given queen{}",
        if k == 1 { "" } else { "s" }
    )
}

/// The instance: N with the --fixed queens, or the file's.
fn read_instance(args: &CompleteArgs) -> anyhow::Result<Instance> {
    if let Ok(n) = args.target.trim().parse::<usize>() {
        if n == 0 {
            anyhow::bail!("N must be at least 1 (got 0)");
        }
        return Ok(Instance {
            n,
            fixed: args.fixed.clone(),
        });
    }
    if !args.fixed.is_empty() {
        anyhow::bail!(
            "--fixed goes with a board size N, not with an instance file ('{}')",
            args.target
        );
    }
    let (name, text) = if args.target == "-" {
        let mut text = String::new();
        io::stdin()
            .read_to_string(&mut text)
            .context("cannot read standard input")?;
        ("standard input".to_string(), text)
    } else {
        let text = fs::read_to_string(&args.target)
            .with_context(|| format!("cannot read {}", args.target))?;
        (args.target.clone(), text)
    };
    parse_instance(&text).with_context(|| format!("in {name}"))
}
