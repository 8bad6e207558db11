//! `queens solve 10000 --format svg`, read back with an XML parser: every queen stays inside
//! its square at every zoom (its drawing lies inside the square; only its outline, a fixed
//! 1.5 screen pixels, does not scale), the axes carry row and column numbers beside the board,
//! and the file stays under 2 MB.

use crate::common::*;

/// A number attribute of `node`.
fn number(node: roxmltree::Node, name: &str) -> f64 {
    node.attribute(name)
        .unwrap_or_else(|| panic!("a {name} attribute on {node:?}"))
        .parse()
        .unwrap_or_else(|_| panic!("{name} is a number"))
}

#[test]
fn ten_thousand_queens_stay_in_their_squares_with_numbered_axes_under_two_megabytes() {
    let svg = printed("solve 10000 --format svg");
    assert!(svg.len() < 2_000_000, "{} bytes", svg.len());
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let root = doc.root_element();
    let view: Vec<f64> = root
        .attribute("viewBox")
        .expect("a viewBox")
        .split(' ')
        .map(|v| v.parse().expect("a number"))
        .collect();
    let side = 40.0 * 10_000.0;
    // The board from (0, 0) to (side, side), the axes in a margin above and left of it.
    assert!(view[0] < 0.0 && view[1] < 0.0, "{view:?}");
    assert_eq!(view[0] + view[2], side);
    assert_eq!(root.attribute("width"), Some("800"));

    // The one queen drawing: inside a 40-unit square, its outline in screen pixels.
    let queen = root
        .descendants()
        .find(|n| n.attribute("id") == Some("queen"))
        .expect("the queen drawing");
    assert_eq!(queen.tag_name().name(), "rect");
    let (x, y) = (number(queen, "x"), number(queen, "y"));
    let (w, h) = (number(queen, "width"), number(queen, "height"));
    assert!(
        x > 0.0 && y > 0.0 && x + w < 40.0 && y + h < 40.0,
        "{x} {y} {w} {h}"
    );
    assert_eq!(queen.attribute("vector-effect"), Some("non-scaling-stroke"));
    let outline = number(queen, "stroke-width");
    assert!(outline > 0.0 && outline <= 2.0, "{outline} pixels");
    // A 1.5-pixel outline stays inside the square once a square is 6 pixels wide or more: the
    // drawing's gap to the square's edge, 10 units, is then a pixel and a half.
    assert!(x * 6.0 / 40.0 >= outline / 2.0);

    // Every queen on its own square, one per row and per column: the permutation.
    let mut rows = vec![false; 10_000];
    let mut cols = vec![false; 10_000];
    for g in root
        .descendants()
        .filter(|n| n.attribute("class") == Some("queen"))
    {
        let r = number(g, "data-row") as usize;
        let c = number(g, "data-col") as usize;
        assert_eq!(
            g.attribute("transform"),
            Some(format!("translate({},{})", 40 * c, 40 * r).as_str())
        );
        assert!(!rows[r] && !cols[c], "two queens on row {r} or column {c}");
        rows[r] = true;
        cols[c] = true;
    }
    assert!(rows.iter().all(|&r| r) && cols.iter().all(|&c| c));

    // The axes: numbers 0, 1000, ..., 9000 for columns above the board and rows left of it.
    let axes = root
        .descendants()
        .find(|n| n.attribute("class") == Some("axes"))
        .expect("the axes");
    let labels = |class: &str| -> Vec<(String, f64, f64)> {
        axes.descendants()
            .filter(|n| n.tag_name().name() == "text" && n.attribute("class") == Some(class))
            .map(|n| {
                (
                    n.text().unwrap_or_default().to_string(),
                    number(n, "x"),
                    number(n, "y"),
                )
            })
            .collect()
    };
    let expected: Vec<String> = (0..10).map(|k| (1000 * k).to_string()).collect();
    let columns = labels("col");
    let rows = labels("row");
    assert_eq!(
        columns.iter().map(|l| l.0.clone()).collect::<Vec<_>>(),
        expected
    );
    assert_eq!(
        rows.iter().map(|l| l.0.clone()).collect::<Vec<_>>(),
        expected
    );
    for (text, x, y) in &columns {
        let c: f64 = text.parse().unwrap();
        assert_eq!(
            *x,
            40.0 * c + 20.0,
            "column {text} over the middle of its square"
        );
        assert!(*y < 0.0 && *y > view[1], "above the board");
    }
    for (text, x, y) in &rows {
        let r: f64 = text.parse().unwrap();
        assert!(*x < 0.0 && *x > view[0], "left of the board");
        assert!(
            (*y - (40.0 * r + 20.0)).abs() < 40.0 * 100.0,
            "row {text} by its square"
        );
    }
}
