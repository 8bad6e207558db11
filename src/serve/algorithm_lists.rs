//! Tests that keep every list of algorithms in step with the engine's one list,
//! [`Algorithm::ALL`]: the ways to find one solution ([`Method::ALL`]), the methods `/api/solve`
//! offers ([`super::api::SOLVE_OFFERED`], in the page's order), the code listings of
//! `assets/code.json` and the names the page describes (`assets/js/learn.js`, `solve.js`). A
//! seventh solver added to the engine fails here until each list has it.

use std::collections::BTreeSet;

use queens_core::solve::Method;
use queens_core::Algorithm;

use super::api::SOLVE_OFFERED;

fn algorithm_names() -> BTreeSet<String> {
    Algorithm::ALL
        .iter()
        .map(|a| a.name().to_string())
        .collect()
}

/// Every method: one per algorithm, then the two that build large boards. The match has no
/// catch-all arm, so a new method is a compile error here until it is listed.
fn expected_methods() -> BTreeSet<&'static str> {
    let mut all: BTreeSet<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
    for extra in [Method::Construct, Method::MinConflicts] {
        match extra {
            Method::First(_) => unreachable!(),
            Method::Construct | Method::MinConflicts => all.insert(extra.name()),
        };
    }
    all
}

#[test]
fn the_methods_are_every_algorithm_plus_construct_and_min_conflicts() {
    let methods: BTreeSet<&str> = Method::ALL.iter().map(|m| m.name()).collect();
    assert_eq!(methods, expected_methods());
    assert_eq!(methods.len(), Method::ALL.len(), "a method listed twice");
    for algorithm in Algorithm::ALL {
        assert!(
            Method::ALL.contains(&Method::First(algorithm)),
            "{algorithm}"
        );
    }
}

#[test]
fn the_solve_endpoint_offers_every_method_once() {
    let offered: BTreeSet<&str> = SOLVE_OFFERED.iter().map(|m| m.name()).collect();
    let all: BTreeSet<&str> = Method::ALL.iter().map(|m| m.name()).collect();
    assert_eq!(offered, all);
    assert_eq!(offered.len(), SOLVE_OFFERED.len(), "a method offered twice");
}

#[test]
fn the_code_listings_are_of_every_algorithm() {
    let code: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(include_str!("../../assets/code.json")).expect("code.json");
    let listed: BTreeSet<String> = code.keys().cloned().collect();
    assert_eq!(listed, algorithm_names());
}

/// The keys of the `const DESCRIPTIONS = { ... };` object of a page script.
fn descriptions(script: &str) -> BTreeSet<String> {
    let start = script
        .find("const DESCRIPTIONS = {")
        .expect("a DESCRIPTIONS object");
    let body = &script[start..];
    let body = &body[body.find('{').unwrap() + 1..body.find("};").expect("its end")];
    body.lines()
        .filter_map(|line| line.trim().split_once(':'))
        .map(|(key, _)| key.trim().trim_matches('"').to_string())
        .filter(|key| !key.is_empty() && !key.starts_with("//"))
        .collect()
}

#[test]
fn the_learn_page_describes_every_algorithm_it_may_be_offered() {
    let described = descriptions(include_str!("../../assets/js/learn.js"));
    assert_eq!(described, algorithm_names());
}

#[test]
fn the_solve_page_describes_only_methods_that_exist() {
    let described = descriptions(include_str!("../../assets/js/solve.js"));
    let methods: BTreeSet<String> = Method::ALL.iter().map(|m| m.name().to_string()).collect();
    assert!(!described.is_empty());
    assert!(described.is_subset(&methods), "{described:?}");
}

#[test]
fn the_description_reader_reads_keys_quoted_or_not() {
    let script = "x\nconst DESCRIPTIONS = {\n  a: \"A\",\n  \"b-c\": \"B\",\n};\n";
    let keys: Vec<String> = descriptions(script).into_iter().collect();
    assert_eq!(keys, ["a", "b-c"]);
}
