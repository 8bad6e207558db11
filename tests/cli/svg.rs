//! `--format svg`: `solve` draws one board to standard output; `list` writes one file per
//! solution into `--out DIR`. The pictures are read back and their queens checked.

use std::fs;

use crate::common::*;

/// The (row, column) of every `<g class="queen">` in the picture, read with an XML parser (so
/// the document must be well-formed SVG).
fn queens_in(svg: &str) -> Vec<(usize, usize)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let number = |node: roxmltree::Node, name: &str| -> usize {
        node.attribute(name)
            .unwrap_or_else(|| panic!("a {name} attribute"))
            .parse()
            .expect("a number")
    };
    root.descendants()
        .filter(|node| node.tag_name().name() == "g" && node.attribute("class") == Some("queen"))
        .map(|node| {
            let (row, col) = (number(node, "data-row"), number(node, "data-col"));
            assert_eq!(
                node.attribute("transform"),
                Some(format!("translate({},{})", 40 * col, 40 * row).as_str())
            );
            (row, col)
        })
        .collect()
}

/// The placement `[row] = column` drawn in the picture, checking one queen per row.
fn placement_in(svg: &str, n: usize) -> Vec<usize> {
    let mut queens = vec![usize::MAX; n];
    for (row, col) in queens_in(svg) {
        assert_eq!(queens[row], usize::MAX, "two queens on row {row}");
        queens[row] = col;
    }
    assert!(!queens.contains(&usize::MAX), "a row without a queen");
    queens
}

#[test]
fn solve_draws_the_first_solution_of_eight_as_one_svg_document() {
    let svg = printed("solve 8 --format svg");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 320 320\""));
    assert_eq!(svg.matches("<svg").count(), 1);
    assert!(svg.contains("<title>8-queens solution: 0 4 7 5 2 6 1 3</title>"));
    assert_eq!(
        svg.matches("<pattern").count(),
        1,
        "one checkerboard pattern"
    );
    assert_eq!(placement_in(&svg, 8), [0, 4, 7, 5, 2, 6, 1, 3]);
}

#[test]
fn solve_draws_larger_boards_scaled_to_eight_hundred_pixels() {
    let svg = printed("solve 25 --format svg");
    assert!(svg.contains("viewBox=\"0 0 1000 1000\" width=\"800\" height=\"800\""));
    let queens = placement_in(&svg, 25);
    assert!(is_solution(&queens), "{queens:?}");
}

#[test]
fn list_writes_one_numbered_svg_file_per_solution() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("boards");
    let folder = out.to_str().unwrap();
    run_args(&["list", "6", "--format", "svg", "--out", folder])
        .succeeds()
        .stdout_is("");
    let listed = printed("list 6");
    let mut names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "solution-000001.svg",
            "solution-000002.svg",
            "solution-000003.svg",
            "solution-000004.svg"
        ]
    );
    for (name, line) in names.iter().zip(listed.lines()) {
        let svg = fs::read_to_string(out.join(name)).unwrap();
        let drawn = placement_in(&svg, 6);
        assert_eq!(drawn, positions(line), "{name}");
        assert!(is_solution(&drawn));
    }
}

#[test]
fn list_svg_honours_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    run_args(&["list", "8", "--limit", "2", "--format", "svg", "--out", out]).succeeds();
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
    let second = fs::read_to_string(dir.path().join("solution-000002.svg")).unwrap();
    assert_eq!(placement_in(&second, 8), [0, 5, 7, 2, 6, 3, 1, 4]);
}

/// A listing into a folder that holds a longer, earlier listing's files replaces its own and
/// counts the others in a note, touching nothing else.
#[test]
fn list_svg_notes_the_files_of_an_earlier_listing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    run_args(&["list", "8", "--limit", "5", "--format", "svg", "--out", out])
        .succeeds()
        .stderr_is("");
    fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    let ran = run_args(&["list", "6", "--format", "svg", "--out", out]).succeeds();
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 6, "{ran:?}");
    assert_eq!(
        ran.stderr,
        format!(
            "queens: note: {out} also holds 1 solution-*.svg file numbered past the 4 this \
             listing wrote, left from an earlier one; remove them, or list into an empty folder\n"
        )
    );
    let first = fs::read_to_string(dir.path().join("solution-000001.svg")).unwrap();
    assert_eq!(placement_in(&first, 6), [1, 3, 5, 0, 2, 4]);
    // The same listing again: its own files, nothing older.
    fs::remove_file(dir.path().join("solution-000005.svg")).unwrap();
    run_args(&["list", "6", "--format", "svg", "--out", out])
        .succeeds()
        .stderr_is("");
}

#[test]
fn list_refuses_svg_without_an_output_directory() {
    fails_with("list 8 --format svg", 2, &["--out DIR"]).stdout_is("");
}

#[test]
fn list_refuses_an_output_directory_with_another_format() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    run_args(&["list", "8", "--format", "json", "--out", out])
        .status(2)
        .stdout_is("")
        .stderr_has(&["--format svg only"]);
}

#[test]
fn list_says_which_directory_it_cannot_create() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    fs::write(&file, "not a directory").unwrap();
    let sub = file.join("sub");
    let sub = sub.to_str().unwrap();
    run_args(&["list", "4", "--format", "svg", "--out", sub])
        .status(2)
        .stderr_has(&["cannot create the directory"]);
    // The file itself, or a device: it exists, but not as a folder.
    for out in [file.to_str().unwrap(), "/dev/null"] {
        run_args(&["list", "4", "--format", "svg", "--out", out])
            .status(2)
            .stderr_has(&["exists and is not a folder"]);
    }
}

#[test]
fn svg_refuses_boards_too_large_to_draw() {
    fails_with("solve 100001 --format svg", 2, &["N = 100001"]).stdout_is("");
}

#[test]
fn a_board_of_ten_thousand_is_under_two_megabytes_with_one_queen_per_row() {
    let svg = printed("solve 10000 --format svg");
    assert!(svg.len() < 2_000_000, "{} bytes", svg.len());
    let queens = placement_in(&svg, 10_000);
    assert!(is_solution(&queens));
}

#[test]
fn list_unique_writes_one_svg_file_per_symmetry_class() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    run_args(&["list", "8", "--unique", "--format", "svg", "--out", out]).succeeds();
    let listed = printed("list 8 --unique");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 12);
    for (i, line) in listed.lines().enumerate() {
        let name = format!("solution-{:06}.svg", i + 1);
        let svg = fs::read_to_string(dir.path().join(&name)).unwrap();
        assert_eq!(placement_in(&svg, 8), positions(line), "{name}");
    }
}
