//! The architecture page and the module tree cannot drift apart: every module file of both
//! crates is named in the "Module map" of `docs/architecture.md`, every path that list names
//! exists, and a counting engine is wired in only at the places the page's entry "A new
//! counting engine" lists.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The workspace's root (this crate is `crates/queens-core`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `.rs` files under `dir`, as paths from the workspace's root with `/` separators.
fn module_files(dir: &str) -> BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(root).unwrap();
                let parts: Vec<_> = rel.iter().map(|p| p.to_string_lossy()).collect();
                out.insert(parts.join("/"));
            }
        }
    }
    let root = root();
    let mut out = BTreeSet::new();
    walk(&root, &root.join(dir), &mut out);
    out
}

/// The paths in backticks at the start of the items of the page's "Module map" section.
fn mapped() -> BTreeSet<String> {
    let page = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let section = page
        .split("\n## Module map")
        .nth(1)
        .expect("docs/architecture.md has a \"## Module map\" section");
    let section = section.split("\n## ").next().unwrap();
    section
        .lines()
        .filter_map(|l| l.strip_prefix("- `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_module_file_is_in_the_module_map_of_the_architecture_page() {
    let map = mapped();
    let files: BTreeSet<String> = module_files("crates/queens-core/src")
        .into_iter()
        .chain(module_files("src"))
        .collect();
    let missing: Vec<_> = files.difference(&map).collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md's module map does not name {missing:?}"
    );
}

#[test]
fn every_path_in_the_module_map_exists() {
    let root = root();
    let stale: Vec<_> = mapped()
        .into_iter()
        .filter(|p| !root.join(p).exists())
        .collect();
    assert!(
        stale.is_empty(),
        "docs/architecture.md's module map names files that do not exist: {stale:?}"
    );
}

/// The paths in backticks in the page's entry "A new counting engine" (under "Where a new
/// piece goes"): the places outside its folder that an engine touches.
fn engine_places() -> Vec<String> {
    let page = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let entry = page
        .split("\n- **A new counting engine**")
        .nth(1)
        .expect("docs/architecture.md has an entry \"A new counting engine\"");
    let entry = entry.split("\n- **").next().unwrap();
    let entry = entry.split("\n## ").next().unwrap();
    let mut places: Vec<String> = entry
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|p| {
            ["crates/", "src/", "docs/"]
                .iter()
                .any(|r| p.starts_with(r))
        })
        .filter(|p| !p.ends_with('/') && !p.starts_with("crates/queens-core/tests/"))
        .map(str::to_string)
        .collect();
    places.dedup();
    places
}

/// The variants of the enum `name` in the file `path` (from the workspace's root).
fn variants(path: &str, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    let body = text
        .split(&format!("enum {name} {{"))
        .nth(1)
        .unwrap_or_else(|| panic!("{path} declares enum {name}"));
    let body = &body[..body.find("\n}").unwrap()];
    body.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && !l.starts_with('#'))
        .filter_map(|l| {
            let word: String = l.chars().take_while(|c| c.is_alphanumeric()).collect();
            word.starts_with(char::is_uppercase).then_some(word)
        })
        .collect()
}

/// The code of a source file without its comments and its tests: every line before the first
/// `#[cfg(test)]`, cut at `//`; nothing of a file of tests (`tests.rs`, `*_tests.rs`).
fn code_of(path: &str) -> String {
    if path.ends_with("tests.rs") {
        return String::new();
    }
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap();
    text.lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The page's list of the places a new counting engine touches outside its folder is true and
/// short: at most 5 places, each existing, and outside the engines' folders (those of
/// `count/` with a plan that implements `Counter`) and tests, the variants of `Plan` (one per
/// engine) and of `Split` are named only there. An engine wired in anywhere else fails here:
/// move that code behind the `Counter` or `Plan`, or add the place to the page, if it must.
#[test]
fn a_new_counting_engine_touches_only_the_places_the_architecture_page_lists() {
    let places = engine_places();
    assert!(
        !places.is_empty() && places.len() <= 5,
        "the page lists {} places for a new engine: {places:?}",
        places.len()
    );
    for place in &places {
        assert!(root().join(place).exists(), "{place} does not exist");
    }
    let count = "crates/queens-core/src/count/";
    let files: Vec<String> = module_files("crates/queens-core/src")
        .into_iter()
        .chain(module_files("src"))
        .collect();
    let engine_folders: BTreeSet<String> = files
        .iter()
        .filter_map(|f| {
            let rest = f.strip_prefix(count)?;
            let (folder, _) = rest.split_once('/')?;
            code_of(f)
                .contains("impl Counter for")
                .then(|| format!("{count}{folder}/"))
        })
        .collect();
    assert!(
        engine_folders.contains(&format!("{count}frames/"))
            && engine_folders.contains(&format!("{count}halves/")),
        "{engine_folders:?}"
    );
    let mut names: Vec<String> = variants(&format!("{count}plan.rs"), "Plan")
        .into_iter()
        .map(|v| format!("Plan::{v}"))
        .collect();
    names.extend(
        variants(&format!("{count}split.rs"), "Split")
            .into_iter()
            .map(|v| format!("Split::{v}")),
    );
    assert!(names.len() >= 5, "{names:?}");
    let mut stray = Vec::new();
    for file in &files {
        if places.contains(file) || engine_folders.iter().any(|f| file.starts_with(f)) {
            continue;
        }
        let code = code_of(file);
        for name in &names {
            let named = code.match_indices(name.as_str()).any(|(at, _)| {
                let after = code[at + name.len()..].chars().next();
                !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            if named {
                stray.push(format!("{file} names {name}"));
            }
        }
    }
    assert!(
        stray.is_empty(),
        "outside the places docs/architecture.md lists for a new counting engine: {stray:?}"
    );
}

/// The paths in backticks in the page's entry "A seventh solver" (under "Where a new piece
/// goes"): the places a new solver touches.
fn solver_places() -> BTreeSet<String> {
    let page = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let entry = page
        .split("\n- **A seventh solver**")
        .nth(1)
        .expect("docs/architecture.md has an entry \"A seventh solver\"");
    let entry = entry.split("\n- **").next().unwrap();
    entry
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|p| {
            ["crates/", "src/", "assets/"]
                .iter()
                .any(|r| p.starts_with(r))
        })
        .filter(|p| !p.starts_with("crates/queens-core/tests/"))
        .map(str::to_string)
        .collect()
}

/// The lines `Variant = module,` of the table of solvers in `search/mod.rs`.
fn solver_table() -> Vec<(String, String)> {
    let code = code_of("crates/queens-core/src/search/mod.rs");
    let table = code
        .split("\nsolvers! {")
        .nth(1)
        .expect("search/mod.rs has the table `solvers! { ... }`");
    let table = &table[..table.find("\n}").unwrap()];
    table
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (variant, module) = l
                .trim_end_matches(',')
                .split_once(" = ")
                .unwrap_or_else(|| panic!("a line of the table of solvers: {l}"));
            (variant.trim().to_string(), module.trim().to_string())
        })
        .collect()
}

/// How many times `code` names `word` as a whole word.
fn word_count(code: &str, word: &str) -> usize {
    code.match_indices(word)
        .filter(|(at, _)| {
            let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            !part(code[..*at].chars().next_back()) && !part(code[at + word.len()..].chars().next())
        })
        .count()
}

/// A seventh solver is its file, one line in the table of `search/mod.rs` and its code panel
/// in `assets/code.json`, as the page's entry "A seventh solver" says: the table's lines are the
/// solvers' files (each with its facts in one `INFO`), the table is the only place in
/// `search/mod.rs` that names a solver, and outside the solvers' files no code of the engine,
/// its benchmarks and examples or the binary names every solver (a list, or a `match` with an
/// arm for each, that a new solver would have to join).
#[test]
fn a_seventh_solver_is_its_file_one_table_line_and_its_code_panel() {
    let search = "crates/queens-core/src/search/";
    assert_eq!(
        solver_places(),
        [
            search,
            "crates/queens-core/src/search/mod.rs",
            "assets/code.json"
        ]
        .map(str::to_string)
        .into_iter()
        .collect::<BTreeSet<_>>(),
        "the places docs/architecture.md lists for a seventh solver"
    );
    let table = solver_table();
    let solver_files: BTreeSet<String> = module_files(search)
        .into_iter()
        .filter(|f| code_of(f).contains("pub(crate) const INFO: SolverInfo"))
        .collect();
    let tabled: BTreeSet<String> = table
        .iter()
        .map(|(_, module)| format!("{search}{module}.rs"))
        .collect();
    assert!(table.len() >= 6, "{table:?}");
    assert_eq!(
        tabled, solver_files,
        "the table's lines and the solvers' files"
    );

    let table_file = code_of(&format!("{search}mod.rs"));
    for (variant, _) in &table {
        let named = word_count(&table_file, variant);
        assert_eq!(
            named, 1,
            "search/mod.rs names {variant} outside its table line"
        );
    }

    let files: Vec<String> = ["crates/queens-core/src", "crates/queens-core/benches"]
        .into_iter()
        .chain(["crates/queens-core/examples", "src"])
        .flat_map(module_files)
        .filter(|f| !solver_files.contains(f))
        .collect();
    let mut lists = Vec::new();
    for file in &files {
        let code = code_of(file);
        let all = table
            .iter()
            .all(|(variant, _)| word_count(&code, &format!("Algorithm::{variant}")) > 0);
        if all {
            lists.push(file.clone());
        }
    }
    assert!(
        lists.is_empty(),
        "these files name every solver, so a new one would have to be added there too: \
         {lists:?}; make the list from Algorithm::ALL (or the solver's INFO) instead"
    );
}
