//! Huge boards and completion (issue 4): `solve --algo construct|min-conflicts`, streaming
//! `verify`, `complete`.

use crate::common::*;

fn stdout_of(args: &[&str]) -> String {
    let out = queens()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("utf-8 output")
}

#[test]
fn construct_solves_every_board_from_4_to_60() {
    for n in 4..=60 {
        let line = stdout_of(&[
            "solve",
            &n.to_string(),
            "--algo",
            "construct",
            "--format",
            "positions",
        ]);
        let q = positions(line.trim_end());
        assert_eq!(q.len(), n);
        assert!(is_solution(&q), "N = {n}: {line}");
    }
}

#[test]
fn construct_and_min_conflicts_give_the_single_queen_and_refuse_two_and_three() {
    for algo in ["construct", "min-conflicts"] {
        queens()
            .args(["solve", "1", "--algo", algo, "--format", "positions"])
            .assert()
            .success()
            .stdout("0\n");
        for n in ["2", "3"] {
            queens()
                .args(["solve", n, "--algo", algo])
                .assert()
                .code(1)
                .stderr(predicates::str::contains("no solution"));
        }
    }
}

#[test]
fn min_conflicts_with_a_seed_is_reproducible_and_valid() {
    let args = [
        "solve",
        "200",
        "--algo",
        "min-conflicts",
        "--seed",
        "5",
        "--format",
        "positions",
    ];
    let a = stdout_of(&args);
    assert_eq!(a, stdout_of(&args));
    assert!(is_solution(&positions(a.trim_end())));
}

#[test]
fn min_conflicts_without_a_seed_prints_the_seed_it_used() {
    queens()
        .args([
            "solve",
            "50",
            "--algo",
            "min-conflicts",
            "--format",
            "positions",
        ])
        .assert()
        .success()
        .stderr(predicates::str::contains("--seed"));
}

#[test]
fn seed_is_refused_for_other_algorithms() {
    queens()
        .args(["solve", "8", "--algo", "construct", "--seed", "3"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--seed"));
}

#[test]
fn the_default_is_the_first_solution_up_to_29_and_the_construction_above() {
    assert_eq!(
        stdout_of(&["solve", "8", "--format", "positions"]),
        "0 4 7 5 2 6 1 3\n"
    );
    let constructed = stdout_of(&[
        "solve",
        "30",
        "--algo",
        "construct",
        "--format",
        "positions",
    ]);
    assert_eq!(
        stdout_of(&["solve", "30", "--format", "positions"]),
        constructed
    );
}

#[test]
fn a_board_too_large_to_draw_is_refused_with_a_hint() {
    queens()
        .args(["solve", "100000000"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--format positions"));
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
