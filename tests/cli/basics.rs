//! `solve`, `list`, `count` and `verify`: formats, exit statuses, bad input, closed pipes.

use std::io::{BufRead, BufReader};
use std::process::{Command as StdCommand, Stdio};

use predicates::prelude::*;

use crate::common::*;

const FIRST_BOARD_OF_EIGHT: &str =
    "Q.......\n....Q...\n.......Q\n.....Q..\n..Q.....\n......Q.\n.Q......\n...Q....\n\n";

#[test]
fn solve_prints_the_first_board_of_eight_by_default() {
    queens()
        .arg("solve")
        .assert()
        .success()
        .stdout(FIRST_BOARD_OF_EIGHT)
        .stderr("");
}

#[test]
fn solve_prints_each_format() {
    let cases = [
        ("positions", "0 4 7 5 2 6 1 3\n"),
        ("json", "{\"n\":8,\"queens\":[0,4,7,5,2,6,1,3]}\n"),
        ("algebraic", "a8 e7 h6 f5 c4 g3 b2 d1\n"),
        ("board", FIRST_BOARD_OF_EIGHT),
    ];
    for (format, expected) in cases {
        queens()
            .args(["solve", "8", "--format", format])
            .assert()
            .success()
            .stdout(expected);
    }
}

#[test]
fn solve_gives_the_same_first_solution_with_every_algorithm() {
    for algo in [
        "backtrack",
        "iterative",
        "recursive",
        "wirth",
        "bfs",
        "bitboard",
    ] {
        queens()
            .args(["solve", "10", "--format", "positions", "--algo", algo])
            .assert()
            .success()
            .stdout("0 2 5 7 9 4 8 1 3 6\n");
    }
}

#[test]
fn solve_says_no_with_status_one_when_the_board_has_no_solution() {
    for n in ["2", "3"] {
        queens()
            .args(["solve", n])
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("no solution"));
    }
}

#[test]
fn solve_gives_the_single_queen_of_the_one_by_one_board() {
    queens()
        .args(["solve", "1"])
        .assert()
        .success()
        .stdout("Q\n\n");
}

#[test]
fn list_streams_every_valid_solution_in_lexicographic_order() {
    let out = queens().args(["list", "8"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let all: Vec<Vec<usize>> = text.lines().map(positions).collect();
    assert_eq!(all.len(), 92);
    assert!(all.iter().all(|q| is_solution(q)));
    assert!(all.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(all[1], [0, 5, 7, 2, 6, 3, 1, 4]);
}

#[test]
fn list_stops_at_the_limit() {
    queens()
        .args(["list", "6", "--limit", "2", "--format", "json"])
        .assert()
        .success()
        .stdout("{\"n\":6,\"queens\":[1,3,5,0,2,4]}\n{\"n\":6,\"queens\":[2,5,1,4,0,3]}\n");
    queens()
        .args(["list", "6", "--limit", "0"])
        .assert()
        .success()
        .stdout("");
}

#[test]
fn list_draws_boards_with_a_blank_line_after_each() {
    queens()
        .args(["list", "4", "--format", "board"])
        .assert()
        .success()
        .stdout(".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n");
}

#[test]
fn list_is_identical_for_every_algorithm() {
    let reference = queens().args(["list", "7"]).output().unwrap().stdout;
    for algo in ["backtrack", "iterative", "recursive", "wirth", "bfs"] {
        let out = queens()
            .args(["list", "7", "--algo", algo])
            .output()
            .unwrap();
        assert_eq!(out.stdout, reference, "{algo}");
    }
}

#[test]
fn count_prints_one_integer_line() {
    queens()
        .args(["count", "10"])
        .assert()
        .success()
        .stdout("724\n");
    queens()
        .args(["count", "6", "--algo", "backtrack"])
        .assert()
        .success()
        .stdout("4\n");
}

#[test]
fn fails_with_a_clear_error_when_n_is_zero() {
    queens()
        .args(["solve", "0"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("N must be at least 1"));
}

#[test]
fn fails_with_a_clear_error_when_n_is_not_a_number() {
    for cmd in ["solve", "list", "count"] {
        queens()
            .args([cmd, "eight"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("'eight'"));
    }
}

#[test]
fn fails_with_a_clear_error_for_an_unknown_algorithm() {
    queens()
        .args(["list", "8", "--algo", "magic"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("magic").and(predicate::str::contains("bitboard")));
}

#[test]
fn refuses_the_algebraic_format_beyond_twenty_six_files() {
    queens()
        .args(["solve", "27", "--format", "algebraic"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("up to 26"));
}

#[test]
fn the_breadth_first_search_refuses_to_exceed_its_memory_budget() {
    queens()
        .args(["list", "12", "--algo", "bfs", "--max-memory", "100K"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("memory budget"));
    queens()
        .args(["count", "8", "--algo", "bfs", "--max-memory", "lots"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'lots' is not a size"));
}

#[test]
fn verify_reports_each_placement_of_mixed_input() {
    let input = "0 4 7 5 2 6 1 3\n\n.Q..\n...Q\nQ...\n..Q.\n\n0 4 7 5 2 6 3 1\n";
    queens()
        .arg("verify")
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout(
            "line 1: 8x8: solution\n\
             line 3: 4x4: solution\n\
             line 8: 8x8: not a solution: the queens at row 2, column 7 and row 6, column 3 \
             attack each other along an anti-diagonal\n",
        );
}

#[test]
fn verify_names_a_shared_column_and_a_crowded_board_row() {
    queens()
        .arg("verify")
        .write_stdin("1 3 0 1\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "row 0, column 1 and row 3, column 1 attack each other along a column",
        ));
    queens()
        .arg("verify")
        .write_stdin("Q.Q.\n....\n....\n....\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "row 0, column 0 and row 0, column 2 attack each other along a row",
        ));
}

#[test]
fn verify_reads_a_file_and_succeeds_when_all_are_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eight.txt");
    let listing = queens().args(["list", "8"]).output().unwrap().stdout;
    std::fs::write(&path, listing).unwrap();
    queens()
        .arg("verify")
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("line 92: 8x8: solution"));
    queens()
        .args(["verify", "--quiet"])
        .arg(&path)
        .assert()
        .success()
        .stdout("");
}

#[test]
fn verify_names_the_line_of_malformed_input_with_status_two() {
    queens()
        .arg("verify")
        .write_stdin("0 1\n\nhello world\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 3"));
    queens()
        .arg("verify")
        .write_stdin("1 3 0 4\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "line 1: column 4 of row 3 is off the board",
        ));
    queens()
        .arg("verify")
        .write_stdin("\n\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no placement"));
    queens()
        .args(["verify", "/nonexistent/placements.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
}

#[test]
fn errors_never_show_a_panic_or_backtrace() {
    let out = queens()
        .env("RUST_BACKTRACE", "1")
        .args(["solve", "65", "--algo", "bitboard"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("up to 64"), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
}

#[test]
fn a_closed_pipe_ends_the_listing_quietly() {
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("queens"))
        .args(["list", "14"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    assert_eq!(first, "0 2 4 6 11 9 12 3 13 8 1 5 7 10\n");
    assert!(is_solution(&positions(first.trim_end())));
    drop(reader);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn help_lists_every_subcommand() {
    let out = queens().arg("--help").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for cmd in ["solve", "list", "count", "verify"] {
        assert!(text.contains(cmd), "{cmd} missing from help");
    }
}
