//! Drawing the browser: a title, the board in Unicode squares, two lines of text under it, a
//! status line and the keys, each in its own small function.
//!
//! Each square is twice as many terminal cells wide as it is high (so the board looks square in
//! most fonts), and grows with the terminal; row and column numbers frame it. Squares are
//! coloured like the SVG drawing (light `#f0d9b5`, dark `#b58863`); a queen is the `♛` glyph.
//! A small terminal gets a compact layout (no title and no border; 40x15 shows the 8x8 board),
//! and a tiny one past that (the essential keys on one line: a played 8x8 search still fits
//! 40x15); the keys and the legend wrap to the width instead of being cut, a compact layout
//! sets the legend beside the board where it fits, and the step's explanation wraps, never cut.
//! `?` replaces the screen with the help, every key of both modes. While a
//! search plays, the square of each step is coloured by what happened to it, the queen that
//! attacks it is marked, and a dot marks every empty square the queens attack.
//!
//! The jobs are split: [`super::layout`] measures, [`super::board_view`] draws the board,
//! [`super::panels`] the text round it; this module puts them on the screen.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Stylize;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;

use super::app::App;
use super::board_view::{
    legend_lines, BoardWidget, CoordinatesWidget, Geometry, Palette, RowNumbersWidget,
};
use super::layout::{
    essential_keys, geometry, label_width, legend_beside, needed_size, wrap_keys, BROWSE_KEYS,
    HELP, TRACE_KEYS,
};
use super::panels::{
    array_lines, code_panel, placement_line, status_line, title_line, trace_status_line,
    CODE_MIN_WIDTH,
};
use super::playback::{Playback, Square};

/// Draws the whole screen, in colour or (with [`Palette::Mono`]) with text attributes only.
pub fn render(frame: &mut Frame, app: &mut App, palette: Palette) {
    let area = frame.area();
    if let Some(scroll) = app.help() {
        let last = render_help(frame, area, scroll);
        app.keep_help_within(last);
        return;
    }
    let n = app.n();
    let keys: &[(&str, &str)] = if app.playback().is_some() {
        &TRACE_KEYS
    } else {
        &BROWSE_KEYS
    };
    let Some(geometry) = geometry(n, area, keys) else {
        render_too_small(frame, area, n, needed_size(n, keys));
        return;
    };
    let side = n as u16 * geometry.scale;
    let mut key_lines = if geometry.tiny {
        wrap_keys(&essential_keys(keys, area.width), area.width)
    } else {
        wrap_keys(keys, area.width)
    };
    let labels = label_width(n);
    let border = if geometry.compact { 0 } else { 2 };
    let board_width = n as u16 * geometry.square_width() + border + labels;
    // Without a border the legend of a played search stands beside the board when it fits,
    // which leaves the lines under the board to the step's explanation.
    let beside = if app.playback().is_some() && geometry.compact {
        legend_beside(side, area.width.saturating_sub(board_width), palette)
    } else {
        None
    };
    if app.playback().is_some() && beside.is_none() {
        let legend = legend_lines(area.width, palette);
        let room = area
            .height
            .saturating_sub(side + 3 + key_lines.len() as u16);
        if !geometry.tiny || legend.len() as u16 <= room {
            key_lines.splice(0..0, legend);
        }
    }
    let mut second_height = match (geometry.compact, geometry.tiny) {
        (_, true) => 0,
        (true, false) => 1,
        (false, false) => 2,
    };
    // The step's explanation is never cut: it takes the lines it needs from those left over,
    // then from the arrays' lines (the arrays come back at a shorter step).
    let mut first_height = 1;
    if let Some(step) = app.playback().and_then(Playback::frame) {
        let needed = wrapped_height(&step.text, area.width);
        let used = u16::from(geometry.title)
            + 1
            + side
            + border
            + 1
            + second_height
            + 1
            + key_lines.len() as u16;
        let spare = area.height.saturating_sub(used);
        let more = needed.saturating_sub(1);
        let from_spare = more.min(spare);
        let from_arrays = (more - from_spare).min(second_height);
        first_height += from_spare + from_arrays;
        second_height -= from_arrays;
    }
    let [title, columns, board, first, second, status, keys_area] = Layout::vertical([
        Constraint::Length(u16::from(geometry.title)),
        Constraint::Length(1),
        Constraint::Length(side + border),
        Constraint::Length(first_height),
        Constraint::Length(second_height),
        Constraint::Length(1),
        Constraint::Length(key_lines.len() as u16),
    ])
    .areas(area);
    // While a search plays on a wide enough terminal, the board moves left to make room for
    // the algorithm's code beside it.
    let listing = app
        .playback()
        .and_then(|p| super::code::listing(p.algorithm));
    let longest_code = listing.map_or(0, |l| {
        l.lines
            .iter()
            .chain(std::iter::once(&l.title))
            .map(|s| s.chars().count() as u16 + 2)
            .max()
            .unwrap_or(0)
    });
    // Beside the board only, as tall as the board with its border (a long listing is shortened
    // round the running lines).
    let with_code = app.playback().is_some()
        && !geometry.compact
        && board_width + 2 + CODE_MIN_WIDTH.max(longest_code.min(60)) <= area.width;
    let left = if with_code {
        let spare = area.width.saturating_sub(board_width + 2 + longest_code);
        area.x + spare / 2
    } else if let Some((_, width)) = &beside {
        area.x + area.width.saturating_sub(board_width + 2 + width) / 2
    } else {
        area.x + area.width.saturating_sub(board_width) / 2
    };
    let columns = Rect {
        x: left,
        width: board_width.min(area.width),
        ..columns
    };
    let board = Rect {
        x: left,
        width: board_width.min(area.width),
        ..board
    };
    let [row_numbers, board] =
        Layout::horizontal([Constraint::Length(labels), Constraint::Fill(1)]).areas(board);
    let board = if geometry.compact {
        board
    } else {
        let block = Block::bordered().title(format!(" {0} × {0} ", n));
        frame.render_widget(&block, board);
        block.inner(board)
    };
    frame.render_widget(
        CoordinatesWidget {
            n,
            geometry,
            left: board.x,
        },
        columns,
    );
    frame.render_widget(
        RowNumbersWidget {
            n,
            geometry,
            top: board.y,
        },
        row_numbers,
    );
    if geometry.title {
        frame.render_widget(title_line(app), title);
    }
    if let Some((legend, width)) = beside {
        let x = board.right() + 2;
        let legend_area = Rect {
            x,
            y: board.y,
            width: width.min(area.right().saturating_sub(x)),
            height: board.height,
        };
        frame.render_widget(Paragraph::new(legend), legend_area);
    }
    if let Some(playback) = app.playback() {
        let look = Look { geometry, palette };
        render_trace(frame, playback, n, look, [board, first, second, status]);
        if let Some(message) = app.message() {
            frame.render_widget(warning(message, palette).centered(), status);
        }
        // The algorithm's code beside the board, where the terminal is wide enough.
        let right = board.right() + 2;
        if with_code && right < area.right() {
            let code_area = Rect {
                x: right,
                y: board.y.saturating_sub(1),
                width: area.right() - right,
                height: board.height + 2,
            };
            if let Some(step) = playback.frame() {
                frame.render_widget(
                    code_panel(playback.algorithm, step.kind, usize::from(code_area.height)),
                    code_area,
                );
            }
        }
    } else {
        let look = Look { geometry, palette };
        render_browse(frame, app, look, [board, first, second, status]);
    }
    frame.render_widget(
        Paragraph::new(key_lines).alignment(ratatui::layout::Alignment::Center),
        keys_area,
    );
}

/// How the board is drawn: its geometry and its palette.
#[derive(Clone, Copy)]
struct Look {
    geometry: Geometry,
    palette: Palette,
}

/// A note for the user: in red, or in bold without colour.
fn warning(message: &str, palette: Palette) -> Paragraph<'static> {
    let text = Paragraph::new(message.to_string());
    match palette {
        Palette::Colour => text.red(),
        Palette::Mono => text.bold(),
    }
}

fn render_browse(
    frame: &mut Frame,
    app: &mut App,
    Look { geometry, palette }: Look,
    [board, first, second, status]: [Rect; 4],
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
            scale: geometry.scale,
            palette,
        },
        board,
    );
    frame.render_widget(placement_line(&queens), first);
    if let Some(message) = app.message() {
        frame.render_widget(
            warning(message, palette)
                .centered()
                .wrap(Wrap { trim: true }),
            second,
        );
    }
    frame.render_widget(status_line(app), status);
}

fn render_trace(
    frame: &mut Frame,
    playback: &Playback,
    n: usize,
    Look { geometry, palette }: Look,
    [board, first, second, status]: [Rect; 4],
) {
    if let Some(step) = playback.frame() {
        frame.render_widget(
            BoardWidget {
                n,
                queens: &step.queens,
                mark: step.mark,
                attacker: step.attacker,
                show_attacks: true,
                solved: step.solved,
                scale: geometry.scale,
                palette,
            },
            board,
        );
        frame.render_widget(
            Paragraph::new(step.text.clone())
                .bold()
                .centered()
                .wrap(Wrap { trim: true }),
            first,
        );
        let table = array_lines(step, second.width);
        let paragraph = match table {
            Some(lines) if !geometry.compact => Paragraph::new(lines),
            _ => Paragraph::new(step.arrays.clone()).wrap(Wrap { trim: true }),
        };
        frame.render_widget(paragraph.centered(), second);
    }
    frame.render_widget(trace_status_line(playback), status);
}

/// The help screen: every key of both modes, scrolled by `scroll` lines (at most the last
/// scroll that still fills the screen, which it returns).
fn render_help(frame: &mut Frame, area: Rect, scroll: u16) -> u16 {
    let key_width = HELP
        .iter()
        .flat_map(|(_, keys)| keys.iter())
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0)
        + 2;
    let mut lines = vec![
        Line::from("queens browse · keys (↓ ↑ PgDn PgUp scroll, any other key closes this)").bold(),
        Line::default(),
    ];
    for (mode, keys) in HELP {
        lines.push(Line::from(mode).underlined());
        for (key, what) in keys {
            let key = format!("  {key:<key_width$}");
            lines.push(Line::from(vec![Span::from(key).bold(), Span::from(*what)]));
        }
        lines.push(Line::default());
    }
    let paragraph = Paragraph::new(lines).wrap(Wrap { trim: false });
    // The height as ratatui wraps it, so that the last line can always be scrolled to.
    let height = u16::try_from(paragraph.line_count(area.width)).unwrap_or(u16::MAX);
    let last = height.saturating_sub(area.height);
    frame.render_widget(paragraph.scroll((scroll.min(last), 0)), area);
    last
}

/// How many lines `text` takes wrapped word by word to `width` cells (at least one; a word
/// longer than the width takes lines of its own), as ratatui's wrapping lays it out.
fn wrapped_height(text: &str, width: u16) -> u16 {
    let width = usize::from(width.max(1));
    let mut lines = 0usize;
    for line in text.split('\n') {
        let mut used = 0usize;
        lines += 1;
        for word in line.split_whitespace() {
            let size = word.chars().count();
            if used > 0 && used + 1 + size > width {
                lines += 1;
                used = 0;
            }
            if used > 0 {
                used += 1;
            }
            used += size;
            while used > width {
                lines += 1;
                used -= width;
            }
        }
    }
    u16::try_from(lines).unwrap_or(u16::MAX)
}

fn render_too_small(frame: &mut Frame, area: Rect, n: usize, (width, height): (u16, u16)) {
    let text = format!(
        "The {n}×{n} board needs a terminal of at least {width}×{height} cells \
         (this one is {}×{}). Enlarge it, or press q to quit.",
        area.width, area.height
    );
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

#[cfg(test)]
mod tests {
    /// The words of the legend, one a mark of the board.
    const LEGEND: [&str; 7] = [
        "tried",
        "conflict",
        "attacker",
        "placed",
        "removed",
        "backtrack",
        "solution",
    ];

    use super::*;
    use crate::browse::board_view::*;
    use crate::browse::playback::Mark;
    use crate::browse::solutions::Selection;
    use ratatui::backend::TestBackend;
    use ratatui::buffer::Buffer;
    use ratatui::style::{Color, Modifier};
    use ratatui::Terminal;

    fn browser(n: usize) -> App {
        App::new(n, Selection::All, queens_core::Algorithm::Backtrack).unwrap()
    }

    /// Presses the right arrow: one step on.
    fn step_on(app: &mut App) {
        app.handle_key(ratatui::crossterm::event::KeyEvent::from(
            ratatui::crossterm::event::KeyCode::Right,
        ));
    }

    /// The backtrack search of `n` x `n`, `steps` steps in.
    fn played(n: usize, steps: usize) -> App {
        let mut app = browser(n);
        app.open_trace(
            crate::browse::recording::record(n, queens_core::Algorithm::Backtrack).unwrap(),
        );
        for _ in 0..steps {
            step_on(&mut app);
        }
        app
    }

    fn draw(app: &mut App, width: u16, height: u16) -> Buffer {
        draw_in(app, width, height, Palette::Colour)
    }

    fn draw_in(app: &mut App, width: u16, height: u16, palette: Palette) -> Buffer {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| render(frame, app, palette)).unwrap();
        terminal.backend().buffer().clone()
    }

    fn line(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol())
            .collect::<String>()
    }

    /// The board's top-left cell: inside the border in the full layout, right of the row
    /// numbers in the compact one (where the row-0 label "0" stands).
    fn origin(buf: &Buffer) -> (u16, u16) {
        (0..buf.area.height)
            .find_map(|y| {
                let x = (0..buf.area.width).find(|&x| buf[(x, y)].symbol() == "┌")?;
                Some((x + 1, y + 1))
            })
            .expect("the board's border")
    }

    /// The board drawn in the buffer at `scale`: for each row, the column of the queen glyph.
    fn board_at(buf: &Buffer, n: usize, (x0, y0): (u16, u16), scale: u16) -> Vec<usize> {
        (0..n as u16)
            .map(|row| {
                let cols: Vec<usize> = (0..n as u16 * 2 * scale)
                    .filter(|&dx| {
                        (0..scale).any(|dy| buf[(x0 + dx, y0 + row * scale + dy)].symbol() == QUEEN)
                    })
                    .map(|dx| usize::from(dx / (2 * scale)))
                    .collect();
                assert_eq!(cols.len(), 1, "row {row} holds one queen");
                cols[0]
            })
            .collect()
    }

    /// The board drawn in the buffer of the full layout at scale 1.
    fn board_in(buf: &Buffer, n: usize) -> Vec<usize> {
        board_at(buf, n, origin(buf), 1)
    }

    #[test]
    fn the_first_board_of_eight_is_drawn_with_its_status_line() {
        let mut app = browser(8);
        let buf = draw(&mut app, 80, 17);
        assert_eq!(board_in(&buf, 8), [0, 4, 7, 5, 2, 6, 1, 3]);
        let text: Vec<String> = (0..17).map(|y| line(&buf, y)).collect();
        assert!(
            text[0].contains("queens browse · 8×8 · every solution"),
            "{text:#?}"
        );
        assert!(shows(&text, "0 4 7 5 2 6 1 3"), "{text:#?}");
        assert!(shows(&text, "solution 1 of 92"), "{text:#?}");
        assert!(shows(&text, "q quit"), "{text:#?}");
    }

    #[test]
    fn squares_are_two_cells_in_the_svg_colours() {
        let mut app = browser(4);
        let buf = draw(&mut app, 60, 13);
        assert_eq!(
            geometry(4, buf.area, &BROWSE_KEYS).map(|g| g.scale),
            Some(1)
        );
        let (x0, y0) = origin(&buf);
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
        let buf = draw(&mut app, 80, 17);
        assert_eq!(board_in(&buf, 8), [0, 5, 7, 2, 6, 3, 1, 4]);
        assert!((0..17).any(|y| line(&buf, y).contains("solution 2 of 92")));
        app.toggle_unique();
        let buf = draw(&mut app, 80, 17);
        assert!((0..17).any(|y| line(&buf, y).contains("solution 2 of 12")));
        assert!(line(&buf, 0).contains("one solution per symmetry class"));
    }

    #[test]
    fn a_number_being_typed_shows_in_the_status_line() {
        use ratatui::crossterm::event::{KeyCode, KeyEvent};
        let mut app = browser(8);
        app.handle_key(KeyEvent::from(KeyCode::Char('4')));
        app.handle_key(KeyEvent::from(KeyCode::Char('2')));
        let buf = draw(&mut app, 80, 17);
        assert!((0..17).any(|y| line(&buf, y).contains("go to solution 42_ of 92")));
        app.handle_key(KeyEvent::from(KeyCode::Enter));
        let buf = draw(&mut app, 80, 17);
        assert_eq!(board_in(&buf, 8), [3, 6, 4, 1, 5, 0, 2, 7]);
        assert!((0..17).any(|y| line(&buf, y).contains("solution 42 of 92")));
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

    /// `--color never` and `NO_COLOR`: not one cell has a colour, the dark squares are in
    /// reverse video, and each mark is a sign beside the glyph that the legend explains.
    #[test]
    fn without_colour_the_board_uses_reverse_video_and_signs() {
        use crate::browse::playback::{Frame, Playback};
        let mut app = browser(4);
        let browse = draw_in(&mut app, 70, 24, Palette::Mono);
        let (x0, y0) = origin(&browse);
        let reversed = |x: u16, y: u16| browse[(x, y)].modifier.contains(Modifier::REVERSED);
        // The width of a square: the run of cells as light as the first.
        let width = (x0..x0 + 16).take_while(|&x| !reversed(x, y0)).count() as u16;
        let scale = width / 2;
        assert!(scale >= 1, "a square is at least two cells wide");
        for row in 0..4u16 {
            for col in 0..4u16 {
                let cell = &browse[(x0 + width * col, y0 + scale * row)];
                let dark = (row + col) % 2 == 1;
                assert_eq!(
                    cell.modifier.contains(Modifier::REVERSED),
                    dark,
                    "{row},{col}"
                );
            }
        }
        let frames = vec![Frame {
            step: 7,
            kind: "conflict",
            queens: vec![(0, 1)],
            mark: Some(((1, 2), Mark::Attacked)),
            attacker: Some((0, 1)),
            text: "row 1, column 2 is attacked by the queen on row 0, column 1".into(),
            arrays: "positions [1, -1, -1, -1]".into(),
            ..Default::default()
        }];
        app.open_trace(Playback::new("recursive", frames, false));
        // 16 lines: squares of one line, as in the coloured test below.
        let buf = draw_in(&mut app, 70, 16, Palette::Mono);
        for y in 0..buf.area.height {
            for x in 0..buf.area.width {
                let cell = &buf[(x, y)];
                assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset), "{x},{y}");
            }
        }
        let (x0, y0) = origin(&buf);
        let cell = |row: u16, col: u16, dx: u16| buf[(x0 + 2 * col + dx, y0 + row)].symbol();
        assert_eq!((cell(0, 1, 0), cell(0, 1, 1)), (QUEEN, ATTACKER_SIGN));
        assert_eq!(cell(1, 2, 1), mark_sign(Mark::Attacked));
        assert_eq!(cell(1, 1, 0), ATTACKED, "the attacked dots stay");
        let text: String = (0..16).map(|y| line(&buf, y) + "\n").collect();
        for (sign, what) in [
            (mark_sign(Mark::Tried), "tried"),
            (mark_sign(Mark::Attacked), "conflict"),
            (ATTACKER_SIGN, "attacker"),
            (mark_sign(Mark::Placed), "placed"),
            (mark_sign(Mark::Removed), "removed"),
            (mark_sign(Mark::Backtracked), "backtrack"),
            (SOLVED_SIGN, "solution"),
        ] {
            assert!(text.contains(&format!("{sign}  {what}")), "{what}: {text}");
        }
        // Both palettes wrap the legend to the same lines, so the layout is the same.
        for width in [30, 40, 80] {
            let widths = |p| {
                legend_lines(width, p)
                    .iter()
                    .map(|l| l.width())
                    .collect::<Vec<_>>()
            };
            assert_eq!(widths(Palette::Mono), widths(Palette::Colour), "{width}");
        }
    }

    #[test]
    fn a_step_of_a_search_colours_the_tried_square_and_its_attacker() {
        use crate::browse::playback::{Frame, Playback};
        let mut app = browser(4);
        let frames = vec![
            Frame {
                step: 7,
                kind: "conflict",
                queens: vec![(0, 1)],
                mark: Some(((1, 2), Mark::Attacked)),
                attacker: Some((0, 1)),
                solved: false,
                text: "row 1, column 2 is attacked by the queen on row 0, column 1".into(),
                arrays: "positions [1, -1, -1, -1]".into(),
                ..Default::default()
            },
            Frame {
                step: 8,
                kind: "place",
                queens: vec![(0, 1), (1, 3)],
                mark: Some(((1, 3), Mark::Placed)),
                attacker: None,
                solved: false,
                text: "place a queen on row 1, column 3".into(),
                arrays: "positions [1, 3, -1, -1]".into(),
                ..Default::default()
            },
        ];
        app.open_trace(Playback::new("recursive", frames, false));
        // 16 lines: the board, its text, the two lines of the legend, the keys and the title.
        let buf = draw(&mut app, 70, 16);
        let text: Vec<String> = (0..16).map(|y| line(&buf, y)).collect();
        assert!(text[0].contains("the recursive search"), "{text:#?}");
        assert!(
            text.iter()
                .any(|l| l.contains("attacked by the queen on row 0")),
            "{text:#?}"
        );
        assert!(shows(&text, "positions [1, -1, -1, -1]"));
        assert!(shows(&text, "step 1 of 2 · paused"), "{text:#?}");
        let (x0, y0) = (0..16)
            .find_map(|y| Some(((0..70).find(|&x| buf[(x, y)].symbol() == "┌")? + 1, y + 1)))
            .unwrap();
        let cell = |row: u16, col: u16| &buf[(x0 + 2 * col, y0 + row)];
        assert_eq!(cell(0, 1).symbol(), QUEEN);
        assert_eq!(cell(0, 1).bg, ATTACKER);
        assert_eq!(cell(1, 2).bg, mark_colour(Mark::Attacked));
        assert_eq!(cell(1, 1).symbol(), ATTACKED, "below the queen");
        assert_eq!(cell(2, 3).symbol(), ATTACKED, "on the queen's diagonal");
        assert_eq!(cell(2, 0).symbol(), " ", "out of the queen's reach");

        step_on(&mut app);
        let buf = draw(&mut app, 70, 16);
        assert_eq!(buf[(x0 + 6, y0 + 1)].symbol(), QUEEN);
        assert_eq!(buf[(x0 + 6, y0 + 1)].bg, mark_colour(Mark::Placed));
        assert!((0..16).any(|y| line(&buf, y).contains("step 2 of 2")));
    }

    /// Every line of the screen, for assertions on text.
    /// The screen's lines after drawing `app` on a `width` x `height` terminal.
    fn drawn_text(app: &mut App, width: u16, height: u16) -> Vec<String> {
        screen(&draw(app, width, height))
    }

    /// Whether a line of `text` shows `needle`.
    fn shows(text: &[String], needle: &str) -> bool {
        text.iter().any(|l| l.contains(needle))
    }

    /// The lines of `text` that show `needle`.
    fn lines_with<'a>(text: &'a [String], needle: &str) -> Vec<&'a String> {
        text.iter().filter(|l| l.contains(needle)).collect()
    }

    fn screen(buf: &Buffer) -> Vec<String> {
        (0..buf.area.height).map(|y| line(buf, y)).collect()
    }

    #[test]
    fn a_40_by_15_terminal_gets_the_compact_layout_with_every_key() {
        let mut app = browser(8);
        let buf = draw(&mut app, 40, 15);
        let g = geometry(8, buf.area, &BROWSE_KEYS).expect("8x8 fits 40x15");
        assert!(g.compact && !g.title, "{g:?}");
        let text = screen(&buf);
        assert!(!shows(&text, "┌"), "no border: {text:#?}");
        // The column numbers are on line 0; the row numbers in the first cells of lines 1..=8.
        assert!(text[0].contains("0 1 2 3 4 5 6 7"), "{text:#?}");
        let x0 = (0..40).find(|&x| buf[(x, 1)].symbol() == "0").unwrap() + 2;
        assert_eq!(board_at(&buf, 8, (x0, 1), 1), [0, 4, 7, 5, 2, 6, 1, 3]);
        let all: String = text.concat();
        for key in [
            "next", "previous", "ends", "go to", "unique", "trace", "q quit",
        ] {
            assert!(all.contains(key), "{key} is shown: {text:#?}");
        }
        assert!(all.contains("solution 1 of 92"), "{text:#?}");
    }

    #[test]
    fn an_80_by_24_terminal_doubles_the_squares_with_border_and_coordinates() {
        let mut app = browser(8);
        let buf = draw(&mut app, 80, 24);
        let g = geometry(8, buf.area, &BROWSE_KEYS).unwrap();
        // The board takes the height a title would need: 2 rows and 4 cells per square.
        assert_eq!((g.scale, g.compact, g.title), (2, false, false));
        let text = screen(&buf);
        let (x0, y0) = origin(&buf);
        // Column numbers above the border, one at each square's left cell.
        for col in 0..8u16 {
            assert_eq!(
                buf[(x0 + 4 * col + 2, y0 - 2)].symbol(),
                col.to_string(),
                "{text:#?}"
            );
        }
        // Row numbers left of the border, on each square's first line.
        for row in 0..8u16 {
            let y = y0 + 2 * row;
            let label: String = (0..x0 - 1).map(|x| buf[(x, y)].symbol()).collect();
            assert_eq!(
                label.trim(),
                row.to_string(),
                "row label of {row}: {text:#?}"
            );
        }
        assert_eq!(board_at(&buf, 8, (x0, y0), 2), [0, 4, 7, 5, 2, 6, 1, 3]);
        assert!(shows(&text, "solution 1 of 92"));
    }

    #[test]
    fn the_board_grows_with_a_200_by_60_terminal() {
        let mut app = browser(8);
        let buf = draw(&mut app, 200, 60);
        let g = geometry(8, buf.area, &BROWSE_KEYS).unwrap();
        assert!(g.scale >= 5, "{g:?}");
        let (x0, y0) = origin(&buf);
        assert_eq!(
            board_at(&buf, 8, (x0, y0), g.scale),
            [0, 4, 7, 5, 2, 6, 1, 3]
        );
        // A whole square is painted: its last cell still has the square's colour.
        let s = g.scale;
        assert_eq!(buf[(x0 + 2 * s - 1, y0 + s - 1)].bg, LIGHT);
        assert_eq!(buf[(x0 + 2 * s, y0)].bg, DARK);
    }

    /// The terminal's colours are the web page's: each mark's colour appears in the page's
    /// style sheet, on the rule of the same step.
    #[test]
    fn the_marks_use_the_colours_of_the_web_page() {
        let css = include_str!("../../assets/style.css").to_lowercase();
        let hex = |c: Color| match c {
            Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
            other => panic!("{other:?} is not a 24-bit colour"),
        };
        for (mark, rule) in [
            (Mark::Tried, ".square.tried"),
            (Mark::Attacked, ".square.conflict"),
            (Mark::Placed, ".square.placed"),
            (Mark::Removed, ".square.removed"),
            (Mark::Backtracked, ".swatch.backtrack"),
        ] {
            let line = css
                .lines()
                .find(|l| l.contains(rule))
                .unwrap_or_else(|| panic!("the page styles {rule}"));
            assert!(line.contains(&hex(mark_colour(mark))), "{rule}: {line}");
        }
        assert!(css.contains(&hex(ATTACKER)));
        assert!(css.contains(&hex(SOLVED)));
    }

    #[test]
    fn a_wide_terminal_shows_the_algorithm_code_with_the_running_line_marked() {
        // Step 4 of backtracking on 6x6 is the row conflict of (0, 1) with (0, 0).
        let mut app = played(6, 3);
        let text = drawn_text(&mut app, 120, 30);
        assert!(shows(&text, "COMP 333 solve loop"), "{text:#?}");
        // A conflict runs setPosition(col, row), the test and setPosition(col, −1).
        let marked = lines_with(&text, "▶");
        assert_eq!(marked.len(), 3, "{text:#?}");
        assert!(marked[0].contains("setPosition(col, row)"), "{text:#?}");
        assert!(marked[1].contains("hasConflictCumulative"), "{text:#?}");
        assert!(marked[2].contains("setPosition(col, −1)"), "{text:#?}");
        // Too narrow for the panel: the board alone.
        assert!(!shows(&drawn_text(&mut app, 60, 30), "▶"));
    }

    #[test]
    fn the_arrays_are_rows_of_indexed_cells_with_the_changed_entry_reversed() {
        // Step 3 tries (0, 1): column 1 is the entry concerned; its untried entry is already 1.
        let mut app = played(6, 2);
        let buf = draw(&mut app, 100, 24);
        let text = screen(&buf);
        let header = text
            .iter()
            .position(|l| l.contains("column") && l.contains("0  1  2  3  4  5"))
            .unwrap_or_else(|| panic!("an index line: {text:#?}"));
        let values = &text[header + 1];
        assert!(values.contains("positions   0 -1 -1 -1 -1 -1"), "{values}");
        assert!(
            values.contains("first untried   1  1  0  0  0  0"),
            "{values}"
        );
        let y = header as u16 + 1;
        let reversed: Vec<String> = (0..100)
            .filter(|&x| buf[(x, y)].modifier.contains(Modifier::REVERSED))
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect();
        // Column 1's cells in both arrays: "-1" and " 1" (with their padding).
        assert_eq!(reversed.concat().replace(' ', ""), "-11", "{reversed:?}");
    }

    #[test]
    fn the_keys_wrap_to_the_width_instead_of_being_cut() {
        let lines = wrap_keys(&BROWSE_KEYS, 30);
        assert!(lines.len() > 1);
        for l in &lines {
            assert!(l.width() <= 30, "{l:?}");
        }
        let text: String = lines.iter().map(|l| l.to_string()).collect();
        assert!(text.contains("q quit"));
    }

    #[test]
    fn at_80_by_24_a_played_search_keeps_a_shortened_listing_and_the_whole_legend() {
        // Step 4: the row conflict of (0, 1) with (0, 0).
        let mut app = played(8, 3);
        let buf = draw(&mut app, 80, 24);
        let text = screen(&buf);
        assert!(shows(&text, "COMP 333 solve loop"), "{text:#?}");
        let marked = lines_with(&text, "▶");
        assert!(
            marked.iter().any(|l| l.contains("hasConflictCumulative")),
            "{text:#?}"
        );
        assert!(
            text.iter().any(|l| l.trim_end().ends_with('…')),
            "17 lines shortened: {text:#?}"
        );
        let code_lines = text.iter().filter(|l| l.contains("col")).count();
        assert!(code_lines < 17, "{text:#?}");
        // Every entry of the legend, whole.
        let all: String = text.join("\n");
        for what in LEGEND {
            assert!(all.contains(&format!(" {what}")), "{what}: {text:#?}");
        }
        for lines in [
            legend_lines(80, Palette::Colour),
            legend_lines(30, Palette::Colour),
        ] {
            for l in &lines {
                assert!(l.width() <= 80, "{l:?}");
            }
        }
        assert!(
            legend_lines(30, Palette::Colour).len() > 1,
            "wrapped, not cut"
        );
        let (x0, y0) = origin(&buf);
        assert_eq!(
            buf[(x0, y0)].symbol(),
            QUEEN,
            "the queen of column 0 on row 0"
        );
    }

    #[test]
    fn question_mark_shows_every_key_of_both_modes_and_the_key_lines_name_it() {
        use ratatui::crossterm::event::{KeyCode, KeyEvent};
        let mut app = browser(8);
        assert!(shows(&drawn_text(&mut app, 80, 24), "? help"));
        assert!(shows(&drawn_text(&mut played(8, 1), 80, 24), "? help"));
        app.handle_key(KeyEvent::from(KeyCode::Char('?')));
        let text = drawn_text(&mut app, 80, 30);
        assert!(
            !shows(&text, "solution 1 of 92"),
            "the help replaces the board: {text:#?}"
        );
        for (mode, keys) in HELP {
            assert!(shows(&text, mode), "{mode}: {text:#?}");
            for (key, what) in keys {
                let entry = lines_with(&text, what);
                assert!(
                    entry.iter().any(|l| l.contains(key)),
                    "{key} {what}: {text:#?}"
                );
            }
        }
        // Every key of the key lines is in the help.
        for (key, _) in BROWSE_KEYS.iter().chain(TRACE_KEYS.iter()) {
            for part in key.split(' ').filter(|p| *p != "123⏎") {
                assert!(shows(&text, part), "{part}: {text:#?}");
            }
        }
        // At 40x15 the help scrolls: its last line comes into view.
        let last = HELP[1].1.last().expect("a key").1;
        let small = drawn_text(&mut app, 40, 15);
        assert!(!shows(&small, last), "{small:#?}");
        for _ in 0..30 {
            app.handle_key(KeyEvent::from(KeyCode::Down));
        }
        assert!(shows(&drawn_text(&mut app, 40, 15), last));
        // At 40x10 too, where the title and entries wrap; ↑ after scrolling past the end
        // moves at once.
        let tiny = |app: &mut App| drawn_text(app, 40, 10);
        for _ in 0..100 {
            app.handle_key(KeyEvent::from(KeyCode::Down));
            let _ = tiny(&mut app);
        }
        let bottom = tiny(&mut app);
        assert!(shows(&bottom, last), "{bottom:#?}");
        app.handle_key(KeyEvent::from(KeyCode::Up));
        assert_ne!(tiny(&mut app), bottom, "↑ scrolls back at once");
        app.handle_key(KeyEvent::from(KeyCode::Char('x')));
        assert!(shows(&drawn_text(&mut app, 80, 24), "solution 1 of 92"));
    }

    #[test]
    fn at_40_by_15_the_explanation_is_whole_and_the_legend_names_the_dot() {
        let mut app = played(8, 0);
        let mut longest = 0;
        for _ in 0..400 {
            step_on(&mut app);
            let said = app.playback().unwrap().frame().unwrap().text.clone();
            let text = drawn_text(&mut app, 40, 15);
            let flat = text
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(flat.contains(&said), "'{said}' is cut: {text:#?}");
            longest = longest.max(said.chars().count());
            for what in LEGEND {
                assert!(shows(&text, what), "the legend names {what}: {text:#?}");
            }
            let dot = lines_with(&text, "attacked");
            assert!(
                dot.iter().any(|l| l.contains("·  attacked")),
                "the legend names the dot: {text:#?}"
            );
            assert!(
                shows(&text, "q quit") && shows(&text, "? help"),
                "{text:#?}"
            );
        }
        assert!(longest > 40, "some explanation takes two lines: {longest}");
    }

    #[test]
    fn a_40_by_15_terminal_plays_the_search_on_an_8x8_board_with_the_essential_keys() {
        let mut app = played(8, 3);
        let buf = draw(&mut app, 40, 15);
        let text = screen(&buf);
        assert!(!shows(&text, "needs a terminal"), "{text:#?}");
        let g = geometry(8, buf.area, &TRACE_KEYS).expect("a tiny layout");
        assert!(g.tiny && g.compact, "{g:?}");
        // The board: 8 rows of squares two cells wide, right of the row numbers.
        let y0 = (0..15)
            .find(|&y| (0..40).any(|x| buf[(x, y)].symbol() == QUEEN))
            .expect("a queen on screen");
        let x0 = (0..40).find(|&x| buf[(x, y0)].bg != Color::Reset).unwrap();
        let squares: Vec<u16> = (0..40)
            .filter(|&x| buf[(x, y0 + 7)].bg != Color::Reset)
            .collect();
        assert!(squares.len() >= 16, "row 7 of the board: {text:#?}");
        assert_eq!(
            buf[(x0, y0)].symbol(),
            QUEEN,
            "(0, 0) holds the first queen"
        );
        assert!(shows(&text, "step 4 of"), "{text:#?}");
        assert!(shows(&text, "q quit"), "{text:#?}");
        assert!(shows(&text, "space play"), "{text:#?}");
        // Smaller still: the message.
        assert!(drawn_text(&mut app, 30, 10)
            .join("")
            .contains("needs a terminal"));
    }
}
