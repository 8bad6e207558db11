//! Issue 20: a run's plan does not depend on the machine (a run interrupted on one number of
//! threads resumes on another, shards made on any threads merge), and every result is audited
//! whatever engine made it (`--recount` of half-board checkpoints and of shard results,
//! impossible counts refused by `merge` and on resume even when re-signed).

use std::path::{Path, PathBuf};
use std::process::Command as Std;
use std::time::Duration;

use crate::common::*;
use predicates::prelude::*;
use queens_core::count::shard_result::result_line;
use queens_core::count::{Counts, Shard};

/// Starts `queens count N` with `extra` arguments and a checkpoint saved every 0.1 s, and kills
/// it (SIGKILL) once it has saved some work, before the end.
fn interrupted(n: &str, ckpt: &Path, extra: &[&str]) {
    let args = [&["--checkpoint-every", "0.1", "-q"], extra].concat();
    let child = start_until_saved(n, ckpt, &args, Duration::from_secs(120));
    kill_mid_way(child, ckpt);
}

/// Within 32 MiB, N = 17 used to be cut in 286 subproblems on 1 thread and 4120 on 16
/// (halves10 and halves14), so that a run interrupted on one could not resume on the other.
#[test]
fn a_run_interrupted_on_one_number_of_threads_resumes_on_another_both_ways() {
    let (total, unique) = known_for(17);
    for (before, after) in [("1", "16"), ("16", "1")] {
        let (_dir, ckpt) = temp_checkpoint();
        let memory = ["--max-memory", "32M"];
        interrupted("17", &ckpt, &[&["-j", before][..], &memory].concat());
        let split = checkpoint_field(&ckpt, "split").unwrap();
        let out = queens()
            .args(["count", "17", "--json", "-j", after])
            .args(memory)
            .arg("--checkpoint")
            .arg(&ckpt)
            .output()
            .unwrap();
        assert!(out.status.success(), "{before} then {after}: {out:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("resuming"));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!((number(&v["total"]), number(&v["unique"])), (total, unique));
        assert_eq!(v["split"], split.as_str());
    }
}

/// A checkpoint records its split: a resume under another budget takes it when one of its
/// subproblems fits, and otherwise says how much memory it needs.
#[test]
fn a_resume_takes_the_recorded_split_or_says_the_memory_it_needs() {
    let (_dir, ckpt) = temp_checkpoint();
    interrupted("17", &ckpt, &["-j", "1", "--max-memory", "16M"]);
    let split = checkpoint_field(&ckpt, "split").unwrap();
    let k: usize = split
        .strip_prefix("halves")
        .and_then(|s| s.strip_suffix("-v1"))
        .and_then(|k| k.parse().ok())
        .unwrap();
    let need = queens_core::count::halves::bytes_per_thread(17, k).div_ceil(1 << 20);
    assert!(need > 4, "{split} fits in 4 MiB");
    queens()
        .args(["count", "17", "--max-memory", "4M"])
        .arg("--checkpoint")
        .arg(&ckpt)
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicates::str::contains(split.as_str())
                .and(predicates::str::contains("MiB each"))
                .and(predicates::str::contains(format!("--max-memory {need}M"))),
        );
    // The default budget would cut N = 17 into fewer subproblems; the file's split is kept.
    let v = exact_count_from(17, &ckpt, &[]);
    assert_eq!(v["split"], split.as_str());
}

/// N = 19 within the default 1 GiB used to be cut in 288 subproblems on 1 thread and 4120 on
/// 16: four shards on 1, 16, 1 and 16 threads (run two at a time) merge to the exact counts.
#[test]
fn four_shards_of_nineteen_on_1_16_1_16_threads_merge_to_the_exact_counts() {
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("queens");
    let files: Vec<PathBuf> = (0..4)
        .map(|i| dir.path().join(format!("{i}.json")))
        .collect();
    for pair in [[0, 1], [2, 3]] {
        let children: Vec<_> = pair
            .iter()
            .map(|&i| {
                let threads = if i % 2 == 0 { "1" } else { "16" };
                let out = std::fs::File::create(&files[i]).unwrap();
                Std::new(&bin)
                    .args(["count", "19", "--json", "-q", "-j", threads])
                    .args(["--shard", &format!("{i}/4")])
                    .stdout(out)
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut child in children {
            assert!(child.wait().unwrap().success());
        }
    }
    let v: serde_json::Value = serde_json::from_slice(
        &queens()
            .arg("merge")
            .arg("--json")
            .args(&files)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let (total, unique) = known_for(19);
    assert_eq!((number(&v["total"]), number(&v["unique"])), (total, unique));
}

/// The checkpoint's line `parts` with the part of subproblem `index` moved by `by` solutions
/// (and as many eighths), the sums to match, and the checksum recomputed: a file that passes
/// every consistency check when `by` is a multiple of 8, yet is wrong.
fn forged(text: &str, index: usize, by: u128) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for line in &mut lines {
        if let Some(parts) = line.strip_prefix("parts ") {
            let moved: Vec<String> = parts
                .split(' ')
                .map(|e| match e.split_once(':') {
                    Some((i, c)) if i == index.to_string() => {
                        let (t, u) = c.split_once('/').unwrap();
                        let (t, u): (u128, u128) = (t.parse().unwrap(), u.parse().unwrap());
                        format!("{i}:{}/{}", t + by, u + by)
                    }
                    _ => e.to_string(),
                })
                .collect();
            *line = format!("parts {}", moved.join(" "));
        }
        for key in ["total", "unique"] {
            if let Some(v) = line.strip_prefix(&format!("{key} ")) {
                *line = format!("{key} {}", v.parse::<u128>().unwrap() + by);
            }
        }
    }
    let body: String = lines[..lines.len() - 1]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    format!(
        "{body}checksum {}\n",
        queens_core::count::checksum(body.as_bytes())
    )
}

#[test]
fn recount_audits_a_half_board_checkpoint_and_catches_a_forged_subproblem() {
    let (_dir, ckpt) = temp_checkpoint();
    let arg = ckpt.to_str().unwrap();
    let counted = json_of(&["count", "14", "--json", "--checkpoint", arg]);
    assert!(counted["split"].as_str().unwrap().starts_with("halves"));
    let out = stdout_of(&["count", "14", "--recount", "6", "--checkpoint", arg]);
    assert_eq!(out.matches(": agrees").count(), 6, "{out}");
    assert!(out.contains("all 6 recounted subproblems"), "{out}");
    // Eight more solutions in a pattern (a multiple of every weight): one more class.
    let good = std::fs::read_to_string(&ckpt).unwrap();
    std::fs::write(&ckpt, forged(&good, 5, 8)).unwrap();
    let text = run_args(&["count", "14", "--recount", "100000", "--checkpoint", arg])
        .status(1)
        .stdout;
    assert!(
        text.contains("subproblem 5: saved") && text.contains("DISAGREES"),
        "{text}"
    );
    // Four more solutions and eighths (a multiple of every weight): each part possible, the
    // complete count not.
    std::fs::write(&ckpt, forged(&good, 5, 4)).unwrap();
    run_args(&["count", "14", "--checkpoint", arg])
        .status(2)
        .stderr_has(&["not a multiple of 8"]);
}

/// A shard's checkpoint whose saved part was raised by 2^100 solutions and eighths (each part
/// still possible, its shard's sum unchecked as not the whole board's) was resumed, and `count`
/// printed a shard result of 2^100 solutions with status 0; so would an unfinished whole-board
/// checkpoint. No part of a count passes N!.
#[test]
fn a_checkpoint_whose_saved_count_passes_n_factorial_is_refused() {
    let (_dir, ckpt) = temp_checkpoint();
    let arg = ckpt.to_str().unwrap();
    let args = [
        "count",
        "12",
        "--shard",
        "1/3",
        "--json",
        "--checkpoint",
        arg,
    ];
    let counted = json_of(&args);
    let good = std::fs::read_to_string(&ckpt).unwrap();
    let index = good
        .lines()
        .find_map(|l| l.strip_prefix("parts "))
        .and_then(|parts| parts.split_once(':'))
        .map(|(i, _)| i.parse::<usize>().unwrap())
        .expect("a saved part");
    std::fs::write(&ckpt, forged(&good, index, 1 << 100)).unwrap();
    run_args(&args)
        .status(2)
        .stdout_is("")
        .stderr_has(&["its saved count is impossible", "more than N! = 479001600"]);
    std::fs::write(&ckpt, good).unwrap();
    assert_eq!(json_of(&args)["total"], counted["total"]);
}

/// The result line of `queens count N --shard S --json`, as printed and parsed.
fn shard_json(n: &str, shard: &str) -> (String, serde_json::Value) {
    let line = stdout_of(&["count", n, "--json", "--shard", shard]);
    let v = serde_json::from_str(line.trim()).unwrap();
    (line, v)
}

/// A result line with the counts given and a valid checksum, as a careful forger would write.
fn resigned(v: &serde_json::Value, total: u128, unique: u128) -> String {
    let shard = Shard::new(v["shard"].as_u64().unwrap(), v["shards"].as_u64().unwrap()).unwrap();
    let counts = Counts { total, unique };
    let split = v["split"].as_str().unwrap();
    let subproblems = v["subproblems"].as_u64().unwrap() as usize;
    let n = v["n"].as_u64().unwrap() as usize;
    result_line(n, counts, 1.0, Some(shard), split, subproblems) + "\n"
}

#[test]
fn merge_refuses_resigned_parts_whose_sum_no_board_can_have() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| write_file(dir.path(), name, text);
    // The whole of N = 16 in one part, one solution more: an odd total.
    let (_, whole) = shard_json("16", "0/1");
    let (total, unique) = known_for(16);
    let odd = write("odd", &resigned(&whole, total + 1, unique));
    run_command(queens().arg("merge").arg(&odd))
        .status(2)
        .stdout_is("")
        .stderr_has(&["14772513 is odd"]);
    // Classes past half the total, or short of an eighth of it.
    for (classes, message) in [
        (total / 2 + 1, "at most total / 2"),
        (total / 8 - 1, "at least"),
    ] {
        let bad = write("classes", &resigned(&whole, total, classes));
        run_command(queens().arg("merge").arg(&bad))
            .status(2)
            .stderr_has(&[message]);
    }
    // Two half-board shards of N = 12 whose eighths of classes add up to no whole class.
    let ((a, _), (_, b)) = (shard_json("12", "0/2"), shard_json("12", "1/2"));
    let a = write("a", &a);
    let b_bad = write(
        "b",
        &resigned(&b, number(&b["total"]) + 2, number(&b["unique"]) + 2),
    );
    run_command(queens().arg("merge").args([&a, &b_bad]))
        .status(2)
        .stderr_has(&["not a multiple of 8"]);
}

#[test]
fn merge_recount_audits_shard_results_of_either_engine_and_refuses_a_forged_one() {
    let dir = tempfile::tempdir().unwrap();
    for (n, engine) in [("12", "halves"), ("11", "frame")] {
        let files = write_shards(dir.path(), engine, 3, |_| {
            format!("count {n} --engine {engine}")
        });
        let (total, _) = known_for(n.parse().unwrap());
        run_command(queens().args(["merge", "--recount", "3"]).args(&files))
            .succeeds()
            .stdout_is(&format!("{total}\n"))
            .stderr_has(&["all 3 recounted shards agree"]);
        // Shard 1 with 8 more solutions in one more class (8 more eighths with halves):
        // every sum stays possible, only the recount sees it.
        let v: serde_json::Value =
            serde_json::from_str(std::fs::read_to_string(&files[1]).unwrap().trim()).unwrap();
        let more = if engine == "halves" { 8 } else { 1 };
        let line = resigned(&v, number(&v["total"]) + 8, number(&v["unique"]) + more);
        std::fs::write(&files[1], line).unwrap();
        run_command(queens().arg("merge").args(&files))
            .succeeds()
            .stdout_is(&format!("{}\n", total + 8));
        queens()
            .args(["merge", "--recount", "3"])
            .args(&files)
            .assert()
            .code(1)
            .stdout("")
            .stderr(
                predicates::str::contains("shard 1/3").and(predicates::str::contains("DISAGREES")),
            );
    }
}

#[test]
fn issue_40_merge_reads_each_input_once_from_standard_input_pipes_and_dev_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let files = write_shards(dir.path(), "s", 3, |_| "count 12".to_string());
    let all: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let total = format!("{}\n", known_for(12).0);
    // `-` and /dev/stdin: standard input, read once.
    for input in ["-", "/dev/stdin"] {
        run_with_input(&format!("merge {input}"), &all)
            .succeeds()
            .stdout_is(&total);
    }
    // A part on standard input among files; its errors name it.
    let one = std::fs::read_to_string(&files[1]).unwrap();
    run_command(
        queens()
            .arg("merge")
            .arg(&files[0])
            .arg("-")
            .arg(&files[2])
            .write_stdin(one),
    )
    .succeeds()
    .stdout_is(&total);
    run_with_input("merge -", "")
        .status(2)
        .stderr_has(&["standard input is empty"]);
    // Standard input named twice is refused as such (it was "empty" the second time).
    run_with_input("merge - -", &all)
        .status(2)
        .stderr_has(&["standard input is given twice"]);
    run_with_input("merge - /dev/stdin", &all)
        .status(2)
        .stderr_has(&["standard input and /dev/stdin are the same file"]);
    run_with_input("merge -", "{\"n\":12}\n")
        .status(2)
        .stderr_has(&["standard input"]);
    // A pipe as a file, as bash's <(...) gives: read once, so nothing is lost.
    if let Ok(out) = Std::new("bash")
        .arg("-c")
        .arg(format!(
            "{} merge <(cat {} {} {})",
            assert_cmd::cargo::cargo_bin("queens").display(),
            files[0].display(),
            files[1].display(),
            files[2].display()
        ))
        .output()
    {
        assert_eq!(String::from_utf8_lossy(&out.stdout), total, "{out:?}");
        assert!(out.status.success(), "{out:?}");
    } else {
        eprintln!("SKIPPED: the <(...) case needs bash");
    }
}

#[test]
fn issue_40_merge_recount_of_a_percentage_covers_that_share_and_all_of_them_at_100() {
    let dir = tempfile::tempdir().unwrap();
    let files = write_shards(dir.path(), "p", 6, |_| "count 11".to_string());
    let total = known_for(11).0;
    for (share, recounted) in [("1%", 1), ("50%", 3), ("51%", 4), ("100%", 6)] {
        run_command(
            queens()
                .args(["merge", "-j", "2", "--recount", share])
                .args(&files),
        )
        .succeeds()
        .stdout_is(&format!("{total}\n"))
        .stderr_has(&[&format!("all {recounted} recounted shards agree")]);
    }
    for bad in ["0%", "101%", "x%", "0"] {
        run_command(queens().args(["merge", "--recount", bad]).args(&files)).status(2);
    }
    // A forged, re-signed part merges to a wrong total; 100% catches it every time.
    let v: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&files[4]).unwrap().trim()).unwrap();
    let line = resigned(&v, number(&v["total"]) + 8, number(&v["unique"]) + 1);
    std::fs::write(&files[4], line).unwrap();
    run_command(queens().arg("merge").args(&files))
        .succeeds()
        .stdout_is(&format!("{}\n", total + 8));
    for threads in ["1", "2"] {
        run_command(
            queens()
                .args(["merge", "-j", threads, "--recount", "100%"])
                .args(&files),
        )
        .status(1)
        .stdout_is("")
        .stderr_has(&["shard 4/6", "DISAGREES", "1 of 6 recounted shards disagree"]);
    }
}

/// `queens ARGS` with `QUEENS_KEY` set to `key` (or removed, `None`).
fn keyed(key: Option<&str>, args: &[&std::ffi::OsStr]) -> Ran {
    let mut command = queens();
    match key {
        Some(key) => command.env("QUEENS_KEY", key),
        None => command.env_remove("QUEENS_KEY"),
    };
    run_command(command.args(args))
}

#[test]
fn issue_40_under_a_key_a_forged_part_or_one_without_a_mac_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let key = Some("a secret of the cluster");
    let files: Vec<PathBuf> = (0..3)
        .map(|i| {
            let ran = keyed(
                key,
                &["count", "11", "--json", "--shard", &format!("{i}/3")].map(std::ffi::OsStr::new),
            )
            .succeeds();
            assert!(ran.stdout.contains("\"mac\":\"hmac-sha256:"), "{ran:?}");
            write_file(dir.path(), &format!("k{i}.json"), &ran.stdout)
        })
        .collect();
    let merge = |key: Option<&str>, files: &[PathBuf]| {
        let mut args = vec![std::ffi::OsStr::new("merge")];
        args.extend(files.iter().map(|f| f.as_os_str()));
        keyed(key, &args)
    };
    let total = known_for(11).0;
    merge(key, &files)
        .succeeds()
        .stdout_is(&format!("{total}\n"));
    // Without the key the signed parts read as before, by their checksums.
    merge(None, &files)
        .succeeds()
        .stdout_is(&format!("{total}\n"));
    merge(Some("another key"), &files)
        .status(2)
        .stderr_has(&["k0.json: its MAC does not match its content under QUEENS_KEY"]);

    // A forger without the key: the counts edited and the checksum made again, the MAC kept.
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    let unsigned = resigned(&v, number(&v["total"]) + 8, number(&v["unique"]) + 1);
    let kept_mac = unsigned.trim_end().trim_end_matches('}').to_string()
        + &format!(",\"mac\":{}}}\n", v["mac"]);
    let mut forged = files.clone();
    forged[1] = write_file(dir.path(), "forged.json", &kept_mac);
    merge(key, &forged)
        .status(2)
        .stdout_is("")
        .stderr_has(&["forged.json: its MAC does not match"]);
    // The same part without a MAC: refused under a key, saying so.
    forged[1] = write_file(dir.path(), "unsigned.json", &unsigned);
    merge(key, &forged)
        .status(2)
        .stderr_has(&["unsigned.json has no MAC, but QUEENS_KEY is set"]);
    // With no key a consistent forgery merges to a wrong total: a checksum is no signature
    // (docs/integrity.md); only a recount or a key catches it.
    merge(None, &forged)
        .succeeds()
        .stdout_is(&format!("{}\n", total + 8));
    // An empty key is refused.
    keyed(Some(""), &["count", "5"].map(std::ffi::OsStr::new))
        .status(2)
        .stderr_has(&["QUEENS_KEY is set but empty"]);
    // A short key is taken, with a warning from the commands that use it.
    keyed(Some("a"), &["count", "5"].map(std::ffi::OsStr::new))
        .succeeds()
        .stdout_is("10\n")
        .stderr_has(&["QUEENS_KEY is 1 byte long", "at least 16 random bytes"]);
    keyed(Some("a"), &["solve", "4"].map(std::ffi::OsStr::new))
        .succeeds()
        .stderr_is("");
}

#[test]
fn issue_40_under_a_key_checkpoints_are_signed_and_a_forged_or_unsigned_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("k.ck");
    let key = Some("a secret of the cluster");
    let count = |key: Option<&str>, ckpt: &Path| {
        keyed(
            key,
            &[
                std::ffi::OsStr::new("count"),
                std::ffi::OsStr::new("11"),
                std::ffi::OsStr::new("--checkpoint"),
                ckpt.as_os_str(),
            ],
        )
    };
    count(key, &ckpt).succeeds().stdout_is("2680\n");
    let text = std::fs::read_to_string(&ckpt).unwrap();
    assert!(
        text.lines().last().unwrap().starts_with("mac hmac-sha256:"),
        "{text}"
    );
    count(key, &ckpt).succeeds().stdout_is("2680\n");
    // Without a key a signed checkpoint reads as before.
    count(None, &ckpt).succeeds().stdout_is("2680\n");
    count(Some("another key"), &ckpt)
        .status(2)
        .stderr_has(&["its MAC does not match its content under QUEENS_KEY"]);
    // Edited with its checksum made again, the MAC kept: refused under the key.
    let (body, mac_line) = text.split_at(text.trim_end().rfind('\n').unwrap() + 1);
    let edited = body.replacen("seconds ", "seconds 1", 1);
    let body_end = edited.trim_end().rfind('\n').unwrap() + 1;
    let edited = format!(
        "{}checksum {}\n{mac_line}",
        &edited[..body_end],
        queens_core::count::checksum(&edited.as_bytes()[..body_end])
    );
    let forged = dir.path().join("forged.ck");
    std::fs::write(&forged, &edited).unwrap();
    count(key, &forged)
        .status(2)
        .stderr_has(&["its MAC does not match"]);
    // An unsigned checkpoint under a key: refused, saying so.
    let unsigned = dir.path().join("unsigned.ck");
    count(None, &unsigned).succeeds();
    count(key, &unsigned)
        .status(2)
        .stderr_has(&["it has no MAC, but QUEENS_KEY is set"]);
}
