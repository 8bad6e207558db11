//! How the terminal browser's screen is shared out: the scale of a square and the full,
//! compact or tiny layout that fits the terminal, and the key lines wrapped to its width. It
//! measures only; [`super::view`] draws.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Stylize};
use ratatui::text::{Line, Span};

use super::board_view::{legend_lines, wrap_entries, Geometry};

/// Lines of text under the board in the full layout: the placement or step, two lines of
/// explanation or arrays, the status line (the keys come after, wrapped to the width).
pub(super) const TEXT_LINES: u16 = 4;

/// The width of the row numbers left of the board, with their space.
pub(super) fn label_width(n: usize) -> u16 {
    (n.saturating_sub(1)).to_string().len() as u16 + 1
}

/// The keys wrapped to `width` cells: whole entries per line, never cut.
pub(super) fn wrap_keys(keys: &[(&'static str, &'static str)], width: u16) -> Vec<Line<'static>> {
    let entries = keys.iter().map(|&(key, what)| {
        [
            Span::from(key).add_modifier(Modifier::BOLD),
            Span::from(format!(" {what}")).dim(),
        ]
    });
    wrap_entries(entries, width)
}

/// The largest layout in which the `n` x `n` board and its text fit `area`: the full layout
/// at the largest scale that fits, else the compact one at scale 1, else the tiny one (one line
/// of keys), else `None`.
pub fn geometry(n: usize, area: Rect, keys: &[(&'static str, &'static str)]) -> Option<Geometry> {
    let side = u16::try_from(n).ok()?;
    // While a search plays, the legend of its colours takes a line or more, never cut.
    let tracing = *keys == TRACE_KEYS;
    let legend = if tracing {
        legend_lines(area.width).len() as u16
    } else {
        0
    };
    let keys_height = wrap_keys(keys, area.width).len() as u16 + legend;
    let labels = label_width(n);
    // Full: column numbers, the bordered board, the text lines, the keys; the title above them
    // when a line is left.
    let full_fixed = 1 + 2 + TEXT_LINES + keys_height;
    let by_height = area.height.saturating_sub(full_fixed) / side.max(1);
    let by_width = area.width.saturating_sub(labels + 2) / (2 * side.max(1));
    let scale = by_height.min(by_width).min(8);
    if scale >= 1 {
        return Some(Geometry {
            scale,
            compact: false,
            title: area.height > full_fixed + scale * side,
            tiny: false,
        });
    }
    // Compact: column numbers, the board without a border, the step or placement, one line of
    // explanation, the status line, the keys.
    let compact_fixed = 1 + 3 + keys_height;
    let wide_enough = area.width >= side.saturating_mul(2).saturating_add(labels);
    if wide_enough && area.height >= side.saturating_add(compact_fixed) {
        return Some(Geometry {
            scale: 1,
            compact: true,
            title: false,
            tiny: false,
        });
    }
    // Tiny: column numbers, the board, the step, the status line and one line of keys; the
    // legend under them when it fits.
    let tiny_fixed = 1 + 2 + 1;
    (wide_enough && area.height >= side.saturating_add(tiny_fixed)).then_some(Geometry {
        scale: 1,
        compact: true,
        title: false,
        tiny: true,
    })
}

/// The keys of the tiny layout: the first ones of `keys` that fit one line of `width`, with
/// `q quit` always among them.
pub(super) fn essential_keys(
    keys: &[(&'static str, &'static str)],
    width: u16,
) -> Vec<(&'static str, &'static str)> {
    let quit = keys.iter().copied().find(|&(k, _)| k == "q");
    let entry = |&(k, w): &(&str, &str)| k.chars().count() + 1 + w.chars().count();
    let mut used = quit.map_or(0, |q| entry(&q));
    let mut chosen = Vec::new();
    for key in keys.iter().filter(|&&(k, _)| k != "q") {
        if used + 2 + entry(key) > usize::from(width) {
            break;
        }
        used += 2 + entry(key);
        chosen.push(*key);
    }
    chosen.extend(quit);
    chosen
}

/// The smallest terminal that shows the `n` x `n` board in the full layout at scale 1 (the
/// compact layout needs less).
pub fn needed_size(n: usize) -> (u16, u16) {
    let side = u16::try_from(n).unwrap_or(u16::MAX);
    (
        side.saturating_mul(2).saturating_add(2 + label_width(n)),
        side.saturating_add(3 + TEXT_LINES + 1),
    )
}

/// The keys of the solution browser, in the order shown.
pub(super) const BROWSE_KEYS: [(&str, &str); 7] = [
    ("↓ j", "next"),
    ("↑ k", "previous"),
    ("g G", "first/last"),
    ("123⏎", "go to"),
    ("u", "unique"),
    ("t", "trace"),
    ("q", "quit"),
];

/// The keys while a search plays.
pub(super) const TRACE_KEYS: [(&str, &str); 8] = [
    ("space", "play/pause"),
    ("→ ←", "step"),
    ("n b S", "next place/backtrack/solution"),
    ("End", "end"),
    ("+ -", "speed"),
    ("a", "solver"),
    ("t", "solutions"),
    ("q", "quit"),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The legend of a played search takes lines of its own: the keys being a copy of
    /// `TRACE_KEYS` (not the same address) must not make the layout forget it, or the board's
    /// last rows are cut (80x16 drew rows 0..3 of a 6x6 board).
    #[test]
    fn a_played_search_counts_its_legend_whatever_the_keys_slice() {
        let keys = TRACE_KEYS.to_vec();
        let area = Rect::new(0, 0, 80, 16);
        let g = geometry(6, area, &keys).unwrap();
        let legend = legend_lines(80).len() as u16;
        let keys_height = wrap_keys(&keys, 80).len() as u16 + legend;
        let used = if g.compact {
            1 + 3 + keys_height + 6
        } else {
            1 + 2 + TEXT_LINES + keys_height + g.scale * 6 + u16::from(g.title)
        };
        assert!(used <= area.height, "{g:?} needs {used} lines of 16");
        assert!(legend >= 1);
    }
}
