//! `queens trace --format text`: two comment lines saying how to read the snapshots, one
//! readable line per event (step, what happened and where, the positions array and the
//! `backtrack` solver's first-untried array), then the summary in words.
//!
//! May call: the engine's trace types.

use std::io::{self, Write};

use queens_core::trace::{self, Axis, Event, EventKind, Outcome, Summary};
use queens_core::Algorithm;

use super::{TraceWriter, Traced};

/// The `text` format.
pub struct Text;

impl TraceWriter for Text {
    fn header(&self, out: &mut dyn Write, traced: Traced) -> io::Result<()> {
        write_header(out, traced.algorithm, traced.n, traced.all)
    }

    fn event(&self, out: &mut dyn Write, event: &Event) -> io::Result<()> {
        write_text(out, event)
    }

    fn summary(&self, out: &mut dyn Write, traced: Traced, outcome: &Outcome) -> io::Result<()> {
        write_summary(out, traced, outcome)
    }
}

/// The summary line, and the line saying `--limit` cut the trace: shared with `board`.
pub(super) fn write_summary(
    out: &mut dyn Write,
    traced: Traced,
    outcome: &Outcome,
) -> io::Result<()> {
    let Traced { algorithm, n, all } = traced;
    writeln!(
        out,
        "summary: {} ({}, N = {n}, {})",
        summary_text(&outcome.summary, algorithm),
        algorithm.name(),
        if all {
            "whole search"
        } else {
            "to the first solution"
        }
    )?;
    if outcome.cut {
        writeln!(
            out,
            "cut: the trace stops after {} events (--limit); the search had more steps",
            outcome.summary.events
        )?;
    }
    Ok(())
}

/// How far the trace goes, for the headers of the text and board formats.
pub(super) fn until(all: bool) -> &'static str {
    if all {
        "the whole search"
    } else {
        "up to the first solution"
    }
}

/// Two comment lines saying how to read the snapshots.
fn write_header(out: &mut dyn Write, algorithm: Algorithm, n: usize, all: bool) -> io::Result<()> {
    let until = until(all);
    writeln!(
        out,
        "# {} on the {n}x{n} board, {until}; squares are (row, column), 0-based from the top left",
        algorithm.name()
    )?;
    match trace::Axis::of(algorithm) {
        Axis::Column => writeln!(
            out,
            "# positions[c] = row of the queen in column c (-1: none); \
             untried[c] = first row of column c not tried yet"
        ),
        Axis::Row => writeln!(
            out,
            "# positions[r] = column of the queen in row r (-1: none)"
        ),
    }
}

/// One readable line: step, what happened and where, then the snapshot.
pub(super) fn write_text(out: &mut dyn Write, event: &Event) -> io::Result<()> {
    let n = event.positions.len();
    let what = describe(event);
    // Wide enough for the longest description on this board: a conflict between two squares.
    let digits = (n.saturating_sub(1)).to_string().len();
    let width = 28 + 2 * (2 * digits + 4);
    write!(out, "{:>5}  {what:<width$}  positions ", event.step)?;
    // Entries padded to one width, so that the arrays of successive lines line up.
    let cell = digits.max(2);
    write_array(out, event.positions.iter(), cell)?;
    if let Some(untried) = &event.untried {
        out.write_all(b"  untried ")?;
        write_array(out, untried.iter(), cell)?;
    }
    out.write_all(b"\n")
}

/// `[ 0, -1,  2]`: the entries right-aligned in `cell` characters.
pub(super) fn write_array<D: std::fmt::Display>(
    out: &mut dyn Write,
    items: impl Iterator<Item = D>,
    cell: usize,
) -> io::Result<()> {
    out.write_all(b"[")?;
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.write_all(b", ")?;
        }
        write!(out, "{item:>cell$}")?;
    }
    out.write_all(b"]")
}

/// What happened and where: `conflict  (1, 1) same diagonal as (0, 0)`.
pub(super) fn describe(event: &Event) -> String {
    let square = match (event.row, event.col) {
        (Some(r), Some(c)) => format!("({r}, {c})"),
        _ => String::new(),
    };
    let name = event.kind.name();
    match event.kind {
        EventKind::Try | EventKind::Place | EventKind::Remove => format!("{name:<10}{square}"),
        EventKind::Conflict { with, line } => format!(
            "{name:<10}{square} same {} as ({}, {})",
            line.name(),
            with.row,
            with.col
        ),
        EventKind::Backtrack => match (event.row, event.col) {
            (Some(r), None) => format!("{name:<10}from row {r}"),
            (None, Some(c)) => format!("{name:<10}from column {c}"),
            _ => name.to_string(),
        },
        EventKind::Solution => name.to_string(),
        EventKind::Enqueue { queue } if square.is_empty() => {
            format!("{name:<10}empty board, queue {queue}")
        }
        EventKind::Enqueue { queue } => format!("{name:<10}{square}, queue {queue}"),
        EventKind::Dequeue { queue } => format!("{name:<10}queue {queue}"),
    }
}

/// The counts as words: `tries 26, conflicts 18, placements 8, ...`.
fn summary_text(s: &Summary, algorithm: Algorithm) -> String {
    let mut parts = vec![
        format!("tries {}", s.tries),
        format!("conflicts {}", s.conflicts),
        format!("placements {}", s.placements),
        format!("removals {}", s.removals),
        format!("backtracks {}", s.backtracks),
        format!("solutions {}", s.solutions),
    ];
    if algorithm == Algorithm::Bfs {
        parts.push(format!("enqueues {}", s.enqueues));
        parts.push(format!("dequeues {}", s.dequeues));
    }
    parts.push(format!("events {}", s.events));
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::event_json;

    /// The JSON of `event` as `queens trace --format json` writes it, read back.
    fn json_of(event: &Event) -> Value {
        serde_json::to_value(event_json(event)).unwrap()
    }
    use queens_core::trace::ConflictLine;
    use queens_core::Square;
    use serde_json::{json, Value};

    fn first_events(algorithm: Algorithm, n: usize) -> Vec<Event> {
        trace::Trace::new(n, algorithm).record().unwrap().events
    }

    #[test]
    fn a_conflict_encodes_its_attacker_and_line() {
        let event = Event {
            step: 4,
            kind: EventKind::Conflict {
                with: Square { row: 0, col: 0 },
                line: ConflictLine::Column,
            },
            row: Some(1),
            col: Some(0),
            positions: vec![0, -1, -1, -1],
            positions_by: Axis::Row,
            untried: None,
        };
        assert_eq!(
            json_of(&event),
            json!({"event": "conflict", "step": 4, "row": 1, "col": 0,
                   "with": {"row": 0, "col": 0}, "kind": "column",
                   "positions": [0, -1, -1, -1], "positions_by": "row"})
        );
        assert_eq!(describe(&event), "conflict  (1, 0) same column as (0, 0)");
    }

    #[test]
    fn backtrack_solver_events_carry_the_untried_array() {
        let events = first_events(Algorithm::Backtrack, 4);
        let v = json_of(&events[0]);
        assert_eq!(v["event"], "try");
        // The row is marked tried as it is tried (COMP 333's setPositionTried).
        assert_eq!(v["untried"], json!([1, 0, 0, 0]));
        assert_eq!(v["positions_by"], "column");
        let mut line = Vec::new();
        write_text(&mut line, &events[0]).unwrap();
        let line = String::from_utf8(line).unwrap();
        assert!(line.ends_with("positions [-1, -1, -1, -1]  untried [ 1,  0,  0,  0]\n"));
        assert!(
            line.trim_start().starts_with("1  try       (0, 0)"),
            "{line}"
        );
    }

    #[test]
    fn queue_events_encode_the_queue_length_and_backtracks_have_no_column() {
        let events = first_events(Algorithm::Bfs, 4);
        assert_eq!(json_of(&events[0])["queue"], 1);
        assert_eq!(json_of(&events[0])["row"], Value::Null);
        let events = first_events(Algorithm::Wirth, 4);
        let backtrack = events
            .iter()
            .find(|e| e.kind == EventKind::Backtrack)
            .unwrap();
        let v = json_of(backtrack);
        assert_eq!(v["col"], Value::Null);
        assert!(v["row"].is_u64());
        assert!(v.get("untried").is_none());
    }
}
