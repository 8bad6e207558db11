//! `count` (engine, threads, shards, checkpoints, signals), `merge` and `list --unique`.

use std::path::{Path, PathBuf};
use std::process::{Command as Std, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::common::*;

#[test]
fn count_prints_the_known_totals_and_unique_counts_on_any_number_of_threads() {
    for (n, total, unique) in known().into_iter().filter(|k| k.0 <= 13) {
        let n_arg = n.to_string();
        for threads in ["1", "2", "3"] {
            let v = json_of(&["count", &n_arg, "--json", "--threads", threads]);
            assert_eq!(v["n"], n);
            assert_eq!((number(&v["total"]), number(&v["unique"])), (total, unique));
            assert!(v["seconds"].as_f64().unwrap() >= 0.0);
        }
        let plain = stdout_of(&["count", &n_arg]);
        assert_eq!(plain, format!("{total}\n"));
        let classes = stdout_of(&["count", &n_arg, "--unique"]);
        assert_eq!(classes, format!("{unique}\n"));
    }
}

#[test]
fn count_with_a_solver_still_counts_by_enumeration() {
    run("count 8 --algo wirth").succeeds().stdout_is("92\n");
}

#[test]
fn count_refuses_boards_past_its_masks_with_a_clear_error() {
    run("count 33")
        .status(2)
        .stderr_has(&["N = 33", "up to 32"]);
}

/// The frame engine's parts of the count of N in `m` shards: the tests below craft parts of its
/// split.
fn shard_files(dir: &Path, n: &str, m: usize) -> Vec<PathBuf> {
    write_shards(dir, "part", m, |_| format!("count {n} --engine frame"))
}

fn merge(files: &[&PathBuf]) -> assert_cmd::assert::Assert {
    queens().arg("merge").arg("--json").args(files).assert()
}

/// Merges `files` (`merge --json`), checks that it succeeds with the counts `known` (total,
/// unique), and returns its JSON.
fn merged_to(files: &[PathBuf], known: (u128, u128)) -> serde_json::Value {
    let parts: Vec<&PathBuf> = files.iter().collect();
    let out = merge(&parts).success().get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!((number(&v["total"]), number(&v["unique"])), known);
    v
}

#[test]
fn shards_merge_into_the_known_total_and_unique_count() {
    let dir = tempfile::tempdir().unwrap();
    let (total, unique) = known_for(12);
    for m in [1, 3, 7] {
        let files = shard_files(dir.path(), "12", m);
        let v = merged_to(&files, (total, unique));
        assert_eq!(v["shards"], m);
    }
}

/// `--unique` in text prints a shard's classes where they are whole (the frame split's), and
/// is refused before counting where a shard holds eighths of classes (the half-board split's,
/// and --pieces'), naming the way that adds them up.
#[test]
fn unique_in_text_prints_a_shards_classes_or_refuses_its_eighths() {
    let (_, unique) = known_for(14);
    let mut classes = 0u128;
    for i in 0..3 {
        let shard = format!("{i}/3");
        let line = stdout_of(&[
            "count", "14", "--engine", "frame", "--shard", &shard, "--unique",
        ]);
        classes += line.trim().parse::<u128>().expect("one integer line");
    }
    assert_eq!(classes, unique);
    for extra in [&["--engine", "halves"][..], &["--pieces", "2"]] {
        let mut args = vec!["count", "14", "--shard", "0/3", "--unique"];
        args.extend(extra);
        let ran = run_args(&args).status(2).stderr_has(&[
            "holds its classes in eighths",
            "--format json",
            "queens merge --unique",
        ]);
        assert!(ran.stdout.is_empty(), "{ran:#?}");
    }
}

/// The shards of every engine's split of the small boards merge into the known counts: the
/// rules `merge` checks a part against hold there too (N = 1's one solution is its own class,
/// 7 eighths in the fixed-point subproblem).
#[test]
fn the_shards_of_the_small_boards_merge_with_every_engine() {
    for n in 1..=6 {
        for engine in ["frame", "halves"] {
            let dir = tempfile::tempdir().unwrap();
            let files = write_shards(dir.path(), "part", 2, |_| {
                format!("count {n} --engine {engine}")
            });
            merged_to(&files, known_for(n));
        }
    }
}

#[test]
fn merge_reads_many_results_from_one_file_one_per_line() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), "11", 3);
    let mut lines = String::new();
    for f in &files {
        lines.push_str(&std::fs::read_to_string(f).unwrap());
    }
    let all = dir.path().join("all.jsonl");
    std::fs::write(&all, &lines).unwrap();
    run_command(queens().args(["merge", "--unique"]).arg(&all))
        .succeeds()
        .stdout_is(&format!("{}\n", known_for(11).1));
    std::fs::write(&all, format!("{lines}{lines}")).unwrap();
    run_command(queens().arg("merge").arg(&all))
        .status(2)
        .stderr_has(&["all.jsonl line 4"]);
}

#[test]
fn merge_refuses_missing_duplicated_and_mismatched_shards() {
    let dir = tempfile::tempdir().unwrap();
    let twelve = shard_files(dir.path(), "12", 3);
    let other = tempfile::tempdir().unwrap();
    let eleven = shard_files(other.path(), "11", 3);
    let fours = tempfile::tempdir().unwrap();
    let four_way = shard_files(fours.path(), "12", 4);
    let whole = dir.path().join("whole.json");
    std::fs::write(
        &whole,
        stdout_of(&["count", "12", "--engine", "frame", "--json"]),
    )
    .unwrap();
    let alias = dir.path().join("alias.json");
    std::os::unix::fs::symlink(&twelve[1], &alias).unwrap();
    let hard = dir.path().join("hard.json");
    std::fs::hard_link(&twelve[2], &hard).unwrap();
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "hello\n").unwrap();
    let cases: Vec<(Vec<&PathBuf>, &str)> = vec![
        (vec![&twelve[0], &twelve[2]], "missing shards of 3: 1"),
        (
            vec![&twelve[0], &twelve[1], &twelve[1], &twelve[2]],
            "is given twice: each shard result is read once",
        ),
        (
            vec![&twelve[0], &twelve[1], &alias, &twelve[2]],
            "alias.json are the same file",
        ),
        (
            vec![&twelve[0], &twelve[1], &twelve[2], &hard],
            "hard.json are the same file",
        ),
        (vec![&twelve[0], &twelve[1], &eleven[2]], "N = 11"),
        (
            vec![&twelve[0], &twelve[1], &four_way[2]],
            "one of 4 shards",
        ),
        (vec![&twelve[0], &whole], "not a shard result"),
        (vec![&twelve[0], &junk], "junk.json is not a shard result"),
    ];
    for (files, message) in cases {
        merge(&files)
            .code(2)
            .stdout("")
            .stderr(predicates::str::contains(message));
    }
}

/// Independent of the library: the 8 images of a placement, by the coordinates.
fn images(q: &[usize]) -> Vec<Vec<usize>> {
    let n = q.len();
    let mut out = Vec::new();
    for transpose in [false, true] {
        for flip_r in [false, true] {
            for flip_c in [false, true] {
                let mut img = vec![0; n];
                for (r, &c) in q.iter().enumerate() {
                    let (mut r2, mut c2) = if transpose { (c, r) } else { (r, c) };
                    if flip_r {
                        r2 = n - 1 - r2;
                    }
                    if flip_c {
                        c2 = n - 1 - c2;
                    }
                    img[r2] = c2;
                }
                out.push(img);
            }
        }
    }
    out
}

#[test]
fn list_unique_prints_the_smallest_image_of_each_class_in_order() {
    for n in [1usize, 6, 8, 9] {
        let text = stdout_of(&["list", &n.to_string(), "--unique"]);
        let reps: Vec<Vec<usize>> = text.lines().map(positions).collect();
        assert_eq!(reps.len() as u128, known_for(n).1, "n = {n}");
        assert!(reps.windows(2).all(|w| w[0] < w[1]), "sorted, n = {n}");
        for q in &reps {
            assert!(is_solution(q));
            assert_eq!(images(q).iter().min().unwrap(), q, "smallest image");
        }
    }
    assert_eq!(stdout_of(&["list", "8", "--unique"]).lines().count(), 12);
}

/// Starts `queens count N -j1 --engine E` with a checkpoint and waits until it has saved some
/// work.
fn start_saving(ckpt: &Path, n: &str, engine: &str) -> std::process::Child {
    let args = [
        "--threads",
        "1",
        "--checkpoint-every",
        "0.2",
        "--engine",
        engine,
    ];
    start_until_saved(n, ckpt, &args, Duration::from_secs(60))
}

/// Kills a count of N by engine E mid-way and resumes it from its checkpoint `ckpt`: the
/// resumed run's JSON, checked to hold the exact total and number of classes.
fn killed_and_resumed(n: &str, engine: &str, ckpt: &Path) -> serde_json::Value {
    kill_mid_way(start_saving(ckpt, n, engine), ckpt);
    exact_count_from(n.parse().unwrap(), ckpt, &["--engine", engine])
}

#[test]
fn a_run_killed_hard_resumes_from_its_checkpoint_to_the_exact_count() {
    let (_dir, ckpt) = temp_checkpoint();
    killed_and_resumed("16", "frame", &ckpt);
    // The finished checkpoint is kept and complete; running again just reads it.
    assert_eq!(finished_in(&ckpt), Some(subproblems_in(&ckpt)));
    let ckpt_arg = ckpt.to_str().unwrap();
    assert_eq!(
        stdout_of(&[
            "count",
            "16",
            "--unique",
            "--engine",
            "frame",
            "--checkpoint",
            ckpt_arg
        ]),
        format!("{}\n", known_for(16).1)
    );
    // The other engine's split does not match the file.
    run_args(&[
        "count",
        "16",
        "--engine",
        "halves",
        "--checkpoint",
        ckpt_arg,
    ])
    .status(2)
    .stderr_has(&["split frame1-v1"]);
}

#[test]
fn a_half_board_run_killed_hard_resumes_from_its_checkpoint_to_the_exact_count() {
    let (_dir, ckpt) = temp_checkpoint();
    let v = killed_and_resumed("17", "halves", &ckpt);
    assert!(v["split"].as_str().unwrap().starts_with("halves"));
}

#[test]
fn both_engines_count_the_same_and_say_which_split_they_used() {
    for n in ["12", "13", "14"] {
        let frame = json_of(&["count", n, "--json", "--engine", "frame"]);
        let halves = json_of(&["count", n, "--json", "--engine", "halves"]);
        let auto = json_of(&["count", n, "--json"]);
        assert_eq!(frame["total"], halves["total"]);
        assert_eq!(frame["unique"], halves["unique"]);
        assert_eq!(frame["split"], "frame1-v1");
        assert!(halves["split"].as_str().unwrap().starts_with("halves"));
        assert_eq!(auto["split"], halves["split"]);
    }
    let small = json_of(&["count", "8", "--json"]);
    assert_eq!(small["split"], "frame1-v1");
}

#[test]
fn the_half_board_engine_refuses_a_memory_budget_no_split_fits() {
    run("count 18 --engine halves --max-memory 1M")
        .status(2)
        .stdout_is("")
        .stderr_has(&["N = 18", "--max-memory"]);
}

#[test]
fn half_board_shards_merge_into_the_known_counts() {
    let dir = tempfile::tempdir().unwrap();
    let (total, unique) = known_for(14);
    for m in [2, 5] {
        let files = write_shards(dir.path(), &format!("h{m}"), m, |_| {
            "count 14 --engine halves".into()
        });
        merged_to(&files, (total, unique));
    }
}

/// The split depends on N and the memory budget only: shards run on 1 and 16 threads within
/// 32 MiB (where the split used to follow the threads: halves6 and halves12 at N = 16) merge.
#[test]
fn half_board_shards_on_different_thread_counts_merge() {
    let dir = tempfile::tempdir().unwrap();
    let (total, unique) = known_for(16);
    let files = write_shards(dir.path(), "t", 4, |i| {
        let threads = [1, 16, 1, 16][i];
        format!("count 16 --engine halves --threads {threads} --max-memory 32M")
    });
    merged_to(&files, (total, unique));
}

/// Issue 36: a budget that holds fewer of the half-board engine's subproblems at once than the
/// threads asked for says so once on standard error, with the `--max-memory` that runs them
/// all; that budget does, and says nothing.
#[test]
fn a_budget_that_holds_fewer_subproblems_than_threads_says_so_with_the_budget_for_all() {
    let (total, _) = known_for(14);
    let ran = run("count 14 --engine halves -j 8 --max-memory 8M").succeeds();
    assert_eq!(ran.stdout, format!("{total}\n"));
    let lines: Vec<&str> = ran.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{ran:#?}");
    let held: usize = lines[0]
        .strip_prefix("queens: note: --max-memory 8.0 MiB holds ")
        .and_then(|r| r.split(' ').next())
        .and_then(|k| k.parse().ok())
        .unwrap_or_else(|| panic!("{ran:#?}"));
    assert!((1..8).contains(&held), "{ran:#?}");
    let verb = if held == 1 { "counts" } else { "count" };
    let said = format!("of N = 14 at once, so {held} of the 8 threads {verb}; --max-memory ");
    let flag = lines[0]
        .split_once(&said)
        .and_then(|(_, rest)| rest.strip_suffix(" would run all 8"))
        .unwrap_or_else(|| panic!("{said:?} in {ran:#?}"));
    run(&format!(
        "count 14 --engine halves -j 8 --max-memory {flag}"
    ))
    .succeeds()
    .stdout_is(&format!("{total}\n"))
    .stderr_is("");
}

/// The frame engine's threads fit in the budget at once too: a budget that holds fewer says
/// so, and one that holds less than a thread's memory says that, while one thread counts.
#[test]
fn a_budget_that_holds_fewer_frame_threads_says_so() {
    let (total, _) = known_for(15);
    let ran = run("count 15 --engine frame -j 2 --max-memory 1K").succeeds();
    assert_eq!(ran.stdout, format!("{total}\n"));
    assert!(
        ran.stderr.starts_with(
            "queens: note: --max-memory 1.0 KiB holds less than one subproblem of N = 15 ("
        ) && ran
            .stderr
            .contains("each), so 1 of the 2 threads counts; --max-memory "),
        "{ran:#?}"
    );
    let flag = ran
        .stderr
        .trim_end()
        .rsplit_once("--max-memory ")
        .and_then(|(_, rest)| rest.strip_suffix(" would run all 2"))
        .unwrap_or_else(|| panic!("{ran:#?}"));
    run(&format!("count 15 --engine frame -j 2 --max-memory {flag}"))
        .succeeds()
        .stdout_is(&format!("{total}\n"))
        .stderr_is("");
    // Under `auto`, the budget that would run them all takes the half-board engine instead of
    // the frame engine this small one fell back to: the note names the split, since shards of
    // the two do not merge.
    let ran = run("count 16 --shard 0/2 --json -j 2 --max-memory 1M").succeeds();
    assert!(
        ran.stderr
            .contains("(with the split halves8-v1, not frame1-v1: give every shard"),
        "{ran:#?}"
    );
}

/// Issue 36: `--quiet` silences that note.
#[test]
fn quiet_silences_the_note_on_the_subproblems_a_budget_holds_at_once() {
    run("count 14 --engine halves -j 8 --max-memory 8M -q")
        .succeeds()
        .stderr_is("");
}

/// Issue 36: without `--max-memory` the split is the one of 1 GiB whatever the machine (the
/// one `--max-memory 1G` gives), though a larger budget given would choose a coarser one: the
/// shards of machines of any size merge. (One subproblem of N = 20 is counted, in milliseconds.)
#[test]
fn the_default_budget_keeps_the_split_of_one_gib_on_every_machine() {
    let split = |extra: &[&str]| {
        let mut args = vec!["count", "20", "--shard", "1/65536", "--json", "-q"];
        args.extend(extra);
        json_of(&args)["split"].as_str().unwrap().to_string()
    };
    assert_eq!(split(&[]), "halves12-v1");
    assert_eq!(split(&["--max-memory", "1G"]), "halves12-v1");
    assert_eq!(split(&["--max-memory", "2G", "-j", "1"]), "halves10-v1");
}

#[cfg(unix)]
/// The number after `key ` on its line of a checkpoint's text.
fn checkpoint_seconds(text: &str, key: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no '{key}' line in {text}"))
        .parse()
        .unwrap()
}

/// Every save records the wall and processor time the run has taken; a run resumed with work
/// left says on standard error, when it ends, what the whole run took over its sessions.
#[test]
fn a_resumed_run_reports_the_wall_and_processor_time_of_all_its_sessions() {
    let (_dir, ckpt) = temp_checkpoint();
    kill_mid_way(start_saving(&ckpt, "17", "halves"), &ckpt);
    let first = std::fs::read_to_string(&ckpt).unwrap();
    let (wall, cpu) = (
        checkpoint_seconds(&first, "seconds"),
        checkpoint_seconds(&first, "cpu-seconds"),
    );
    assert!(wall > 0.0 && cpu > 0.0, "{first}");
    let arg = ckpt.to_str().unwrap();
    // A budget that holds no half-board split names the checkpoint's split and what it needs,
    // and leaves the file as it was.
    for budget in ["1K", "3M"] {
        run_args(&["count", "17", "--max-memory", budget, "--checkpoint", arg])
            .status(2)
            .stderr_has(&["records the split halves", "resume it with --max-memory"]);
    }
    assert_eq!(std::fs::read_to_string(&ckpt).unwrap(), first);
    let done = queens()
        .args(["count", "17", "--engine", "halves", "--checkpoint", arg])
        .assert()
        .success();
    assert_eq!(
        String::from_utf8_lossy(&done.get_output().stdout),
        format!("{}\n", known_for(17).0)
    );
    let stderr = String::from_utf8_lossy(&done.get_output().stderr).to_string();
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("queens: the whole run, over its sessions: "))
        .unwrap_or_else(|| panic!("{stderr}"));
    let (wall_text, cpu_text) = line.split_once(" s of wall time, ").expect(line);
    let whole_wall: f64 = wall_text.parse().unwrap();
    let whole_cpu: f64 = cpu_text
        .strip_suffix(" s of processor time")
        .expect(line)
        .parse()
        .unwrap();
    // One decimal printed: the first session's time, at least, is in the sums.
    assert!(
        whole_wall + 0.05 >= wall && whole_cpu + 0.05 >= cpu,
        "{line}"
    );
    let last = std::fs::read_to_string(&ckpt).unwrap();
    assert!(checkpoint_seconds(&last, "cpu-seconds") >= cpu, "{last}");
    // Run again on the finished checkpoint: nothing is counted, so no such line.
    queens()
        .args(["count", "17", "--checkpoint", arg])
        .assert()
        .success()
        .stderr(predicates::prelude::PredicateBooleanExt::not(
            predicates::str::contains("whole run"),
        ));
}

#[test]
fn sigint_saves_the_checkpoint_and_exits_with_status_130() {
    let (_dir, ckpt) = temp_checkpoint();
    let mut child = start_saving(&ckpt, "16", "frame");
    let sent = Std::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(finished_in(&ckpt).unwrap() > 0);
}

#[test]
fn a_checkpoint_of_another_board_or_a_damaged_one_is_refused() {
    let (_dir, ckpt) = temp_checkpoint();
    let arg = ckpt.to_str().unwrap();
    stdout_of(&["count", "9", "--checkpoint", arg]);
    run_args(&["count", "10", "--checkpoint", arg])
        .status(2)
        .stderr_has(&["N = 9, not N = 10"]);
    run_args(&["count", "9", "--shard", "0/2", "--checkpoint", arg])
        .status(2)
        .stderr_has(&["shard 0/1, not shard 0/2"]);
    std::fs::write(&ckpt, "garbage\n").unwrap();
    run_args(&["count", "9", "--checkpoint", arg])
        .status(2)
        .stderr_has(&["not a valid checkpoint"]);
}

// ---- Runs that stop on any signal, checkpoints and parts that cannot lie (issue 12) ----

/// A random number in `0..bound` (from the standard library's random hasher keys).
fn random_below(bound: u64) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
        % bound
}

/// `queens count N --checkpoint F` with `extra` arguments, in the background. SIGHUP is reset to
/// its default in the child: `queens` rightly keeps a SIGHUP it starts with ignored (as under
/// `nohup`), and the suite may itself run under `nohup`, which the child would inherit.
fn spawn_count(n: &str, ckpt: &Path, extra: &[&str]) -> std::process::Child {
    let mut command = Std::new(assert_cmd::cargo::cargo_bin("queens"));
    command
        .args(["count", n, "--json", "--engine", "frame"])
        .args(extra)
        .arg("--checkpoint")
        .arg(ckpt)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec the closure only calls signal(2), which is
        // async-signal-safe, and allocates nothing.
        unsafe {
            command.pre_exec(|| {
                libc::signal(libc::SIGHUP, libc::SIG_DFL);
                Ok(())
            });
        }
    }
    command.spawn().unwrap()
}

/// Waits until the run has written its first checkpoint (it does so before counting).
fn wait_for_file(path: &Path) {
    let start = Instant::now();
    while finished_in(path).is_none() {
        assert!(start.elapsed() < Duration::from_secs(60), "no checkpoint");
        sleep(Duration::from_millis(10));
    }
}

/// Runs `count 18` on the checkpoint `ckpt` (with `extra` arguments, saving every 0.2 s) three
/// times, each killed by SIGKILL at a random moment: none loses saved work (`saved` finished
/// subproblems before), and the run is not over yet.
fn kill_three_times(ckpt: &Path, extra: &[&str], mut saved: u64) {
    for _ in 0..3 {
        let args = [&["-j", "2", "--checkpoint-every", "0.2"], extra].concat();
        let mut child = spawn_count("18", ckpt, &args);
        sleep(Duration::from_millis(300 + random_below(1500)));
        child.kill().unwrap();
        child.wait().unwrap();
        let now = finished_in(ckpt).unwrap();
        assert!(now >= saved, "a kill never loses saved work");
        saved = now;
    }
    assert!(saved < subproblems_in(ckpt), "stopped mid-way: {saved}");
}

#[cfg(unix)]
fn send(child: &std::process::Child, signal: &str) {
    let sent = Std::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// N = 18, on two threads: SIGTERM and SIGHUP at random moments save the checkpoint (the
/// interval is an hour, so only the signal's save can hold the progress) and exit with 143 and
/// 129; then SIGKILL at three random moments (saves every 0.2 s); every session resumes from
/// the file, and the last one ends on the exact total and classes.
#[cfg(unix)]
#[test]
fn sigterm_sighup_and_sigkill_at_random_moments_all_resume_to_the_exact_count() {
    let (_dir, ckpt) = temp_checkpoint();
    let mut saved = 0;
    for (signal, status) in [("TERM", 143), ("HUP", 129)] {
        let child = spawn_count("18", &ckpt, &["-j", "2", "--checkpoint-every", "3600"]);
        wait_for_file(&ckpt);
        sleep(Duration::from_millis(300 + random_below(1200)));
        send(&child, signal);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(status), "SIG{signal}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("queens: interrupted;"), "{stderr}");
        assert!(out.stdout.is_empty());
        let now = finished_in(&ckpt).unwrap();
        assert!(
            now > saved,
            "SIG{signal} saved the progress: {saved} then {now}"
        );
        saved = now;
    }
    kill_three_times(&ckpt, &[], saved);
    exact_count_from(18, &ckpt, &[]);
}

#[cfg(unix)]
#[test]
fn a_second_run_on_a_held_checkpoint_is_refused_at_once() {
    let (_dir, ckpt) = temp_checkpoint();
    let first = spawn_count("18", &ckpt, &["-j", "1"]);
    wait_for_file(&ckpt);
    let before = finished_in(&ckpt).unwrap();
    // The refusal names the holder, which wrote its process id into the lock file.
    let holder = format!("process {} on ", first.id());
    run_command(queens().args(["count", "18", "--checkpoint"]).arg(&ckpt))
        .status(2)
        .stdout_is("")
        .stderr_has(&["in use by another run", &holder, "which holds the lock"]);
    send(&first, "TERM");
    let out = first.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143));
    // The refused run wrote nothing; the first saved on its way out, over its own state.
    assert!(finished_in(&ckpt).unwrap() >= before);
    // Once the holder is gone the file is free again.
    let v = json_of(&[
        "count",
        "11",
        "--json",
        "--checkpoint",
        &format!("{}.b", ckpt.display()),
    ]);
    assert_eq!(number(&v["total"]), known_for(11).0);
}

#[cfg(unix)]
#[test]
fn symlinks_beside_a_checkpoint_never_get_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let ckpt = dir.path().join("run.ckpt");
    // The old binary's predictable temporary name.
    std::os::unix::fs::symlink(&victim, dir.path().join("run.ckpt.tmp")).unwrap();
    let arg = ckpt.to_str().unwrap();
    assert_eq!(
        stdout_of(&["count", "10", "--checkpoint", arg]),
        format!("{}\n", known_for(10).0)
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::symlink_metadata(dir.path().join("run.ckpt.tmp"))
        .unwrap()
        .file_type()
        .is_symlink());
    // No temporary file is left beside the checkpoint.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["run.ckpt", "run.ckpt.lock", "run.ckpt.tmp", "victim"]
    );
    // A lock file that is a symlink is refused, not followed.
    let other = dir.path().join("other.ckpt");
    std::os::unix::fs::symlink(&victim, dir.path().join("other.ckpt.lock")).unwrap();
    run_command(queens().args(["count", "10", "--checkpoint"]).arg(&other))
        .status(2)
        .stderr_has(&["lock file"]);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(!other.exists());
}

/// The text with its checksum line recomputed, as a careful forger would.
fn resealed(text: &str) -> String {
    let body_end = text.trim_end_matches('\n').rfind('\n').unwrap() + 1;
    let body = &text[..body_end];
    format!(
        "{body}checksum {}\n",
        queens_core::count::checksum(body.as_bytes())
    )
}

/// Changes the value of line `key` of a checkpoint: its last digit moved by one (or a digit
/// added to a value without one).
fn tamper(text: &str, key: &str) -> String {
    text.lines()
        .map(|line| {
            if line.split(' ').next() != Some(key) {
                return format!("{line}\n");
            }
            let mut bytes = line.as_bytes().to_vec();
            match bytes
                .iter()
                .rposition(|b| b.is_ascii_hexdigit() && *b != b'f')
            {
                Some(i) if i > key.len() => {
                    bytes[i] = if bytes[i] == b'9' { b'8' } else { bytes[i] + 1 }
                }
                _ => bytes.push(b'1'),
            }
            format!("{}\n", String::from_utf8(bytes).unwrap())
        })
        .collect()
}

#[test]
fn every_field_of_a_checkpoint_tampered_is_refused() {
    let (_dir, ckpt) = temp_checkpoint();
    let arg = ckpt.to_str().unwrap();
    stdout_of(&["count", "10", "--checkpoint", arg]);
    let good = std::fs::read_to_string(&ckpt).unwrap();
    let keys: Vec<&str> = good.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(
        keys,
        [
            "queens-count-checkpoint",
            "n",
            "split",
            "subproblems",
            "shard",
            "finished",
            "total",
            "unique",
            "seconds",
            "cpu-seconds",
            "done",
            "parts",
            "checksum"
        ]
    );
    let run = |text: &str| {
        std::fs::write(&ckpt, text).unwrap();
        queens()
            .args(["count", "10", "--checkpoint", arg])
            .assert()
            .code(2)
            .stdout("")
    };
    for key in &keys {
        let bad = tamper(&good, key);
        assert_ne!(bad, good, "{key}");
        // Changed and left as is: the checksum (or, for the first line, the version) refuses it.
        run(&bad).stderr(predicates::str::contains(arg));
        // Changed and resealed: the field disagrees with the others or with the run (only the
        // times spent, which no count depends on, may be changed that way).
        if ![
            "queens-count-checkpoint",
            "checksum",
            "seconds",
            "cpu-seconds",
        ]
        .contains(key)
        {
            run(&resealed(&bad)).stderr(predicates::str::contains(arg));
        }
    }
    std::fs::write(&ckpt, &good).unwrap();
    assert_eq!(
        stdout_of(&["count", "10", "--checkpoint", arg]),
        format!("{}\n", known_for(10).0)
    );
}

#[test]
fn checkpoint_every_outside_a_tenth_of_a_second_to_a_week_is_refused() {
    for bad in ["1e300", "0.01", "0", "-1", "nan", "inf", "604801", "soon"] {
        run_command(
            queens()
                .args(["count", "8", "--checkpoint", "x"])
                .arg(format!("--checkpoint-every={bad}")),
        )
        .status(2)
        .stderr_has(&["from 0.1 to 604800"]);
    }
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("c");
    for good in ["0.1", "604800"] {
        run_command(
            queens()
                .args(["count", "8", "--checkpoint-every", good, "--checkpoint"])
                .arg(&ckpt),
        )
        .succeeds()
        .stdout_is("92\n");
    }
}

/// A shard result as `queens count --json` writes it, with its checksum.
fn part(
    n: usize,
    total: u128,
    unique: u128,
    shard: u64,
    shards: u64,
    subproblems: usize,
) -> String {
    let line = format!(
        "queens-count-result 2 n={n} total={total} unique={unique} seconds=1 shard={shard} \
         shards={shards} split=frame1-v1 subproblems={subproblems}"
    );
    let sum = queens_core::count::checksum(line.as_bytes());
    format!(
        "{{\"n\":{n},\"total\":{total},\"unique\":{unique},\"seconds\":1.0,\"shard\":{shard},\
         \"shards\":{shards},\"split\":\"frame1-v1\",\"subproblems\":{subproblems},\
         \"checksum\":\"{sum}\"}}\n"
    )
}

#[test]
fn merge_refuses_overflow_foreign_boards_huge_shard_counts_and_unchecked_parts() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| write_file(dir.path(), name, text);
    let plan12 = subproblems_of_a_count("12");
    // The test's own parts are accepted when right.
    let a = write("a", &part(12, 14000, 1700, 0, 2, plan12));
    let b = write("b", &part(12, 200, 87, 1, 2, plan12));
    run_command(queens().arg("merge").args([&a, &b]))
        .succeeds()
        .stdout_is("14200\n");
    let half = 1u128 << 127;
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                part(12, half, 1, 0, 2, plan12),
                part(12, half, 1, 1, 2, plan12),
            ],
            "past 2^128 - 1",
        ),
        (vec![part(99, 1, 1, 0, 1, plan12)], "N from 1 to 32"),
        (vec![part(0, 1, 1, 0, 1, plan12)], "N from 1 to 32"),
        (
            vec![part(12, 1, 1, 0, 1_000_000_000_000, plan12)],
            "more than the 1048576",
        ),
        (vec![part(12, 1, 1, 0, 1 << 20, plan12)], "(1048575 in all)"),
        (vec![part(12, 1, 1, 0, 1, 99)], "different splits"),
        (vec![part(12, 1, 2, 0, 1, plan12)], "more classes"),
        (
            vec![part(12, 1, 1, 0, 1, plan12).replace("\"total\":1,", "\"total\":2,")],
            "checksum says",
        ),
        (
            vec![part(12, 1, 1, 0, 1, plan12).replace(",\"checksum\"", ",\"extra\":1,\"checksum\"")],
            "not a shard result",
        ),
        (
            vec![format!(
                "{{\"n\":12,\"total\":1,\"unique\":1,\"seconds\":1.0,\"shard\":0,\"shards\":1,\
                 \"split\":\"frame1-v1\",\"subproblems\":{plan12}}}\n"
            )],
            "has no checksum",
        ),
    ];
    for (k, (lines, message)) in cases.into_iter().enumerate() {
        let file = write(&format!("case{k}"), &lines.concat());
        // Under a limit of processor seconds, not wall time: a refusal that did work
        // proportional to a claimed count (10^12 shards, 2^127 solutions) would be killed by
        // it, however busy the machine.
        let mut limited = assert_cmd::Command::new("prlimit");
        limited
            .arg("--cpu=10")
            .arg(assert_cmd::cargo::cargo_bin("queens"))
            .arg("merge")
            .arg(&file);
        run_command(&mut limited)
            .status(2)
            .stdout_is("")
            .stderr_has(&[message]);
    }
}

fn subproblems_of_a_count(n: &str) -> usize {
    json_of(&["count", n, "--json", "--engine", "frame"])["subproblems"]
        .as_u64()
        .unwrap() as usize
}

/// The directory entry of the checkpoint replaced by a folder: every save's rename fails
/// (EISDIR), as on a full or read-only disk, even for root.
#[test]
fn a_failed_save_is_reported_at_once_retried_and_the_result_still_printed_with_status_2() {
    let (_dir, ckpt) = temp_checkpoint();
    let child = spawn_count("17", &ckpt, &["-j", "1", "--checkpoint-every", "0.1"]);
    wait_for_file(&ckpt);
    std::fs::remove_file(&ckpt).unwrap();
    std::fs::create_dir(&ckpt).unwrap();
    std::fs::write(ckpt.join("keep"), "x").unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let warned = stderr.find("queens: warning: cannot read or write the checkpoint file");
    let last = stderr.find("the last save failed");
    assert!(warned.is_some() && last > warned, "{stderr}");
    assert_eq!(
        stderr.matches("queens: warning:").count(),
        1,
        "the same failure is reported once: {stderr}"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(number(&v["total"]), known_for(17).0);
}

#[test]
fn progress_lines_report_done_total_rate_and_eta_on_stderr() {
    let out = queens()
        .args([
            "count",
            "16",
            "--engine",
            "frame",
            "-j",
            "1",
            "--progress",
            "lines",
            "--progress-every",
            "0.1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{}\n", known_for(16).0)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(!lines.is_empty(), "no progress line");
    let mut last_done = 0;
    for line in &lines {
        let rest = line.strip_prefix("queens: progress ").expect(line);
        let (done, total) = rest
            .split_once(" subproblems")
            .unwrap()
            .0
            .split_once('/')
            .unwrap();
        let done: u64 = done.parse().unwrap();
        assert_eq!(total, "3206");
        assert!(done >= last_done);
        last_done = done;
        assert!(
            line.contains("/s, elapsed ") && line.contains(", ETA "),
            "{line}"
        );
    }
    // Off a terminal the default stays silent.
    run("count 12").succeeds().stderr_is("");
    run("count 12 --progress sometimes").status(2);
}

#[test]
fn recount_agrees_on_a_good_checkpoint_and_catches_a_tampered_subproblem() {
    let (_dir, ckpt) = temp_checkpoint();
    let arg = ckpt.to_str().unwrap();
    stdout_of(&["count", "11", "--checkpoint", arg]);
    let out = stdout_of(&["count", "11", "--recount", "5", "--checkpoint", arg]);
    assert_eq!(out.matches(": agrees").count(), 5, "{out}");
    assert!(out.contains("all 5 recounted subproblems"), "{out}");
    // A subproblem with solutions, 8 more of them in one more class, and the sums to match: a
    // file that passes every consistency check, yet is wrong.
    let good = std::fs::read_to_string(&ckpt).unwrap();
    let parts = good.lines().find_map(|l| l.strip_prefix("parts ")).unwrap();
    let (index, t, u) = parts
        .split(' ')
        .find_map(|e| {
            let (i, c) = e.split_once(':')?;
            let (t, u) = c.split_once('/')?;
            let (t, u): (u128, u128) = (t.parse().ok()?, u.parse().ok()?);
            (t > 0 && t == 8 * u).then_some((i.to_string(), t, u))
        })
        .unwrap();
    let (total, unique) = known_for(11);
    let bad = good
        .replace(
            &format!(" {index}:{t}/{u}"),
            &format!(" {index}:{}/{}", t + 8, u + 1),
        )
        .replace(
            &format!("total {total}\n"),
            &format!("total {}\n", total + 8),
        )
        .replace(
            &format!("unique {unique}\n"),
            &format!("unique {}\n", unique + 1),
        );
    std::fs::write(&ckpt, resealed(&bad)).unwrap();
    let text = run_args(&["count", "11", "--recount", "100000", "--checkpoint", arg])
        .status(1)
        .stdout;
    assert!(
        text.contains(&format!("subproblem {index}: saved {}/{}", t + 8, u + 1))
            && text.contains("DISAGREES")
            && text.contains("1 of "),
        "{text}"
    );
    // And resuming from it just prints the wrong total it holds: recount is the check.
    run("count 11 --recount 3").status(2);
    // A closed pipe (`| grep -m1 DISAGREES` once it has its line) ends the printing, not the
    // answer: status 1, quietly, whichever line the disagreement is on.
    let mut child = Std::new(assert_cmd::cargo::cargo_bin("queens"))
        .args(["count", "11", "--recount", "100000", "--checkpoint", arg])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Closed before the first line is written: every write meets the closed pipe.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), err.as_ref()), (Some(1), ""));
}

/// A count whose result cannot be written (a full disk) says so and gives the result, or
/// names the checkpoint that holds it: hours of counting are not lost to a full disk.
#[cfg(target_os = "linux")]
#[test]
fn a_result_that_cannot_be_written_is_given_in_the_error() {
    let (code, err) = on_a_full_disk(&["count", "12", "--json"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("cannot write to standard output: No space left on device")
            && err.contains("the result: {\"n\":12,\"total\":14200")
            && err.contains("checksum"),
        "{err}"
    );
    let (_dir, ckpt) = temp_checkpoint();
    let (code, err) = on_a_full_disk(&["count", "12", "--checkpoint", ckpt.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("holds it"), "{err}");
    // The finished file read again, to a full disk: the error says the file holds the result.
    let (code, err) =
        on_a_full_disk(&["count", "12", "-q", "--checkpoint", ckpt.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("No space left on device") && err.ends_with("run.ckpt holds it\n"),
        "{err}"
    );
    run_args(&["count", "12", "--checkpoint", ckpt.to_str().unwrap()]).stdout_is("14200\n");
    // So do merge and complete --count, and count --algo, whose results are a number too.
    let parts = tempfile::tempdir().unwrap();
    let both = parts.path().join("parts.json");
    let text: String = ["0/2", "1/2"]
        .map(|s| stdout_of(&["count", "9", "--shard", s, "--json"]))
        .concat();
    std::fs::write(&both, text).unwrap();
    let both = both.to_str().unwrap();
    for (args, result) in [
        (&["merge", both][..], "the result: 352"),
        (
            &["merge", both, "--json"],
            "the result: {\"n\":9,\"total\":352,",
        ),
        (
            &["complete", "8", "--fixed", "0:0", "--count"],
            "the result: 4",
        ),
        (&["count", "8", "--algo", "iterative"], "the result: 92"),
    ] {
        let (code, err) = on_a_full_disk(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains("No space left on device") && err.contains(result),
            "{args:?}: {err}"
        );
    }
    // Every command says that it is standard output it could not write.
    for args in [
        &["list", "8"][..],
        &["trace", "4"],
        &["count", "9", "--estimate"],
        &["man"],
    ] {
        let (code, err) = on_a_full_disk(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(
            err.trim(),
            "queens: error: cannot write to standard output: No space left on device (os error 28)",
            "{args:?}"
        );
    }
}

#[test]
fn estimate_names_the_subproblems_nodes_time_and_core_hours_of_the_run() {
    for (n, shard) in [("13", None), ("14", Some("1/3"))] {
        let mut args = vec!["count", n, "--estimate", "-j", "2", "--engine", "frame"];
        // The estimate is of the frame engine's plan.
        let mut json_args = vec!["count", n, "--json", "--engine", "frame"];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
            json_args.extend(["--shard", s]);
        }
        let text = stdout_of(&args);
        let lines: Vec<&str> = text.lines().collect();
        // The shard's subproblems: what a count of it reports as its plan, dealt round-robin.
        let plan = json_of(&json_args)["subproblems"].as_u64().unwrap();
        let expected = match shard {
            Some(_) => (plan + 1) / 3,
            None => plan,
        };
        assert!(
            lines[0].ends_with(&format!(": {expected} subproblems")),
            "{text}"
        );
        let split = json_of(&json_args)["split"].as_str().unwrap().to_string();
        assert!(
            lines[1].starts_with(&format!("engine: frame (split {split};")),
            "{text}"
        );
        let lines = [lines[0], lines[2], lines[3], lines[4]];
        let nodes: f64 = lines[1]
            .strip_prefix("estimated search nodes: ")
            .and_then(|r| r.split(' ').next())
            .and_then(|v| v.parse().ok())
            .expect(lines[1]);
        assert!(nodes > expected as f64, "{text}");
        assert!(lines[2].starts_with("time per node: "), "{text}");
        // The core-hours, and possibly that the estimate may be short (a subproblem stopped).
        assert!(
            lines[3].starts_with("estimated time: ")
                && lines[3].contains("on 2 threads")
                && (lines[3].ends_with(" core-hours)")
                    || lines[3].ends_with(
                        " core-hours; the subproblem of the most time per node \
                                           was stopped, so this may be short)"
                    )),
            "{text}"
        );
    }
    run("count 12 --estimate --checkpoint x").status(2);
}

/// The frame estimate keeps a subproblem still counting at the end of its sample as censored,
/// never leaves it out, says when the estimate may be short for it, and with none finished
/// gives a lower bound. (On N = 17 a count is nearly always running when the sample ends;
/// what is asserted holds whatever the timing.)
#[test]
fn the_frame_estimate_keeps_a_subproblem_stopped_as_censored() {
    let text = stdout_of(&words("count 17 --engine frame --estimate-within 2 -j 1"));
    assert!(!text.contains("left out"), "{text}");
    let line = |start: &str| {
        text.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?} in {text}"))
    };
    let (per_node, time) = (line("time per node: "), line("estimated time: "));
    let stopped = per_node.contains("; 1 still counting at the end of the sample was stopped");
    assert_eq!(
        stopped,
        per_node.contains(" and kept as censored, at least its time so far: a Kaplan-Meier mean)"),
        "{text}"
    );
    if time.contains("so this may be short") {
        assert!(stopped, "{text}");
    }
    let none_finished = per_node.starts_with("time per node: more than ");
    assert_eq!(
        none_finished,
        time.starts_with("estimated time: more than "),
        "{text}"
    );
    if none_finished {
        assert!(
            per_node.contains("the time per node so far of the"),
            "{text}"
        );
    }
}

/// `--estimate --pieces D` forecasts the run of that cut (the split a count with the same
/// flags reports), and a flag that would do nothing with another is refused, not ignored.
#[test]
fn estimate_forecasts_pieces_and_flags_that_would_do_nothing_are_refused() {
    let text = stdout_of(&words("count 12 --estimate --pieces 2 -j 1"));
    let split = json_of(&words("count 12 --pieces 2 --json"))["split"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(split, "frame1-rows2-v1");
    assert!(
        text.contains(&format!("engine: frame (split {split};")),
        "{text}"
    );
    assert!(
        text.contains("cut into pieces by its first 2 free rows"),
        "{text}"
    );
    fails_with(
        "count 12 --estimate --json",
        2,
        &["cannot be used with --estimate"],
    );
    fails_with(
        "count 12 --estimate --format json",
        2,
        &["cannot be used with --estimate"],
    );
    fails_with(
        "count 12 --estimate --pieces 2 --engine halves",
        2,
        &["--engine halves"],
    );
    for flag in [
        "--recount 2",
        "--checkpoint-every 5",
        "-j 2",
        "--progress-every 5",
        "--progress lines",
    ] {
        fails_with(
            &format!("count 10 --algo bitboard {flag}"),
            2,
            &["cannot be used with"],
        );
    }
    assert_prints("count 10 --algo bitboard --progress none", "724\n");
    // --recount prints sentences and says its verdict by its status: no JSON, no classes.
    let (_dir, ckpt) = temp_checkpoint();
    let ckpt = ckpt.to_str().unwrap();
    assert_prints(&format!("count 10 -q --checkpoint {ckpt}"), "724\n");
    for flag in ["--json", "--format json", "--unique"] {
        fails_with(
            &format!("count 10 --recount 2 --checkpoint {ckpt} {flag}"),
            2,
            &["cannot be used with"],
        );
    }
}

/// A board or a shard without subproblems has nothing to forecast: the estimate says so in a
/// line instead of a sample of nothing.
#[test]
fn estimate_of_nothing_to_count_says_so() {
    for (line, what) in [
        ("count 2 --estimate", "the board"),
        ("count 3 --estimate", "the board"),
        ("count 8 --shard 99/100 --estimate", "this shard"),
        ("count 12 --shard 9999/10000 --estimate", "this shard"),
    ] {
        let text = printed(line);
        assert!(
            text.contains(": 0 subproblems\n")
                && text.ends_with(&format!(
                    "nothing to count: {what} has no subproblem, so the count is 0 and takes no \
                     time\n"
                ))
                && !text.contains("not known"),
            "{line}: {text}"
        );
    }
    assert!(printed("count 1 --estimate").starts_with("N = 1: 1 subproblem\n"));
}

/// `--estimate` forecasts the engine the same command runs: by default the half-board engine
/// from N = 12 on, with the split the run takes on its threads within --max-memory; its lines
/// name the subproblems, the engine and split, the halves, the memory (within the split's
/// allowance) and a time on the threads asked for (no time asserted).
#[test]
fn estimate_forecasts_the_half_board_engine_that_runs() {
    let number = |line: &str, after: &str| -> f64 {
        line.split(after)
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no number after {after:?} in {line:?}"))
    };
    for (n, threads, shard, memory) in [
        ("14", "2", None, None),
        ("15", "1", Some("2/5"), None),
        ("16", "2", None, Some("64M")),
    ] {
        let mut args = vec!["count", n, "--estimate", "-j", threads];
        let mut json_args = vec!["count", n, "--json", "-j", threads];
        for extra in [
            shard.map(|s| ["--shard", s]),
            memory.map(|m| ["--max-memory", m]),
        ]
        .into_iter()
        .flatten()
        {
            args.extend(extra);
            json_args.extend(extra);
        }
        let text = stdout_of(&args);
        let lines: Vec<&str> = text.lines().collect();
        let json = json_of(&json_args);
        let plan = json["subproblems"].as_u64().unwrap();
        let split = json["split"].as_str().unwrap();
        let expected = match shard {
            Some(_) => plan / 5 + u64::from(plan % 5 > 2),
            None => plan,
        };
        assert!(
            lines[0].ends_with(&format!(": {expected} subproblems")),
            "{text}"
        );
        let columns = split
            .strip_prefix("halves")
            .and_then(|r| r.split('-').next())
            .unwrap();
        assert!(
            lines[1].starts_with(&format!(
                "engine: halves (split {split}, {columns} pattern columns;"
            )),
            "{text}"
        );
        assert!(number(lines[2], "estimated halves: ") > 0.0, "{text}");
        let (need, allowed) = (
            number(lines[3], "memory: about "),
            number(lines[3], " allows "),
        );
        // The split's allowance is within the budget it was chosen by (the forecast adds the
        // process's 8 MiB): the one given, or 1 GiB by default, on every machine.
        let budget = memory.map_or(1024.0, |_| 64.0);
        assert!(need > 8.0 && allowed > 0.0 && allowed <= budget, "{text}");
        let within = match memory {
            Some(_) => {
                lines[3].contains("; the split allows ")
                    && lines[3].ends_with(" MiB for the halves of --max-memory 64 MiB")
            }
            None => {
                lines[3].contains(
                    "; the split is the one of 1024 MiB (the same on every machine) and allows ",
                ) && lines[3].contains(" MiB for the halves, within the default --max-memory, ")
            }
        };
        assert!(
            within
                && lines[3].contains(&format!(
                    " on {threads} thread{}",
                    if threads == "1" { " " } else { "s " }
                )),
            "{text}"
        );
        assert!(lines[4].starts_with("time sample: "), "{text}");
        assert!(
            lines[5].starts_with("estimated time: ")
                && lines[5].contains(&format!(" on {threads} thread"))
                && lines[5].contains(" core-hours"),
            "{text}"
        );
        // The fixed-point part belongs to the shard holding subproblem 0 only.
        assert_eq!(
            lines[6].contains("the fixed points"),
            shard.is_none(),
            "{text}"
        );
    }
    // The frame engine's estimate when it is the one that runs (auto, no split of halves
    // within the budget).
    let text = stdout_of(&["count", "13", "--estimate", "--max-memory", "1M"]);
    assert!(
        text.lines().nth(1).unwrap().starts_with("engine: frame"),
        "{text}"
    );
}

/// Issue 36: `--estimate` times its sample by the processor time of its threads (read on
/// Linux) and says so, and `--help` states the bound it answers within.
#[cfg(target_os = "linux")]
#[test]
fn estimate_times_its_sample_by_processor_time_and_states_its_bound() {
    let last = "the time is processor time, as on 2 idle cores: a busy machine makes the count \
                slower, not the estimate";
    for args in [
        &["count", "14", "--estimate", "-j", "2"][..],
        &["count", "13", "--estimate", "-j", "2", "--engine", "frame"],
    ] {
        let text = stdout_of(args);
        assert!(text.contains(" s of processor time"), "{text}");
        assert_eq!(text.lines().last(), Some(last), "{text}");
    }
    let help = stdout_of(&["count", "--help"]);
    assert!(
        help.contains("within 10 s") && help.contains("processor time"),
        "{help}"
    );
}

/// A lock file that is a symbolic link is refused with a message that says so (it is opened
/// without following links), not as a loop of links.
#[cfg(unix)]
#[test]
fn a_lock_file_that_is_a_symbolic_link_is_refused_as_one() {
    let (dir, ckpt) = temp_checkpoint();
    std::os::unix::fs::symlink("elsewhere", dir.path().join("run.ckpt.lock")).unwrap();
    run_command(queens().args(["count", "10", "--checkpoint"]).arg(&ckpt))
        .status(2)
        .stdout_is("")
        .stderr_has(&[
            "run.ckpt.lock of the checkpoint is a symbolic link",
            "remove it",
        ]);
    assert!(
        !dir.path().join("elsewhere").exists(),
        "the link is not followed"
    );
}

/// An empty checkpoint file is named as empty.
#[test]
fn an_empty_checkpoint_is_refused_as_empty() {
    let (_dir, ckpt) = temp_checkpoint();
    std::fs::write(&ckpt, "").unwrap();
    run_command(queens().args(["count", "10", "--checkpoint"]).arg(&ckpt))
        .status(2)
        .stderr_has(&["is not a valid checkpoint: it is empty"]);
}

/// `--estimate-within SECS` gives the estimate another bound (and implies `--estimate`): the
/// sentences name it where it ended the sample; out of range, or with what `--estimate` is
/// refused with, it is refused.
#[test]
fn estimate_within_sets_the_bound_and_implies_the_estimate() {
    // N = 22's subproblems take seconds each: one second of sampling cannot count 64 of them.
    let text = stdout_of(&words("count 22 --estimate-within 1 -j 1"));
    assert!(text.starts_with("N = 22: "), "{text}");
    assert!(text.contains("; the bound of 1 s ended it"), "{text}");
    // A draw still counting then is stopped and kept as censored when some finished, and
    // with none finished gives the lower bound; it is never left out. (N = 20's draws take
    // about a second: in 3 s some finish and some are cut, on an idle machine.)
    let cut = stdout_of(&words("count 20 --estimate-within 3 -j 2"));
    for text in [&text, &cut] {
        assert!(!text.contains("left out"), "{text}");
        let none_finished = text.contains("no draw finished within the bound");
        let kept = text.contains("were stopped and kept as censored (each took")
            || text.contains("was stopped and kept as censored (it took");
        if text.contains("still counting") {
            assert_eq!(kept, !none_finished, "{text}");
        } else {
            assert!(!kept, "{text}");
        }
        if none_finished {
            assert!(text.contains("estimated time: more than "), "{text}");
        } else {
            assert!(!text.contains("more than"), "{text}");
        }
    }
    let text = stdout_of(&words("count 12 --estimate-within 2.5 -j 1 --engine frame"));
    assert!(text.contains("estimated search nodes: "), "{text}");
    for value in ["0", "0.5", "86401", "1e9", "ten", "-3"] {
        fails_with(
            &format!("count 12 --estimate-within={value}"),
            2,
            &["is not a number of seconds from 1 to 86400 (one day)"],
        );
    }
    fails_with(
        "count 12 --estimate-within 5 --json",
        2,
        &["cannot be used with --estimate"],
    );
    for flag in ["--checkpoint x", "--algo bitboard", "--recount 2"] {
        fails_with(
            &format!("count 12 --estimate-within 5 {flag}"),
            2,
            &["cannot be used with"],
        );
    }
}

/// The save fails (the checkpoint's name taken by a folder), is reported, and succeeds again at
/// a later interval once the folder is gone: the run reports that too, and its file is whole.
#[cfg(unix)]
#[test]
fn a_save_that_failed_is_retried_at_each_interval_until_it_succeeds() {
    use std::io::BufRead;
    let (_dir, ckpt) = temp_checkpoint();
    let mut child = spawn_count("18", &ckpt, &["-j", "1", "--checkpoint-every", "0.1"]);
    wait_for_file(&ckpt);
    std::fs::remove_file(&ckpt).unwrap();
    std::fs::create_dir(&ckpt).unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let _ = tx.send(line.unwrap());
        }
    });
    let next = |what: &str| loop {
        let line = rx.recv_timeout(Duration::from_secs(60)).expect(what);
        if line.contains(what) {
            return line;
        }
    };
    let warning = next("queens: warning:");
    assert!(
        warning.contains("run.ckpt") && warning.contains("retried"),
        "{warning}"
    );
    std::fs::remove_dir(&ckpt).unwrap();
    next("the checkpoint is saved again");
    assert!(finished_in(&ckpt).is_some(), "a whole file again");
    send(&child, "TERM");
    assert_eq!(child.wait().unwrap().code(), Some(143));
    assert!(finished_in(&ckpt).is_some());
}

/// The engine's writer of result lines writes, byte for byte, what `queens count --json` prints,
/// and its reader reads it back.
#[test]
fn the_engines_result_line_is_the_line_count_prints() {
    for (engine, n, shard) in [("frame", "10", "1/3"), ("halves", "12", "0/2")] {
        let out = stdout_of(&["count", n, "--engine", engine, "--shard", shard, "--json"]);
        let line = out.trim_end();
        let part = queens_core::count::shard_result::ShardResult::parse("out", line).unwrap();
        assert_eq!(part.to_line(), line);
    }
}

// ---- Pieces: the frames of large boards cut for clusters (issue 12) ----

/// Shards of a split of pieces merge to the exact counts: the engine's own parts of N = 12 cut
/// at 2 rows (a split the binary accepts for any N it fits), written as `--json` lines, merged
/// by the binary, which adds the classes' eighths and divides by 8.
#[test]
fn shards_of_pieces_merge_into_the_known_counts() {
    use queens_core::count::shard_result::result_line;
    use queens_core::count::{Run, Shard};
    let (total, unique) = known_for(12);
    let dir = tempfile::tempdir().unwrap();
    let m = 5;
    let mut files = Vec::new();
    for i in 0..m {
        let shard = Shard::new(i, m).unwrap();
        let run = Run::with_depth(12, 2).unwrap().shard(shard).threads(1);
        let counts = run.execute().unwrap();
        assert_eq!(run.split(), "frame1-rows2-v1");
        let line = result_line(
            12,
            counts,
            0.1,
            Some(shard),
            &run.split(),
            run.subproblems(),
        );
        let path = dir.path().join(format!("part-{i}.json"));
        std::fs::write(&path, format!("{line}\n")).unwrap();
        files.push(path);
    }
    let v = merged_to(&files, (total, unique));
    let refs: Vec<&PathBuf> = files.iter().collect();
    assert_eq!(v["split"], "frame1-rows2-v1");
    // A part of whole frames does not mix with them.
    let whole = stdout_of(&[
        "count", "12", "--engine", "frame", "--shard", "0/5", "--json",
    ]);
    std::fs::write(&files[0], whole).unwrap();
    merge(&refs)
        .code(2)
        .stderr(predicates::str::contains("split"));
}

/// N = 22 cuts its frames into pieces: a run interrupted after a second saves the pieces of
/// the frames it began (a `pieces` line), its progress lines count the pieces, and a second
/// session resumes from them and goes on.
#[cfg(unix)]
#[test]
fn a_large_board_saves_the_pieces_of_its_begun_frames_and_resumes_them() {
    let (_dir, ckpt) = temp_checkpoint();
    let mut before = String::new();
    for session in 0..2 {
        let extra = [
            "-j",
            "2",
            "--checkpoint-every",
            "3600",
            "--progress",
            "lines",
        ];
        let child = spawn_count(
            "22",
            &ckpt,
            &[&extra[..], &["--progress-every", "0.3"]].concat(),
        );
        let mut child = child;
        wait_for_file(&ckpt);
        // Interrupt once the progress lines show pieces moving (at least 1.5 s in), not after a
        // fixed delay: a loaded machine may count no piece in 1.5 s.
        let seen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let reader = {
            let seen = std::sync::Arc::clone(&seen);
            let mut stderr = child.stderr.take().unwrap();
            std::thread::spawn(move || {
                use std::io::Read;
                let mut chunk = [0u8; 4096];
                while let Ok(got) = stderr.read(&mut chunk) {
                    if got == 0 {
                        break;
                    }
                    seen.lock()
                        .unwrap()
                        .push_str(&String::from_utf8_lossy(&chunk[..got]));
                }
            })
        };
        let start = std::time::Instant::now();
        // The numbers of "; K pieces counted in" lines: the session has counted pieces of its
        // own once K has grown past the first one it reported (a resume reports the saved ones).
        let moved = |text: &str| {
            let counts: Vec<&str> = text
                .lines()
                .filter_map(|line| line.split("; ").nth(1))
                .filter(|part| part.ends_with(" frames begun"))
                .filter_map(|part| part.split(' ').next())
                .collect();
            counts
                .first()
                .is_some_and(|first| counts.iter().any(|c| c != first))
        };
        while start.elapsed() < Duration::from_millis(1500)
            || (!moved(&seen.lock().unwrap()) && start.elapsed() < Duration::from_secs(120))
        {
            sleep(Duration::from_millis(100));
        }
        send(&child, "INT");
        let out = child.wait_with_output().unwrap();
        reader.join().unwrap();
        assert_eq!(out.status.code(), Some(130), "{out:?}");
        let stderr = seen.lock().unwrap().clone();
        assert!(stderr.contains("subproblems are saved") || stderr.contains("pieces of"));
        if session == 1 {
            assert!(stderr.contains("resuming from"), "{stderr}");
        }
        // Between two finished frames, the progress lines show the pieces moving.
        assert!(stderr.contains("pieces counted in"), "{stderr}");
        let text = std::fs::read_to_string(&ckpt).unwrap();
        assert!(text.contains("\nsplit frame1-rows2-v1\n"), "{text:.300}");
        let pieces = text
            .lines()
            .find(|l| l.starts_with("pieces"))
            .expect("a pieces line")
            .to_string();
        let progress = format!(
            "{} {pieces}",
            text.lines().find(|l| l.starts_with("finished")).unwrap()
        );
        assert!(
            progress.contains('@') || !progress.starts_with("finished 0"),
            "nothing counted: {progress}"
        );
        assert_ne!(progress, before, "the second session counted more");
        before = progress;
    }
}

/// `--pieces 1` on N = 18 (large boards are cut by default; this one a test can count):
/// SIGTERM saves the pieces, SIGKILL at three random moments loses none of what was saved, the
/// run resumed without the flag (the checkpoint names its split) ends on the exact counts, and
/// `--recount` agrees with the file.
#[cfg(unix)]
#[test]
fn a_run_of_pieces_killed_at_random_moments_resumes_to_the_exact_count() {
    let (_dir, ckpt) = temp_checkpoint();
    let child = spawn_count("18", &ckpt, &["-j", "2", "--pieces", "1"]);
    wait_for_file(&ckpt);
    sleep(Duration::from_millis(300 + random_below(1000)));
    send(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    let saved = finished_in(&ckpt).unwrap();
    let text = std::fs::read_to_string(&ckpt).unwrap();
    assert!(text.contains("\nsplit frame1-rows1-v1\n") && text.contains("\npieces"));
    kill_three_times(&ckpt, &["--pieces", "1"], saved);
    let path = ckpt.to_str().unwrap();
    // Another depth is refused, not mixed.
    run_args(&["count", "18", "--pieces", "3", "--checkpoint", path])
        .status(2)
        .stderr_has(&["frame1-rows1-v1"]);
    let v = json_of(&["count", "18", "--json", "--checkpoint", path]);
    assert_eq!(v["split"], "frame1-rows1-v1");
    assert_eq!(
        (number(&v["total"]), number(&v["unique"])),
        known_for(18),
        "{v}"
    );
    run_args(&["count", "18", "--recount", "4", "--checkpoint", path])
        .succeeds()
        .stdout_has(&["all 4 recounted subproblems"]);
}

#[test]
fn pieces_are_refused_with_the_half_board_engine_or_past_the_free_rows() {
    run("count 12 --pieces 2 --engine halves")
        .status(2)
        .stderr_has(&["--engine halves"]);
    run("count 6 --pieces 5")
        .status(2)
        .stderr_has(&["too deep for N = 6"]);
    let v = json_of(&["count", "13", "--pieces", "3", "--json"]);
    assert_eq!((number(&v["total"]), number(&v["unique"])), known_for(13));
}

/// A resumed or already finished run's JSON result carries the whole run's time, over its
/// sessions (it carried the last session's alone, 0.0 for a finished checkpoint read again), so
/// that `merge` adds up what the shards took.
#[test]
fn a_finished_checkpoint_reports_the_time_its_run_took() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let ckpt = dir.path().join("run.ckpt");
    let line = format!(
        "count 15 --engine frame --json --checkpoint {}",
        ckpt.display()
    );
    let seconds = |out: &str| -> f64 {
        let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
        v["seconds"].as_f64().expect("seconds")
    };
    let first = seconds(&run(&line).succeeds().stdout);
    let saved: f64 = checkpoint_field(&ckpt, "seconds")
        .and_then(|s| s.parse().ok())
        .expect("its seconds");
    let again = seconds(&run(&line).succeeds().stdout);
    assert!(saved > 0.0 && first > 0.0, "{first} {saved}");
    assert!(
        (again - saved).abs() < 0.002,
        "printed {again}, recorded {saved}"
    );
}
