//! Issue 40's reliability edges of checkpoints: nothing left behind (no lock file for a missing
//! checkpoint, no temporary file of a killed save kept), and a finished checkpoint readable
//! whatever the budget and wherever its lock cannot be made.

use std::fs;
use std::path::Path;

use crate::common::*;

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Counts N = `n` to the end into the checkpoint `ckpt` (frame engine unless `extra` says).
fn finish(n: &str, ckpt: &Path, extra: &[&str]) {
    run_command(
        queens()
            .args(["count", n, "--quiet", "--checkpoint"])
            .arg(ckpt)
            .args(extra),
    )
    .succeeds()
    .stdout_is(&format!("{}\n", known_for(n.parse().unwrap()).0));
}

#[test]
fn issue_40_a_recount_of_a_missing_checkpoint_leaves_no_lock_file() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("missing.ck");
    run_command(
        queens()
            .args(["count", "10", "--recount", "3", "--checkpoint"])
            .arg(&ckpt),
    )
    .status(2)
    .stderr_has(&["does not exist: there is nothing to recount"]);
    assert_eq!(names_in(dir.path()), Vec::<String>::new());
}

/// Temporary files a save killed by SIGKILL leaves (`.NAME.PID.RANDOM.tmp`), one with a live
/// process id (this test's), and files of other names that must stay.
fn plant_leftovers(dir: &Path) -> (Vec<&'static str>, Vec<String>) {
    let stale = vec![
        ".run.ck.1.0123456789abcdef.tmp",
        ".run.ck.4194302.fedcba9876543210.tmp",
    ];
    let live = format!(".run.ck.{}.00000000000000aa.tmp", std::process::id());
    let kept = vec![
        ".other.ck.1.0123456789abcdef.tmp".to_string(),
        "run.ck.notes".to_string(),
    ];
    for name in stale.iter().copied().chain([live.as_str()]) {
        fs::write(dir.join(name), "queens-count-checkpoint 2\nn 1").unwrap();
    }
    for name in &kept {
        fs::write(dir.join(name), "keep").unwrap();
    }
    let mut stale = stale;
    stale.push(Box::leak(live.into_boxed_str()));
    (stale, kept)
}

#[test]
fn issue_40_the_next_run_that_takes_the_lock_removes_the_temporary_files_of_killed_saves() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("run.ck");
    let (stale, kept) = plant_leftovers(dir.path());
    finish("10", &ckpt, &[]);
    let mut left = names_in(dir.path());
    for name in &stale {
        assert!(
            !left.contains(&name.to_string()),
            "{name} is left: {left:?}"
        );
    }
    let mut expected = kept.clone();
    expected.extend(["run.ck".to_string(), "run.ck.lock".to_string()]);
    expected.sort();
    left.sort();
    assert_eq!(left, expected);

    // A recount takes the lock too.
    let (stale, _) = plant_leftovers(dir.path());
    run_command(
        queens()
            .args(["count", "10", "--recount", "2", "--checkpoint"])
            .arg(&ckpt),
    )
    .succeeds();
    let left = names_in(dir.path());
    for name in &stale {
        assert!(
            !left.contains(&name.to_string()),
            "{name} is left: {left:?}"
        );
    }
}

#[test]
fn issue_40_a_finished_checkpoint_prints_its_result_under_any_memory_budget() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("h.ck");
    finish("14", &ckpt, &["--engine", "halves"]);
    let before = fs::read(&ckpt).unwrap();
    for budget in ["1K", "1M", "15M", "1G"] {
        run_command(
            queens()
                .args(["count", "14", "--max-memory", budget, "--checkpoint"])
                .arg(&ckpt),
        )
        .succeeds()
        .stdout_is("365596\n")
        .stderr_has(&["holds a finished run (21 subproblems counted)"]);
    }
    // The unique count and JSON line are those of the run, and the file is not rewritten.
    run_command(
        queens()
            .args([
                "count",
                "14",
                "--unique",
                "--quiet",
                "--max-memory",
                "1K",
                "--checkpoint",
            ])
            .arg(&ckpt),
    )
    .succeeds()
    .stdout_is("45752\n")
    .stderr_is("");
    let v: serde_json::Value = serde_json::from_str(
        run_command(
            queens()
                .args([
                    "count",
                    "14",
                    "--json",
                    "--max-memory",
                    "1K",
                    "--checkpoint",
                ])
                .arg(&ckpt),
        )
        .succeeds()
        .stdout
        .trim(),
    )
    .unwrap();
    assert_eq!(number(&v["total"]), 365596);
    assert!(v["split"].as_str().unwrap().starts_with("halves"));
    assert_eq!(fs::read(&ckpt).unwrap(), before);
    // Work left still needs a budget that holds its split: the budget is only skipped when
    // nothing is left to count.
    run_args(&["count", "14", "--engine", "halves", "--max-memory", "1K"]).status(2);
}

#[test]
fn issue_40_a_finished_checkpoint_whose_lock_cannot_be_made_still_prints_its_result() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("c.ck");
    finish("10", &ckpt, &[]);
    // A folder where the lock file goes: the lock cannot be opened, as on a read-only mount
    // (this works as root too).
    fs::remove_file(dir.path().join("c.ck.lock")).unwrap();
    fs::create_dir(dir.path().join("c.ck.lock")).unwrap();
    run_command(queens().args(["count", "10", "--checkpoint"]).arg(&ckpt))
        .succeeds()
        .stdout_is("724\n");
    // A recount only reads the file, once: it goes on without the lock (an audit of results
    // kept on a read-only mount).
    let ran = run_command(
        queens()
            .args(["count", "10", "--recount", "3", "--checkpoint"])
            .arg(&ckpt),
    )
    .succeeds();
    assert!(
        ran.stdout.contains("all 3 recounted subproblems"),
        "{ran:?}"
    );
    // A run with work left needs the lock, and says why it cannot have it.
    let fresh = dir.path().join("d.ck");
    fs::create_dir(dir.path().join("d.ck.lock")).unwrap();
    run_command(queens().args(["count", "10", "--checkpoint"]).arg(&fresh))
        .status(2)
        .stderr_has(&["cannot open the lock file"]);
    assert!(!fresh.exists());
}

#[cfg(unix)]
#[test]
fn issue_40_a_finished_checkpoint_in_a_read_only_folder_prints_its_result() {
    use std::os::unix::fs::PermissionsExt;

    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("ro");
    fs::create_dir(&folder).unwrap();
    let ckpt = folder.join("c.ck");
    finish("10", &ckpt, &[]);
    fs::remove_file(folder.join("c.ck.lock")).unwrap();
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o555)).unwrap();
    // Root writes through a folder's permissions: there the test cannot make the folder
    // read-only (the test above covers a lock that cannot be made).
    if fs::write(folder.join("probe"), "").is_ok() {
        eprintln!("SKIPPED: a read-only folder cannot be simulated by chmod (running as root)");
        fs::set_permissions(&folder, fs::Permissions::from_mode(0o755)).unwrap();
        return;
    }
    let ran = run_command(queens().args(["count", "10", "--checkpoint"]).arg(&ckpt));
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o755)).unwrap();
    ran.succeeds().stdout_is("724\n");
    assert_eq!(names_in(&folder), vec!["c.ck".to_string()]);
}

/// Runs `queens ARGS` under `prlimit --as=CAP`, its outputs and exit status; `None` for a
/// signal. A run that has not ended after two minutes is killed and fails the test: under a cap
/// the program must end, never hang.
fn under_cap(cap: u64, args: &[&str]) -> (Option<i32>, String, String) {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child = under_prlimit(&format!("--as={cap}"), args)
        .stdin(Stdio::null())
        .spawn()
        .expect("prlimit runs");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("queens {args:?} under an address-space cap of {cap} bytes hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn issue_40_under_any_address_space_cap_a_command_answers_or_refuses_at_once() {
    let has_prlimit = std::process::Command::new("prlimit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_prlimit {
        eprintln!("SKIPPED: needs prlimit (util-linux)");
        return;
    }
    for mib in [16u64, 24, 160, 256, 320] {
        let cap = mib << 20;
        let (code, stdout, stderr) = under_cap(cap, &["count", "16"]);
        let refused = code == Some(2)
            && stdout.is_empty()
            && stderr.contains("the address-space limit (RLIMIT_AS, ulimit -v)");
        assert!(
            (code == Some(0) && stdout == "14772512\n") || refused,
            "count 16 under {mib} MiB: status {code:?}, {stdout:?}, {stderr:?}"
        );
        // The small caps leave no room for the threads: refused, saying so.
        assert_eq!(refused, mib <= 24, "count 16 under {mib} MiB: {stderr:?}");
        let (code, stdout, stderr) = under_cap(cap, &["verify", "/dev/null"]);
        let answered = stderr.contains("/dev/null holds no placement");
        let refused = stderr.contains("the address-space limit (RLIMIT_AS, ulimit -v)");
        assert!(
            code == Some(2) && stdout.is_empty() && (answered || refused),
            "verify /dev/null under {mib} MiB: status {code:?}, {stdout:?}, {stderr:?}"
        );
        assert_eq!(refused, mib <= 24, "verify under {mib} MiB: {stderr:?}");
        assert!(!stderr.contains("panicked") && !stderr.contains("memory allocation"));
    }
}

/// Under address-space caps just above what a command needs to start, a count of the frame
/// engine on more threads than fit used to abort (SIGABRT) once its threads' join buffers met
/// the cap: its threads now fit in the budget at once, which follows the cap, and a frame
/// whose buffers cannot grow joins fewer rows. Every cap of the sweep answers or refuses.
#[test]
fn a_frame_count_on_many_threads_under_a_tight_cap_answers_or_refuses() {
    if std::process::Command::new("prlimit")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: needs prlimit (util-linux)");
        return;
    }
    // Each count, and the largest cap it is tried under (N = 17 on one thread takes seconds).
    let counts: [(&[&str], usize, u64); 2] = [
        (&["count", "16", "--engine", "frame", "-j", "8"], 16, 64),
        (&["count", "17", "--engine", "frame", "-j", "1"], 17, 40),
    ];
    for mib in (30..=64).step_by(2) {
        for &(args, n, most) in counts.iter().filter(|c| mib <= c.2) {
            let (code, stdout, stderr) = under_cap(mib << 20, args);
            let refused = code == Some(2) && stderr.contains("address-space limit");
            let answered = code == Some(0) && stdout == format!("{}\n", known_for(n).0);
            assert!(
                answered || refused,
                "{args:?} under {mib} MiB (of {most}): status {code:?}, {stdout:?}, {stderr:?}"
            );
        }
    }
}

/// Runs `queens` with `args` and its standard error on `/dev/full`, where every write fails
/// (ENOSPC): (status, standard output).
fn with_stderr_full(args: &[&str]) -> (Option<i32>, String) {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("queens"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stderr(full)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A note, a warning or a "resuming" line that cannot be written (standard error on a full
/// disk or a closed pipe) is lost, but never the result or the status: each of these commands
/// writes such a line, and used to panic on it (status 101, nothing printed).
#[test]
fn a_standard_error_that_cannot_be_written_costs_neither_the_result_nor_the_status() {
    let (total, _) = known_for(12);
    let (total14, _) = known_for(14);
    // A budget holding fewer subproblems than threads: a note.
    assert_eq!(
        with_stderr_full(&["count", "14", "-j", "2", "--max-memory", "2M"]),
        (Some(0), format!("{total14}\n"))
    );
    // A finished checkpoint resumed: "... holds a finished run".
    let (_dir, ckpt) = temp_checkpoint();
    finish("12", &ckpt, &[]);
    let ckpt = ckpt.to_str().unwrap();
    assert_eq!(
        with_stderr_full(&["count", "12", "--checkpoint", ckpt]),
        (Some(0), format!("{total}\n"))
    );
    // No solution: the answer "no" is status 1 and a line on standard error.
    assert_eq!(with_stderr_full(&["solve", "3"]), (Some(1), String::new()));
    // The min-conflicts seed drawn, on standard error.
    let (code, out) = with_stderr_full(&["solve", "8", "--algo", "min-conflicts"]);
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().filter(|l| l.contains('Q')).count(), 8, "{out}");
}
