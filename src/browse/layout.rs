//! How the terminal browser's screen is shared out: the scale of a square and the full,
//! compact or tiny layout that fits the terminal, and the key lines wrapped to its width. It
//! measures only; [`super::view`] draws.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Stylize};
use ratatui::text::{Line, Span};

use super::board_view::{legend_lines, wrap_entries, Geometry, Palette};

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
    // Both palettes wrap the legend alike (a sign takes a swatch's two cells).
    let legend = if tracing {
        legend_lines(area.width, Palette::Colour).len() as u16
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
    // explanation, the status line, the keys. The legend stands beside the board when it fits
    // there.
    let beside = tracing
        && legend_beside(
            side,
            area.width.saturating_sub(2 * side + labels),
            Palette::Colour,
        )
        .is_some();
    let keys_height = if beside {
        keys_height - legend
    } else {
        keys_height
    };
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
/// `? help` and `q quit` always among them.
pub(super) fn essential_keys(
    keys: &[(&'static str, &'static str)],
    width: u16,
) -> Vec<(&'static str, &'static str)> {
    let always = |k: &str| k == "q" || k == "?";
    let kept: Vec<_> = keys.iter().copied().filter(|&(k, _)| always(k)).collect();
    let entry = |&(k, w): &(&str, &str)| k.chars().count() + 1 + w.chars().count();
    let mut used = kept.iter().map(|k| entry(k) + 2).sum::<usize>();
    let mut chosen = Vec::new();
    for key in keys.iter().filter(|&&(k, _)| !always(k)) {
        if used + entry(key) > usize::from(width) {
            break;
        }
        used += 2 + entry(key);
        chosen.push(*key);
    }
    chosen.extend(kept);
    chosen
}

/// The legend of a played search beside a board without a border, `rows` lines high, in
/// `width` cells right of it, drawn with `palette`: its lines, a grid of one, two or three
/// entries a line, and their width; `None` when it does not fit there (it goes under the
/// board).
pub(super) fn legend_beside(
    rows: u16,
    width: u16,
    palette: Palette,
) -> Option<(Vec<Line<'static>>, u16)> {
    let room = usize::from(width.checked_sub(2)?);
    // One entry a line, then set side by side in columns as wide as the widest entry.
    let entries = legend_lines(0, palette);
    let cell = entries.iter().map(Line::width).max().unwrap_or(0);
    (1..=3usize).find_map(|across| {
        let height = entries.len().div_ceil(across);
        let wide = across * cell + (across - 1) * 2;
        (height <= usize::from(rows) && wide <= room).then(|| {
            let lines = entries
                .chunks(across)
                .map(|row| {
                    let mut spans = Vec::new();
                    for (i, entry) in row.iter().enumerate() {
                        spans.extend(entry.spans.iter().cloned());
                        if i + 1 < row.len() {
                            spans.push(Span::from(" ".repeat(cell - entry.width() + 2)));
                        }
                    }
                    Line::from(spans)
                })
                .collect();
            (lines, wide as u16)
        })
    })
}

/// The smallest terminal that shows the `n` x `n` board with `keys` in some layout (the tiny
/// one, most often): the least width that does at any height, and the least height that does
/// at any width; a terminal of both at once does too (a test checks it for every board).
pub fn needed_size(n: usize, keys: &[(&'static str, &'static str)]) -> (u16, u16) {
    const ROOMY: u16 = 1000;
    let fits = |width, height| geometry(n, Rect::new(0, 0, width, height), keys).is_some();
    let width = (1..=ROOMY).find(|&w| fits(w, ROOMY)).unwrap_or(ROOMY);
    let height = (1..=ROOMY).find(|&h| fits(ROOMY, h)).unwrap_or(ROOMY);
    (width, height)
}

/// The keys of the solution browser, in the order shown.
pub(super) const BROWSE_KEYS: [(&str, &str); 8] = [
    ("↓ j", "next"),
    ("↑ k", "previous"),
    ("g G", "ends"),
    ("123⏎", "go to"),
    ("u", "unique"),
    ("t", "trace"),
    ("?", "help"),
    ("q", "quit"),
];

/// The keys while a search plays.
pub(super) const TRACE_KEYS: [(&str, &str); 9] = [
    ("space", "play/pause"),
    ("→ ←", "step"),
    ("n b S", "next place/backtrack/solution"),
    ("End", "end"),
    ("+ -", "speed"),
    ("a", "solver"),
    ("t", "solutions"),
    ("?", "help"),
    ("q", "quit"),
];

/// Every key, for the help screen (`?`): the solutions' keys, then a played search's.
pub(super) const HELP: [(&str, &[(&str, &str)]); 2] = [
    (
        "browsing the solutions",
        &[
            ("↓ → j l", "next solution"),
            ("↑ ← k h", "previous solution"),
            ("PgDn PgUp", "10 solutions on / back"),
            ("Home g, End G", "first / last solution"),
            (
                "digits, ⏎",
                "go to that solution number (⌫ edits, Esc cancels)",
            ),
            ("u", "one solution per symmetry class, or every solution"),
            (
                "t",
                "the search of the solver (--algo), paused at its first step",
            ),
            (
                "?",
                "this help (↓ ↑ PgDn PgUp scroll it; other keys close it)",
            ),
            ("q Esc Ctrl-C", "quit"),
        ],
    ),
    (
        "playing a search",
        &[
            ("space p ⏎", "play / pause"),
            ("→ l j, ← h k", "one step forward / back (pauses)"),
            (
                "Home g, End G",
                "first / last step (End: the end of the search)",
            ),
            ("n b S", "the next placement / backtrack / solution"),
            ("+ f, - s", "faster / slower (1000 ms down to 5 ms a step)"),
            ("a", "the next solver's search"),
            ("t Esc", "back to the solutions"),
            ("?", "this help"),
            ("q Ctrl-C", "quit"),
        ],
    ),
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
        let legend = legend_lines(80, Palette::Colour).len() as u16;
        let keys_height = wrap_keys(&keys, 80).len() as u16 + legend;
        let used = if g.compact {
            1 + 3 + keys_height + 6
        } else {
            1 + 2 + TEXT_LINES + keys_height + g.scale * 6 + u16::from(g.title)
        };
        assert!(used <= area.height, "{g:?} needs {used} lines of 16");
        assert!(legend >= 1);
    }

    /// The size the "too small" message names is the least that draws the board: it does,
    /// one column or one row less does not (80x11 was told 20x16 where 20x15 drew the board).
    #[test]
    fn the_size_a_small_terminal_is_told_is_the_least_that_draws() {
        for keys in [&BROWSE_KEYS[..], &TRACE_KEYS[..]] {
            for n in 1..=14 {
                let (w, h) = needed_size(n, keys);
                let fits = |w, h| geometry(n, Rect::new(0, 0, w, h), keys).is_some();
                assert!(fits(w, h), "N = {n}: {w}x{h}");
                assert!(!fits(w - 1, 1000) && !fits(1000, h - 1), "N = {n}: {w}x{h}");
            }
        }
    }
}
