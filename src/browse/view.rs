//! Drawing the browser: a title, the board in Unicode squares, two lines of text under it, a
//! status line and the keys, each in its own small function.
//!
//! Each square is two terminal cells wide (so the board looks square in most fonts), coloured
//! like the SVG drawing (light `#f0d9b5`, dark `#b58863`); a queen is the `♛` glyph. While a
//! search plays, the square of each step is coloured by what happened to it, the queen that
//! attacks it is marked, and a dot marks every empty square the queens attack.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};
use ratatui::Frame;

use super::app::App;
use super::playback::{Mark, Playback, Square};
use super::solutions::Selection;

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
/// The queens of a solution reached while a search plays.
pub const SOLVED: Color = Color::Rgb(0x6a, 0xbf, 0x69);
/// The queen attacking the square tried.
pub const ATTACKER: Color = Color::Rgb(0xf0, 0x8a, 0x3c);

/// The colour of a square marked by a step of the search.
pub fn mark_colour(mark: Mark) -> Color {
    match mark {
        Mark::Tried => Color::Rgb(0xf5, 0xd7, 0x42),
        Mark::Attacked => Color::Rgb(0xe0, 0x4f, 0x4f),
        Mark::Placed => SOLVED,
        Mark::Removed => Color::Rgb(0x9e, 0x9e, 0x9e),
        Mark::Backtracked => Color::Rgb(0x7a, 0xa6, 0xda),
    }
}

/// Lines around the board: the title, three lines under the board, the status line, the keys.
const TEXT_LINES: u16 = 6;

/// The smallest terminal that shows the `n` x `n` board: two cells per square plus a border,
/// and the lines of text.
pub fn needed_size(n: usize) -> (u16, u16) {
    let side = u16::try_from(n).unwrap_or(u16::MAX);
    (
        side.saturating_mul(2).saturating_add(2),
        side.saturating_add(2 + TEXT_LINES),
    )
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
    let [title, board, first, second, status, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(side + 2),
        Constraint::Length(1),
        Constraint::Length(2),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let [board] = Layout::horizontal([Constraint::Length(2 * side + 2)])
        .flex(Flex::Center)
        .areas(board);
    let block = Block::bordered().title(format!(" {0} × {0} ", app.n()));
    frame.render_widget(&block, board);
    let board = block.inner(board);
    frame.render_widget(title_line(app), title);
    if let Some(playback) = app.playback() {
        render_trace(
            frame,
            playback,
            app.n(),
            [board, first, second, status, keys],
        );
    } else {
        render_browse(frame, app, [board, first, second, status, keys]);
    }
}

fn render_browse(
    frame: &mut Frame,
    app: &mut App,
    [board, first, second, status, keys]: [Rect; 5],
) {
    let queens: Vec<Square> = app
        .current()
        .map(|q| q.iter().copied().enumerate().collect())
        .unwrap_or_default();
    frame.render_widget(
        BoardWidget {
            n: app.n(),
            queens: &queens,
            mark: None,
            attacker: None,
            show_attacks: false,
            solved: false,
        },
        board,
    );
    frame.render_widget(placement_line(&queens), first);
    if let Some(message) = app.message() {
        frame.render_widget(Paragraph::new(message.to_string()).red().centered(), second);
    }
    frame.render_widget(status_line(app), status);
    frame.render_widget(Paragraph::new(browse_keys()).centered(), keys);
}

fn render_trace(frame: &mut Frame, playback: &Playback, n: usize, areas: [Rect; 5]) {
    let [board, first, second, status, keys] = areas;
    if let Some(step) = playback.frame() {
        frame.render_widget(
            BoardWidget {
                n,
                queens: &step.queens,
                mark: step.mark,
                attacker: step.attacker,
                show_attacks: true,
                solved: step.solved,
            },
            board,
        );
        frame.render_widget(Paragraph::new(step.text.clone()).bold().centered(), first);
        frame.render_widget(Paragraph::new(step.arrays.clone()).centered(), second);
    }
    frame.render_widget(trace_status_line(playback), status);
    frame.render_widget(Paragraph::new(trace_keys()).centered(), keys);
}

fn title_line(app: &App) -> Paragraph<'static> {
    let what = match (app.playback(), app.selection()) {
        (Some(p), _) => format!("the {} search", p.algorithm),
        (None, Selection::All) => "every solution".to_string(),
        (None, Selection::Unique) => "one solution per symmetry class".to_string(),
    };
    Paragraph::new(Line::from(vec![
        Span::from("queens browse").bold(),
        Span::from(format!(" · {0}×{0} · {what}", app.n())),
    ]))
    .centered()
}

fn placement_line(queens: &[Square]) -> Paragraph<'static> {
    let text: Vec<String> = queens.iter().map(|(_, c)| c.to_string()).collect();
    Paragraph::new(text.join(" ")).centered()
}

fn status_line(app: &App) -> Paragraph<'static> {
    let text = if let Some(typed) = app.typed() {
        format!(
            "go to solution {typed}_ of {} (Enter: go, Esc: cancel)",
            app.total()
        )
    } else if app.total() == 0 {
        format!("the {0}×{0} board has no solution", app.n())
    } else {
        format!("solution {} of {}", app.index() + 1, app.total())
    };
    Paragraph::new(Span::from(text).bold()).centered()
}

fn trace_status_line(playback: &Playback) -> Paragraph<'static> {
    if playback.is_empty() {
        return Paragraph::new("the search recorded no step").centered();
    }
    let mut text = format!(
        "step {} of {} · {} · {} ms a step",
        playback.position() + 1,
        playback.len(),
        if playback.is_playing() {
            "playing"
        } else {
            "paused"
        },
        playback.delay().as_millis()
    );
    if playback.cut {
        text.push_str(" · recording cut here");
    }
    Paragraph::new(Span::from(text).bold()).centered()
}

fn keys_line(keys: &[(&'static str, &'static str)]) -> Line<'static> {
    let mut spans = Vec::new();
    for (i, &(key, what)) in keys.iter().enumerate() {
        if i > 0 {
            spans.push(Span::from("  "));
        }
        spans.push(Span::from(key).add_modifier(Modifier::BOLD));
        spans.push(Span::from(format!(" {what}")).dim());
    }
    Line::from(spans)
}

fn browse_keys() -> Line<'static> {
    keys_line(&[
        ("↓ j", "next"),
        ("↑ k", "previous"),
        ("g G", "first/last"),
        ("123⏎", "go to"),
        ("u", "unique"),
        ("t", "trace"),
        ("q", "quit"),
    ])
}

fn trace_keys() -> Line<'static> {
    keys_line(&[
        ("space", "play/pause"),
        ("→ ←", "step"),
        ("+ -", "speed"),
        ("a", "solver"),
        ("t", "solutions"),
        ("q", "quit"),
    ])
}

fn render_too_small(frame: &mut Frame, area: Rect, n: usize, (width, height): (u16, u16)) {
    let text = format!(
        "The {n}×{n} board needs a terminal of at least {width}×{height} cells \
         (this one is {}×{}). Enlarge it, or press q to quit.",
        area.width, area.height
    );
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
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
}

impl BoardWidget<'_> {
    fn attacked(&self, (row, col): Square) -> bool {
        self.queens.iter().any(|&(r, c)| {
            (r, c) != (row, col) && (r == row || c == col || r.abs_diff(row) == c.abs_diff(col))
        })
    }
}

impl Widget for BoardWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        for row in 0..self.n {
            for col in 0..self.n {
                let (x, y) = (area.x + 2 * col as u16, area.y + row as u16);
                if x + 1 >= area.right() || y >= area.bottom() {
                    continue;
                }
                let square = (row, col);
                let mut bg = if (row + col) % 2 == 0 { LIGHT } else { DARK };
                if self.attacker == Some(square) {
                    bg = ATTACKER;
                }
                match self.mark {
                    Some((marked, mark)) if marked == square => bg = mark_colour(mark),
                    _ => {}
                }
                if self.solved && self.queens.contains(&square) {
                    bg = SOLVED;
                }
                let glyph = if self.queens.contains(&square) {
                    QUEEN
                } else if self.show_attacks && self.attacked(square) {
                    ATTACKED
                } else {
                    " "
                };
                let style = Style::new().bg(bg).fg(INK);
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

    fn browser(n: usize) -> App {
        App::new(n, Selection::All, queens_core::Algorithm::Backtrack).unwrap()
    }

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
        let mut app = browser(8);
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
        let mut app = browser(4);
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
        let mut app = browser(8);
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
    fn a_number_being_typed_shows_in_the_status_line() {
        use ratatui::crossterm::event::{KeyCode, KeyEvent};
        let mut app = browser(8);
        app.handle_key(KeyEvent::from(KeyCode::Char('4')));
        app.handle_key(KeyEvent::from(KeyCode::Char('2')));
        let buf = draw(&mut app, 80, 16);
        assert!((0..16).any(|y| line(&buf, y).contains("go to solution 42_ of 92")));
        app.handle_key(KeyEvent::from(KeyCode::Enter));
        let buf = draw(&mut app, 80, 16);
        assert_eq!(board_in(&buf, 8), [3, 6, 4, 1, 5, 0, 2, 7]);
        assert!((0..16).any(|y| line(&buf, y).contains("solution 42 of 92")));
    }

    #[test]
    fn a_board_without_solutions_says_so() {
        let mut app = browser(3);
        let buf = draw(&mut app, 80, 12);
        assert!((0..12).any(|y| line(&buf, y).contains("the 3×3 board has no solution")));
        assert!(!(0..12).any(|y| line(&buf, y).contains(QUEEN)));
    }

    #[test]
    fn a_terminal_too_small_gets_a_message_instead_of_a_cut_board() {
        let mut app = browser(12);
        let buf = draw(&mut app, 20, 10);
        let text: String = (0..10).map(|y| line(&buf, y)).collect();
        assert!(text.contains("needs a terminal"), "{text}");
        assert!(!text.contains(QUEEN));
    }

    #[test]
    fn a_step_of_a_search_colours_the_tried_square_and_its_attacker() {
        use crate::browse::playback::{Frame, Playback};
        let mut app = browser(4);
        let frames = vec![
            Frame {
                step: 7,
                queens: vec![(0, 1)],
                mark: Some(((1, 2), Mark::Attacked)),
                attacker: Some((0, 1)),
                solved: false,
                text: "row 1, column 2 is attacked by the queen on row 0, column 1".into(),
                arrays: "positions [1, -1, -1, -1]".into(),
            },
            Frame {
                step: 8,
                queens: vec![(0, 1), (1, 3)],
                mark: Some(((1, 3), Mark::Placed)),
                attacker: None,
                solved: false,
                text: "place a queen on row 1, column 3".into(),
                arrays: "positions [1, 3, -1, -1]".into(),
            },
        ];
        app.open_trace(Playback::new("recursive", frames, false));
        let buf = draw(&mut app, 70, 14);
        let text: Vec<String> = (0..14).map(|y| line(&buf, y)).collect();
        assert!(text[0].contains("the recursive search"), "{text:#?}");
        assert!(
            text.iter()
                .any(|l| l.contains("attacked by the queen on row 0")),
            "{text:#?}"
        );
        assert!(text.iter().any(|l| l.contains("positions [1, -1, -1, -1]")));
        assert!(
            text.iter().any(|l| l.contains("step 1 of 2 · paused")),
            "{text:#?}"
        );
        let (x0, y0) = (0..14)
            .find_map(|y| Some(((0..70).find(|&x| buf[(x, y)].symbol() == "┌")? + 1, y + 1)))
            .unwrap();
        let cell = |row: u16, col: u16| &buf[(x0 + 2 * col, y0 + row)];
        assert_eq!(cell(0, 1).symbol(), QUEEN);
        assert_eq!(cell(0, 1).bg, ATTACKER);
        assert_eq!(cell(1, 2).bg, mark_colour(Mark::Attacked));
        assert_eq!(cell(1, 1).symbol(), ATTACKED, "below the queen");
        assert_eq!(cell(2, 3).symbol(), ATTACKED, "on the queen's diagonal");
        assert_eq!(cell(2, 0).symbol(), " ", "out of the queen's reach");

        app.handle_key(ratatui::crossterm::event::KeyEvent::from(
            ratatui::crossterm::event::KeyCode::Right,
        ));
        let buf = draw(&mut app, 70, 14);
        assert_eq!(buf[(x0 + 6, y0 + 1)].symbol(), QUEEN);
        assert_eq!(buf[(x0 + 6, y0 + 1)].bg, mark_colour(Mark::Placed));
        assert!((0..14).any(|y| line(&buf, y).contains("step 2 of 2")));
    }
}
