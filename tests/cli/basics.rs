//! `solve`, `list`, `count` and `verify`: formats, exit statuses, bad input, closed pipes.

use std::io::{BufRead, BufReader};
use std::process::{Command as StdCommand, Stdio};

use crate::common::*;

const FIRST_BOARD_OF_EIGHT: &str =
    "Q.......\n....Q...\n.......Q\n.....Q..\n..Q.....\n......Q.\n.Q......\n...Q....\n\n";

#[test]
fn solve_prints_the_first_board_of_eight_by_default() {
    run("solve")
        .succeeds()
        .stdout_is(FIRST_BOARD_OF_EIGHT)
        .stderr_is("");
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
        assert_prints(&format!("solve 8 --format {format}"), expected);
    }
}

#[test]
fn solve_gives_the_same_first_solution_with_every_algorithm() {
    for algo in ALGORITHMS {
        assert_prints(
            &format!("solve 10 --format positions --algo {algo}"),
            "0 2 5 7 9 4 8 1 3 6\n",
        );
    }
}

#[test]
fn solve_says_no_with_status_one_when_the_board_has_no_solution() {
    for n in ["2", "3"] {
        fails_with(&format!("solve {n}"), 1, &["no solution"]).stdout_is("");
    }
}

/// `complete 2` and `complete 3` give no queen: the board has no solution, said as `solve`
/// says it, not "no solution of the 2x2 board contains the 0 given queens".
#[test]
fn complete_says_the_board_has_no_solution_when_no_queen_is_given() {
    for n in [2, 3] {
        let expected = format!("queens: no completion: the {n}x{n} board has no solution\n");
        run(&format!("complete {n}"))
            .status(1)
            .stdout_is("")
            .stderr_is(&expected);
        run(&format!("complete {n} --count"))
            .status(1)
            .stdout_is("0\n")
            .stderr_is(&expected);
    }
}

#[test]
fn solve_gives_the_single_queen_of_the_one_by_one_board() {
    assert_prints("solve 1", "Q\n\n");
}

#[test]
fn list_streams_every_valid_solution_in_lexicographic_order() {
    let text = printed("list 8");
    let all: Vec<Vec<usize>> = text.lines().map(positions).collect();
    assert_eq!(all.len(), 92);
    assert!(all.iter().all(|q| is_solution(q)));
    assert!(all.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(all[1], [0, 5, 7, 2, 6, 3, 1, 4]);
}

#[test]
fn list_stops_at_the_limit() {
    assert_prints(
        "list 6 --limit 2 --format json",
        "{\"n\":6,\"queens\":[1,3,5,0,2,4]}\n{\"n\":6,\"queens\":[2,5,1,4,0,3]}\n",
    );
    assert_prints("list 6 --limit 0", "");
}

#[test]
fn list_of_a_board_without_a_solution_prints_nothing_and_says_why() {
    for args in ["list 3", "list 2 --unique --format json"] {
        let out = run(args);
        assert_eq!(out.code, Some(0), "{args}");
        assert_eq!(out.stdout, "", "{args}");
        let n = &args[5..6];
        assert_eq!(
            out.stderr,
            format!(
                "queens: note: the {n}x{n} board has no solution, so there is nothing to list\n"
            ),
            "{args}"
        );
    }
    // A board with solutions, or a limit of 0, says nothing.
    assert_eq!(run("list 4").stderr, "");
    assert_eq!(run("list 3 --limit 0").stderr, "");
}

#[test]
fn list_draws_boards_with_a_blank_line_after_each() {
    assert_prints(
        "list 4 --format board",
        ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n",
    );
}

#[test]
fn list_is_identical_for_every_algorithm() {
    let reference = run("list 7").stdout;
    for algo in ["backtrack", "iterative", "recursive", "wirth", "bfs"] {
        assert_eq!(
            run(&format!("list 7 --algo {algo}")).stdout,
            reference,
            "{algo}"
        );
    }
}

#[test]
fn count_prints_one_integer_line() {
    assert_prints("count 10", "724\n");
    assert_prints("count 6 --algo backtrack", "4\n");
}

#[test]
fn fails_with_a_clear_error_when_n_is_zero() {
    fails_with("solve 0", 2, &["N must be at least 1"]).stdout_is("");
}

#[test]
fn fails_with_a_clear_error_when_n_is_not_a_number() {
    for cmd in ["solve", "list", "count"] {
        fails_with(&format!("{cmd} eight"), 2, &["'eight'"]);
    }
}

#[test]
fn fails_with_a_clear_error_for_an_unknown_algorithm() {
    fails_with("list 8 --algo magic", 2, &["magic", "bitboard"]);
}

#[test]
fn refuses_the_algebraic_format_beyond_twenty_six_files() {
    fails_with("solve 27 --format algebraic", 2, &["up to 26"]).stdout_is("");
}

#[test]
fn the_breadth_first_search_refuses_to_exceed_its_memory_budget() {
    fails_with(
        "list 12 --algo bfs --max-memory 100K",
        2,
        &["memory budget"],
    )
    .stdout_is("");
    fails_with(
        "count 8 --algo bfs --max-memory lots",
        2,
        &["'lots' is not a size"],
    );
}

/// Issue 39: a board without a solution is a JSON value too, and still status 1.
#[test]
fn issue_39_solve_json_says_there_is_no_solution() {
    for algo in ["bitboard", "construct", "backtrack"] {
        let ran = run_args(&["solve", "3", "--format", "json", "--algo", algo]).status(1);
        let value: serde_json::Value = serde_json::from_str(ran.stdout.trim()).expect("JSON");
        assert_eq!(value, serde_json::json!({"n": 3, "queens": null}), "{algo}");
    }
    run("solve 3").status(1).stdout_is("");
}

/// Issue 39: `complete --count --format json` prints the count as JSON; other formats are refused.
#[test]
fn issue_39_complete_count_takes_format_json() {
    assert_prints(
        "complete 8 --fixed 0:0 --count --format json",
        "{\"n\":8,\"count\":4}\n",
    );
    assert_prints("complete 8 --fixed 0:0 --count", "4\n");
    fails_with(
        "complete 8 --fixed 0:0 --count --format board",
        2,
        &["--format json"],
    )
    .stdout_is("");
}

/// Issue 39: numbers are read as documented, digits only.
#[test]
fn issue_39_n_with_a_sign_or_a_space_is_refused() {
    for n in ["+8", " 8", "8 "] {
        run_args(&["solve", n])
            .status(2)
            .stderr_has(&["N must be a whole number"])
            .stdout_is("");
    }
    run_args(&["serve", "--max-connections", "+5"])
        .status(2)
        .stderr_has(&["not a whole number"]);
}

/// `serve --port` is read in digits only like every other whole number (clap's parser of
/// `u16` took `+80` and `-0`, and said "invalid digit found in string" or "number too large
/// to fit in target type" without the range); digits past any range are named too large,
/// not malformed (`--fixed` said "is not a square" of a square written right). The host
/// cannot be looked up, so that a port taken would still end the run.
#[test]
fn a_port_with_a_sign_and_numbers_past_u64_are_named_for_what_they_are() {
    for port in ["+80", "-0", "99999999999999999999", "65536"] {
        let port = format!("--port={port}");
        run_args(&["serve", "--host", "no.such.host.invalid", &port])
            .status(2)
            .stderr_has(&["--port <PORT>", "a whole number from 0 to 65535"])
            .stdout_is("");
    }
    run_args(&["list", "8", "--limit", "18446744073709551616"])
        .status(2)
        .stderr_has(&[
            "'18446744073709551616' is too large: a whole number from 0 to 18446744073709551615",
        ]);
    run_args(&["complete", "8", "--fixed", "0:0,99999999999999999999:3"])
        .status(2)
        .stderr_has(&[
            "the row 99999999999999999999 is off every board (rows and columns of `complete` \
             are at most 4294967294)",
        ]);
    run_args(&["count", "8", "-j", "2000"])
        .status(2)
        .stderr_has(&["'2000' is too large: a whole number from 0 to 1024"]);
}

/// The server's waits are refused above a day, where they were taken as a day without a word.
#[test]
fn the_servers_waits_past_a_day_are_refused() {
    for flag in ["--header-timeout", "--idle-timeout", "--shutdown-grace"] {
        let wait = format!("{flag}=18446744073709551616");
        run_args(&["serve", "--host", "no.such.host.invalid", &wait])
            .status(2)
            .stderr_has(&[flag, "above 0 and at most 86400 (one day)"])
            .stdout_is("");
    }
}

/// Issue 39: `--max-memory 1.5G` is accepted, and `GB` is a power of 1000.
#[test]
fn issue_39_sizes_take_a_fraction_and_decimal_units() {
    assert_prints(
        "list 6 --algo bfs --max-memory 1.5G --limit 1",
        "1 3 5 0 2 4\n",
    );
    assert_prints(
        "list 6 --algo bfs --max-memory 1GB --limit 1",
        "1 3 5 0 2 4\n",
    );
    fails_with("list 6 --max-memory 1.5", 2, &["'1.5' is not a size"]);
}

#[test]
fn verify_reports_each_placement_of_mixed_input() {
    let input = "0 4 7 5 2 6 1 3\n\n.Q..\n...Q\nQ...\n..Q.\n\n0 4 7 5 2 6 3 1\n";
    run_with_input("verify", input).status(1).stdout_is(
        "line 1: 8x8: solution\n\
         line 3: 4x4: solution\n\
         line 8: 8x8: not a solution: the queens at row 2, column 7 and row 6, column 3 \
         attack each other along an anti-diagonal\n",
    );
}

#[test]
fn verify_names_a_shared_column_and_a_crowded_board_row() {
    let cases = [
        (
            "1 3 0 1\n",
            "row 0, column 1 and row 3, column 1 attack each other along a column",
        ),
        (
            "Q.Q.\n....\n....\n....\n",
            "row 0, column 0 and row 0, column 2 attack each other along a row",
        ),
    ];
    for (input, needle) in cases {
        run_with_input("verify", input)
            .status(1)
            .stdout_has(&[needle]);
    }
}

#[test]
fn verify_reads_a_file_and_succeeds_when_all_are_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eight.txt");
    std::fs::write(&path, run("list 8").stdout).unwrap();
    let path = path.to_str().expect("a UTF-8 path");
    run_args(&["verify", path])
        .succeeds()
        .stdout_has(&["line 92: 8x8: solution"]);
    run_args(&["verify", "--quiet", path])
        .succeeds()
        .stdout_is("");
}

#[test]
fn verify_names_the_line_of_malformed_input_with_status_two() {
    fails_with_input("verify", "0 1\n\nhello world\n", 2, &["line 3"]);
    let off = "line 1: column 4 of row 3 is off the board";
    fails_with_input("verify", "1 3 0 4\n", 2, &[off]);
    fails_with_input("verify", "\n\n", 2, &["no placement"]);
    fails_with("verify /nonexistent/placements.txt", 2, &["cannot read"]);
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

/// `queens verify ARGS` started with its standard input, output and error piped.
fn spawn_verify(args: &[&str]) -> std::process::Child {
    StdCommand::new(assert_cmd::cargo::cargo_bin("queens"))
        .arg("verify")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `queens verify` with `input` on standard input and its output read up to the first line,
/// then closed: (the first line, the exit status, standard error).
fn verify_closed_after_one_line(args: &[&str], input: String) -> (String, Option<i32>, String) {
    let mut child = spawn_verify(args);
    let mut stdin = child.stdin.take().unwrap();
    // The input is written meanwhile: verify answers each placement as it reads it.
    let writer = std::thread::spawn(move || {
        let _ = std::io::Write::write_all(&mut stdin, input.as_bytes());
    });
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    drop(reader);
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        first,
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A closed pipe ends `verify` quietly, in text and in JSON (which serde_json writes, and once
/// made status 2 and "Broken pipe"), and its status is still the answer: "no" once a placement
/// that is not a solution was seen.
#[test]
fn a_closed_pipe_ends_verify_quietly_and_keeps_its_answer() {
    let many = |first: &str| format!("{first}\n{}", "1 3 0 2\n".repeat(200_000));
    for format in ["text", "json"] {
        let (line, code, err) =
            verify_closed_after_one_line(&["--format", format], many("1 3 0 2"));
        assert!(line.contains("solution") || line.contains("true"), "{line}");
        assert_eq!((code, err.as_str()), (Some(0), ""), "{format}");
        let (line, code, err) = verify_closed_after_one_line(&["--format", format], many("0 0"));
        assert!(
            line.contains("not a solution") || line.contains("false"),
            "{line}"
        );
        assert_eq!((code, err.as_str()), (Some(1), ""), "{format}");
    }
}

#[test]
fn help_lists_every_subcommand() {
    let text = printed("--help");
    for cmd in ["solve", "list", "count", "verify"] {
        assert!(text.contains(cmd), "{cmd} missing from help");
    }
}

/// A placement written to `verify` through a pipe that stays open is answered at once, before
/// the input ends: the verdicts are flushed whenever the input waits (a person typing, or a
/// slow producer, sees each one; they were held until the end of the input).
#[test]
fn verify_answers_each_placement_while_its_input_stays_open() {
    use std::io::Write;
    use std::sync::mpsc;
    use std::time::Duration;
    let mut child = spawn_verify(&[]);
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines, seen) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let wait = Duration::from_secs(30);
    for (input, verdict) in [
        ("0 4 7 5 2 6 1 3\n", "line 1: 8x8: solution"),
        ("1 3 0 3\n", "line 2: 4x4: not a solution"),
    ] {
        stdin.write_all(input.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let line = seen.recv_timeout(wait).unwrap_or_else(|_| {
            let _ = child.kill();
            panic!("no verdict on {input:?} within {wait:?} while the input stayed open")
        });
        assert!(line.starts_with(verdict), "{line}");
    }
    drop(stdin);
    let status = child.wait().unwrap();
    reader.join().unwrap();
    assert_eq!(status.code(), Some(1));
}
