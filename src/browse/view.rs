//! Drawing the browser: a title, the board in Unicode squares, the placement, a status line and
//! the keys, each in its own small function.
//!
//! Each square is two terminal cells wide (so the board looks square in most fonts), coloured
//! like the SVG drawing (light `#f0d9b5`, dark `#b58863`); a queen is the `♛` glyph.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};
use ratatui::Frame;

use super::app::App;
use super::solutions::Selection;

/// The light squares.
pub const LIGHT: Color = Color::Rgb(0xf0, 0xd9, 0xb5);
/// The dark squares.
pub const DARK: Color = Color::Rgb(0xb5, 0x88, 0x63);
/// The queens.
pub const INK: Color = Color::Rgb(0x1d, 0x1d, 0x1d);
/// The queen glyph.
pub const QUEEN: &str = "♛";

/// Lines around the board: the title, the placement, the status line and the keys.
const TEXT_LINES: u16 = 4;

/// The smallest terminal that shows the `n` x `n` board: two cells per square plus a border.
pub fn needed_size(n: usize) -> (u16, u16) {
    let side = u16::try_from(n).unwrap_or(u16::MAX);
    let width = side
        .saturating_mul(2)
        .saturating_add(2)
        .max(keys_line().width() as u16);
    (width, side.saturating_add(2 + TEXT_LINES))
}

/// Draws the whole screen.
pub fn render(frame: &mut Frame, app: &mut App) {
    let area = frame.area();
    let (width, height) = needed_size(app.n());
    if area.width < width || area.height < height {
        render_too_small(frame, area, app.n(), (width, height));
        return;
    }
    let side = app.n() as u16;
    let [title, board, placement, status, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(side + 2),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    frame.render_widget(title_line(app), title);
    let [board] = Layout::horizontal([Constraint::Length(2 * side + 2)])
        .flex(Flex::Center)
        .areas(board);
    let queens: Vec<usize> = app.current().map(<[usize]>::to_vec).unwrap_or_default();
    let block = Block::bordered().title(format!(" {0} × {0} ", app.n()));
    frame.render_widget(&block, board);
    frame.render_widget(
        BoardWidget {
            n: app.n(),
            queens: &queens,
        },
        block.inner(board),
    );
    frame.render_widget(placement_line(&queens), placement);
    frame.render_widget(status_line(app), status);
    frame.render_widget(Paragraph::new(keys_line()).centered(), keys);
}

fn title_line(app: &App) -> Paragraph<'static> {
    let which = match app.selection() {
        Selection::All => "every solution",
        Selection::Unique => "one solution per symmetry class",
    };
    Paragraph::new(Line::from(vec![
        Span::from("queens browse").bold(),
        Span::from(format!(" · {0}×{0} · {which}", app.n())),
    ]))
    .centered()
}

fn placement_line(queens: &[usize]) -> Paragraph<'static> {
    let text: Vec<String> = queens.iter().map(usize::to_string).collect();
    Paragraph::new(text.join(" ")).centered()
}

fn status_line(app: &App) -> Paragraph<'static> {
    let text = if app.total() == 0 {
        format!("the {0}×{0} board has no solution", app.n())
    } else {
        format!("solution {} of {}", app.index() + 1, app.total())
    };
    Paragraph::new(Span::from(text).bold()).centered()
}

fn keys_line() -> Line<'static> {
    let keys = [
        ("↓ j", "next"),
        ("↑ k", "previous"),
        ("g G", "first/last"),
        ("u", "unique"),
        ("q", "quit"),
    ];
    let mut spans = Vec::new();
    for (i, (key, what)) in keys.into_iter().enumerate() {
        if i > 0 {
            spans.push(Span::from("  "));
        }
        spans.push(Span::from(key).add_modifier(Modifier::BOLD));
        spans.push(Span::from(format!(" {what}")).dim());
    }
    Line::from(spans)
}

fn render_too_small(frame: &mut Frame, area: Rect, n: usize, (width, height): (u16, u16)) {
    let text = format!(
        "The {n}×{n} board needs a terminal of at least {width}×{height} cells \
         (this one is {}×{}). Enlarge it, or press q to quit.",
        area.width, area.height
    );
    frame.render_widget(
        Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }),
        area,
    );
}

/// The board: `n` x `n` squares of two cells, a queen glyph on each placed square.
pub struct BoardWidget<'a> {
    /// The board size.
    pub n: usize,
    /// The placement, `queens[row] = column` (shorter or empty for a partial board).
    pub queens: &'a [usize],
}

impl Widget for BoardWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        for row in 0..self.n {
            for col in 0..self.n {
                let (x, y) = (area.x + 2 * col as u16, area.y + row as u16);
                if x + 1 >= area.right() || y >= area.bottom() {
                    continue;
                }
                let bg = if (row + col) % 2 == 0 { LIGHT } else { DARK };
                let style = Style::new().bg(bg).fg(INK);
                let glyph = if self.queens.get(row) == Some(&col) {
                    QUEEN
                } else {
                    " "
                };
                buf[(x, y)].set_symbol(glyph).set_style(style);
                buf[(x + 1, y)].set_symbol(" ").set_style(style);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    fn draw(app: &mut App, width: u16, height: u16) -> Buffer {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| render(frame, app)).unwrap();
        terminal.backend().buffer().clone()
    }

    fn line(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol())
            .collect::<String>()
    }

    /// The board drawn in the buffer: for each row, the column of the queen glyph; the board's
    /// top-left square is found from the border.
    fn board_in(buf: &Buffer, n: usize) -> Vec<usize> {
        let (x0, y0) = (0..buf.area.height)
            .find_map(|y| {
                let x = (0..buf.area.width).find(|&x| buf[(x, y)].symbol() == "┌")?;
                Some((x + 1, y + 1))
            })
            .expect("the board's border");
        (0..n as u16)
            .map(|row| {
                let cols: Vec<usize> = (0..n as u16)
                    .filter(|&col| buf[(x0 + 2 * col, y0 + row)].symbol() == QUEEN)
                    .map(usize::from)
                    .collect();
                assert_eq!(cols.len(), 1, "row {row} holds one queen");
                cols[0]
            })
            .collect()
    }

    #[test]
    fn the_first_board_of_eight_is_drawn_with_its_status_line() {
        let mut app = App::new(8, Selection::All);
        let buf = draw(&mut app, 80, 16);
        assert_eq!(board_in(&buf, 8), [0, 4, 7, 5, 2, 6, 1, 3]);
        let text: Vec<String> = (0..16).map(|y| line(&buf, y)).collect();
        assert!(
            text[0].contains("queens browse · 8×8 · every solution"),
            "{text:#?}"
        );
        assert!(
            text.iter().any(|l| l.contains("0 4 7 5 2 6 1 3")),
            "{text:#?}"
        );
        assert!(
            text.iter().any(|l| l.contains("solution 1 of 92")),
            "{text:#?}"
        );
        assert!(text.iter().any(|l| l.contains("q quit")), "{text:#?}");
    }

    #[test]
    fn squares_are_two_cells_in_the_svg_colours() {
        let mut app = App::new(4, Selection::All);
        let buf = draw(&mut app, 60, 12);
        let (x0, y0) = (0..12)
            .find_map(|y| Some(((0..60).find(|&x| buf[(x, y)].symbol() == "┌")? + 1, y + 1)))
            .unwrap();
        for row in 0..4u16 {
            for col in 0..4u16 {
                let want = if (row + col) % 2 == 0 { LIGHT } else { DARK };
                for dx in 0..2 {
                    assert_eq!(
                        buf[(x0 + 2 * col + dx, y0 + row)].bg,
                        want,
                        "({row}, {col})"
                    );
                }
            }
        }
        assert_eq!(
            buf[(x0 + 2, y0)].symbol(),
            QUEEN,
            "the first solution is 1 3 0 2"
        );
        assert_eq!(buf[(x0 + 2, y0)].fg, INK);
    }

    #[test]
    fn moving_on_redraws_the_next_board_and_the_count() {
        let mut app = App::new(8, Selection::All);
        app.next_solution();
        let buf = draw(&mut app, 80, 16);
        assert_eq!(board_in(&buf, 8), [0, 5, 7, 2, 6, 3, 1, 4]);
        assert!((0..16).any(|y| line(&buf, y).contains("solution 2 of 92")));
        app.toggle_unique();
        let buf = draw(&mut app, 80, 16);
        assert!((0..16).any(|y| line(&buf, y).contains("solution 2 of 12")));
        assert!(line(&buf, 0).contains("one solution per symmetry class"));
    }

    #[test]
    fn a_board_without_solutions_says_so() {
        let mut app = App::new(3, Selection::All);
        let buf = draw(&mut app, 80, 12);
        assert!((0..12).any(|y| line(&buf, y).contains("the 3×3 board has no solution")));
        assert!(!(0..12).any(|y| line(&buf, y).contains(QUEEN)));
    }

    #[test]
    fn a_terminal_too_small_gets_a_message_instead_of_a_cut_board() {
        let mut app = App::new(12, Selection::All);
        let buf = draw(&mut app, 20, 10);
        let text: String = (0..10).map(|y| line(&buf, y)).collect();
        assert!(text.contains("needs a terminal"), "{text}");
        assert!(!text.contains(QUEEN));
    }
}
