//! No abort, no panic, at any setting (issue 20): a `--threads` beyond the bound is refused
//! before any thread starts, and a tiny memory budget is reported in bytes, not as 0 MiB.

use crate::common::{fails_with, json_of, run, run_args, stdout_of};

#[test]
fn threads_above_the_bound_are_refused() {
    fails_with("count 12 --threads 10000", 2, &["10000", "1024"]);
}

#[test]
fn threads_at_the_bound_count() {
    let ran = run("count 10 --threads 1024").succeeds();
    assert_eq!(ran.stdout.trim(), "724");
}

#[test]
fn a_tiny_budget_is_reported_in_bytes() {
    let line = "count 20 --engine halves --max-memory 1K";
    let ran = fails_with(line, 2, &["budget of 1024 bytes"]);
    assert!(!ran.stderr.contains("budget of 0 MiB"), "{ran:#?}");
}

/// A shard result of N = 12 (the frame engine's split) that claims `seconds`, with its checksum.
fn part_with_seconds(total: u128, unique: u128, shard: u64, seconds: f64, plan: u64) -> String {
    let line = format!(
        "queens-count-result 2 n=12 total={total} unique={unique} seconds={seconds} \
         shard={shard} shards=2 split=frame1-v1 subproblems={plan}"
    );
    let sum = queens_core::count::checksum(line.as_bytes());
    format!(
        "{{\"n\":12,\"total\":{total},\"unique\":{unique},\"seconds\":{seconds:e},\
         \"shard\":{shard},\"shards\":2,\"split\":\"frame1-v1\",\"subproblems\":{plan},\
         \"checksum\":\"{sum}\"}}\n"
    )
}

/// A part's time past 10^12 seconds (31,700 years) is no run's, only an edited file's: it is
/// refused, as a negative one is (sums of such times once overflowed JSON's numbers, and
/// printed 300 digits); the longest times a run may record still merge.
#[test]
fn shard_times_no_run_takes_are_refused_and_the_longest_merge() {
    let v = json_of(&["count", "12", "--json", "--engine", "frame"]);
    let plan = v["subproblems"].as_u64().expect("subproblems");
    let dir = tempfile::tempdir().unwrap();
    // `merge --json` of two shards (written to files `names`) that each claim `seconds`.
    let merge = |names: [&str; 2], seconds: f64| {
        let parts = [(0, 14000, 1700), (1, 200, 87)];
        let paths = names.map(|name| dir.path().join(name));
        for (path, (shard, total, unique)) in paths.iter().zip(parts) {
            let part = part_with_seconds(total, unique, shard, seconds, plan);
            std::fs::write(path, part).unwrap();
        }
        let [a, b] = paths.each_ref().map(|p| p.to_str().unwrap());
        run_args(&["merge", "--json", a, b])
    };
    for (names, seconds) in [(["a", "b"], 1e308), (["c", "d"], 1.5e12)] {
        merge(names, seconds)
            .status(2)
            .stderr_has(&["a time no run takes"]);
    }
    let ran = merge(["e", "f"], 1e12).succeeds();
    let v: serde_json::Value = serde_json::from_str(&ran.stdout).expect("json");
    assert_eq!(v["seconds"].as_f64(), Some(2e12), "{v}");
}

#[test]
fn a_checkpoint_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    for path in ["/dev/zero", "/dev/null", folder] {
        run_args(&["count", "10", "--checkpoint", path])
            .status(2)
            .stderr_has(&["not a regular file"]);
    }
    assert!(!std::path::Path::new("/dev/null.lock").exists());
}

/// Two re-signed shards of N = 12 whose totals are 2^64 each: even, with classes between an
/// eighth and a half of the sum, so they were merged (status 0, 36893488147419103232
/// solutions); 12! = 479001600 placements of one queen a row and column bound any total.
#[test]
fn a_merged_total_above_n_factorial_is_refused() {
    let v = json_of(&["count", "12", "--json", "--engine", "frame"]);
    let plan = v["subproblems"].as_u64().expect("subproblems");
    let dir = tempfile::tempdir().unwrap();
    let total = 1u128 << 64;
    let paths: Vec<String> = (0..2)
        .map(|shard| {
            let path = dir.path().join(format!("part{shard}"));
            let part = part_with_seconds(total, total / 8, shard, 1.0, plan);
            std::fs::write(&path, part).unwrap();
            path.to_str().unwrap().to_string()
        })
        .collect();
    run_args(&["merge", &paths[0], &paths[1]])
        .status(2)
        .stdout_is("")
        .stderr_has(&[
            "no board of N = 12 can have",
            "the total 36893488147419103232 is more than N! = 479001600",
        ]);
}

/// A file of shard results that an editor saved with a UTF-8 byte-order mark merges, as
/// `verify` and `complete` read such files: the mark made the first line "expected `{` at
/// byte 1". One further on is still refused, as any stray character.
#[test]
fn merge_skips_a_byte_order_mark_at_the_start_of_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = (0..2)
        .map(|i| stdout_of(&["count", "10", "--json", "--shard", &format!("{i}/2")]))
        .collect();
    let path = dir.path().join("parts.json");
    std::fs::write(&path, format!("\u{feff}{}{}", lines[0], lines[1])).unwrap();
    run_args(&["merge", path.to_str().unwrap()])
        .succeeds()
        .stdout_is("724\n");
    std::fs::write(&path, format!("{}\u{feff}{}", lines[0], lines[1])).unwrap();
    run_args(&["merge", path.to_str().unwrap()])
        .status(2)
        .stderr_has(&["line 2 is not a shard result"]);
}
