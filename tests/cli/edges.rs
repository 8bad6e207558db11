//! Reliability edges (issue 40), tried as a hostile user would: input that tries to drive the
//! terminal, checkpoints reached through symbolic links, and instance files built to exhaust the
//! memory budget. (Signals sent before the arguments are read: `no_abort.rs`; the server's
//! graceful shutdown: `serve.rs`.)

use crate::common::{queens, run_command, run_with_input, Ran};

/// Checks that nothing on standard error could act on a terminal: no control character but
/// the line ends.
fn assert_no_control_bytes(ran: &Ran) {
    let raw = ran
        .stderr
        .chars()
        .find(|&c| c != '\n' && (c.is_control() || c == '\u{202e}'));
    assert_eq!(
        raw, None,
        "a raw control character on standard error: {ran:#?}"
    );
}

/// Checks that a run was refused (status 2) with every one of `needles` on standard error and
/// nothing there that could act on a terminal.
fn refused_escaped(ran: Ran, needles: &[&str]) {
    let ran = ran.status(2);
    assert_no_control_bytes(&ran);
    ran.stderr_has(needles);
}

#[test]
fn verify_shows_escape_sequences_of_its_input_escaped() {
    refused_escaped(
        run_with_input("verify", "\u{1b}]0;pwned\u{7}\u{1b}[2J\n"),
        &[r"line 1: '\x1b]0;pwned\x07\x1b[2J' is neither"],
    );
    // NUL, a C1 control (CSI) and a right-to-left override inside a positions line.
    let input = "0 4 7 5 2 6 1 3\n0 1\u{0}2 \u{9b}2J\u{202e}\n";
    refused_escaped(
        run_with_input("verify", input),
        &[r"line 2: '0 1\02 \u{9b}2J\u{202e}'"],
    );
}

#[test]
fn verify_and_complete_show_control_characters_of_file_names_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().join("no\u{1b}[2Jsuch\u{7}");
    let shown = r"no\x1b[2Jsuch\x07";
    for command in ["verify", "complete"] {
        refused_escaped(
            run_command(queens().arg(command).arg(&name)),
            &["cannot read", shown],
        );
    }
    refused_escaped(
        run_command(queens().args(["complete", "--fixed", "0:0"]).arg(&name)),
        &["--fixed goes with a board size N", shown],
    );
    // A file that exists: its name in the message about its content is escaped too.
    std::fs::write(&name, "0 1 x\n").unwrap();
    refused_escaped(
        run_command(queens().arg("verify").arg(&name)),
        &[shown, "line 1: '0 1 x'"],
    );
}

#[test]
fn issue_40_count_shows_control_characters_of_checkpoint_names_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().join("run\u{1b}]0;pwned\u{7}.ck");
    let shown = r"run\x1b]0;pwned\x07.ck";
    // A finished checkpoint read again: the line that names it.
    run_command(
        queens()
            .args(["count", "8", "-q", "--checkpoint"])
            .arg(&name),
    )
    .status(0);
    let ran = run_command(queens().args(["count", "8", "--checkpoint"]).arg(&name)).status(0);
    assert_no_control_bytes(&ran);
    ran.stderr_has(&["holds a finished run", shown]);
    // A recount prints the name on standard output.
    let ran = run_command(
        queens()
            .args(["count", "8", "--recount", "2", "--checkpoint"])
            .arg(&name),
    )
    .status(0);
    assert!(
        !ran.stdout.contains('\u{1b}') && ran.stdout.contains(shown),
        "{ran:#?}"
    );
    // An error from the engine that quotes the name (a checkpoint of another N), and one from
    // the binary (a folder is not a checkpoint).
    refused_escaped(
        run_command(queens().args(["count", "9", "--checkpoint"]).arg(&name)),
        &[shown],
    );
    let folder = dir.path().join("d\u{1b}[2J");
    std::fs::create_dir(&folder).unwrap();
    refused_escaped(
        run_command(queens().args(["count", "8", "--checkpoint"]).arg(&folder)),
        &[r"d\x1b[2J", "not a regular file"],
    );
}

#[test]
fn complete_shows_control_characters_of_its_input_escaped() {
    let csplib = "letting n = 8\nletting init = [[0, 3]]\n\u{1b}[2J\n";
    refused_escaped(
        run_with_input("complete -", csplib),
        &[r"line 3: unexpected '\x1b' in a CSPLib parameter file"],
    );
    let board = "Q.\u{7}.\n....\n....\n....\n";
    refused_escaped(run_with_input("complete -", board), &[r"'Q.\x07.'"]);
    // Printable UTF-8 is kept as it is.
    let ran = run_with_input("complete -", "letting n = 8\nletting ü = 1\n").status(2);
    ran.stderr_has(&["unexpected 'ü'"]);
}

/// Starts `queens count 20 -j 1 --checkpoint PATH` in `dir` and waits until its checkpoint
/// `saved` (the file the path leads to) is written.
#[cfg(unix)]
fn holding(dir: &std::path::Path, path: &str, saved: &str) -> std::process::Child {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("queens"))
        .args([
            "count",
            "20",
            "-j",
            "1",
            "--progress",
            "none",
            "--checkpoint",
            path,
        ])
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("queens count starts");
    let start = std::time::Instant::now();
    while !dir.join(saved).exists() {
        assert!(
            start.elapsed().as_secs() < 60,
            "no checkpoint {saved} after 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child
}

/// Issue 40: while `count --checkpoint l.ck` ran, `ln -s l.ck s.ck; count --checkpoint s.ck`
/// was accepted, repeated the work and replaced the link with a file. The lock is taken beside
/// the file a path resolves to, and a save through a link writes the file it points to.
#[cfg(unix)]
#[test]
fn a_checkpoint_held_through_a_symbolic_link_is_refused_under_any_of_its_names() {
    let dir = tempfile::tempdir().unwrap();
    let (root, real) = (dir.path(), dir.path().join("l.ck"));
    std::os::unix::fs::symlink("l.ck", root.join("s.ck")).unwrap();
    std::os::unix::fs::symlink("s.ck", root.join("t.ck")).unwrap();
    std::fs::create_dir(root.join("sub")).unwrap();
    // The holder runs through the link, before the file it points to exists.
    let holder = holding(root, "s.ck", "l.ck");
    let mut refused = Vec::new();
    for name in ["l.ck", "t.ck", "sub/../l.ck", real.to_str().unwrap()] {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("queens"))
            .args(["count", "20", "--checkpoint", name])
            .current_dir(root)
            .output()
            .expect("queens count runs");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        refused.push((
            name,
            out.status.code(),
            err.contains("in use by another run"),
            err,
        ));
    }
    // SAFETY: `kill` sends a signal to our own child.
    unsafe { libc::kill(holder.id() as i32, libc::SIGTERM) };
    let out = holder.wait_with_output().unwrap();
    for (name, code, in_use, err) in refused {
        assert!(
            code == Some(2) && in_use,
            "--checkpoint {name} was not refused: {err}"
        );
    }
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    // The saves went through the link: it is still a link, and the file holds the checkpoint.
    let link = std::fs::symlink_metadata(root.join("s.ck")).unwrap();
    assert!(
        link.file_type().is_symlink(),
        "the link was replaced by a file"
    );
    let saved = std::fs::read_to_string(&real).unwrap();
    assert!(
        saved.starts_with("queens-count-checkpoint 2\nn 20\n"),
        "{saved}"
    );
    assert!(!root.join("s.ck.lock").exists(), "a lock beside the link");
}

/// The default size cap of an instance file, a 64th of the default budget of 1 GiB.
const INSTANCE_CAP: usize = 16 << 20;

/// Issue 40: a 16 MiB CSPLib file of `[0,3],` (the default size cap) peaked at 1.55 GB against
/// the budget of 1 GiB: the reader kept every token and a tree of every value. It keeps the
/// given queens only now, and the duplicate is named, with its line. (Its peak, measured by hand with
/// `/usr/bin/time -v`, is in docs/limits.md; the test bounds it by a quarter of the budget.)
#[test]
fn a_csplib_file_of_millions_of_pairs_at_the_size_cap_is_read_and_checked() {
    let head = "letting n = 8\nletting init = [";
    let pairs = (INSTANCE_CAP - head.len() - 8) / 6;
    let mut text = String::with_capacity(INSTANCE_CAP);
    text.push_str(head);
    text.push_str(&"[0,3],".repeat(pairs));
    text.push_str("[0,3]]\n");
    assert!(text.len() <= INSTANCE_CAP);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.param");
    std::fs::write(&path, &text).unwrap();
    run_command(queens().arg("complete").arg(&path))
        .status(2)
        .stderr_has(&["line 2: the queen at row 0, column 3 is given twice on this line"]);
    // Its memory: well within the budget (the reader keeps no token).
    #[cfg(target_os = "linux")]
    assert_peak_under(&["complete", "-"], &path, PEAK_BOUND_KIB);
}

/// What the two instance files below may take at their peak, resident: a quarter of the
/// budget of 1 GiB. They took 1.55 GB and 406 MB before issue 40, and about 82 MB and 22 MB
/// after (docs/limits.md).
const PEAK_BOUND_KIB: u64 = 256 << 10;

/// Runs `queens ARGS` with the file `input` on its standard input, and checks that it ends with
/// status 2 (the file is refused) having held less than `bound` KiB resident at its peak.
#[cfg(target_os = "linux")]
fn assert_peak_under(args: &[&str], input: &std::path::Path, bound: u64) {
    let Some((code, peak)) = crate::common::peak_kib(args, input) else {
        eprintln!("SKIPPED: the peak memory of queens {args:?}: no python3 to measure it");
        return;
    };
    assert_eq!(code, 2, "queens {args:?}");
    assert!(
        peak < bound,
        "queens {args:?} peaked at {peak} KiB resident, over {bound} KiB"
    );
}

/// Issue 40: a 16 MiB file of `[[[[...` took 406 MB before its "nested more than 16 deep"
/// error: the reader tokenised the whole file first. It stops at the bracket that goes too
/// deep, and says at which byte.
#[test]
fn a_csplib_file_of_brackets_is_refused_at_the_seventeenth() {
    let head = "letting n = 8\nletting init = ";
    let text = format!("{head}{}", "[".repeat(INSTANCE_CAP - head.len()));
    let at = format!("at byte {}", head.len() + 16);
    run_with_input("complete -", &text)
        .status(2)
        .stderr_has(&["line 2: lists nested more than 16 deep", &at]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.param");
    std::fs::write(&path, &text).unwrap();
    #[cfg(target_os = "linux")]
    assert_peak_under(&["complete", "-"], &path, PEAK_BOUND_KIB);
}

/// `trace --format json` stays within `--max-memory`: its events are written a field at a
/// time, not built as a tree of JSON values first (32 bytes a queen: a trace of 2,000,000
/// queens peaked at 325 MiB under a budget of 128 MiB, 51 MiB now).
#[cfg(target_os = "linux")]
#[test]
fn a_json_trace_of_a_large_board_stays_within_its_budget() {
    let args = crate::common::words("trace 2000000 --limit 1 --format json --max-memory 128M");
    let Some((code, peak)) = crate::common::peak_kib(&args, std::path::Path::new("/dev/null"))
    else {
        eprintln!("SKIPPED: the peak memory of a trace: no python3 to measure it");
        return;
    };
    assert_eq!(code, 0, "queens {args:?}");
    assert!(
        peak < 128 << 10,
        "queens {args:?} peaked at {peak} KiB, over 128 MiB"
    );
}

/// Every whole number of the command line is written in decimal digits only, as N is: a sign,
/// a space or an exponent is refused with the value echoed (`count -j +2` and `list --limit
/// +3` were taken), and the same value in digits is taken.
#[test]
fn every_whole_number_flag_takes_digits_only() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let ckpt = dir.path().join("c.ckpt");
    let ckpt = ckpt.to_str().expect("a UTF-8 path");
    let shard = |i: &str| {
        let out = crate::common::stdout_of(&["count", "8", "--shard", &format!("{i}/2"), "--json"]);
        let path = dir.path().join(format!("p{i}.json"));
        std::fs::write(&path, out).expect("a shard result");
        path.to_str().expect("a UTF-8 path").to_string()
    };
    let (p0, p1) = (shard("0"), shard("1"));
    let cases: Vec<Vec<String>> = [
        vec!["count", "8", "-j", "V"],
        vec!["count", "8", "--pieces", "V"],
        vec!["list", "8", "--limit", "V"],
        vec!["trace", "4", "--limit", "V"],
        vec!["solve", "8", "--algo", "min-conflicts", "--seed", "V"],
        vec!["merge", "-j", "V", &p0, &p1],
        vec!["merge", "--recount", "V", &p0, &p1],
    ]
    .into_iter()
    .map(|c| c.into_iter().map(String::from).collect())
    .collect();
    for case in &cases {
        let with = |v: &str| -> Vec<String> {
            case.iter()
                .map(|w| if w == "V" { v.to_string() } else { w.clone() })
                .collect()
        };
        for bad in ["+2", " 2", "2 ", "2e0", "-2"] {
            let out = queens().args(with(bad)).output().expect("queens runs");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{case:?} with {bad:?}: {err}");
            assert!(
                err.contains(&format!("'{bad}'")),
                "{case:?} with {bad:?}: {err}"
            );
        }
        let out = queens().args(with("2")).output().expect("queens runs");
        assert!(out.status.success(), "{case:?} with 2: {out:?}");
    }
    // The recount of a checkpoint (refused before the file is read; serve's `--max-steps`
    // is checked by the parser's unit test, a server that took it would not end).
    let out = queens()
        .args(["count", "8", "--checkpoint", ckpt, "--recount", "+1"])
        .output();
    assert_eq!(out.expect("queens runs").status.code(), Some(2));
}

/// A checkpoint in a folder that does not exist: the error says the folder is missing, not
/// only that a lock file could not be opened.
#[test]
fn a_checkpoint_in_a_missing_folder_says_the_folder_is_missing() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let ckpt = dir.path().join("no-such-folder").join("run.ckpt");
    let line = format!("count 8 --checkpoint {}", ckpt.display());
    crate::common::fails_with(&line, 2, &["no-such-folder does not exist"]).stdout_is("");
    // A name ending in a slash names a folder: refused before any lock file is made.
    let new = format!("{}/new/", dir.path().display());
    crate::common::run_args(&["count", "8", "--checkpoint", &new])
        .status(2)
        .stderr_has(&["names a folder (it ends in /)"]);
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A flag's value that tries to drive the terminal is shown escaped and cut in the error, with
/// colours asked for or not: clap echoes an invalid choice or an unknown argument as it came,
/// and the value parsers' own messages quoted it raw.
#[test]
fn flag_values_are_echoed_escaped_and_cut_in_clap_errors() {
    let osc = "\u{1b}]0;pwned\u{7}";
    let long = "9".repeat(3000) + "x";
    for color in ["always", "never"] {
        for args in [
            vec!["count", "8", "--checkpoint-every", osc],
            vec!["serve", "--max-connections", osc],
            vec!["count", "8", "--max-memory", osc],
            vec!["complete", "8", "--fixed", osc],
            vec!["solve", "8", "--algo", osc],
            vec![osc],
        ] {
            let mut all = vec!["--color", color];
            all.extend(&args);
            refused_escaped(crate::common::run_args(&all), &[r"\x1b]0;pwned\x07"]);
        }
        let ran =
            crate::common::run_args(&["--color", color, "count", "8", "--checkpoint-every", &long])
                .status(2);
        assert!(ran.stderr.len() < 400, "{}", ran.stderr);
    }
}

/// `complete` reads N in digits only, as every other command: ` 8` names a file, and a square
/// of `--fixed` has neither sign nor space.
#[test]
fn complete_takes_n_and_squares_in_digits_only() {
    crate::common::run_args(&["complete", " 8", "--fixed", "0:3"]).status(2);
    for square in ["+0:+3", " 0:3", "0 : 3", "0:3 "] {
        crate::common::run_args(&["complete", "8", "--fixed", square])
            .status(2)
            .stderr_has(&["is not a square"]);
    }
    crate::common::run_args(&["complete", "8", "--fixed", "0:3"]).status(0);
}
