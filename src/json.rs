//! The JSON encodings that several commands and the web server share, in one place so that a
//! trace line of `queens trace --format json` and an event of `/api/trace` can never drift apart
//! (and the verdicts of `queens verify --format json`).

use queens_core::board::Flaw;
use queens_core::trace::{Event, EventKind, Summary};
use queens_core::Algorithm;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{json, Map, Value};

/// The JSON encoding of one event: `{"event": "conflict", "step": 4, "row": 1, "col": 0,
/// "with": {"row": 0, "col": 0}, "kind": "column", "positions": [0, -1, -1, -1],
/// "positions_by": "row"}`.
///
/// Every event has `event` (its name), `step` (from 1), `row` and `col` (the square concerned,
/// `null` when it names none: `backtrack` names only the row it leaves, or the column for the
/// column-wise `backtrack` solver), `positions` (the board after the event, `-1` for empty)
/// and `positions_by` (`"row"`: `positions[row]` is a column; `"column"`: `positions[col]` is a
/// row). A `conflict` adds `with` (the attacking queen) and `kind` (`column`, `row` or
/// `diagonal`); `enqueue` and `dequeue` add `queue` (the queue's length afterwards); the
/// `backtrack` solver's events add `untried` (its first-untried array).
///
/// It serialises as it is written, a field at a time: the positions and the untried array go
/// out entry by entry, never as a tree of JSON values (which took 32 bytes an entry, 4 times
/// what `--max-memory` counts for a trace of a large board).
pub fn event_json(event: &Event) -> EventJson<'_> {
    EventJson(event)
}

/// One event as JSON ([`event_json`]): `serde_json::to_writer` writes it.
pub struct EventJson<'a>(&'a Event);

impl Serialize for EventJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let event = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("event", event.kind.name())?;
        map.serialize_entry("step", &event.step)?;
        map.serialize_entry("row", &event.row)?;
        map.serialize_entry("col", &event.col)?;
        match event.kind {
            EventKind::Conflict { with, line } => {
                map.serialize_entry("with", &json!({"row": with.row, "col": with.col}))?;
                map.serialize_entry("kind", line.name())?;
            }
            EventKind::Enqueue { queue } | EventKind::Dequeue { queue } => {
                map.serialize_entry("queue", &queue)?;
            }
            EventKind::Try
            | EventKind::Place
            | EventKind::Remove
            | EventKind::Backtrack
            | EventKind::Solution => {}
        }
        map.serialize_entry("positions", &event.positions)?;
        map.serialize_entry("positions_by", event.positions_by.name())?;
        if let Some(untried) = &event.untried {
            map.serialize_entry("untried", untried)?;
        }
        map.end()
    }
}

/// The JSON encoding of a trace's counts: `{"event": "summary", "algo": "backtrack", "n": 8,
/// "all": false, "tries": 876, "conflicts": 763, "placements": 113, ...}`.
pub fn summary_json(algorithm: Algorithm, n: usize, all: bool, s: &Summary) -> Value {
    json!({
        "event": "summary",
        "algo": algorithm.name(),
        "n": n,
        "all": all,
        "tries": s.tries,
        "conflicts": s.conflicts,
        "placements": s.placements,
        "removals": s.removals,
        "backtracks": s.backtracks,
        "solutions": s.solutions,
        "enqueues": s.enqueues,
        "dequeues": s.dequeues,
        "events": s.events,
    })
}

/// Seconds to the millisecond, for readable JSON (`count --json`, `merge --json`); seconds
/// too many to count in milliseconds (past about 1.8e305) as they are, never infinite (which
/// JSON would print as `null`).
pub fn round_ms(seconds: f64) -> f64 {
    let ms = seconds * 1000.0;
    if ms.is_finite() {
        ms.round() / 1000.0
    } else {
        seconds
    }
}

/// The JSON encoding of one verdict of `queens verify --format json`: `{"line":3,"n":8,
/// "valid":true}` for a solution; for a placement that is not one, `"valid":false` and the flaw
/// the text names: `"flaw":"attack"` with `"along"` (`row`, `column`, `diagonal` or
/// `anti-diagonal`) and the two `"queens"` (`[{"row":2,"col":7},{"row":6,"col":3}]`, in
/// reading order), or `"flaw":"empty-row"` with its `"row"`.
pub fn verdict_json(line: usize, n: usize, flaw: Option<&Flaw>) -> Value {
    let mut fields = Map::new();
    fields.insert("line".into(), json!(line));
    fields.insert("n".into(), json!(n));
    fields.insert("valid".into(), json!(flaw.is_none()));
    match flaw {
        None => {}
        Some(Flaw::Attack {
            first,
            second,
            line,
        }) => {
            fields.insert("flaw".into(), json!("attack"));
            fields.insert("along".into(), json!(line.name()));
            fields.insert(
                "queens".into(),
                json!([
                    {"row": first.row, "col": first.col},
                    {"row": second.row, "col": second.col},
                ]),
            );
        }
        Some(Flaw::EmptyRow(row)) => {
            fields.insert("flaw".into(), json!("empty-row"));
            fields.insert("row".into(), json!(row));
        }
        // (`verify` refuses such a line before it is checked: kept for a complete encoding.)
        Some(Flaw::OffBoard(square)) => {
            fields.insert("flaw".into(), json!("off-board"));
            fields.insert(
                "queen".into(),
                json!({"row": square.row, "col": square.col}),
            );
        }
    }
    Value::Object(fields)
}
