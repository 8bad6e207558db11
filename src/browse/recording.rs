//! Recording a solver's search as frames to play: the bridge from the engine's trace events
//! (`queens_core::trace`) to what the browser draws.

use std::ops::ControlFlow;

use queens_core::trace::{Axis, Event, EventKind, Trace};
use queens_core::Algorithm;

use super::playback::{Frame, Mark, Playback};

/// The most events recorded, a bound on memory (a few hundred bytes each): the first 8x8
/// solution takes about 2,000 events with the depth-first solvers and 6,000 with `bfs`, whose
/// search of boards from 10x10 up is cut here before its first solution.
pub const MAX_EVENTS: usize = 100_000;

/// Records `algorithm` searching the `n` x `n` board up to its first solution, cut after
/// [`MAX_EVENTS`] events.
pub fn record(n: usize, algorithm: Algorithm) -> Result<Playback, String> {
    let mut frames = Vec::new();
    let outcome = Trace::new(n, algorithm)
        .limit(MAX_EVENTS)
        .run(&mut |event| {
            frames.push(frame_of(event));
            ControlFlow::Continue(())
        })
        .map_err(|e| format!("cannot record the {algorithm} search: {e}"))?;
    if !outcome.cut && outcome.summary.solutions == 0 {
        // The search ran to its end without a solution (N = 2, 3): say so in a last frame
        // rather than stopping on its last step.
        frames.push(Frame {
            step: outcome.summary.events + 1,
            kind: "nosolution",
            queens: Vec::new(),
            mark: None,
            attacker: None,
            solved: false,
            text: format!(
                "no solution: every square has been tried, and the {n}×{n} board has none"
            ),
            ..Frame::default()
        });
    }
    Ok(Playback::new(algorithm.name(), frames, outcome.cut))
}

/// What the screen shows for one event.
pub fn frame_of(event: &Event) -> Frame {
    let square = event.square().map(|s| (s.row, s.col));
    let at = square.map_or_else(String::new, |(r, c)| format!("row {r} col {c}"));
    let (mark, attacker, text) = match event.kind {
        EventKind::Try => (Some(Mark::Tried), None, format!("try {at}")),
        EventKind::Conflict { with, line } => (
            Some(Mark::Attacked),
            Some((with.row, with.col)),
            format!(
                "{at}: attacked by the queen on row {} col {} (same {})",
                with.row,
                with.col,
                line.name()
            ),
        ),
        EventKind::Place => (Some(Mark::Placed), None, format!("place a queen on {at}")),
        EventKind::Remove => (
            Some(Mark::Removed),
            None,
            format!("take back the queen on {at}"),
        ),
        EventKind::Backtrack => (Some(Mark::Backtracked), None, backtrack_text(event)),
        EventKind::Solution => (None, None, "a solution: every queen is safe".to_string()),
        EventKind::Enqueue { queue } => (
            Some(Mark::Placed),
            None,
            if square.is_some() {
                format!("queue the board with a queen added on {at} ({queue} waiting)")
            } else {
                format!("queue the empty board ({queue} waiting)")
            },
        ),
        EventKind::Dequeue { queue } => (
            None,
            None,
            format!(
                "take the next board from the queue ({} queens; {queue} waiting)",
                event.queens().len()
            ),
        ),
    };
    Frame {
        step: event.step,
        kind: event.kind.name(),
        queens: event.queens().iter().map(|s| (s.row, s.col)).collect(),
        mark: square.zip(mark),
        attacker,
        solved: event.kind == EventKind::Solution,
        text: format!("step {}: {text}", event.step),
        arrays: arrays(event),
        positions: event.positions.clone(),
        untried: event.untried.clone(),
        changed: match event.positions_by {
            Axis::Column => event.col,
            Axis::Row => event.row,
        },
        axis: event.positions_by.name(),
    }
}

fn backtrack_text(event: &Event) -> String {
    let (axis, other, line) = match event.positions_by {
        Axis::Column => ("column", "row", event.col),
        Axis::Row => ("row", "column", event.row),
    };
    match line {
        Some(0) => format!("every {other} of {axis} 0 has been tried: the search is over"),
        Some(k) => format!(
            "every {other} of {axis} {k} has been tried: back up to {axis} {}",
            k - 1
        ),
        None => format!("back up one {axis}"),
    }
}

/// The positions array (by row or by column), and on a second line the first-untried array
/// when the solver has one.
fn arrays(event: &Event) -> String {
    let mut text = format!(
        "positions by {}: {:?}",
        event.positions_by.name(),
        event.positions
    );
    if let Some(untried) = &event.untried {
        text.push_str(&format!("\nfirst untried: {untried:?}"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_solution_of_eight_takes_876_tries_and_113_placements() {
        for algorithm in [
            Algorithm::Backtrack,
            Algorithm::Iterative,
            Algorithm::Recursive,
        ] {
            let playback = record(8, algorithm).unwrap();
            assert!(!playback.cut);
            let frames = playback.frames();
            let count = |m: Mark| {
                frames
                    .iter()
                    .filter(|f| f.mark.map(|(_, k)| k) == Some(m))
                    .count()
            };
            assert_eq!(count(Mark::Tried), 876, "{algorithm}");
            assert_eq!(count(Mark::Placed), 113, "{algorithm}");
            let last = frames.last().unwrap();
            assert!(last.solved, "{algorithm}");
            assert_eq!(last.queens.len(), 8);
        }
    }

    #[test]
    fn every_frame_agrees_with_its_board_for_every_solver() {
        for algorithm in Algorithm::ALL {
            let playback = record(6, algorithm).unwrap();
            assert!(!playback.cut, "{algorithm}");
            for frame in playback.frames() {
                match frame.mark {
                    Some((square, Mark::Attacked)) => {
                        let (r, c) = frame.attacker.expect("a conflict names its attacker");
                        assert!(frame.queens.contains(&(r, c)), "{algorithm}: {frame:?}");
                        let (row, col) = square;
                        assert!(
                            r == row || c == col || r.abs_diff(row) == c.abs_diff(col),
                            "{algorithm}: {frame:?}"
                        );
                    }
                    Some((square, Mark::Placed)) => {
                        assert!(frame.queens.contains(&square), "{algorithm}: {frame:?}")
                    }
                    Some((square, Mark::Removed)) => {
                        assert!(!frame.queens.contains(&square), "{algorithm}: {frame:?}")
                    }
                    _ => {}
                }
                assert!(frame.text.starts_with(&format!("step {}: ", frame.step)));
            }
            let last = playback.frames().last().unwrap();
            assert!(last.solved, "{algorithm} stops at the first solution");
            let mut queens = last.queens.clone();
            queens.sort();
            let columns: Vec<usize> = queens.iter().map(|&(_, c)| c).collect();
            assert_eq!(columns.len(), 6);
            assert!((0..6).all(|i| (i + 1..6)
                .all(|j| columns[i] != columns[j] && columns[i].abs_diff(columns[j]) != j - i)));
        }
    }

    #[test]
    fn a_long_search_is_cut_at_the_limit() {
        let playback = record(12, Algorithm::Bfs).unwrap();
        assert!(playback.cut);
        assert_eq!(playback.len(), MAX_EVENTS);
    }

    #[test]
    fn a_board_without_solutions_ends_on_no_solution_for_every_solver() {
        for algorithm in Algorithm::ALL {
            for n in [2, 3] {
                let playback = record(n, algorithm).unwrap();
                let last = playback.frames().last().unwrap();
                assert!(
                    last.text.starts_with("no solution"),
                    "{algorithm} {n}: {}",
                    last.text
                );
            }
            let four = record(4, algorithm).unwrap();
            assert!(!four
                .frames()
                .iter()
                .any(|f| f.text.starts_with("no solution")));
        }
    }

    #[test]
    fn a_conflict_reads_as_a_sentence() {
        let playback = record(4, Algorithm::Recursive).unwrap();
        let conflict = playback
            .frames()
            .iter()
            .find(|f| f.attacker.is_some())
            .unwrap();
        assert_eq!(
            conflict.text,
            "step 4: row 1 col 0: attacked by the queen on row 0 col 0 (same column)"
        );
        assert_eq!(conflict.arrays, "positions by row: [0, -1, -1, -1]");
        let backtrack = record(4, Algorithm::Backtrack).unwrap();
        assert_eq!(
            backtrack.frames()[1].arrays,
            "positions by column: [0, -1, -1, -1]\nfirst untried: [1, 0, 0, 0]"
        );
    }
}
