//! The board as an SVG drawing: the picture `--format svg` writes and the web page draws.
//!
//! The drawing follows one specification shared with the web page, so a board looks the same
//! everywhere: 40x40 squares in a `viewBox` of 40N units, light `#f0d9b5` where row + column is
//! even and dark `#b58863` elsewhere, each a `<rect class="square light|dark">`; each queen a
//! `<g class="queen" data-row="r" data-col="c">` holding a crown path and a base bar. Large
//! boards keep 40 units per square and are scaled down by the `width`/`height` attributes, so
//! the picture is never wider than 800 pixels.

use std::io::{self, Write};

/// The side of one square, in `viewBox` units.
pub const SQUARE: usize = 40;

/// The widest picture, in pixels: larger boards are scaled down to it.
pub const MAX_PIXELS: usize = 800;

/// The largest board drawn: at 800 pixels each square is then one pixel wide, and the file holds
/// 640,000 squares (about 55 MB); a larger picture would show nothing more.
pub const MAX_N: usize = 800;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const CROWN: &str = "M8 30 L32 30 L34 14 L26 22 L20 8 L14 22 L6 14 Z";
const INK: &str = "#1d1d1d";

/// Writes the SVG document of a placement (`queens[row] = column`).
pub fn write_svg(out: &mut impl Write, queens: &[usize]) -> io::Result<()> {
    let n = queens.len();
    let side = SQUARE * n;
    let pixels = side.min(MAX_PIXELS);
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" width="{pixels}" height="{pixels}" role="img">"#
    )?;
    write!(out, "<title>{n}-queens solution:")?;
    for c in queens {
        write!(out, " {c}")?;
    }
    writeln!(out, "</title>")?;
    write_squares(out, n)?;
    for (row, &col) in queens.iter().enumerate() {
        write_queen(out, row, col)?;
    }
    writeln!(out, "</svg>")
}

fn write_squares(out: &mut impl Write, n: usize) -> io::Result<()> {
    for row in 0..n {
        for col in 0..n {
            let (class, fill) = if (row + col) % 2 == 0 {
                ("light", LIGHT)
            } else {
                ("dark", DARK)
            };
            writeln!(
                out,
                r#"<rect class="square {class}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>"#,
                x = SQUARE * col,
                y = SQUARE * row,
            )?;
        }
    }
    Ok(())
}

fn write_queen(out: &mut impl Write, row: usize, col: usize) -> io::Result<()> {
    writeln!(
        out,
        r##"<g class="queen" data-row="{row}" data-col="{col}" transform="translate({x},{y})"><path d="{CROWN}" fill="{INK}" stroke="#ffffff" stroke-width="1.5"/><rect x="8" y="31" width="24" height="4" fill="{INK}"/></g>"##,
        x = SQUARE * col,
        y = SQUARE * row,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(queens: &[usize]) -> String {
        let mut out = Vec::new();
        write_svg(&mut out, queens).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The values of `name="..."` attributes of every element whose tag starts with `tag`.
    fn attributes<'a>(svg: &'a str, tag: &str, name: &str) -> Vec<&'a str> {
        let key = format!(" {name}=\"");
        svg.split('<')
            .filter(|element| element.starts_with(tag))
            .filter_map(|element| {
                let start = element.find(&key)? + key.len();
                let len = element[start..].find('"')?;
                Some(&element[start..start + len])
            })
            .collect()
    }

    #[test]
    fn the_picture_has_the_shared_view_box_size_and_title() {
        let svg = draw(&[0, 4, 7, 5, 2, 6, 1, 3]);
        assert!(svg.starts_with(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 320" width="320" height="320""#
        ));
        assert!(svg.contains("<title>8-queens solution: 0 4 7 5 2 6 1 3</title>"));
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn squares_alternate_light_and_dark_from_a_light_corner() {
        let svg = draw(&[1, 3, 0, 2]);
        let classes = attributes(&svg, "rect class=\"square", "class");
        assert_eq!(classes.len(), 16);
        for (i, class) in classes.iter().enumerate() {
            let (row, col) = (i / 4, i % 4);
            let want = if (row + col) % 2 == 0 {
                "light"
            } else {
                "dark"
            };
            assert_eq!(*class, format!("square {want}"), "square ({row}, {col})");
        }
        assert!(svg.contains(
            r##"<rect class="square dark" x="40" y="0" width="40" height="40" fill="#b58863"/>"##
        ));
        assert!(svg.contains(
            r##"<rect class="square light" x="120" y="120" width="40" height="40" fill="#f0d9b5"/>"##
        ));
    }

    #[test]
    fn each_queen_sits_on_its_square() {
        let queens = [2, 0, 3, 1];
        let svg = draw(&queens);
        let rows = attributes(&svg, "g class=\"queen\"", "data-row");
        let cols = attributes(&svg, "g class=\"queen\"", "data-col");
        let moves = attributes(&svg, "g class=\"queen\"", "transform");
        let placed: Vec<(usize, usize)> = rows
            .iter()
            .zip(&cols)
            .map(|(r, c)| (r.parse().unwrap(), c.parse().unwrap()))
            .collect();
        assert_eq!(placed, vec![(0, 2), (1, 0), (2, 3), (3, 1)]);
        for ((r, c), transform) in placed.iter().zip(moves) {
            assert_eq!(transform, format!("translate({},{})", 40 * c, 40 * r));
        }
        assert_eq!(svg.matches(CROWN).count(), 4);
    }

    #[test]
    fn large_boards_are_scaled_down_to_eight_hundred_pixels() {
        let queens: Vec<usize> = (0..30).collect();
        let svg = draw(&queens);
        assert!(svg.contains(r#"viewBox="0 0 1200 1200" width="800" height="800""#));
    }
}
