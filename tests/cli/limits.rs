//! Every input bounded (issue 13): no stack overflow, no allocation beyond the memory budget,
//! bounded readers with short errors, numbers too large said so, and `complete` fast on easy
//! instances. The huge-N cases run under a limited address space (`prlimit --as`), so that an
//! attempted allocation of many gigabytes would abort the binary and fail the test.

use std::io::Write;
use std::process::{Command as StdCommand, Output, Stdio};
use std::time::Duration;

use crate::common::{is_solution, positions, queens, under_prlimit, words};

/// The address space the huge-N cases may use: room for the default 1 GiB budget, far from the
/// 8 to 100 GB those requests would take.
const ADDRESS_SPACE: &str = "--as=3221225472";

/// Runs `queens LINE` (split at spaces) under `prlimit --as`, feeding it `input`.
fn limited(line: &str, input: &[u8]) -> Output {
    limited_args(&words(line), input)
}

/// Runs the `queens` binary with `args` under `prlimit --as`, feeding it `input`.
fn limited_args(args: &[&str], input: &[u8]) -> Output {
    limited_taking(args, input).0
}

/// [`limited_args`], and how many bytes of `input` the binary took before it closed its
/// standard input (all of them when it read to the end).
fn limited_taking(args: &[&str], input: &[u8]) -> (Output, usize) {
    let mut child = under_prlimit(ADDRESS_SPACE, args)
        .stdin(Stdio::piped())
        .spawn()
        .expect("prlimit runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // The binary may stop reading at its first error: a closed pipe is fine.
    let writer = std::thread::spawn(move || {
        let mut taken = 0;
        for chunk in input.chunks(1 << 16) {
            if stdin.write_all(chunk).is_err() {
                break;
            }
            taken += chunk.len();
        }
        taken
    });
    let out = child.wait_with_output().expect("queens runs");
    let taken = writer.join().expect("the writer ends");
    (out, taken)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts a refusal: status 2, a message containing every needle, short, no panic.
fn assert_refused(out: &Output, needles: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "{needle:?} not in {err}");
    }
    assert!(
        !err.contains("panicked") && !err.contains("overflow"),
        "{err}"
    );
    assert!(err.len() < 600, "a long message: {} bytes", err.len());
}

#[test]
fn the_recursive_solvers_refuse_boards_deeper_than_their_stack() {
    for args in [
        "solve 100000 --algo wirth --format positions",
        "solve 100000 --algo recursive --format positions",
        "list 100000 --algo wirth",
        "count 100000 --algo wirth",
        "trace 100000 --algo recursive --limit 5",
    ] {
        let out = limited(args, b"");
        assert_refused(&out, &["too large", "stack frame per row", "5000"]);
    }
}

#[test]
fn the_recursive_solvers_run_at_their_deepest_board_without_overflowing() {
    for algo in ["wirth", "recursive"] {
        // The search dives thousands of rows deep at once and then backtracks for ever: let it
        // run a second and a half, and see that it is still running (or ended cleanly).
        let bin = assert_cmd::cargo::cargo_bin("queens");
        let mut child = StdCommand::new(bin)
            .args(["list", "5000", "--algo", algo, "--limit", "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("queens runs");
        std::thread::sleep(Duration::from_millis(1500));
        match child.try_wait().expect("the child can be waited for") {
            Some(status) => panic!("{algo} ended with {status}"),
            None => {
                child.kill().expect("the child can be killed");
                let out = child.wait_with_output().expect("the child ends");
                assert!(stderr(&out).is_empty(), "{}", stderr(&out));
            }
        }
    }
}

#[test]
fn a_deeply_nested_csplib_file_is_refused() {
    let text = format!("letting n = 8\nletting init = {}\n", "[".repeat(30_000));
    let out = limited("complete -", text.as_bytes());
    assert_refused(&out, &["line 2", "nested more than"]);
}

#[test]
fn huge_boards_are_refused_before_allocating() {
    let cases: [(&str, &str); 5] = [
        (
            "solve 4294967295 --algo iterative --format json",
            "the iterative algorithm on N = 4294967295 needs",
        ),
        (
            "solve 1000000000 --algo backtrack --format positions",
            "the backtrack algorithm on N = 1000000000 needs",
        ),
        (
            "solve 4294967295 --algo min-conflicts --format positions --seed 1",
            "min-conflicts on N = 4294967295 needs",
        ),
        (
            "trace 4294967295 --limit 1",
            "the trace of the backtrack algorithm",
        ),
        (
            "complete 200000000 --fixed 0:0 --format positions",
            "completing the 200000000x200000000 board",
        ),
    ];
    for (args, what) in cases {
        let out = limited(args, b"");
        assert_refused(
            &out,
            &[what, "memory budget of 1073741824 bytes", "--max-memory"],
        );
    }
}

#[test]
fn the_budget_is_the_max_memory_flag_for_every_command() {
    // Small boards fit a small budget; a smaller one refuses them.
    let out = limited(
        "solve 2000 --algo min-conflicts --seed 3 --format positions --max-memory 1M",
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let q = positions(String::from_utf8(out.stdout).unwrap().trim());
    assert!(is_solution(&q));
    let out = limited(
        "solve 2000 --algo min-conflicts --seed 3 --format positions --max-memory 10K",
        b"",
    );
    assert_refused(
        &out,
        &["min-conflicts on N = 2000 needs 48000 bytes", "10240 bytes"],
    );
    let out = limited("list 3000 --algo iterative --max-memory 4K", b"");
    assert_refused(&out, &["the iterative algorithm on N = 3000"]);
    let out = limited("verify --max-memory 16", b"0 4 7 5 2 6 1 3\n");
    assert_refused(&out, &["line 1", "longer than the 3 columns"]);
}

#[test]
fn a_runaway_board_is_an_error_at_its_second_line_in_little_time_and_memory() {
    // `yes . | head -c 100000000 | queens verify` held 5.7 GB for 24 s and printed 150 MB.
    let input = b".\n".repeat(25_000_000);
    let (out, taken) = limited_taking(&words("verify"), &input);
    assert_refused(&out, &["line 2:", "separate boards with a blank line"]);
    // An order, not a time: the refusal comes before the input ends (a few pipe buffers of
    // the 50 MB were taken when it stopped reading).
    assert!(
        taken < input.len() / 10,
        "{taken} of {} bytes read before the refusal",
        input.len()
    );
    // A board row longer than the first is an error at its own line, however long.
    let mut text = b"....\n..".to_vec();
    text.extend(std::iter::repeat_n(b'.', 20_000_000));
    let out = limited("verify", &text);
    assert_refused(&out, &["line 2:", "more than 4"]);
}

#[test]
fn complete_reads_at_most_a_share_of_the_budget() {
    let input = b".\n".repeat(1_000_000);
    let out = limited("complete - --max-memory 64M", &input);
    assert_refused(
        &out,
        &[
            "standard input is longer than 1048576 bytes",
            "--max-memory",
        ],
    );
}

#[test]
fn numbers_too_large_say_so() {
    let out = limited("solve 18446744073709551616", b"");
    assert_refused(
        &out,
        &["N = 18446744073709551616 is too large: at most 18446744073709551615 for `solve --algo construct`"],
    );
    let out = limited("list 99999999999999999999999", b"");
    assert_refused(
        &out,
        &["is too large: at most 4294967295 for `list --algo backtrack`"],
    );
    let out = limited("complete 18446744073709551616", b"");
    assert_refused(
        &out,
        &["N = 18446744073709551616 is too large: at most 4294967295"],
    );
    let out = limited(
        "complete -",
        b"letting n = 1000000000000000000000000000000\n",
    );
    assert_refused(&out, &["line 1", "is too large: at most 4294967295"]);
    let column = "9".repeat(1_000_000);
    let out = limited("verify", format!("0 {column} 1\n").as_bytes());
    assert_refused(
        &out,
        &["line 1", "a number of 1000000 digits", "columns are 0 to 2"],
    );
    // The old messages stay for zero and for words.
    let out = limited("solve 0", b"");
    assert_refused(&out, &["N must be at least 1"]);
    let out = limited("solve eight", b"");
    assert_refused(
        &out,
        &["N must be a whole number of at least 1, not 'eight'"],
    );
}

/// Completes `n` with `fixed` and checks the answer independently. How much work it takes is
/// bounded by a count in the engine's tests (`complete::tests`: these boards are answered by
/// the local search within its tries, before the exact search), not by a time here.
fn complete_and_check(n: usize, fixed: &[(usize, usize)]) {
    let list: Vec<String> = fixed.iter().map(|(r, c)| format!("{r}:{c}")).collect();
    let n_text = n.to_string();
    let mut args = vec!["complete", n_text.as_str(), "--format", "positions"];
    let joined = list.join(",");
    if !fixed.is_empty() {
        args.extend(["--fixed", joined.as_str()]);
    }
    let out = queens().args(&args).output().expect("queens runs");
    assert!(out.status.success(), "N = {n}: {}", stderr(&out));
    let q = positions(String::from_utf8(out.stdout).unwrap().trim());
    assert_eq!(q.len(), n);
    assert!(is_solution(&q), "N = {n}");
    assert!(
        fixed.iter().all(|&(r, c)| q[r] == c),
        "N = {n}: a given queen moved"
    );
}

#[test]
fn corner_queen_boards_are_completed_fast() {
    // Each took the exact search alone from 2 s to over 10 s.
    for n in [88, 91, 98, 108, 110, 120, 1000] {
        complete_and_check(n, &[(0, 0)]);
    }
}

#[test]
fn a_tenth_of_a_solution_given_is_completed_fast() {
    for (n, seed) in [(50, "1"), (500, "2"), (2000, "3")] {
        let out = queens()
            .args([
                "solve",
                &n.to_string(),
                "--algo",
                "min-conflicts",
                "--seed",
                seed,
            ])
            .args(["--format", "positions"])
            .output()
            .expect("queens runs");
        let full = positions(String::from_utf8(out.stdout).unwrap().trim());
        let fixed: Vec<(usize, usize)> = (0..n / 10)
            .map(|i| (i * 10 + 7, full[i * 10 + 7]))
            .collect();
        complete_and_check(n, &fixed);
    }
}

#[test]
fn no_completion_is_still_proved_and_counts_stay_exact() {
    let out = queens()
        .args(["complete", "8", "--fixed", "0:0,1:2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // The 10x10 board has 724 solutions; summing the counts with the queen of row 0 in each
    // column gives them all.
    let total: u64 = (0..10)
        .map(|c| {
            let out = queens()
                .args(["complete", "10", "--count", "--fixed", &format!("0:{c}")])
                .output()
                .unwrap();
            String::from_utf8(out.stdout)
                .unwrap()
                .trim()
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    let listed = queens().args(["list", "10"]).output().unwrap().stdout;
    assert_eq!(
        total,
        String::from_utf8(listed).unwrap().lines().count() as u64
    );
}

/// Runs `queens args` for `secs` seconds (killed then), its standard error a pseudo-terminal
/// made by `script`, and returns what that terminal showed; `None` without `script`.
fn on_a_terminal(args: &str, secs: u64) -> Option<String> {
    let bin = assert_cmd::cargo::cargo_bin("queens");
    let command = format!("timeout {secs} {} {args} > /dev/null", bin.display());
    let out = StdCommand::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_long_search_on_a_terminal_shows_a_sign_of_life_unless_quiet() {
    for args in [
        "solve 40 --algo bitboard --format positions",
        "list 40",
        "trace 64 --all --summary",
        "count 17 --algo wirth",
    ] {
        let Some(shown) = on_a_terminal(args, 4) else {
            eprintln!("no `script` here: skipped");
            return;
        };
        assert!(shown.contains("steps/s, depth "), "{args}: {shown:?}");
        let quiet = on_a_terminal(&format!("{args} --quiet"), 3).unwrap();
        assert!(!quiet.contains("steps"), "{args} --quiet: {quiet:?}");
    }
}

#[test]
fn a_long_search_says_nothing_when_standard_error_is_not_a_terminal() {
    let bin = assert_cmd::cargo::cargo_bin("queens");
    let mut child = StdCommand::new(bin)
        .args(["solve", "40", "--algo", "bitboard", "--format", "positions"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("queens runs");
    std::thread::sleep(Duration::from_millis(3000));
    child.kill().expect("the child can be killed");
    let out = child.wait_with_output().expect("the child ends");
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

/// `queens merge` streams its files a line at a time: a 4 GiB file (sparse, of zero bytes,
/// with no line break) is refused at its first line, within the limited address space that
/// reading it whole would exceed; a long line among good ones is named by its number.
#[test]
fn merge_reads_a_huge_file_a_bounded_line_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.jsonl");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(4 << 30)
        .unwrap();
    let out = limited_args(&["merge", huge.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("line 1: longer than 4096 bytes"),
        "{stderr}"
    );
    let mixed = dir.path().join("mixed.jsonl");
    std::fs::write(&mixed, format!("\n{}\n{}\n", "{}", "x".repeat(5000))).unwrap();
    let out = limited_args(&["merge", mixed.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("line 2") || stderr.contains("line 3"),
        "{stderr}"
    );
}
