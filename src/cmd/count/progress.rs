//! The progress display of `queens count`, chosen by `--progress`: a bar redrawn in place on a
//! terminal (never on a pipe or a file), one line per interval for logs, or nothing.
//!
//! May call: `indicatif`, the command-line flags and [`crate::output::note`] (its lines);
//! nothing of the count itself (the session hands it the numbers).

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::cli::{CountArgs, Progress};
use crate::output::note;

/// The progress display chosen by `--progress` (default: a bar when standard error is a
/// terminal and `--quiet` is absent, nothing otherwise).
pub struct Display {
    bar: ProgressBar,
    lines: Option<Lines>,
}

/// The state of `--progress lines`.
struct Lines {
    todo: u64,
    every: Duration,
    start: std::sync::Mutex<(Instant, u64, Instant)>,
}

impl Display {
    pub fn new(args: &CountArgs, todo: u64) -> Display {
        let how = args
            .progress
            .unwrap_or(if args.quiet || !std::io::stderr().is_terminal() {
                Progress::None
            } else {
                Progress::Bar
            });
        let now = Instant::now();
        Display {
            bar: if how == Progress::Bar {
                progress_bar(todo)
            } else {
                ProgressBar::hidden()
            },
            lines: (how == Progress::Lines).then(|| Lines {
                todo,
                every: Duration::from_secs_f64(args.progress_every),
                start: std::sync::Mutex::new((now, 0, now)),
            }),
        }
    }

    pub fn start(&self, finished: u64) {
        self.bar.set_position(finished);
        self.bar.reset_eta();
        if let Some(lines) = &self.lines {
            let now = Instant::now();
            if let Ok(mut s) = lines.start.lock() {
                *s = (now, finished, now);
            }
        }
    }

    /// `begun`: the frames begun and their pieces counted, with a plan of pieces.
    pub fn update(&self, finished: u64, begun: (usize, u64)) {
        self.bar.set_position(finished);
        let Some(lines) = &self.lines else {
            return;
        };
        let Ok(mut state) = lines.start.lock() else {
            return;
        };
        let (started, at_start, last) = *state;
        if last.elapsed() < lines.every {
            return;
        }
        state.2 = Instant::now();
        let mut line = lines.line(started.elapsed(), at_start, finished);
        if begun.0 > 0 {
            // A frame of a large board is many pieces: show them moving too.
            let _ = write!(
                line,
                "; {} pieces counted in {} frames begun",
                begun.1, begun.0
            );
        }
        note!("{line}");
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Lines {
    /// `queens: progress 1234/5728 subproblems (21.5%), 12.3/s, elapsed 0:01:40, ETA 0:06:05`.
    fn line(&self, elapsed: Duration, at_start: u64, finished: u64) -> String {
        let secs = elapsed.as_secs_f64();
        let rate = if secs > 0.0 {
            finished.saturating_sub(at_start) as f64 / secs
        } else {
            0.0
        };
        let percent = if self.todo == 0 {
            100.0
        } else {
            100.0 * finished as f64 / self.todo as f64
        };
        let left = self.todo.saturating_sub(finished);
        let eta = if left == 0 {
            "0:00:00".to_string()
        } else if rate > 0.0 {
            clock(left as f64 / rate)
        } else {
            "unknown".to_string()
        };
        format!(
            "queens: progress {finished}/{} subproblems ({percent:.1}%), {rate:.3}/s, elapsed {}, \
             ETA {eta}",
            self.todo,
            clock(secs)
        )
    }
}

/// Seconds as `H:MM:SS` (hours unbounded).
fn clock(seconds: f64) -> String {
    let s = seconds.clamp(0.0, 1e12).round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// A bar on standard error.
fn progress_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {pos}/{len} subproblems, {rate}/s, ETA {eta}",
    ) {
        let style = style
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}", state.per_sec());
                },
            )
            .progress_chars("=> ");
        bar.set_style(style);
    }
    bar
}
