//! Where the commands write: standard output behind a buffer ([`stdout`]), and for `queens list`
//! optionally one SVG file per solution in a directory.
//!
//! `--format svg` needs `--out DIR` (a stream of SVG documents would be no file anyone can open),
//! and `--out` works only with `--format svg`. The files are numbered from 1 in listing order,
//! with six digits so that they sort in order up to 999,999 files:
//! `DIR/solution-000001.svg`, `DIR/solution-000002.svg`, ... (past that the numbers just grow).

use std::fs;
use std::io::{self, BufWriter, StdoutLock, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use crate::format::Format;

/// `eprintln!` that cannot fail: a line to standard error, which is lost where standard error
/// cannot be written (a full disk, a closed pipe), so that a note or a warning never costs the
/// user the result or the status (`eprintln!` would panic; the binary denies it).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
pub(crate) use note;

/// Whether the error comes from writing to a pipe whose reader has gone.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let kind = match cause.downcast_ref::<io::Error>() {
            Some(e) => Some(e.kind()),
            // JSON written with serde_json (`verify`, `merge`) wraps the I/O error in its own.
            None => cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind),
        };
        kind == Some(io::ErrorKind::BrokenPipe)
    })
}

/// Prints `text`, a result, as one line on standard output. A closed pipe is no error (the
/// output ends quietly); any other failure is, and it gives the result, so that a result that
/// took long to make is not lost (`cannot write to standard output: No space left on device;
/// the result: 92`).
pub fn print_result(text: &str) -> anyhow::Result<()> {
    let mut out = stdout();
    let written = writeln!(out, "{text}").and_then(|()| out.flush());
    match written.map_err(anyhow::Error::from) {
        Err(err) if is_broken_pipe(&err) => Ok(()),
        Err(err) => bail!("{}; the result: {text}", err.root_cause()),
        Ok(()) => Ok(()),
    }
}

/// Standard output behind a buffer: every command writes its data through this.
pub fn stdout() -> BufWriter<Stdout> {
    BufWriter::with_capacity(1 << 16, Stdout(io::stdout().lock()))
}

/// Standard output whose errors say that it is standard output that could not be written
/// (`cannot write to standard output: No space left on device`), of the same kind, so that a
/// closed pipe is still told apart ([`is_broken_pipe`]).
pub struct Stdout(StdoutLock<'static>);

impl Stdout {
    fn named(err: io::Error) -> io::Error {
        io::Error::new(
            err.kind(),
            format!("cannot write to standard output: {err}"),
        )
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(Stdout::named)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf).map_err(Stdout::named)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(Stdout::named)
    }
}

/// The digits of a file number.
pub const FILE_NUMBER_WIDTH: usize = 6;

/// The destination of listed placements.
pub enum ListOutput {
    /// Every placement to standard output, one after the other.
    Stdout {
        /// The buffered standard output.
        out: BufWriter<Stdout>,
        /// How each placement is written.
        format: Format,
    },
    /// One SVG file per placement in a directory.
    Files {
        /// The directory.
        dir: PathBuf,
        /// The number of files written so far.
        written: u64,
    },
}

impl ListOutput {
    /// Checks that the format and `--out` go together, and creates the directory when needed.
    pub fn new(format: Format, dir: Option<&Path>) -> anyhow::Result<Self> {
        match (format, dir) {
            (Format::Svg, Some(dir)) => {
                let shown = queens_core::text::escape_path(dir);
                if dir.exists() && !dir.is_dir() {
                    bail!("--out {shown} exists and is not a folder: give a folder for the files");
                }
                fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create the directory {shown}"))?;
                Ok(ListOutput::Files {
                    dir: dir.to_path_buf(),
                    written: 0,
                })
            }
            (Format::Svg, None) => bail!(
                "--format svg writes one file per solution and needs a directory: add --out DIR"
            ),
            (_, Some(dir)) => bail!(
                "--out {} is for --format svg only; the other formats go to standard output",
                dir.display()
            ),
            (format, None) => Ok(ListOutput::Stdout {
                out: stdout(),
                format,
            }),
        }
    }

    /// The path of the `number`-th file (from 1) in `dir`.
    pub fn file_path(dir: &Path, number: u64) -> PathBuf {
        dir.join(format!(
            "solution-{number:0width$}.svg",
            width = FILE_NUMBER_WIDTH
        ))
    }

    /// Writes one placement.
    pub fn write(&mut self, queens: &[usize]) -> io::Result<()> {
        match self {
            ListOutput::Stdout { out, format } => format.write(out, queens),
            ListOutput::Files { dir, written } => {
                let path = Self::file_path(dir, *written + 1);
                write_file(&path, queens).map_err(|e| {
                    io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
                })?;
                *written += 1;
                Ok(())
            }
        }
    }

    /// For files, the folder and how many files in it are named as this listing names its own
    /// (`solution-NNNNNN.svg`) but numbered past the ones it wrote: an earlier, longer
    /// listing's, which a reader of the folder would take for this one's. Counted, never
    /// removed.
    pub fn older_files(&self) -> Option<(&Path, u64, u64)> {
        let ListOutput::Files { dir, written } = self else {
            return None;
        };
        let numbered = |name: &str| {
            let digits = name.strip_prefix("solution-")?.strip_suffix(".svg")?;
            let plain =
                digits.len() >= FILE_NUMBER_WIDTH && digits.bytes().all(|b| b.is_ascii_digit());
            plain.then(|| digits.parse::<u64>().ok()).flatten()
        };
        let older = fs::read_dir(dir)
            .ok()?
            .filter_map(Result::ok)
            .filter(|e| {
                e.file_name()
                    .to_str()
                    .and_then(numbered)
                    .is_some_and(|k| k == 0 || k > *written)
            })
            .count() as u64;
        Some((dir, *written, older))
    }

    /// Flushes standard output (files are complete once written).
    pub fn flush(&mut self) -> io::Result<()> {
        match self {
            ListOutput::Stdout { out, .. } => out.flush(),
            ListOutput::Files { .. } => Ok(()),
        }
    }
}

fn write_file(path: &Path, queens: &[usize]) -> io::Result<()> {
    let mut file = BufWriter::new(fs::File::create(path)?);
    let written = crate::svg::write_svg(&mut file, queens).and_then(|()| file.flush());
    if written.is_err() {
        // No half-written drawing is left behind (a full disk): the file is whole or absent.
        // Only a regular file is removed, never what a link there points at, nor the link.
        drop(file);
        if fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
            let _ = fs::remove_file(path);
        }
    }
    written
}

/// A sign of life on standard error for a long exhaustive search: after two seconds, one line
/// rewritten in place about twice a second, `queens: searching N = 40 (bitboard): 1.2e9 steps,
/// 310 M steps/s, depth 37`, erased when the search ends. Only when standard error is a
/// terminal, and not with `--quiet`.
pub struct SignOfLife {
    what: String,
    started: std::time::Instant,
    last: Option<std::time::Instant>,
}

/// When the first line appears, and how often it is rewritten.
const SIGN_AFTER: std::time::Duration = std::time::Duration::from_secs(2);
const SIGN_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

impl SignOfLife {
    /// A sign of life for the search described by `what`, or `None` when `quiet` or when
    /// standard error is not a terminal.
    pub fn new(what: String, quiet: bool) -> Option<SignOfLife> {
        use std::io::IsTerminal;
        (!quiet && io::stderr().is_terminal()).then(|| SignOfLife {
            what,
            started: std::time::Instant::now(),
            last: None,
        })
    }

    /// Takes a report of the search; shows it when it is time.
    pub fn report(&mut self, progress: queens_core::search::Progress) {
        let now = std::time::Instant::now();
        let elapsed = now - self.started;
        if elapsed < SIGN_AFTER || self.last.is_some_and(|last| now - last < SIGN_EVERY) {
            return;
        }
        self.last = Some(now);
        let rate = progress.steps as f64 / elapsed.as_secs_f64();
        let _ = write!(
            io::stderr(),
            "\r\x1b[2Kqueens: {}: {} steps, {} steps/s, depth {}",
            self.what,
            round(progress.steps as f64),
            round(rate),
            progress.depth
        );
    }
}

impl Drop for SignOfLife {
    fn drop(&mut self) {
        if self.last.is_some() {
            let _ = write!(io::stderr(), "\r\x1b[2K");
        }
    }
}

/// 1234567 as `1.23 M`.
fn round(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{:.2} G", x / 1e9),
        x if x >= 1e6 => format!("{:.2} M", x / 1e6),
        x if x >= 1e3 => format!("{:.1} k", x / 1e3),
        x => format!("{x:.0}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_numbers_are_padded_to_six_digits() {
        let dir = Path::new("out");
        assert_eq!(
            ListOutput::file_path(dir, 1),
            Path::new("out/solution-000001.svg")
        );
        assert_eq!(
            ListOutput::file_path(dir, 1_234_567),
            Path::new("out/solution-1234567.svg")
        );
    }

    #[test]
    fn svg_and_out_go_together() {
        let err = ListOutput::new(Format::Svg, None)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("--out DIR"), "{err}");
        let err = ListOutput::new(Format::Json, Some(Path::new("x")))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("--out x"), "{err}");
    }
}
