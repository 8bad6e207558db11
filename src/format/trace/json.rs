//! `queens trace --format json`: one JSON object per event, then the summary object (and a
//! `cut` object when `--limit` cut the trace), with the encodings of [`crate::json`] that
//! `/api/trace` shares.
//!
//! May call: [`crate::json`] and the engine's trace types.

use std::io::{self, Write};

use queens_core::trace::{Event, Outcome};
use serde_json::json;

use super::{TraceWriter, Traced};
use crate::json::{event_json, summary_json};

/// The `json` format.
pub struct Json;

impl TraceWriter for Json {
    fn event(&self, out: &mut dyn Write, event: &Event) -> io::Result<()> {
        write_json_line(out, &event_json(event))
    }

    fn summary(&self, out: &mut dyn Write, traced: Traced, outcome: &Outcome) -> io::Result<()> {
        let Traced { algorithm, n, all } = traced;
        write_json_line(out, &summary_json(algorithm, n, all, &outcome.summary))?;
        if outcome.cut {
            write_json_line(
                out,
                &json!({"event": "cut", "after": outcome.summary.events}),
            )?;
        }
        Ok(())
    }
}

fn write_json_line(out: &mut dyn Write, value: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}
