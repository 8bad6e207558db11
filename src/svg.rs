//! The board as an SVG drawing: the picture `--format svg` writes and the web page draws.
//!
//! The drawing follows one specification shared with the web page, so a board looks the same
//! everywhere: 40x40 squares in a `viewBox` of 40N units (and a margin of 40N/12 round it
//! for the axes above N = 64), light `#f0d9b5` where row + column is
//! even and dark `#b58863` elsewhere, painted by one checkerboard `<pattern>` (so the file grows
//! with N, not N²); each queen a `<g class="queen" data-row="r" data-col="c">` holding a `<use>`
//! of one queen drawing in `<defs>`: a crown and a base bar while a square is at least
//! [`CROWN_MIN_PIXELS`] pixels wide, else a small square drawn inside the queen's square with an
//! outline of [`OUTLINE_PIXELS`] screen pixels (`vector-effect="non-scaling-stroke"`): zoomed in,
//! each queen stays inside its own square; at full view, where a square is a fraction of a
//! pixel, each queen is still a dot the eye sees, so the permutation's pattern shows. Large
//! boards keep 40 units per square and are scaled down by the `width`/`height` attributes, so
//! the picture is never wider than 800 pixels. A board of 10,000 queens is about 1 MB. Boards
//! up to [`COORDINATES_MAX_N`] carry their row and column numbers in the corners of the edge
//! squares; larger ones get axes in a margin, numbered at round intervals.

use std::io::{self, Write};

/// The side of one square, in `viewBox` units.
pub const SQUARE: usize = 40;

/// The widest picture, in pixels: larger boards are scaled down to it.
pub const MAX_PIXELS: usize = 800;

/// The largest board drawn: about 11 MB of SVG, one small element per queen.
pub const MAX_N: usize = 100_000;

/// The narrowest square, in pixels, on which a queen is drawn as a crown; below, as a dot.
pub const CROWN_MIN_PIXELS: usize = 6;

/// The width of a small queen's outline, in screen pixels whatever the zoom.
pub const OUTLINE_PIXELS: &str = "1.5";

/// Where a small queen's square sits inside its board square, in units: from `DOT_INSET` to
/// `SQUARE - DOT_INSET` both ways.
const DOT_INSET: usize = 10;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const CROWN: &str = "M8 30 L32 30 L34 14 L26 22 L20 8 L14 22 L6 14 Z";
const INK: &str = "#1d1d1d";

/// Whether queens of an `n` x `n` picture are drawn as dots rather than crowns: whether a
/// square is narrower than [`CROWN_MIN_PIXELS`] once the whole picture (the board and the
/// margin of its axes) is scaled to its width (from N = 124).
pub fn uses_dots(n: usize) -> bool {
    let (side, whole) = (SQUARE * n, SQUARE * n + axes_margin(n));
    // A square is `pixels * SQUARE / whole` pixels wide.
    side.min(MAX_PIXELS) * SQUARE < CROWN_MIN_PIXELS * whole
}

/// Writes the SVG document of a placement (`queens[row] = column`).
pub fn write_svg(out: &mut impl Write, queens: &[usize]) -> io::Result<()> {
    let n = queens.len();
    let side = SQUARE * n;
    let pixels = side.min(MAX_PIXELS);
    let margin = axes_margin(n);
    if margin == 0 {
        writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" width="{pixels}" height="{pixels}" role="img">"#
        )?;
    } else {
        let whole = side + margin;
        writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="-{margin} -{margin} {whole} {whole}" width="{pixels}" height="{pixels}" role="img">"#
        )?;
    }
    write!(out, "<title>{n}-queens solution:")?;
    for c in queens {
        write!(out, " {c}")?;
    }
    writeln!(out, "</title>")?;
    write_defs(out, n)?;
    writeln!(
        out,
        r#"<rect class="board" width="{side}" height="{side}" fill="url(#squares)"/>"#
    )?;
    if n <= COORDINATES_MAX_N {
        write_coordinates(out, n)?;
    } else {
        write_axes(out, n, margin)?;
    }
    for (row, &col) in queens.iter().enumerate() {
        write_queen(out, row, col)?;
    }
    writeln!(out, "</svg>")
}

/// The checkerboard pattern (two by two squares) and the one queen drawing.
fn write_defs(out: &mut impl Write, n: usize) -> io::Result<()> {
    let two = 2 * SQUARE;
    writeln!(
        out,
        r#"<defs><pattern id="squares" width="{two}" height="{two}" patternUnits="userSpaceOnUse"><rect width="{two}" height="{two}" fill="{LIGHT}"/><rect x="{SQUARE}" width="{SQUARE}" height="{SQUARE}" fill="{DARK}"/><rect y="{SQUARE}" width="{SQUARE}" height="{SQUARE}" fill="{DARK}"/></pattern>"#
    )?;
    if uses_dots(n) {
        let width = SQUARE - 2 * DOT_INSET;
        writeln!(
            out,
            r#"<rect id="queen" x="{DOT_INSET}" y="{DOT_INSET}" width="{width}" height="{width}" fill="{INK}" stroke="{INK}" stroke-width="{OUTLINE_PIXELS}" vector-effect="non-scaling-stroke"/></defs>"#
        )
    } else {
        writeln!(
            out,
            r##"<g id="queen"><path d="{CROWN}" fill="{INK}" stroke="#ffffff" stroke-width="1.5"/><rect x="8" y="31" width="24" height="4" fill="{INK}"/></g></defs>"##
        )
    }
}

/// The largest board whose squares carry their row and column numbers (beyond, they would be
/// too small to read).
pub const COORDINATES_MAX_N: usize = 64;

/// Row and column numbers, small, in the corners of the edge squares: each column's number in
/// the top right corner of its square of row 0, each row's in the bottom left corner of its
/// square of column 0, clear of the queen drawn in the middle.
fn write_coordinates(out: &mut impl Write, n: usize) -> io::Result<()> {
    write!(
        out,
        r##"<g class="coordinates" font-family="sans-serif" font-size="9" fill="{INK}">"##
    )?;
    for col in 0..n {
        write!(
            out,
            r#"<text class="col" x="{x}" y="9" text-anchor="end">{col}</text>"#,
            x = SQUARE * col + SQUARE - 2
        )?;
    }
    for row in 0..n {
        write!(
            out,
            r#"<text class="row" x="2" y="{y}">{row}</text>"#,
            y = SQUARE * row + SQUARE - 2
        )?;
    }
    writeln!(out, "</g>")
}

/// The margin of the axes round a board too large for coordinates in its squares, in units
/// (about 60 of the picture's 800 pixels, room for five digits), or 0.
fn axes_margin(n: usize) -> usize {
    if n <= COORDINATES_MAX_N {
        0
    } else {
        (SQUARE * n).div_ceil(12)
    }
}

/// The distance between numbered rows (and columns): 1, 2 or 5 times a power of ten, so that
/// about ten numbers stand on each axis.
fn axis_step(n: usize) -> usize {
    let mut step = 1;
    loop {
        for k in [1, 2, 5] {
            if k * step * 10 >= n {
                return k * step;
            }
        }
        step *= 10;
    }
}

/// Axes in the margin: a tick and the number of every `axis_step`-th column (above the board)
/// and row (left of it), at the middle of its square.
fn write_axes(out: &mut impl Write, n: usize, margin: usize) -> io::Result<()> {
    let font = margin / 4;
    let tick = margin / 5;
    write!(
        out,
        r##"<g class="axes" font-family="sans-serif" font-size="{font}" fill="#5b5349" stroke="#5b5349" stroke-width="{OUTLINE_PIXELS}" vector-effect="non-scaling-stroke">"##
    )?;
    let step = axis_step(n);
    for i in (0..n).step_by(step) {
        let mid = SQUARE * i + SQUARE / 2;
        write!(
            out,
            r#"<line x1="{mid}" y1="-{tick}" x2="{mid}" y2="0"/><text class="col" x="{mid}" y="-{y}" text-anchor="middle" stroke="none">{i}</text>"#,
            y = tick + font / 4
        )?;
        write!(
            out,
            r#"<line x1="-{tick}" y1="{mid}" x2="0" y2="{mid}"/><text class="row" x="-{x}" y="{y}" text-anchor="end" stroke="none">{i}</text>"#,
            x = tick + font / 4,
            y = mid + font / 3
        )?;
    }
    writeln!(out, "</g>")
}

fn write_queen(out: &mut impl Write, row: usize, col: usize) -> io::Result<()> {
    writeln!(
        out,
        r##"<g class="queen" data-row="{row}" data-col="{col}" transform="translate({x},{y})"><use href="#queen"/></g>"##,
        x = SQUARE * col,
        y = SQUARE * row,
    )
}

#[cfg(test)]
mod tests {

    /// WCAG 2 relative luminance of `#rrggbb`.
    fn luminance(hex: &str) -> f64 {
        let channel = |i: usize| {
            let c = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
    }

    fn contrast(a: &str, b: &str) -> f64 {
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    /// The numbers drawn in the edge squares meet WCAG AA (4.5:1 for small text) on both
    /// colours of square (the muted brown they had was 2.5:1 on the dark squares).
    #[test]
    fn coordinates_meet_wcag_aa_on_light_and_dark_squares() {
        let svg = draw(&[1, 3, 0, 2]);
        let fill = svg
            .split(r#"<g class="coordinates""#)
            .nth(1)
            .and_then(|g| g.split("fill=\"").nth(1))
            .map(|f| &f[..7])
            .unwrap();
        for square in [LIGHT, DARK] {
            assert!(contrast(fill, square) >= 4.5, "{fill} on {square}");
        }
        assert!(contrast("#5b5349", DARK) < 4.5, "the check can fail");
    }

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
    fn squares_are_one_checkerboard_pattern_from_a_light_corner() {
        let svg = draw(&[1, 3, 0, 2]);
        assert_eq!(svg.matches("<pattern").count(), 1);
        assert!(svg.contains(r##"<rect width="80" height="80" fill="#f0d9b5"/>"##));
        assert!(svg.contains(r##"<rect x="40" width="40" height="40" fill="#b58863"/>"##));
        assert!(svg.contains(r##"<rect y="40" width="40" height="40" fill="#b58863"/>"##));
        assert!(
            svg.contains(r#"<rect class="board" width="160" height="160" fill="url(#squares)"/>"#)
        );
        assert!(!svg.contains("class=\"square"), "no element per square");
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
        assert_eq!(
            svg.matches(CROWN).count(),
            1,
            "one crown drawing, used by every queen"
        );
        assert_eq!(svg.matches(r##"<use href="#queen"/>"##).count(), 4);
    }

    #[test]
    fn large_boards_are_scaled_down_to_eight_hundred_pixels() {
        let queens: Vec<usize> = (0..30).collect();
        let svg = draw(&queens);
        assert!(svg.contains(r#"viewBox="0 0 1200 1200" width="800" height="800""#));
    }

    #[test]
    fn small_boards_carry_their_row_and_column_numbers() {
        let svg = draw(&[1, 3, 0, 2]);
        assert_eq!(
            attributes(&svg, "text class=\"col\"", "x"),
            ["38", "78", "118", "158"]
        );
        assert_eq!(
            attributes(&svg, "text class=\"row\"", "y"),
            ["38", "78", "118", "158"]
        );
        assert!(svg.contains(r#"<text class="col" x="118" y="9" text-anchor="end">2</text>"#));
        let big: Vec<usize> = (0..65).collect();
        assert!(!draw(&big).contains("coordinates"), "none past 64");
    }

    #[test]
    fn small_queens_are_squares_inside_their_squares_with_an_outline_in_pixels() {
        assert!(
            !uses_dots(123) && uses_dots(124),
            "6 pixels a square: crowns"
        );
        // The square's width in pixels, measured on the picture written: board and margin
        // scaled together.
        for n in [8, 20, 64, 65, 100, 123, 124, 133, 500] {
            let svg = draw(&(0..n).collect::<Vec<_>>());
            let view_box = attributes(&svg, "svg", "viewBox")[0];
            let whole: f64 = view_box.split(' ').nth(2).unwrap().parse().unwrap();
            let width: f64 = attributes(&svg, "svg", "width")[0].parse().unwrap();
            let square = width * SQUARE as f64 / whole;
            assert_eq!(
                uses_dots(n),
                square < CROWN_MIN_PIXELS as f64,
                "N = {n}: {square}"
            );
        }
        assert!(uses_dots(134));
        let queens: Vec<usize> = (0..10_000).collect();
        let svg = draw(&queens);
        assert!(!svg.contains(CROWN));
        assert!(svg.contains(
            r##"<rect id="queen" x="10" y="10" width="20" height="20" fill="#1d1d1d" stroke="#1d1d1d" stroke-width="1.5" vector-effect="non-scaling-stroke"/>"##
        ));
        assert_eq!(svg.matches("class=\"queen\"").count(), 10_000);
        assert!(svg.len() < 2_000_000, "{} bytes", svg.len());
    }

    #[test]
    fn large_boards_get_axes_numbered_at_round_intervals() {
        assert_eq!(axis_step(65), 10);
        assert_eq!(axis_step(100), 10);
        assert_eq!(axis_step(101), 20);
        assert_eq!(axis_step(10_000), 1000);
        assert_eq!(axis_step(3), 1);
        let svg = draw(&(0..100).collect::<Vec<_>>());
        // 4,000 units and a margin of 334: the axes sit left of and above the board.
        assert!(svg.contains(r#"viewBox="-334 -334 4334 4334" width="800" height="800""#));
        assert_eq!(
            attributes(&svg, "text class=\"col\"", "x"),
            ["20", "420", "820", "1220", "1620", "2020", "2420", "2820", "3220", "3620"]
        );
        assert!(svg.contains(r#"text-anchor="middle" stroke="none">90</text>"#));
        assert!(
            !draw(&[1, 3, 0, 2]).contains("axes"),
            "small boards: coordinates"
        );
    }
}
