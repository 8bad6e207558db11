//! `trace`: text and JSON events, the textbook counts, limits, summaries, bad input, closed pipes.

use std::io::{BufRead, BufReader};
use std::process::{Command as Process, Stdio};

use serde_json::Value;

use crate::common::*;

/// The events `queens LINE` prints, one JSON object a line.
fn json_lines(line: &str) -> Vec<Value> {
    printed(line)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is one JSON object"))
        .collect()
}

/// The number after `name` in a text summary line such as `tries 876, placements 113`.
fn count(summary: &str, name: &str) -> u64 {
    let start = summary.find(&format!("{name} ")).expect(name) + name.len() + 1;
    summary[start..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|d| d.parse().ok())
        .expect("a count")
}

#[test]
fn trace_four_prints_a_header_numbered_events_and_a_summary() {
    let text = printed("trace 4");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("# backtrack on the 4x4 board"));
    assert!(lines[1].contains("untried[c]"));
    let events = &lines[2..lines.len() - 1];
    for (i, line) in events.iter().enumerate() {
        let step: usize = line.split_whitespace().next().unwrap().parse().unwrap();
        assert_eq!(step, i + 1, "{line}");
        assert!(
            line.contains("positions [") && line.contains("untried ["),
            "{line}"
        );
    }
    assert!(events[0].contains("try       (0, 0)"));
    // The row is marked tried as it is tried (COMP 333), so untried[0] is 1 at once.
    assert!(events[0].ends_with("positions [-1, -1, -1, -1]  untried [ 1,  0,  0,  0]"));
    assert!(events.last().unwrap().contains("solution"));
    assert!(events
        .last()
        .unwrap()
        .contains("positions [ 1,  3,  0,  2]"));
    let summary = lines.last().unwrap();
    assert!(summary.starts_with("summary: "), "{summary}");
    assert_eq!(count(summary, "tries"), 26);
    assert_eq!(count(summary, "placements"), 8);
    assert_eq!(count(summary, "solutions"), 1);
    assert_eq!(count(summary, "events"), events.len() as u64);
}

#[test]
fn eight_queens_takes_876_tries_and_113_placements_to_the_first_solution() {
    for algo in ["backtrack", "iterative", "recursive", "wirth"] {
        let line = printed(&format!("trace 8 --algo {algo} --summary"));
        assert_eq!(line.lines().count(), 1, "{line}");
        assert_eq!(count(&line, "tries"), 876, "{algo}: {line}");
        assert_eq!(count(&line, "placements"), 113, "{algo}: {line}");
        assert_eq!(count(&line, "solutions"), 1, "{algo}: {line}");
    }
}

#[test]
fn the_whole_eight_queens_search_places_2056_queens_in_every_algorithm() {
    for algo in ALGORITHMS {
        let v = json_lines(&format!(
            "trace 8 --algo {algo} --all --summary --format json"
        ));
        assert_eq!(v.len(), 1);
        assert_eq!(v[0]["event"], "summary");
        assert_eq!(v[0]["placements"], 2056, "{algo}");
        assert_eq!(v[0]["solutions"], 92, "{algo}");
    }
}

#[test]
fn json_events_parse_and_carry_their_fields() {
    for algo in ALGORITHMS {
        let lines = json_lines(&format!("trace 6 --algo {algo} --format json"));
        let (summary, events) = lines.split_last().unwrap();
        assert_eq!(summary["event"], "summary");
        assert_eq!(summary["events"], events.len());
        let by_column = algo == "backtrack";
        for (i, e) in events.iter().enumerate() {
            assert_eq!(e["step"], i + 1, "{algo}: {e}");
            let name = e["event"].as_str().unwrap();
            let positions = e["positions"].as_array().unwrap();
            assert_eq!(positions.len(), 6);
            assert!(positions
                .iter()
                .all(|p| (-1..6).contains(&p.as_i64().unwrap())));
            assert_eq!(e["positions_by"], if by_column { "column" } else { "row" });
            assert_eq!(e.get("untried").is_some(), by_column, "{algo}: {e}");
            assert!(e.get("row").is_some() && e.get("col").is_some(), "{e}");
            match name {
                "try" | "place" | "remove" => {
                    assert!(e["row"].is_u64() && e["col"].is_u64(), "{e}")
                }
                "conflict" => {
                    assert!(
                        e["with"]["row"].is_u64() && e["with"]["col"].is_u64(),
                        "{e}"
                    );
                    let kinds = if by_column {
                        ["row", "diagonal"]
                    } else {
                        ["column", "diagonal"]
                    };
                    assert!(kinds.contains(&e["kind"].as_str().unwrap()), "{e}");
                }
                "enqueue" | "dequeue" => assert!(e["queue"].is_u64(), "{e}"),
                "backtrack" | "solution" => {}
                other => panic!("unknown event {other}"),
            }
        }
        let last = events.last().unwrap();
        assert_eq!(last["event"], "solution", "{algo}");
        let queens: Vec<usize> = last["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap() as usize)
            .collect();
        // Indexed by column for backtrack: the transposed board, itself a solution.
        assert!(is_solution(&queens), "{algo}: {queens:?}");
        assert_eq!(queens, [1, 3, 5, 0, 2, 4]);
    }
}

#[test]
fn every_placement_is_removed_or_part_of_the_solution() {
    for algo in ["iterative", "bitboard"] {
        let events = json_lines(&format!("trace 5 --algo {algo} --all --format json"));
        let mut on_board: Vec<(u64, u64)> = Vec::new();
        for e in &events {
            let square = || (e["row"].as_u64().unwrap(), e["col"].as_u64().unwrap());
            match e["event"].as_str().unwrap() {
                "place" => on_board.push(square()),
                "remove" => assert_eq!(on_board.pop(), Some(square()), "last in, first out"),
                "solution" => assert_eq!(on_board.len(), 5),
                _ => {}
            }
        }
        assert!(on_board.is_empty(), "{algo}: {on_board:?}");
    }
}

#[test]
fn a_limit_cuts_the_trace_with_a_last_line_saying_so() {
    let text = printed("trace 8 --limit 10");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 + 10 + 2);
    assert!(lines[11].trim_start().starts_with("10  "));
    assert_eq!(count(lines[12], "events"), 10);
    assert!(
        lines[13].starts_with("cut: the trace stops after 10 events"),
        "{text}"
    );
    let json = json_lines("trace 8 --limit 10 --format json");
    assert_eq!(json.len(), 12);
    assert_eq!(json[11]["event"], "cut");
    assert_eq!(json[11]["after"], 10);
    let whole = printed("trace 4 --limit 61");
    assert!(
        !whole.contains("cut:"),
        "61 events are the whole trace of 4"
    );
}

#[test]
fn summaries_can_be_compared_side_by_side() {
    let bitboard = printed("trace 8 --algo bitboard --summary");
    assert_eq!(count(&bitboard, "tries"), 113, "{bitboard}");
    assert_eq!(count(&bitboard, "conflicts"), 0);
    let bfs = printed("trace 8 --algo bfs --summary");
    assert!(bfs.contains("enqueues"), "{bfs}");
    assert_eq!(count(&bfs, "backtracks"), 0);
}

#[test]
fn bad_input_exits_with_status_two_and_names_the_value() {
    let cases = [
        ("trace 0", "at least 1"),
        ("trace 4 --algo dfs", "dfs"),
        ("trace 4 --limit 0", "0"),
        ("trace 65 --algo bitboard", "N = 65"),
        ("trace 12 --algo bfs --all --max-memory 1K", "memory budget"),
    ];
    for (line, needle) in cases {
        fails_with(line, 2, &[needle]);
    }
}

#[test]
fn a_closed_pipe_ends_the_trace_quietly() {
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("queens"))
        .args(["trace", "14", "--all", "--algo", "bitboard"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("queens starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("# bitboard"));
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn traced_solutions_are_the_listed_solutions() {
    for algo in ALGORITHMS {
        let listed: Vec<Vec<usize>> = printed(&format!("list 6 --algo {algo}"))
            .lines()
            .map(positions)
            .collect();
        let traced: Vec<Vec<usize>> =
            json_lines(&format!("trace 6 --algo {algo} --all --format json"))
                .iter()
                .filter(|e| e["event"] == "solution")
                .map(|e| {
                    e["positions"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| p.as_u64().unwrap() as usize)
                        .collect()
                })
                .collect();
        assert_eq!(traced.len(), 4, "{algo}");
        assert_eq!(traced, listed, "{algo}");
    }
}

/// `--format board`: the first six steps of backtracking on 4x4 in the COMP 333 notation,
/// checked by hand against the text trace: try and place (0, 0); the try of (0, 1), whose row
/// holds the queen (0, 0) (`R!`) and whose diagonal the empty (1, 0) (`D?`); the try of (1, 1),
/// with the queen (0, 0) on its diagonal (`D!`). `CC` stands under the column tried, and the
/// two arrays follow each board.
#[test]
fn trace_four_as_boards_uses_the_comp_333_notation() {
    let out = printed("trace 4 --format board --limit 6");
    // Each board with its column marker and arrays, as it stands after the event; a conflict
    // shows the board of the try it answers, unchanged.
    let first_try = "
         0  1  2  3
      0  Q? .  .  .
      1  .  .  .  .
      2  .  .  .  .
      3  .  .  .  .
         CC
         positions[col] [-1, -1, -1, -1]
         untried[col]   [ 1,  0,  0,  0]
";
    let first_placed = "
         0  1  2  3
      0  Q  .  .  .
      1  .  .  .  .
      2  .  .  .  .
      3  .  .  .  .
         CC
         positions[col] [ 0, -1, -1, -1]
         untried[col]   [ 1,  0,  0,  0]
";
    let row_attack = "
         0  1  2  3
      0  R! Q? .  .
      1  D? .  .  .
      2  .  .  .  .
      3  .  .  .  .
            CC
         positions[col] [ 0, -1, -1, -1]
         untried[col]   [ 1,  1,  0,  0]
";
    let diagonal_attack = "
         0  1  2  3
      0  D! .  .  .
      1  R? Q? .  .
      2  D? .  .  .
      3  .  .  .  .
            CC
         positions[col] [ 0, -1, -1, -1]
         untried[col]   [ 1,  2,  0,  0]
";
    let steps = [
        ("1  try       (0, 0)", first_try),
        ("2  place     (0, 0)", first_placed),
        ("3  try       (0, 1)", row_attack),
        ("4  conflict  (0, 1) same row as (0, 0)", row_attack),
        ("5  try       (1, 1)", diagonal_attack),
        (
            "6  conflict  (1, 1) same diagonal as (0, 0)",
            diagonal_attack,
        ),
    ];
    // Each step: its numbered line, its board, a blank line; the whole starts with a line
    // break so that its first line keeps its indent.
    let expected: String = steps
        .iter()
        .map(|(event, board)| format!("\n    {event}{board}"))
        .collect::<String>()
        + "\n";
    let body: String = out
        .lines()
        .skip(2)
        .take(60)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(format!("\n{body}"), expected);
    assert!(out
        .lines()
        .next()
        .unwrap()
        .starts_with("# backtrack on the 4x4 board"));
    assert!(out.contains("cut: the trace stops after 6 events"));
    // A row-wise solver's conflicts are along columns: C! marks the attacker, RR the row.
    let recursive = printed("trace 4 --algo recursive --format board --limit 4");
    assert!(recursive.contains("      0  C! D? .  .\n"), "{recursive}");
    assert!(
        recursive.contains("      1  Q? .  .  .  RR\n"),
        "{recursive}"
    );
    fails_with("trace 33 --format board", 2, &["up to N = 32"]);
}
