//! `queens trace --format board`: the board after every step, drawn as the COMP 333 "Eight
//! Queens" description draws it. The square tried is `Q?`; every square the conflict test
//! checks is marked, not only the first attacker: for the column-wise `backtrack` solver `R?` on
//! each square of the candidate's row and `D?` on each square of its diagonals in the earlier
//! columns, for the row-wise solvers `C?` and `D?` in the earlier rows; a queen on a checked
//! square (an attacker) is `R!`, `C!` or `D!`. Row and column numbers frame the board, `CC`
//! stands under the current column (`RR` after the current row of a row-wise solver), and the
//! solver's arrays follow the board. It only formats events; it may call the text format's
//! `describe`, `until`, `write_array` and `write_summary`.

use std::io::{self, Write};

use anyhow::bail;
use queens_core::trace::{Axis, Event, EventKind, Outcome};
use queens_core::{Algorithm, Square};

use super::text::{describe, until, write_array, write_summary};
use super::{TraceWriter, Traced};

/// The `board` format.
pub struct Board;

impl TraceWriter for Board {
    fn check_size(&self, n: usize) -> anyhow::Result<()> {
        if n > BOARD_MAX_N {
            bail!(
                "--format board draws boards up to N = {BOARD_MAX_N} (got N = {n}); use --format text"
            );
        }
        Ok(())
    }

    fn header(&self, mut out: &mut dyn Write, traced: Traced) -> io::Result<()> {
        write_header(&mut out, traced.algorithm, traced.n, traced.all)
    }

    fn event(&self, mut out: &mut dyn Write, event: &Event) -> io::Result<()> {
        write_step(&mut out, event)
    }

    fn summary(&self, out: &mut dyn Write, traced: Traced, outcome: &Outcome) -> io::Result<()> {
        write_summary(out, traced, outcome)
    }
}

/// The largest board `--format board` draws after every step.
pub const BOARD_MAX_N: usize = 32;

/// The comment lines that say how to read the boards.
pub fn write_header(
    out: &mut impl Write,
    algorithm: Algorithm,
    n: usize,
    all: bool,
) -> io::Result<()> {
    let until = until(all);
    writeln!(
        out,
        "# {} on the {n}x{n} board, {until}, the board after each step; row 0 at the top",
        algorithm.name()
    )?;
    let (line, current) = match Axis::of(algorithm) {
        Axis::Column => ("R? its row", "CC the current column"),
        Axis::Row => ("C? its column", "RR the current row"),
    };
    writeln!(
        out,
        "# Q queen, Q? the square tried, {line} and D? its diagonals where the conflict test \
         looks, R! C! D! a queen there (an attacker), {current}, . empty"
    )
}

/// What the drawing puts on each square: the marks of the conflict test around a candidate.
struct Marks {
    n: usize,
    /// The square tried, when the step tries one.
    candidate: Option<Square>,
    /// Whether the search goes column by column (`backtrack`).
    by_column: bool,
}

impl Marks {
    /// The line letter of a square the conflict test checks (`R`, `C` or `D`), or `None`.
    fn checked(&self, square: Square) -> Option<char> {
        let candidate = self.candidate?;
        // Earlier lines of the search only: columns left of the candidate, or rows above it.
        let (line, earlier, along, at) = if self.by_column {
            ('R', square.col < candidate.col, square.row, candidate.row)
        } else {
            ('C', square.row < candidate.row, square.col, candidate.col)
        };
        if !earlier {
            return None;
        }
        let distance = if self.by_column {
            candidate.col - square.col
        } else {
            candidate.row - square.row
        };
        if along == at {
            Some(line)
        } else if along.abs_diff(at) == distance {
            Some('D')
        } else {
            None
        }
    }

    /// The two characters of `square`.
    fn cell(&self, square: Square, queen: bool) -> String {
        if self.candidate == Some(square) {
            return "Q?".to_string();
        }
        match (self.checked(square), queen) {
            (Some(line), true) => format!("{line}!"),
            (Some(line), false) => format!("{line}?"),
            (None, true) => "Q ".to_string(),
            (None, false) => ". ".to_string(),
        }
    }
}

/// The step's line, the numbered board after it with the current column (or row) marked, the
/// arrays, then a blank line.
pub fn write_step(out: &mut impl Write, event: &Event) -> io::Result<()> {
    let n = event.positions.len();
    let by_column = event.positions_by == Axis::Column;
    let tried = matches!(event.kind, EventKind::Try | EventKind::Conflict { .. });
    let marks = Marks {
        n,
        candidate: event.square().filter(|_| tried),
        by_column,
    };
    let current = if by_column { event.col } else { event.row }.filter(|&i| i < n);
    let queens = event.queens();
    writeln!(out, "{:>5}  {}", event.step, describe(event))?;
    let numbers: Vec<String> = (0..marks.n).map(|c| format!("{c:<2}")).collect();
    writeln!(out, "{:9}{}", "", numbers.join(" ").trim_end())?;
    for row in 0..marks.n {
        let cells: Vec<String> = (0..marks.n)
            .map(|col| {
                let square = Square { row, col };
                marks.cell(square, queens.contains(&square))
            })
            .collect();
        let mut line = format!("{row:>7}  {}", cells.join(" "));
        if !by_column && current == Some(row) {
            line.push_str(" RR");
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    if let (true, Some(col)) = (by_column, current) {
        writeln!(out, "{:width$}CC", "", width = 9 + 3 * col)?;
    }
    let cell = (n.saturating_sub(1)).to_string().len().max(2);
    let name = if by_column {
        "positions[col]"
    } else {
        "positions[row]"
    };
    write!(out, "{:9}{name:<15}", "")?;
    write_array(out, event.positions.iter(), cell)?;
    out.write_all(b"\n")?;
    if let Some(untried) = &event.untried {
        write!(out, "{:9}{:<15}", "", "untried[col]")?;
        write_array(out, untried.iter(), cell)?;
        out.write_all(b"\n")?;
    }
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_squares_are_the_row_and_diagonals_of_the_earlier_columns() {
        let marks = Marks {
            n: 8,
            candidate: Some(Square { row: 4, col: 3 }),
            by_column: true,
        };
        let at = |row, col| marks.checked(Square { row, col });
        assert_eq!(at(4, 0), Some('R'));
        assert_eq!(at(1, 0), Some('D'));
        assert_eq!(at(7, 0), Some('D'));
        assert_eq!(at(2, 1), Some('D'));
        assert_eq!(at(3, 2), Some('D'));
        assert_eq!(at(5, 2), Some('D'));
        assert_eq!(at(0, 0), None);
        assert_eq!(at(4, 5), None, "later columns are not checked");
        assert_eq!(marks.cell(Square { row: 4, col: 1 }, true), "R!");
        assert_eq!(marks.cell(Square { row: 4, col: 3 }, false), "Q?");
    }

    #[test]
    fn a_row_wise_solver_checks_the_column_and_diagonals_above() {
        let marks = Marks {
            n: 4,
            candidate: Some(Square { row: 2, col: 1 }),
            by_column: false,
        };
        let at = |row, col| marks.checked(Square { row, col });
        assert_eq!(at(0, 1), Some('C'));
        assert_eq!(at(1, 0), Some('D'));
        assert_eq!(at(0, 3), Some('D'));
        assert_eq!(at(3, 1), None);
        assert_eq!(at(2, 0), None);
    }
}
