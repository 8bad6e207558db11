//! The board in the terminal: the squares in the SVG drawing's colours, the queen glyph, the
//! marks of a played step, the row and column numbers round it, the legend of the colours, and
//! the geometry of a square. It depends on no other part of the browser's drawing;
//! [`super::layout`] chooses the geometry and [`super::view`] places the widgets.
//!
//! Without colour (`--color never`, or `NO_COLOR` under `auto`: see [`Palette`]) nothing is
//! coloured: the dark squares are drawn in reverse video, and what a colour said is said by a
//! sign in the square beside the glyph (`?` tried, `x` conflict, `!` attacker, `+` placed, `-`
//! removed, `<` backtrack, `*` solution), which the legend lists in place of the swatches.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::playback::{Mark, Square};

/// The light squares.
pub const LIGHT: Color = Color::Rgb(0xf0, 0xd9, 0xb5);

/// The dark squares.
pub const DARK: Color = Color::Rgb(0xb5, 0x88, 0x63);

/// The queens.
pub const INK: Color = Color::Rgb(0x1d, 0x1d, 0x1d);

/// The queen glyph.
pub const QUEEN: &str = "♛";

/// The mark of an empty square that a queen attacks.
pub const ATTACKED: &str = "·";

/// The queens of a solution reached while a search plays (the page's solution gold).
pub const SOLVED: Color = Color::Rgb(0xf5, 0xc5, 0x18);

/// The queen attacking the square tried (the page's attacker red).
pub const ATTACKER: Color = Color::Rgb(0xb7, 0x1c, 0x1c);

/// Turns every 24-bit colour of `buf` (foreground and background) into the nearest colour of
/// the xterm 256-colour palette, for a terminal that does not say it draws 24-bit colour
/// ([`crate::color::true_colour`]).
pub fn to_256_colours(buf: &mut Buffer) {
    let indexed = |colour: Color| match colour {
        Color::Rgb(r, g, b) => Color::Indexed(nearest_256(r, g, b)),
        other => other,
    };
    for cell in &mut buf.content {
        cell.fg = indexed(cell.fg);
        cell.bg = indexed(cell.bg);
    }
}

/// The colour of the xterm 256-colour palette nearest to `(r, g, b)` (squared distance): of its
/// 6 x 6 x 6 cube (16 to 231, levels 0, 95, 135, 175, 215, 255) and its 24 greys (232 to 255,
/// 8 to 238 by 10). The first 16 are left out: terminals' themes give them colours of their own.
pub fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    const LEVELS: [i32; 6] = [0, 95, 135, 175, 215, 255];
    let level = |v: u8| {
        (0..6)
            .min_by_key(|&i| (LEVELS[i] - i32::from(v)).abs())
            .unwrap_or(0)
    };
    let distance = |(x, y, z): (i32, i32, i32)| {
        let (dr, dg, db) = (x - i32::from(r), y - i32::from(g), z - i32::from(b));
        dr * dr + dg * dg + db * db
    };
    let (ri, gi, bi) = (level(r), level(g), level(b));
    let cube = (LEVELS[ri], LEVELS[gi], LEVELS[bi]);
    // The grey nearest the mean, sum / 3: 8 + 10k for k = round((sum / 3 - 8) / 10).
    let sum = i32::from(r) + i32::from(g) + i32::from(b);
    let k = ((sum - 9).max(0) / 30).min(23);
    let grey = 8 + 10 * k;
    if distance((grey, grey, grey)) < distance(cube) {
        232 + k as u8
    } else {
        16 + 36 * ri as u8 + 6 * gi as u8 + bi as u8
    }
}

/// How the board and the browser's text are drawn: in colour, or with text attributes only
/// (reverse video, bold, dim: what the `NO_COLOR` convention leaves allowed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Palette {
    /// The squares and marks in the SVG drawing's and the web page's colours.
    #[default]
    Colour,
    /// No colour: reverse video for the dark squares, a sign for each mark.
    Mono,
}

/// The sign that stands for a mark without colour, in the cell right of the square's glyph.
pub fn mark_sign(mark: Mark) -> &'static str {
    match mark {
        Mark::Tried => "?",
        Mark::Attacked => "x",
        Mark::Placed => "+",
        Mark::Removed => "-",
        Mark::Backtracked => "<",
    }
}

/// The sign of the queen attacking the square tried, without colour.
pub const ATTACKER_SIGN: &str = "!";

/// The sign of a solution's queens, without colour.
pub const SOLVED_SIGN: &str = "*";

/// The colour of a square marked by a step of the search: the same palette as the web page's
/// Learn view (`assets/style.css`: `.square.tried`, `.conflict`, `.placed`, `.removed`, and the
/// backtrack band's amber), so a student sees one code of colours everywhere.
pub fn mark_colour(mark: Mark) -> Color {
    match mark {
        Mark::Tried => Color::Rgb(0x4f, 0x9b, 0xe0),
        Mark::Attacked => Color::Rgb(0xe0, 0x30, 0x1e),
        Mark::Placed => Color::Rgb(0x3f, 0xa3, 0x4d),
        Mark::Removed => Color::Rgb(0x9b, 0x8f, 0xb8),
        Mark::Backtracked => Color::Rgb(0xe0, 0xa1, 0x00),
    }
}

/// The column numbers above the board, one per square, at the square's left cell.
pub(super) struct CoordinatesWidget {
    pub(super) n: usize,
    pub(super) geometry: Geometry,
    pub(super) left: u16,
}

impl Widget for CoordinatesWidget {
    fn render(self, area: Rect, buf: &mut Buffer) {
        for col in 0..self.n {
            let x = self.left
                + col as u16 * self.geometry.square_width()
                + self.geometry.glyph_offset().0;
            if x >= area.right() {
                break;
            }
            buf.set_string(x, area.y, col.to_string(), Style::new().dim());
        }
    }
}

/// The row numbers left of the board, right-aligned, on each square's first line.
pub(super) struct RowNumbersWidget {
    pub(super) n: usize,
    pub(super) geometry: Geometry,
    pub(super) top: u16,
}

impl Widget for RowNumbersWidget {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let width = usize::from(area.width.saturating_sub(1));
        for row in 0..self.n {
            let y = self.top + row as u16 * self.geometry.scale + self.geometry.glyph_offset().1;
            if y >= area.bottom() {
                break;
            }
            buf.set_string(area.x, y, format!("{row:>width$}"), Style::new().dim());
        }
    }
}

/// The board: `n` x `n` squares of two cells, a queen glyph on each queen's square.
pub struct BoardWidget<'a> {
    /// The board size.
    pub n: usize,
    /// The queens, as (row, column).
    pub queens: &'a [Square],
    /// A square to colour, and how.
    pub mark: Option<(Square, Mark)>,
    /// A queen to colour as the attacker of the marked square.
    pub attacker: Option<Square>,
    /// Whether to dot the empty squares that the queens attack.
    pub show_attacks: bool,
    /// Whether the queens form a solution (they are then coloured).
    pub solved: bool,
    /// Terminal rows per square; a square is `2 * scale` cells wide.
    pub scale: u16,
    /// Colours, or text attributes and signs only.
    pub palette: Palette,
}

impl BoardWidget<'_> {
    fn attacked(&self, (row, col): Square) -> bool {
        self.queens.iter().any(|&(r, c)| {
            (r, c) != (row, col) && (r == row || c == col || r.abs_diff(row) == c.abs_diff(col))
        })
    }
}

impl BoardWidget<'_> {
    /// The style of a square, and the sign that says its mark when there is no colour. The
    /// last that applies wins: the square's shade, the attacker, the step's mark, a solution.
    fn look(&self, square: Square) -> (Style, Option<&'static str>) {
        let (row, col) = square;
        let light = (row + col) % 2 == 0;
        let mut colour = if light { LIGHT } else { DARK };
        let mut sign = None;
        if self.attacker == Some(square) {
            (colour, sign) = (ATTACKER, Some(ATTACKER_SIGN));
        }
        match self.mark {
            Some((marked, mark)) if marked == square => {
                (colour, sign) = (mark_colour(mark), Some(mark_sign(mark)));
            }
            _ => {}
        }
        if self.solved && self.queens.contains(&square) {
            (colour, sign) = (SOLVED, Some(SOLVED_SIGN));
        }
        match self.palette {
            Palette::Colour => (Style::new().bg(colour).fg(INK), None),
            Palette::Mono if light => (Style::new(), sign),
            Palette::Mono => (Style::new().reversed(), sign),
        }
    }
}

impl Widget for BoardWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let scale = self.scale.max(1);
        for row in 0..self.n {
            for col in 0..self.n {
                let (x, y) = (area.x + 2 * scale * col as u16, area.y + scale * row as u16);
                if x + 2 * scale > area.right() || y + scale > area.bottom() {
                    continue;
                }
                let square = (row, col);
                let (style, sign) = self.look(square);
                let glyph = if self.queens.contains(&square) {
                    QUEEN
                } else if self.show_attacks && self.attacked(square) {
                    ATTACKED
                } else {
                    " "
                };
                for dy in 0..scale {
                    for dx in 0..2 * scale {
                        buf[(x + dx, y + dy)].set_symbol(" ").set_style(style);
                    }
                }
                // The glyph in the middle of the square (its top-left cell at scale 1), and
                // the sign of a mark without colour in the cell right of it.
                let (dx, dy) = Geometry {
                    scale,
                    compact: false,
                    title: false,
                    tiny: false,
                }
                .glyph_offset();
                let (gx, gy) = (x + dx, y + dy);
                buf[(gx, gy)].set_symbol(glyph);
                if let Some(sign) = sign {
                    buf[(gx + 1, gy)].set_symbol(sign);
                }
            }
        }
    }
}

/// How the screen is laid out for a board: the scale of a square and whether the compact
/// layout (no title, no border, one line of explanation) is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// Terminal rows per square (a square is twice as many cells wide).
    pub scale: u16,
    /// The compact layout, for small terminals.
    pub compact: bool,
    /// Whether the title line fits above the board.
    pub title: bool,
    /// The tiny layout: the compact one with a single line of keys (the essential ones) and
    /// no line of arrays, so that an 8x8 search still fits 40x15.
    pub tiny: bool,
}

impl Geometry {
    /// The width of one square, in cells.
    pub fn square_width(self) -> u16 {
        2 * self.scale
    }

    /// Where in a square its glyph stands: cells right of and lines below its top-left cell.
    pub fn glyph_offset(self) -> (u16, u16) {
        (
            self.scale - 1 + u16::from(self.scale > 1),
            (self.scale - 1) / 2,
        )
    }
}

/// Entries (each a pair of spans) laid out in lines of at most `width` cells, two spaces
/// apart, whole entries per line: never cut.
pub(super) fn wrap_entries(
    entries: impl IntoIterator<Item = [Span<'static>; 2]>,
    width: u16,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut used = 0usize;
    for entry in entries {
        let size = entry[0].width() + entry[1].width();
        if used > 0 && used + 2 + size > usize::from(width) {
            lines.push(Line::from(std::mem::take(&mut spans)));
            used = 0;
        }
        if used > 0 {
            spans.push(Span::from("  "));
            used += 2;
        }
        spans.extend(entry);
        used += size;
    }
    if !spans.is_empty() {
        lines.push(Line::from(spans));
    }
    lines
}

/// The colours of a played search, each on its own swatch (or, without colour, its sign): the
/// legend under the board, wrapped to `width` cells with whole entries per line (never cut).
/// A sign takes the two cells of a swatch, so both palettes wrap alike.
pub(super) fn legend_lines(width: u16, palette: Palette) -> Vec<Line<'static>> {
    let mark = |m: Mark| (mark_colour(m), mark_sign(m));
    let entries = [
        (mark(Mark::Tried), "tried"),
        (mark(Mark::Attacked), "conflict"),
        ((ATTACKER, ATTACKER_SIGN), "attacker"),
        (mark(Mark::Placed), "placed"),
        (mark(Mark::Removed), "removed"),
        (mark(Mark::Backtracked), "backtrack"),
        ((SOLVED, SOLVED_SIGN), "solution"),
    ]
    .map(|((colour, sign), what)| {
        let swatch = match palette {
            Palette::Colour => Span::styled("  ", Style::new().bg(colour)),
            Palette::Mono => Span::from(format!("{sign} ")).bold(),
        };
        [swatch, Span::from(format!(" {what}")).dim()]
    });
    // The dot on an empty square that a queen attacks, as the board draws it.
    let dot = match palette {
        Palette::Colour => Span::styled(format!("{ATTACKED} "), Style::new().bg(LIGHT).fg(INK)),
        Palette::Mono => Span::from(format!("{ATTACKED} ")).bold(),
    };
    let attacked = [dot, Span::from(" attacked").dim()];
    wrap_entries(entries.into_iter().chain([attacked]), width)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The colour of index `i` of the xterm palette, 16 to 255.
    fn xterm(i: u8) -> (i32, i32, i32) {
        const LEVELS: [i32; 6] = [0, 95, 135, 175, 215, 255];
        match i {
            16..=231 => {
                let c = usize::from(i - 16);
                (LEVELS[c / 36], LEVELS[c / 6 % 6], LEVELS[c % 6])
            }
            _ => {
                let v = 8 + 10 * i32::from(i - 232);
                (v, v, v)
            }
        }
    }

    fn distance((r, g, b): (u8, u8, u8), (x, y, z): (i32, i32, i32)) -> i32 {
        (x - i32::from(r)).pow(2) + (y - i32::from(g)).pow(2) + (z - i32::from(b)).pow(2)
    }

    #[test]
    fn the_nearest_256_colour_is_as_near_as_any_of_the_palette() {
        let mut colours: Vec<(u8, u8, u8)> = [LIGHT, DARK, INK, SOLVED, ATTACKER]
            .into_iter()
            .chain([Mark::Tried, Mark::Attacked, Mark::Placed, Mark::Removed].map(mark_colour))
            .chain([mark_colour(Mark::Backtracked)])
            .map(|c| match c {
                Color::Rgb(r, g, b) => (r, g, b),
                other => panic!("{other:?} is not 24-bit"),
            })
            .collect();
        // And a grid through the whole cube, greys and near-greys included.
        for r in (0..=255u8).step_by(17) {
            for g in (0..=255u8).step_by(51) {
                for b in (0..=255u8).step_by(15) {
                    colours.push((r, g, b));
                }
            }
        }
        for v in 0..=255u8 {
            colours.push((v, v, v));
            colours.push((v, v, v.saturating_add(4)));
        }
        for c in colours {
            let chosen = nearest_256(c.0, c.1, c.2);
            assert!(chosen >= 16, "{c:?}");
            let best = (16..=255u8).map(|i| distance(c, xterm(i))).min().unwrap();
            assert_eq!(distance(c, xterm(chosen)), best, "{c:?} -> {chosen}");
        }
        // Colours of the palette are themselves.
        assert_eq!(nearest_256(95, 135, 175), 67);
        assert_eq!(nearest_256(128, 128, 128), 244);
        assert_eq!(nearest_256(0, 0, 0), 16);
        assert_eq!(nearest_256(255, 255, 255), 231);
    }

    #[test]
    fn a_buffer_in_256_colours_keeps_no_24_bit_colour_and_the_others_as_they_are() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 4, 1));
        buf[(0, 0)].set_bg(LIGHT).set_fg(INK);
        buf[(1, 0)].set_bg(Color::Red).set_fg(Color::Reset);
        buf[(2, 0)].set_bg(Color::Indexed(7)).set_fg(DARK);
        to_256_colours(&mut buf);
        assert_eq!(
            buf[(0, 0)].bg,
            Color::Indexed(nearest_256(0xf0, 0xd9, 0xb5))
        );
        assert_eq!(
            buf[(0, 0)].fg,
            Color::Indexed(nearest_256(0x1d, 0x1d, 0x1d))
        );
        assert_eq!((buf[(1, 0)].bg, buf[(1, 0)].fg), (Color::Red, Color::Reset));
        assert_eq!(buf[(2, 0)].bg, Color::Indexed(7));
        assert!(buf
            .content
            .iter()
            .all(|c| !matches!(c.fg, Color::Rgb(..)) && !matches!(c.bg, Color::Rgb(..))));
    }
}
