//! Tests that keep every list of algorithms made from the engine's one table of solvers
//! ([`Algorithm::ALL`], generated in `search/mod.rs` from each solver's file): the ways to find
//! one solution ([`Method::ALL`]), the methods `/api/solve` offers
//! ([`super::limits::SOLVE_OFFERED`], in the page's order), and the page, which takes the
//! algorithms and their labels from `/api/config` and names none itself. The one list made by
//! hand is the code listings of `assets/code.json`: a seventh solver fails here until it has its
//! panel.

use std::collections::BTreeSet;

use queens_core::solve::Method;
use queens_core::Algorithm;

use super::limits::{solve_max_n, SOLVE_OFFERED};

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

/// Whether `script` names `word` as a word of its own (a quoted string or a key).
fn names_word(script: &str, word: &str) -> bool {
    script.match_indices(word).any(|(at, _)| {
        let before = script[..at].chars().next_back();
        let after = script[at + word.len()..].chars().next();
        let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-');
        !part(before) && !part(after)
    })
}

/// The kinds of trace events, which the page names as such (`backtrack` is one, and a solver).
const EVENT_KINDS: [&str; 8] = [
    "try",
    "conflict",
    "place",
    "remove",
    "backtrack",
    "solution",
    "enqueue",
    "dequeue",
];

#[test]
fn the_learn_page_names_no_algorithm_and_takes_their_labels_from_the_config() {
    let script: String = include_str!("../../assets/js/learn.js")
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!script.contains("DESCRIPTIONS"), "learn.js lists labels");
    for algorithm in Algorithm::ALL {
        let name = algorithm.name();
        assert!(
            EVENT_KINDS.contains(&name) || !names_word(&script, name),
            "learn.js names {name}: its menus take the algorithms from /api/config"
        );
        // Each label is the algorithm's name and, in brackets, what sets it apart.
        let label = algorithm.label();
        assert!(
            label.starts_with(&format!("{name} (")) && label.ends_with(')'),
            "{label}"
        );
    }
}

#[test]
fn the_server_offers_each_algorithm_once_fastest_first_up_to_its_quick_limit() {
    let enumerating: Vec<Algorithm> = SOLVE_OFFERED
        .iter()
        .filter_map(|m| match m {
            Method::First(algorithm) => Some(*algorithm),
            Method::Construct | Method::MinConflicts => None,
        })
        .collect();
    assert_eq!(enumerating, Algorithm::FASTEST_FIRST);
    for algorithm in Algorithm::ALL {
        assert_eq!(
            solve_max_n(algorithm),
            algorithm.quick_max_n(),
            "{algorithm}"
        );
        assert!(algorithm.quick_max_n() <= algorithm.max_n(), "{algorithm}");
    }
}

#[test]
fn the_word_finder_finds_whole_words_only() {
    assert!(names_word("a \"wirth\" b", "wirth"));
    assert!(!names_word("wirthy", "wirth"));
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
