//! No abort, no panic, at any setting (issue 20): a `--threads` beyond the bound is refused
//! before any thread starts, and a tiny memory budget is reported in bytes, not as 0 MiB.

use crate::common::queens;

#[test]
fn threads_above_the_bound_are_refused() {
    let out = queens()
        .args(["count", "12", "--threads", "10000"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("10000") && err.contains("1024"), "{err}");
}

#[test]
fn threads_at_the_bound_count() {
    let out = queens()
        .args(["count", "10", "--threads", "1024"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "724");
}

#[test]
fn a_tiny_budget_is_reported_in_bytes() {
    let out = queens()
        .args(["count", "20", "--engine", "halves", "--max-memory", "1K"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("budget of 1024 bytes"), "{err}");
    assert!(!err.contains("budget of 0 MiB"), "{err}");
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

#[test]
fn merged_seconds_past_the_largest_number_are_refused_not_null() {
    let out = queens()
        .args(["count", "12", "--json", "--engine", "frame"])
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let plan = v["subproblems"].as_u64().expect("subproblems");
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, seconds: f64, shard: u64, total: u128, unique: u128| {
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            part_with_seconds(total, unique, shard, seconds, plan),
        )
        .unwrap();
        path
    };
    let (a, b) = (
        write("a", 1e308, 0, 14000, 1700),
        write("b", 1e308, 1, 200, 87),
    );
    let out = queens()
        .arg("merge")
        .arg("--json")
        .args([&a, &b])
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("seconds add up past"), "{err}");
    // Large but finite sums still merge.
    let (a, b) = (
        write("c", 1e300, 0, 14000, 1700),
        write("d", 1e300, 1, 200, 87),
    );
    let out = queens()
        .arg("merge")
        .arg("--json")
        .args([&a, &b])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v["seconds"].as_f64().is_some_and(|s| s > 1e300), "{v}");
}

#[test]
fn a_checkpoint_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for path in ["/dev/zero", "/dev/null"] {
        let out = queens()
            .args(["count", "10", "--checkpoint", path])
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{path}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not a regular file"), "{path}: {err}");
    }
    let out = queens()
        .args(["count", "10", "--checkpoint"])
        .arg(dir.path())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"));
    assert!(!std::path::Path::new("/dev/null.lock").exists());
}
