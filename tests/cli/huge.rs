//! Huge boards and completion (issue 4): `solve --algo construct|min-conflicts`, streaming
//! `verify`, `complete`.

use crate::common::*;

#[test]
fn construct_solves_every_board_from_4_to_60() {
    for n in 4..=60 {
        let line = printed(&format!("solve {n} --algo construct --format positions"));
        let q = positions(line.trim_end());
        assert_eq!(q.len(), n);
        assert!(is_solution(&q), "N = {n}: {line}");
    }
}

#[test]
fn construct_and_min_conflicts_give_the_single_queen_and_refuse_two_and_three() {
    for algo in ["construct", "min-conflicts"] {
        assert_prints(&format!("solve 1 --algo {algo} --format positions"), "0\n");
        for n in ["2", "3"] {
            fails_with(&format!("solve {n} --algo {algo}"), 1, &["no solution"]);
        }
    }
}

#[test]
fn min_conflicts_with_a_seed_is_reproducible_and_valid() {
    let line = "solve 200 --algo min-conflicts --seed 5 --format positions";
    let a = printed(line);
    assert_eq!(a, printed(line));
    assert!(is_solution(&positions(a.trim_end())));
}

#[test]
fn min_conflicts_without_a_seed_prints_the_seed_it_used() {
    run("solve 50 --algo min-conflicts --format positions")
        .succeeds()
        .stderr_has(&["--seed"]);
}

#[test]
fn seed_is_refused_for_other_algorithms() {
    fails_with("solve 8 --algo construct --seed 3", 2, &["--seed"]);
}

#[test]
fn the_default_is_the_first_solution_up_to_29_and_the_construction_above() {
    assert_prints("solve 8 --format positions", "0 4 7 5 2 6 1 3\n");
    let constructed = printed("solve 30 --algo construct --format positions");
    assert_prints("solve 30 --format positions", &constructed);
}

#[test]
fn a_board_too_large_to_draw_is_refused_with_a_hint() {
    fails_with("solve 100000000", 2, &["--format positions"]);
}

#[test]
fn json_of_a_large_construction_is_valid() {
    let out = stdout_of(&["solve", "1000", "--algo", "construct", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["n"], 1000);
    let q: Vec<usize> = v["queens"]
        .as_array()
        .expect("queens")
        .iter()
        .map(|c| c.as_u64().expect("a column") as usize)
        .collect();
    assert!(is_solution(&q));
}

#[test]
fn verify_accepts_a_large_constructed_board_through_a_pipe() {
    let line = printed("solve 100000 --algo construct --format positions");
    run_with_input("verify", &line)
        .succeeds()
        .stdout_is("line 1: 100000x100000: solution\n");
}

#[test]
fn verify_names_two_attacking_queens_of_a_large_board() {
    let line = printed("solve 5000 --algo construct --format positions");
    let mut q = positions(line.trim_end());
    q.swap(10, 4000);
    let text: Vec<String> = q.iter().map(|c| c.to_string()).collect();
    let out = run_with_input("verify", &format!("# swapped\n{}\n", text.join(" ")))
        .status(1)
        .stdout;
    assert!(
        out.starts_with("line 2: 5000x5000: not a solution: the queens at row "),
        "{out}"
    );
    assert!(out.contains("attack each other"), "{out}");
}

#[test]
fn verify_reads_mixed_input_and_reports_malformed_lines_by_number() {
    run_with_input("verify", "1 3 0 2\n\n.Q..\n...Q\nQ...\n..Q.\n")
        .succeeds()
        .stdout_is("line 1: 4x4: solution\nline 3: 4x4: solution\n");
    fails_with_input("verify", "1 3 0 2\n1 3 x 2\n", 2, &["line 2: '1 3 x 2'"]);
    let off = "column 4 of row 2 is off the board";
    fails_with_input("verify", "0 1 4\n", 2, &[off]);
}

/// `echo 8 | queens verify` said only that column 8 of row 0 is off the board (columns are 0
/// to 0): whoever meant the 8x8 board is told how a positions line is read. The status stays 2.
#[test]
fn verify_of_a_line_of_one_number_says_that_it_is_a_1x1_board() {
    let hint = "line 1: column 8 of row 0 is off the board (columns are 0 to 0): a positions line \
                gives the column of each row's queen, so one number is a 1x1 board; a placement \
                of N queens has N numbers";
    fails_with_input("verify", "8\n", 2, &[hint]).stdout_is("");
    // 0 alone is the 1x1 solution, and a longer line off the board gets no hint.
    run_with_input("verify", "0\n")
        .succeeds()
        .stdout_is("line 1: 1x1: solution\n");
    let err = fails_with_input("verify", "0 8\n", 2, &["column 8 of row 1"]).stderr;
    assert!(!err.contains("1x1"), "{err}");
}

#[test]
fn complete_finds_a_solution_containing_the_given_queens() {
    let line = printed("complete 8 --fixed 0:3,5:2 --format positions");
    let q = positions(line.trim_end());
    assert!(is_solution(&q));
    assert_eq!((q[0], q[5]), (3, 2));
}

#[test]
fn complete_counts_agree_with_filtering_the_list() {
    let list = stdout_of(&["list", "8"]);
    let all: Vec<Vec<usize>> = list.lines().map(positions).collect();
    for fixed in [vec![(0, 3)], vec![(0, 3), (5, 2)], vec![(7, 7)], vec![]] {
        let expected = all
            .iter()
            .filter(|q| fixed.iter().all(|&(r, c)| q[r] == c))
            .count();
        let spec: Vec<String> = fixed.iter().map(|(r, c)| format!("{r}:{c}")).collect();
        let mut args = vec!["complete", "8", "--count"];
        let joined = spec.join(",");
        if !spec.is_empty() {
            args.extend(["--fixed", &joined]);
        }
        assert_eq!(stdout_of(&args), format!("{expected}\n"), "{fixed:?}");
    }
}

/// A count far too long to finish (a corner queen on 28x28) stopped by SIGINT or SIGTERM ends
/// with 130 or 143, prints nothing as the count, and names the completions found so far.
#[test]
fn complete_count_stopped_by_a_signal_says_what_it_found_and_ends_with_its_status() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let start = |signal| {
        let child = Command::new(assert_cmd::cargo::cargo_bin("queens"))
            .args(words("complete 28 --fixed 0:0 --count"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts");
        (child, signal)
    };
    let mut runs = [start(libc::SIGINT), start(libc::SIGTERM)];
    // Past the start and the read of the instance: the search is under way.
    std::thread::sleep(Duration::from_secs(2));
    for (child, signal) in &mut runs {
        assert_eq!(child.try_wait().unwrap(), None, "the count ended by itself");
        // SAFETY: `kill` sends a signal to our own child.
        unsafe { libc::kill(child.id() as i32, *signal) };
    }
    for (child, signal) in runs {
        let sent = Instant::now();
        let mut child = child;
        while child.try_wait().unwrap().is_none() {
            if sent.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                panic!("no end 30 s after signal {signal}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.signal(), None, "killed by the signal: {err}");
        let expected = if signal == libc::SIGINT { 130 } else { 143 };
        assert_eq!(out.status.code(), Some(expected), "{err}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "", "{err}");
        let found = err
            .strip_prefix("queens: interrupted after finding ")
            .and_then(|rest| rest.split(' ').next())
            .and_then(|k| k.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("no count found so far: {err}"));
        assert!(
            err.contains(&format!("so far (the count is at least {found})")),
            "{err}"
        );
    }
}

#[test]
fn complete_says_no_when_nothing_completes_the_board() {
    fails_with("complete 4 --fixed 0:0", 1, &["no completion"]).stdout_is("");
    run("complete 4 --fixed 0:0 --count")
        .status(1)
        .stdout_is("0\n");
}

#[test]
fn complete_names_two_given_queens_that_attack() {
    let attack = "the queens at row 1, column 1 and row 6, column 6 attack each other along a \
                  diagonal";
    fails_with("complete 8 --fixed 1:1,6:6", 1, &[attack]);
}

#[test]
fn complete_refuses_queens_off_the_board_and_malformed_squares() {
    fails_with("complete 8 --fixed 8:0", 2, &["off the 8x8 board"]);
    fails_with("complete 8 --fixed 3", 2, &["ROW:COLUMN"]);
}

#[test]
fn complete_reads_csplib_and_board_files() {
    let dir = tempfile::tempdir().unwrap();
    let param = dir.path().join("puzzle.param");
    std::fs::write(
        &param,
        "language ESSENCE' 1.0\nletting n =  8\nletting init =  [[0, 3],\n  [5, 2]]\n",
    )
    .unwrap();
    let line = stdout_of(&["complete", param.to_str().unwrap(), "--format", "positions"]);
    let q = positions(line.trim_end());
    assert!(is_solution(&q) && q[0] == 3 && q[5] == 2, "{line}");
    let board = dir.path().join("puzzle.txt");
    std::fs::write(
        &board,
        "...Q....\n........\n........\n........\n........\n..Q.....\n........\n........\n",
    )
    .unwrap();
    assert_eq!(
        stdout_of(&["complete", board.to_str().unwrap(), "--count"]),
        stdout_of(&["complete", param.to_str().unwrap(), "--count"])
    );
    run_with_input("complete - --count", "letting n = 4\nletting init = []\n")
        .succeeds()
        .stdout_is("2\n");
}

#[test]
fn complete_reports_malformed_files_and_misplaced_flags() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.param");
    let param = path.to_str().unwrap();
    std::fs::write(param, "letting n = 8\nletting init = [[0, 3] [5, 2]]\n").unwrap();
    run_args(&["complete", param])
        .status(2)
        .stderr_has(&["line 2"]);
    std::fs::write(param, "letting n = 8\nletting init = [[0, 9]]\n").unwrap();
    run_args(&["complete", param])
        .status(2)
        .stderr_has(&["off the 8x8 board"]);
    run_args(&["complete", param, "--fixed", "0:0"])
        .status(2)
        .stderr_has(&["--fixed"]);
    fails_with("complete no-such-file.param", 2, &["cannot read"]);
}

/// A square given twice and two given queens that attack each other are named with the lines
/// of the CSPLib file that gave them (they were named by row and column only).
#[test]
fn complete_names_the_lines_of_a_file_that_gave_a_square_twice_or_queens_that_attack() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("twice.param");
    let param = path.to_str().unwrap();
    std::fs::write(
        param,
        "letting n = 8\nletting init = [\n  [0, 3],\n  [5, 2],\n  [0, 3]\n]\n",
    )
    .unwrap();
    let twice =
        "twice.param: line 5: the queen at row 0, column 3 is given twice (first on line 3)";
    for count in [false, true] {
        let mut args = vec!["complete", param];
        args.extend(count.then_some("--count"));
        run_args(&args).status(2).stdout_is("").stderr_has(&[twice]);
    }
    std::fs::write(
        param,
        "letting n = 8\nletting init = [[0, 0],\n  [5, 2],\n  [3, 3]]\n",
    )
    .unwrap();
    let attack = "queens: no completion: the queens at row 0, column 0 and row 3, column 3 attack \
                  each other along a diagonal (given on lines 2 and 4)";
    run_args(&["complete", param])
        .status(1)
        .stderr_has(&[attack]);
    run_args(&["complete", param, "--count"])
        .status(1)
        .stdout_is("0\n")
        .stderr_has(&[attack]);
    // Given with --fixed, they have no line: the flag is named.
    for fixed in ["0:3,0:3", "0:3 --fixed 0:3", "1:1,0:3,2:4,0:3"] {
        fails_with(
            &format!("complete 8 --fixed {fixed}"),
            2,
            &["queens: error: --fixed gives the queen at row 0, column 3 twice\n"],
        );
    }
}

#[test]
fn complete_names_attacking_queens_drawn_on_a_board() {
    let attack = "the queens at row 0, column 1 and row 1, column 0 attack each other along an \
                  anti-diagonal";
    fails_with_input("complete -", ".Q..\nQQ..\n....\n....\n", 1, &[attack]);
}
