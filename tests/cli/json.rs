//! Issue 39, "one way to ask for machine output": `--format json` on every command that prints
//! results (`count` and `merge` keep `--json` as a synonym), `verify --format json` with one
//! object per placement read, the min-conflicts seed in `solve`'s JSON, and the unit of a shard
//! result's `unique` (classes, or eighths in a half-board shard) in a field that old results
//! may lack.

use serde_json::Value;

use crate::common::{
    fails_with, fails_with_input, json_of, printed, queens, run, run_with_input, words,
};

/// Each line of `text` as a JSON value.
fn objects(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// `value` without the fields that change from run to run (the time and what covers it).
fn steady(mut value: Value) -> Value {
    let fields = value.as_object_mut().expect("an object");
    for varying in ["seconds", "checksum", "mac"] {
        fields.remove(varying);
    }
    value
}

/// The shard results of `count N --engine ENGINE --shard I/M --format json` for every I, one
/// line each, as `cat` would collect them.
fn shard_lines(n: usize, engine: &str, m: u64) -> String {
    (0..m)
        .map(|i| {
            printed(&format!(
                "count {n} --engine {engine} --shard {i}/{m} --format json"
            ))
        })
        .collect()
}

#[test]
fn issue_39_count_takes_format_json_and_keeps_json_as_its_synonym() {
    let by_format = json_of(&["count", "10", "--format", "json"]);
    let by_flag = json_of(&["count", "10", "--json"]);
    let both = json_of(&["count", "10", "--json", "--format", "json"]);
    assert_eq!(by_format["total"], 724);
    assert_eq!(by_format["unique"], 92);
    assert_eq!(steady(by_format.clone()), steady(by_flag));
    assert_eq!(steady(by_format), steady(both));
    assert_eq!(printed("count 10 --format text"), "724\n");
    assert_eq!(printed("count 10 --unique --format text"), "92\n");
}

#[test]
fn issue_39_count_refuses_json_with_format_text_and_format_json_with_algo() {
    fails_with(
        "count 8 --json --format text",
        2,
        &["--json is a synonym of --format json", "--format text"],
    )
    .stdout_is("");
    fails_with(
        "count 8 --algo bitboard --format json",
        2,
        &["--format json cannot be used with --algo"],
    )
    .stdout_is("");
    assert_eq!(printed("count 8 --algo bitboard --format text"), "92\n");
    fails_with("count 8 --format yaml", 2, &["'yaml'", "text", "json"]);
}

#[test]
fn issue_39_merge_takes_format_json_and_keeps_json_as_its_synonym() {
    let lines = shard_lines(10, "frame", 3);
    let by_format = run_with_input("merge --format json -", &lines).succeeds();
    let by_flag = run_with_input("merge --json -", &lines).succeeds();
    let merged = objects(&by_format.stdout);
    assert_eq!(merged.len(), 1);
    assert_eq!(merged[0]["total"], 724);
    assert_eq!(merged[0]["unique"], 92);
    assert_eq!(merged[0]["unique_unit"], "classes");
    assert_eq!(
        steady(merged[0].clone()),
        steady(objects(&by_flag.stdout)[0].clone())
    );
    run_with_input("merge --format text -", &lines)
        .succeeds()
        .stdout_is("724\n");
    run_with_input("merge --unique --format text -", &lines)
        .succeeds()
        .stdout_is("92\n");
    fails_with_input(
        "merge --json --format text -",
        &lines,
        2,
        &["--json is a synonym of --format json"],
    )
    .stdout_is("");
}

#[test]
fn issue_39_a_half_board_shard_says_its_unique_holds_eighths() {
    let lines = shard_lines(12, "halves", 3);
    let shards = objects(&lines);
    for shard in &shards {
        assert_eq!(shard["unique_unit"], "eighths", "{shard}");
    }
    // The eighths add up to 8 classes each: 1787 classes of N = 12.
    let eighths: u64 = shards.iter().map(|s| s["unique"].as_u64().unwrap()).sum();
    assert_eq!(eighths, 8 * 1787);
    let merged = objects(
        &run_with_input("merge --format json -", &lines)
            .succeeds()
            .stdout,
    );
    assert_eq!(
        (&merged[0]["unique"], &merged[0]["unique_unit"]),
        (&1787.into(), &"classes".into())
    );
    // A whole count, shard 0/1 and the frame engine's shards hold classes.
    for args in [
        "count 12 --engine halves --format json",
        "count 12 --engine halves --shard 0/1 --format json",
        "count 12 --engine frame --shard 1/3 --format json",
    ] {
        let value = json_of(&args.split(' ').collect::<Vec<_>>());
        assert_eq!(value["unique_unit"], "classes", "{args}: {value}");
    }
    // With --pieces, a shard of several holds eighths too.
    let pieces = json_of(&[
        "count", "11", "--pieces", "1", "--shard", "1/2", "--format", "json",
    ]);
    assert_eq!(pieces["unique_unit"], "eighths", "{pieces}");
}

#[test]
fn issue_39_shard_results_without_unique_unit_still_merge_with_their_checksum_and_mac() {
    for key in [None, Some("a secret of issue 39")] {
        let mut counted = String::new();
        for i in 0..3 {
            let mut count = queens();
            count.args([
                "count",
                "12",
                "--engine",
                "halves",
                "--shard",
                &format!("{i}/3"),
                "--json",
            ]);
            if let Some(key) = key {
                count.env("QUEENS_KEY", key);
            }
            let out = count.output().unwrap();
            assert!(out.status.success(), "{out:?}");
            counted.push_str(&String::from_utf8(out.stdout).unwrap());
        }
        // As a queens from before issue 39 wrote them: the same line without the field.
        let old = counted.replace(",\"unique_unit\":\"eighths\"", "");
        assert_ne!(old, counted);
        assert!(!old.contains("unique_unit"));
        for (lines, unique) in [(&old, "1787\n"), (&counted, "1787\n")] {
            let mut merge = queens();
            merge
                .args(["merge", "--unique", "-"])
                .write_stdin(lines.as_str());
            if let Some(key) = key {
                merge.env("QUEENS_KEY", key);
            }
            let out = merge.output().unwrap();
            assert!(out.status.success(), "{key:?}: {out:?}");
            assert_eq!(String::from_utf8(out.stdout).unwrap(), unique);
        }
    }
}

#[test]
fn issue_39_a_shard_result_whose_unique_unit_was_edited_is_refused() {
    let lines = shard_lines(12, "halves", 3);
    let edited = lines.replacen("\"eighths\"", "\"classes\"", 1);
    fails_with_input(
        "merge -",
        &edited,
        2,
        &[
            "standard input line 1",
            "unique_unit is classes",
            "eighths",
            "damaged or edited",
        ],
    )
    .stdout_is("");
}

/// The placements of docs/cli.md's example: two solutions and, on line 8, one whose queens at
/// row 2, column 7 and row 6, column 3 attack each other along an anti-diagonal.
const PLACEMENTS: &str = "0 4 7 5 2 6 1 3\n\n.Q..\n...Q\nQ...\n..Q.\n\n0 4 7 5 2 6 3 1\n";

#[test]
fn issue_39_verify_format_json_prints_one_object_per_placement_read() {
    let ran = run_with_input("verify --format json", PLACEMENTS).status(1);
    let verdicts = objects(&ran.stdout);
    assert_eq!(
        verdicts,
        vec![
            serde_json::json!({"line": 1, "n": 8, "valid": true}),
            serde_json::json!({"line": 3, "n": 4, "valid": true}),
            serde_json::json!({
                "line": 8, "n": 8, "valid": false, "flaw": "attack", "along": "anti-diagonal",
                "queens": [{"row": 2, "col": 7}, {"row": 6, "col": 3}],
            }),
        ]
    );
    // The text says the same.
    let text = run_with_input("verify --format text", PLACEMENTS)
        .status(1)
        .stdout;
    assert!(text.ends_with(
        "line 8: 8x8: not a solution: the queens at row 2, column 7 and row 6, column 3 attack \
         each other along an anti-diagonal\n"
    ));
}

#[test]
fn issue_39_verify_format_json_names_an_empty_row_and_two_queens_in_a_row() {
    let boards = "Q...\n..Q.\n....\n.Q..\n\nQQ..\n...Q\n....\n....\n";
    let verdicts = objects(
        &run_with_input("verify --format json", boards)
            .status(1)
            .stdout,
    );
    assert_eq!(
        verdicts[0],
        serde_json::json!({"line": 1, "n": 4, "valid": false, "flaw": "empty-row", "row": 2})
    );
    assert_eq!(verdicts[1]["flaw"], "attack");
    assert_eq!(verdicts[1]["along"], "row");
    assert_eq!(
        verdicts[1]["queens"][0],
        serde_json::json!({"row": 0, "col": 0})
    );
    assert_eq!(
        verdicts[1]["queens"][1],
        serde_json::json!({"row": 0, "col": 1})
    );
}

#[test]
fn issue_39_verify_format_json_keeps_the_exit_statuses() {
    let solutions = printed("list 6");
    let ran = run_with_input("verify --format json", &solutions).succeeds();
    let verdicts = objects(&ran.stdout);
    assert_eq!(verdicts.len(), 4);
    assert!(verdicts.iter().all(|v| v["valid"] == true && v["n"] == 6));
    // --quiet prints nothing, whatever the format; the status still tells.
    run_with_input("verify --quiet --format json", PLACEMENTS)
        .status(1)
        .stdout_is("");
    // Malformed input: the verdicts before it, then the error and status 2.
    let ran = fails_with_input(
        "verify --format json",
        "1 3 0 2\nnot a board\n",
        2,
        &["line 2"],
    );
    assert_eq!(
        objects(&ran.stdout),
        vec![serde_json::json!({"line": 1, "n": 4, "valid": true})]
    );
    fails_with_input(
        "verify --format json",
        "\n# nothing\n",
        2,
        &["holds no placement"],
    )
    .stdout_is("");
    fails_with("verify --format yaml", 2, &["'yaml'"]);
}

#[test]
fn issue_39_solve_min_conflicts_json_has_its_given_seed() {
    let args = words("solve 16 --algo min-conflicts --seed 12345 --format json");
    let value = json_of(&args);
    assert_eq!(value["seed"], 12345);
    assert_eq!(value["n"], 16);
    let queens: Vec<usize> = serde_json::from_value(value["queens"].clone()).unwrap();
    assert!(crate::common::is_solution(&queens), "{queens:?}");
    // The same seed, the same solution.
    let again = json_of(&args);
    assert_eq!(value, again);
}

#[test]
fn issue_39_solve_min_conflicts_json_has_its_random_seed_the_one_on_standard_error() {
    let ran = run("solve 20 --algo min-conflicts --format json").succeeds();
    let value: Value = serde_json::from_str(ran.stdout.trim()).unwrap();
    let seed = value["seed"].as_u64().expect("a seed");
    assert!(
        ran.stderr.contains(&format!(
            "min-conflicts seed {seed} (repeat with --seed {seed})"
        )),
        "{}",
        ran.stderr
    );
    // Repeating with that seed gives the same answer.
    let again = json_of(&[
        "solve",
        "20",
        "--algo",
        "min-conflicts",
        "--seed",
        &seed.to_string(),
        "--format",
        "json",
    ]);
    assert_eq!(value, again);
}

#[test]
fn issue_39_solve_json_has_a_seed_only_for_a_seeded_method() {
    for args in [
        &["solve", "8", "--format", "json"][..],
        &["solve", "40", "--algo", "construct", "--format", "json"],
        &["solve", "8", "--algo", "backtrack", "--format", "json"],
    ] {
        let value = json_of(args);
        assert!(value.get("seed").is_none(), "{args:?}: {value}");
    }
    // A board without a solution: still a JSON value, with the seed, and status 1.
    let ran = run("solve 3 --algo min-conflicts --seed 5 --format json").status(1);
    assert_eq!(ran.stdout, "{\"n\":3,\"seed\":5,\"queens\":null}\n");
    run("solve 3 --format json")
        .status(1)
        .stdout_is("{\"n\":3,\"queens\":null}\n");
    // complete prints the same value when no solution holds the given queens, whether they
    // attack each other or not, with its message.
    for (fixed, why) in [
        ("0:0,1:2", "contains the 2 given queens"),
        ("0:0,1:1", "attack each other"),
    ] {
        run(&format!("complete 8 --fixed {fixed} --format json"))
            .status(1)
            .stdout_is("{\"n\":8,\"queens\":null}\n")
            .stderr_has(&["no completion", why]);
    }
}
