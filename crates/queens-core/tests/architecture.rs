//! The architecture page and the module tree cannot drift apart: every module file of both
//! crates is named in the "Module map" of `docs/architecture.md`, and every path that list
//! names exists.

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
