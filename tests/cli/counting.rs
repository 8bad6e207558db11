//! `count` (engine, threads, shards, checkpoints, signals), `merge` and `list --unique`.

use std::path::{Path, PathBuf};
use std::process::{Command as Std, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::common::*;
use predicates::prelude::*;

fn known_for(n: usize) -> (u128, u128) {
    let row = known().into_iter().find(|k| k.0 == n).expect("a known row");
    (row.1, row.2)
}

fn number(v: &serde_json::Value) -> u128 {
    v.as_u64().expect("a whole number") as u128
}

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
    queens()
        .args(["count", "8", "--algo", "wirth"])
        .assert()
        .success()
        .stdout("92\n");
}

#[test]
fn count_refuses_boards_past_its_masks_with_a_clear_error() {
    queens()
        .args(["count", "33"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("N = 33").and(predicates::str::contains("up to 32")));
}

fn shard_files(dir: &Path, n: &str, m: u64) -> Vec<PathBuf> {
    (0..m)
        .map(|i| {
            let spec = format!("{i}/{m}");
            let out = stdout_of(&["count", n, "--shard", &spec, "--json"]);
            let path = dir.join(format!("part-{i}.json"));
            std::fs::write(&path, out).unwrap();
            path
        })
        .collect()
}

fn merge(files: &[&PathBuf]) -> assert_cmd::assert::Assert {
    queens().arg("merge").arg("--json").args(files).assert()
}

#[test]
fn shards_merge_into_the_known_total_and_unique_count() {
    let dir = tempfile::tempdir().unwrap();
    let (total, unique) = known_for(12);
    for m in [1, 3, 7] {
        let files = shard_files(dir.path(), "12", m);
        let parts: Vec<&PathBuf> = files.iter().collect();
        let out = merge(&parts).success().get_output().stdout.clone();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!((number(&v["total"]), number(&v["unique"])), (total, unique));
        assert_eq!(v["shards"], m);
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
    queens()
        .args(["merge", "--unique"])
        .arg(&all)
        .assert()
        .success()
        .stdout(format!("{}\n", known_for(11).1));
    std::fs::write(&all, format!("{lines}{lines}")).unwrap();
    queens()
        .arg("merge")
        .arg(&all)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("all.jsonl line 4"));
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
    std::fs::write(&whole, stdout_of(&["count", "12", "--json"])).unwrap();
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "hello\n").unwrap();
    let cases: Vec<(Vec<&PathBuf>, &str)> = vec![
        (vec![&twelve[0], &twelve[2]], "missing shards of 3: 1"),
        (
            vec![&twelve[0], &twelve[1], &twelve[1], &twelve[2]],
            "given twice",
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

fn finished_in(path: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("finished "))
        .and_then(|v| v.parse().ok())
}

fn subproblems_in(path: &Path) -> u64 {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("subproblems "))
        .unwrap()
        .parse()
        .unwrap()
}

/// Starts `queens count 16 -j1 --engine frame` with a checkpoint and waits until it has saved
/// some work.
fn start_and_wait_for_progress(ckpt: &Path) -> std::process::Child {
    start_engine_and_wait_for_progress(ckpt, "16", "frame")
}

/// Starts `queens count N -j1 --engine E` with a checkpoint and waits until it has saved some
/// work.
fn start_engine_and_wait_for_progress(ckpt: &Path, n: &str, engine: &str) -> std::process::Child {
    let bin = assert_cmd::cargo::cargo_bin("queens");
    let child = Std::new(bin)
        .args(["count", n, "--threads", "1", "--checkpoint-every", "0.2"])
        .args(["--engine", engine])
        .arg("--checkpoint")
        .arg(ckpt)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while finished_in(ckpt).unwrap_or(0) == 0 {
        assert!(start.elapsed() < Duration::from_secs(60), "no checkpoint");
        sleep(Duration::from_millis(20));
    }
    child
}

#[test]
fn a_run_killed_hard_resumes_from_its_checkpoint_to_the_exact_count() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("run.ckpt");
    let mut child = start_and_wait_for_progress(&ckpt);
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    let saved = finished_in(&ckpt).unwrap();
    assert!(
        saved > 0 && saved < subproblems_in(&ckpt),
        "killed mid-way: {saved}"
    );
    let ckpt_arg = ckpt.to_str().unwrap();
    let v = json_of(&[
        "count",
        "16",
        "--json",
        "--engine",
        "frame",
        "--checkpoint",
        ckpt_arg,
    ]);
    assert_eq!(number(&v["total"]), known_for(16).0);
    assert_eq!(number(&v["unique"]), known_for(16).1);
    // The finished checkpoint is kept and complete; running again just reads it.
    assert_eq!(finished_in(&ckpt), Some(subproblems_in(&ckpt)));
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
    queens()
        .args([
            "count",
            "16",
            "--engine",
            "halves",
            "--checkpoint",
            ckpt_arg,
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("split frame1-v1"));
}

#[test]
fn a_half_board_run_killed_hard_resumes_from_its_checkpoint_to_the_exact_count() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("run.ckpt");
    let mut child = start_engine_and_wait_for_progress(&ckpt, "17", "halves");
    child.kill().unwrap();
    child.wait().unwrap();
    let saved = finished_in(&ckpt).unwrap();
    assert!(
        saved > 0 && saved < subproblems_in(&ckpt),
        "killed mid-way: {saved}"
    );
    let ckpt_arg = ckpt.to_str().unwrap();
    let v = json_of(&[
        "count",
        "17",
        "--json",
        "--engine",
        "halves",
        "--checkpoint",
        ckpt_arg,
    ]);
    assert_eq!(number(&v["total"]), known_for(17).0);
    assert_eq!(number(&v["unique"]), known_for(17).1);
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
    queens()
        .args(["count", "18", "--engine", "halves", "--max-memory", "1M"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("N = 18").and(predicates::str::contains("--max-memory")));
}

#[test]
fn half_board_shards_merge_into_the_known_counts() {
    let dir = tempfile::tempdir().unwrap();
    let (total, unique) = known_for(14);
    for m in [2, 5] {
        let files: Vec<PathBuf> = (0..m)
            .map(|i| {
                let spec = format!("{i}/{m}");
                let out = stdout_of(&[
                    "count", "14", "--engine", "halves", "--shard", &spec, "--json",
                ]);
                let path = dir.path().join(format!("h{m}-{i}.json"));
                std::fs::write(&path, out).unwrap();
                path
            })
            .collect();
        let parts: Vec<&PathBuf> = files.iter().collect();
        let out = merge(&parts).success().get_output().stdout.clone();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!((number(&v["total"]), number(&v["unique"])), (total, unique));
    }
}

#[cfg(unix)]
#[test]
fn sigint_saves_the_checkpoint_and_exits_with_status_130() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("run.ckpt");
    let mut child = start_and_wait_for_progress(&ckpt);
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
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("run.ckpt");
    let arg = ckpt.to_str().unwrap();
    stdout_of(&["count", "9", "--checkpoint", arg]);
    queens()
        .args(["count", "10", "--checkpoint", arg])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("N = 9, not N = 10"));
    queens()
        .args(["count", "9", "--shard", "0/2", "--checkpoint", arg])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("shard 0/1, not shard 0/2"));
    std::fs::write(&ckpt, "garbage\n").unwrap();
    queens()
        .args(["count", "9", "--checkpoint", arg])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("not a valid checkpoint"));
}
