//! `queens trace [N]`: every step of a search, one line per event, as readable text or JSON.
//!
//! The events come from `queens_core::trace`; the formats that print them are in
//! [`crate::format::trace`]. This module runs the trace and hands them its events.
//!
//! May call: `queens_core::trace`, the trace formats and the binary's output helpers.

use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;

use queens_core::trace::{Event, Trace};

use crate::cli::TraceArgs;
use crate::format::trace::Traced;
use crate::hint::budget_hint;
use crate::output::SignOfLife;
use crate::status::Status;

/// Runs `queens trace`.
pub fn run(args: &TraceArgs) -> anyhow::Result<Status> {
    let n = args.size.n;
    let algorithm = args.algo.algorithm();
    let traced = Traced {
        algorithm,
        n,
        all: args.all,
    };
    let writer = args.format.writer();
    let limit = args.limit.map(|l| usize::try_from(l).unwrap_or(usize::MAX));
    let trace = Trace::new(n, algorithm)
        .all(args.all)
        .limit(limit)
        .options(args.search.options());
    let mut out = super::stdout();
    // Events printed on a terminal show the trace moving; otherwise a sign of life on stderr.
    let quiet = args.quiet || (!args.summary && io::stdout().is_terminal());
    let mut sign = SignOfLife::new(format!("tracing N = {n} ({algorithm})"), quiet);
    let mut report = |progress| {
        if let Some(sign) = &mut sign {
            sign.report(progress);
        }
        ControlFlow::Continue(())
    };
    let outcome = if args.summary {
        trace.summarize_watched(&mut report).map_err(budget_hint)?
    } else {
        // The trace's own first checks, before the header is printed.
        trace.check().map_err(budget_hint)?;
        writer.check_size(n)?;
        writer.header(&mut out, traced)?;
        let mut failure: Option<io::Error> = None;
        let mut on_event = |event: &Event| match writer.event(&mut out, event) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failure = Some(e);
                ControlFlow::Break(())
            }
        };
        let outcome = trace
            .run_watched(&mut on_event, &mut report)
            .map_err(budget_hint)?;
        if let Some(e) = failure {
            return Err(e.into());
        }
        outcome
    };
    writer.summary(&mut out, traced, &outcome)?;
    out.flush()?;
    Ok(Status::Success)
}
