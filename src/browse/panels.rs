//! The text round the terminal browser's board: the title, the placement or step, the arrays as
//! rows of indexed cells, the algorithm's code with its running lines
//! (shortened to fit), and the status lines. Each returns a ratatui line or paragraph.

use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::app::App;
use super::playback::{Frame as Step, Playback, Square};
use super::solutions::Selection;

/// The solver's arrays as a teacher draws them: a line of indices, then each array as a row of
/// cells under them, the entry the step changed (or concerns) reversed. `None` when they do not
/// fit `width` (the plain text is shown instead).
pub(super) fn array_lines(step: &Step, width: u16) -> Option<Vec<Line<'static>>> {
    if step.positions.is_empty() {
        return None;
    }
    let n = step.positions.len();
    let cell = n.saturating_sub(1).to_string().len().max(2) + 1;
    let label = "positions ";
    let untried_label = "   first untried ";
    let row_width = |cells: usize| cells * cell;
    let wanted = label.len()
        + row_width(n)
        + step
            .untried
            .as_ref()
            .map_or(0, |u| untried_label.len() + row_width(u.len()));
    if wanted > usize::from(width) {
        return None;
    }
    let marked = Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD);
    let cells = |values: Vec<String>| -> Vec<Span<'static>> {
        values
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                let text = format!("{v:>cell$}");
                if Some(i) == step.changed {
                    Span::styled(text, marked)
                } else {
                    Span::from(text)
                }
            })
            .collect()
    };
    let index: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    let mut header = vec![Span::from(format!("{:>w$}", step.axis, w = label.len() - 1)).dim()];
    header.push(Span::from(" "));
    header.extend(
        index
            .iter()
            .map(|i| Span::from(format!("{i:>cell$}")).dim()),
    );
    let mut values = vec![Span::from(label)];
    values.extend(cells(
        step.positions.iter().map(|p| p.to_string()).collect(),
    ));
    if let Some(untried) = &step.untried {
        header.push(Span::from(format!("{:w$}", "", w = untried_label.len())));
        header.extend(
            index
                .iter()
                .map(|i| Span::from(format!("{i:>cell$}")).dim()),
        );
        values.push(Span::from(untried_label));
        values.extend(cells(untried.iter().map(|u| u.to_string()).collect()));
    }
    Some(vec![Line::from(header), Line::from(values)])
}

/// The narrowest code panel drawn beside the board.
pub(super) const CODE_MIN_WIDTH: u16 = 36;

/// The algorithm's pseudo-code, in at most `height` lines, with the lines the step runs
/// highlighted (▶ and reversed). A listing longer than that is shortened to the lines round
/// the running ones, `…` standing for the lines left out above or below.
pub(super) fn code_panel(algorithm: &str, kind: &str, height: usize) -> Paragraph<'static> {
    let Some(listing) = super::code::listing(algorithm) else {
        return Paragraph::new("");
    };
    let running = listing.lines_of(kind);
    let total = listing.lines.len();
    let room = height.saturating_sub(1).max(1);
    let (mut from, mut to) = (0, total);
    if total > room {
        // A window of `room` lines (less the marks of what is cut) round the running lines.
        let first = running.iter().copied().min().unwrap_or(0);
        let last = running.iter().copied().max().unwrap_or(0);
        let inner = room.saturating_sub(2).max(1);
        let middle = (first + last) / 2;
        from = middle
            .saturating_sub(inner / 2)
            .min(total - inner.min(total));
        to = (from + inner).min(total);
        if from == 0 {
            to = (room - 1).min(total);
        } else if to == total {
            from = total.saturating_sub(room - 1);
        }
    }
    let mut lines = vec![Line::from(Span::from(listing.title.clone()).bold())];
    if from > 0 {
        lines.push(Line::from("  …").dim());
    }
    for (i, text) in listing.lines.iter().enumerate().take(to).skip(from) {
        if running.contains(&i) {
            lines.push(Line::from(vec![
                Span::from("▶ ").bold(),
                Span::from(text.clone()).add_modifier(Modifier::REVERSED | Modifier::BOLD),
            ]));
        } else {
            lines.push(Line::from(format!("  {text}")).dim());
        }
    }
    if to < total {
        lines.push(Line::from("  …").dim());
    }
    Paragraph::new(lines)
}

pub(super) fn title_line(app: &App) -> Paragraph<'static> {
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

pub(super) fn placement_line(queens: &[Square]) -> Paragraph<'static> {
    let text: Vec<String> = queens.iter().map(|(_, c)| c.to_string()).collect();
    Paragraph::new(text.join(" ")).centered()
}

pub(super) fn status_line(app: &App) -> Paragraph<'static> {
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

pub(super) fn trace_status_line(playback: &Playback) -> Paragraph<'static> {
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
