//! `queens complete N --fixed R:C,...` and `queens complete FILE`: one solution containing the
//! given queens, or (`--count`) how many there are. A count stops on SIGINT, SIGTERM and SIGHUP
//! (claimed once the instance is read), saying how many completions it found by then.

use std::fs;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context;
use queens_core::bytes;
use queens_core::complete::{
    read_instance_within, Completion, CountEnd, Counted, Instance, InstanceError, InstanceFile,
    InstanceParseError,
};

use crate::cli::{shorten, too_large, CompleteArgs};

use crate::format::{write_stream, Format};
use crate::output::note;
use crate::signals;
use crate::status::Status;

/// The share of the memory budget an instance's text may take: 1/64.
const INPUT_SHARE: u64 = 64;

/// Runs `queens complete`.
pub fn run(args: &CompleteArgs) -> anyhow::Result<Status> {
    let (file, name) = read_instance(args)?;
    let instance = &file.instance;
    let n = instance.n;
    let refused = |err| refusal(err, &file, name.as_deref());
    if args.count {
        let json = match args.format {
            None => false,
            Some(Format::Json) => true,
            Some(_) => anyhow::bail!("--count prints a number: --format json is its only format"),
        };
        // The signals are claimed here, past the read (a signal while it waits ends the
        // command as it ends any program): the first one stops the search, whose completions
        // found so far are a lower bound, said on standard error, never printed as the count.
        let signals = signals::install()?;
        let stop = Arc::new(AtomicBool::new(false));
        signals.raise(Arc::clone(&stop));
        let end = instance
            .count_within_until(args.search.max_memory, &|| stop.load(Ordering::Relaxed))
            .map_err(refused)?;
        let counted = match end {
            CountEnd::Finished(counted) => counted,
            CountEnd::Stopped { found } => {
                note!(
                    "queens: interrupted after finding {found} completion{} so far (the count \
                     is at least {found})",
                    if found == 1 { "" } else { "s" }
                );
                return Ok(signals
                    .caught()
                    .map_or(Status::Interrupted, signals::status_of));
            }
        };
        // A signal that came after the search ended stops nothing: the count is printed.
        let count = match counted {
            Counted::Completions(count) => {
                if count == 0 {
                    note!("queens: no completion: {}", impossible(instance));
                }
                count
            }
            Counted::GivenQueensAttack(flaw) => {
                note!("queens: no completion: {}", file.locate_attack(flaw));
                0
            }
        };
        crate::output::print_result(&if json {
            format!("{{\"n\":{n},\"count\":{count}}}")
        } else {
            count.to_string()
        })?;
        return Ok(if count > 0 {
            Status::Success
        } else {
            Status::No
        });
    }
    let format = args.format.unwrap_or(Format::Board);
    format.check_size(n)?;
    match instance
        .solve_within(args.search.max_memory)
        .map_err(refused)?
    {
        Completion::Found(queens) => {
            let mut out = super::stdout();
            write_stream(format, &mut out, n, queens.into_iter())?;
            out.flush().context("writing the solution")?;
            Ok(Status::Success)
        }
        Completion::GivenQueensAttack(flaw) => {
            no_completion(format, n, &file.locate_attack(flaw).to_string())
        }
        Completion::Impossible => no_completion(format, n, &impossible(instance)),
    }
}

/// The answer "no" (status 1): `why` on standard error, and with `--format json` the value of a
/// board without a solution, as `solve` prints it.
fn no_completion(format: Format, n: usize, why: &str) -> anyhow::Result<Status> {
    if format == Format::Json {
        super::print_json_none(n, None)?;
    }
    note!("queens: no completion: {why}");
    Ok(Status::No)
}

/// The engine's refusals: over the memory budget, with what the user can do about it; a square
/// given twice in the file `name`, with the lines that gave it, or twice by `--fixed` (no
/// file).
fn refusal(err: InstanceError, file: &InstanceFile, name: Option<&str>) -> anyhow::Error {
    match err {
        InstanceError::Budget(e) => crate::hint::budget_hint(e),
        InstanceError::Duplicate(square) => match (file.locate_duplicate(square), name) {
            (Some(located), Some(name)) => anyhow::anyhow!("in {name}: {located}"),
            (_, None) => anyhow::anyhow!("--fixed gives the queen at {square} twice"),
            _ => err.into(),
        },
        other => other.into(),
    }
}

/// Why no completion exists when the given queens are at peace: with none given, the board
/// itself has no solution (N = 2 or 3).
fn impossible(instance: &Instance) -> String {
    let n = instance.n;
    let k = instance.fixed.len();
    if k == 0 {
        return format!("the {n}x{n} board has no solution");
    }
    format!(
        "no solution of the {n}x{n} board contains the {k} given queen{}",
        if k == 1 { "" } else { "s" }
    )
}

/// The instance: N with the --fixed queens, or the file's, with the file's name as messages
/// show it.
fn read_instance(args: &CompleteArgs) -> anyhow::Result<(InstanceFile, Option<String>)> {
    // Digits only, as every number of the command line: ` 8` is a file's name, not N.
    let target = args.target.as_str();
    if !target.is_empty() && target.bytes().all(|b| b.is_ascii_digit()) {
        let n = target
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= queens_core::complete::MAX_N)
            .ok_or_else(|| anyhow::anyhow!(too_large(Some("complete"), target)))?;
        if n == 0 {
            anyhow::bail!("N must be at least 1 (got 0)");
        }
        let instance = Instance {
            n,
            fixed: args.fixed.clone(),
        };
        return Ok((InstanceFile::from(instance), None));
    }
    if !args.fixed.is_empty() {
        anyhow::bail!(
            "--fixed goes with a board size N, not with an instance file ('{}')",
            shorten(&args.target)
        );
    }
    // The instance is read whole, then parsed one token at a time: the reader keeps only the
    // given queens (`BYTES_PER_GIVEN_QUEEN` each, at least 5 bytes of text: at most 8 bytes
    // per byte of input), and their check and search take more per queen, so the input may
    // have a 64th of the memory budget.
    let budget = args.search.max_memory;
    let most = budget / INPUT_SHARE;
    let (name, input): (String, Box<dyn Read>) = if args.target == "-" {
        ("standard input".to_string(), Box::new(io::stdin().lock()))
    } else {
        let file = fs::File::open(&args.target)
            .with_context(|| format!("cannot read {}", shorten(&args.target)))?;
        (shorten(&args.target), Box::new(file))
    };
    let mut text = Vec::new();
    input
        .take(most.saturating_add(1))
        .read_to_end(&mut text)
        .with_context(|| format!("cannot read {name}"))?;
    if text.len() as u64 > most {
        anyhow::bail!(
            "{name} is longer than {}, the most an instance may have: a {INPUT_SHARE}th of the \
             memory budget of {}; raise --max-memory to read it",
            bytes(most),
            bytes(budget)
        );
    }
    let text = String::from_utf8(text).map_err(|e| {
        anyhow::anyhow!(
            "{name} is not UTF-8 text (at byte {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    let file = read_instance_within(&text, budget).map_err(|err| {
        let hint = match err {
            InstanceParseError::TooManyQueens { .. } => "; raise --max-memory to read it",
            _ => "",
        };
        anyhow::anyhow!("in {name}: {err}{hint}")
    })?;
    Ok((file, Some(name)))
}
