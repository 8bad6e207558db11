//! `queens verify [FILE]`: says for each placement read whether it is a solution.
//!
//! The input is streamed: each entry is parsed as its bytes arrive, checked, and reported;
//! the verdicts written are flushed whenever the input has no byte left to hand out, before it
//! waits for more ([`FlushBeforeWait`]), so that a slow producer or a person typing sees each
//! verdict at once, while a file is answered in batches. A positions line is held as one `u32` per queen (4 bytes) plus the
//! checker's 5 bits per queen, so a 10^8-queen line needs about 460 MB however long its text.
//! An entry that would outgrow the memory budget (`--max-memory`) is refused at its line, and a
//! board block ends after its N rows. `--format json` prints each verdict as one JSON object
//! ([`verdict_json`]) instead of a line of text: the same facts, the same exit statuses.

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};

use anyhow::Context;
use queens_core::board::Flaw;
use queens_core::parse::EntryReader;
use queens_core::text::escape;

use crate::cli::{ResultFormat, VerifyArgs};
use crate::json::verdict_json;
use crate::output::is_broken_pipe;
use crate::status::Status;

/// Runs `queens verify`.
pub fn run(args: &VerifyArgs) -> anyhow::Result<Status> {
    match args.file.as_deref() {
        Some(path) if path.as_os_str() != "-" => {
            // The name is shown with its control characters escaped: a file name is input too.
            let name = escape(&path.display().to_string()).into_owned();
            let file = File::open(path).with_context(|| format!("cannot read {name}"))?;
            verify(BufReader::with_capacity(1 << 16, file), &name, args)
        }
        // The same 64 KiB buffer as a file's (standard input's own is 8 KiB).
        _ => verify(
            BufReader::with_capacity(1 << 16, io::stdin().lock()),
            "standard input",
            args,
        ),
    }
}

/// An input that flushes `out` before it reads from its source, that is whenever every byte
/// read so far was handed out: the verdicts written are not held back while the input waits.
/// A flush that fails is left to the next write or the last flush to report.
struct FlushBeforeWait<'a, R, W: Write> {
    input: BufReader<R>,
    out: &'a RefCell<W>,
}

impl<R: Read, W: Write> Read for FlushBeforeWait<'_, R, W> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut available = self.fill_buf()?;
        let read = available.read(buf)?;
        self.consume(read);
        Ok(read)
    }
}

impl<R: Read, W: Write> BufRead for FlushBeforeWait<'_, R, W> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.input.buffer().is_empty() {
            let _ = self.out.borrow_mut().flush();
        }
        self.input.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.input.consume(amount);
    }
}

fn verify(input: BufReader<impl Read>, name: &str, args: &VerifyArgs) -> anyhow::Result<Status> {
    let quiet = args.quiet;
    let out = RefCell::new(super::stdout());
    let input = FlushBeforeWait { input, out: &out };
    let mut all_good = true;
    let mut seen = 0u64;
    for item in EntryReader::with_budget(input, args.search.max_memory) {
        let (line, entry) = item.with_context(|| format!("in {name}"))?;
        seen += 1;
        // The check in the memory the reader's budget leaves it (`CompactEntry::find_flaw`).
        let flaw = entry.find_flaw();
        all_good &= flaw.is_none();
        if quiet {
            continue;
        }
        let n = entry.size();
        // A closed pipe stops the reading; the status is still the answer: "no" once a
        // placement that is not a solution was seen.
        match write_verdict(&mut *out.borrow_mut(), args.format, line, n, flaw.as_ref()) {
            Err(err) if is_broken_pipe(&err) => return Ok(answer(all_good)),
            written => written?,
        }
    }
    if seen == 0 {
        anyhow::bail!("{name} holds no placement (expected positions lines or board blocks)");
    }
    match out.borrow_mut().flush().map_err(anyhow::Error::from) {
        Err(err) if is_broken_pipe(&err) => {}
        flushed => flushed?,
    }
    Ok(answer(all_good))
}

/// The status of `verify`: yes when every placement was a solution.
fn answer(all_good: bool) -> Status {
    if all_good {
        Status::Success
    } else {
        Status::No
    }
}

/// Prints the verdict on the placement of line `line` (`flaw`: why it is not a solution).
fn write_verdict(
    out: &mut impl Write,
    format: ResultFormat,
    line: usize,
    n: usize,
    flaw: Option<&Flaw>,
) -> anyhow::Result<()> {
    match (format, flaw) {
        (ResultFormat::Json, flaw) => {
            serde_json::to_writer(&mut *out, &verdict_json(line, n, flaw))?;
            writeln!(out)?;
        }
        (ResultFormat::Text, None) => writeln!(out, "line {line}: {n}x{n}: solution")?,
        (ResultFormat::Text, Some(flaw)) => {
            writeln!(out, "line {line}: {n}x{n}: not a solution: {flaw}")?
        }
    }
    // A verdict on a large board is worth seeing at once; small ones go out in batches.
    if n >= 4096 {
        out.flush()?;
    }
    Ok(())
}
