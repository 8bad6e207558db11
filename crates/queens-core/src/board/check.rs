//! Checks whether a set of queens is a solution, and if not, names two queens that attack each
//! other.
//!
//! The check keeps one slot per row, column and diagonal holding the first queen seen on that
//! line, so it runs in O(N) time and O(N) memory instead of comparing every pair of queens; the
//! check of any set of squares keeps a slot only for each line its squares take, and the check
//! of a drawn board one bit per line of the board.

use std::fmt;

/// A square of the board: its row (0 = top) and column (0 = left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// The row, 0-based from the top.
    pub row: usize,
    /// The column, 0-based from the left.
    pub col: usize,
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row, self.col)
    }
}

/// A line of the board along which queens attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Line {
    /// The same row.
    Row,
    /// The same column.
    Column,
    /// The same diagonal running down and to the right (`row - col` is constant).
    Diagonal,
    /// The same diagonal running down and to the left (`row + col` is constant).
    AntiDiagonal,
}

impl Line {
    /// A short name: `row`, `column`, `diagonal` or `anti-diagonal`.
    pub fn name(self) -> &'static str {
        match self {
            Line::Row => "row",
            Line::Column => "column",
            Line::Diagonal => "diagonal",
            Line::AntiDiagonal => "anti-diagonal",
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a set of queens is not a solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flaw {
    /// Two queens attack each other along a line; `first` comes before `second` in reading order
    /// of the input.
    Attack {
        /// The queen seen first on the line.
        first: Square,
        /// The queen that found the line taken.
        second: Square,
        /// The line the two share.
        line: Line,
    },
    /// No two queens attack each other, but a row has no queen, so there are fewer than N.
    EmptyRow(usize),
    /// A queen lies off the board: its column (or row) is not below N. The first such queen in
    /// reading order, found before any attack is looked for.
    OffBoard(Square),
}

impl fmt::Display for Flaw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Flaw::Attack {
                first,
                second,
                line,
            } => {
                let article = if *line == Line::AntiDiagonal {
                    "an"
                } else {
                    "a"
                };
                write!(
                    f,
                    "the queens at {first} and {second} attack each other along {article} {line}"
                )
            }
            Flaw::EmptyRow(row) => write!(f, "row {row} has no queen"),
            Flaw::OffBoard(square) => write!(f, "the queen at {square} is off the board"),
        }
    }
}

/// Checks a placement (the column of the queen in each row) and returns the first flaw, or
/// `None` when it is a solution. A column not below `queens.len()` is a flaw of its own,
/// [`Flaw::OffBoard`], named before any attack. Runs in O(N)
/// time with 5 bits of extra memory per queen; see [`find_flaw_in_columns`] for the compact form.
///
/// # Example
/// ```
/// use queens_core::{find_flaw, Flaw, Line, Square};
/// assert_eq!(find_flaw(&[1, 3, 0, 2]), None);
/// assert_eq!(
///     find_flaw(&[0, 1, 3, 2]),
///     Some(Flaw::Attack {
///         first: Square { row: 0, col: 0 },
///         second: Square { row: 1, col: 1 },
///         line: Line::Diagonal,
///     })
/// );
/// ```
pub fn find_flaw(queens: &[usize]) -> Option<Flaw> {
    first_attack(queens.len(), |row| queens[row])
}

/// Checks a placement stored compactly, one `u32` column per row (4 bytes per queen: a
/// 10^8-queen placement takes 400 MB), exactly like [`find_flaw`].
///
/// # Example
/// ```
/// use queens_core::board::find_flaw_in_columns;
/// assert_eq!(find_flaw_in_columns(&[1, 3, 0, 2]), None);
/// assert!(find_flaw_in_columns(&[0, 2, 1]).is_some());
/// ```
pub fn find_flaw_in_columns(queens: &[u32]) -> Option<Flaw> {
    first_attack(queens.len(), |row| queens[row] as usize)
}

/// A fixed-size set of small numbers, one bit each.
struct Bits(Vec<u64>);

impl Bits {
    fn new(len: usize) -> Bits {
        Bits(vec![0; len.div_ceil(64)])
    }

    /// Whether `i` is there.
    #[inline]
    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1u64 << (i % 64)) != 0
    }

    /// Adds `i`; says whether it was already there.
    #[inline]
    fn insert(&mut self, i: usize) -> bool {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let had = self.0[word] & bit != 0;
        self.0[word] |= bit;
        had
    }
}

/// The columns and diagonals of an `n` x `n` board that hold a queen, a bit each: the lines the
/// checks below mark as they go.
struct LineBits {
    n: usize,
    cols: Bits,
    down: Bits,
    up: Bits,
}

impl LineBits {
    fn new(n: usize) -> LineBits {
        LineBits {
            n,
            cols: Bits::new(n),
            down: Bits::new(2 * n),
            up: Bits::new(2 * n),
        }
    }

    /// Marks the column and diagonals of `sq` up to the first already taken, and names it.
    #[inline]
    fn first_taken(&mut self, sq: Square) -> Option<Line> {
        let (row, col) = (sq.row, sq.col);
        if self.cols.insert(col) {
            Some(Line::Column)
        } else if self.down.insert(row + self.n - col) {
            Some(Line::Diagonal)
        } else if self.up.insert(row + col) {
            Some(Line::AntiDiagonal)
        } else {
            None
        }
    }
}

impl Line {
    /// Whether squares `a` and `b` are on one line of this kind.
    #[inline]
    fn holds(self, a: Square, b: Square) -> bool {
        match self {
            Line::Row => a.row == b.row,
            Line::Column => a.col == b.col,
            Line::Diagonal => a.row + b.col == b.row + a.col,
            Line::AntiDiagonal => a.row + a.col == b.row + b.col,
        }
    }
}

/// The check behind [`find_flaw`] and [`find_flaw_in_columns`]: one bit per column and per
/// diagonal. When a line is found taken, the earlier queen on it is found by scanning the rows
/// above, once, so a flawed placement costs O(N) too.
fn first_attack(n: usize, col_of: impl Fn(usize) -> usize) -> Option<Flaw> {
    if let Some(row) = (0..n).find(|&row| col_of(row) >= n) {
        let col = col_of(row);
        return Some(Flaw::OffBoard(Square { row, col }));
    }
    let mut lines = LineBits::new(n);
    for row in 0..n {
        let col = col_of(row);
        let second = Square { row, col };
        let Some(line) = lines.first_taken(second) else {
            continue;
        };
        let on_line = |r: usize| {
            line.holds(
                Square {
                    row: r,
                    col: col_of(r),
                },
                second,
            )
        };
        let first = (0..row)
            .find(|&r| on_line(r))
            .expect("the line was taken above");
        return Some(Flaw::Attack {
            first: Square {
                row: first,
                col: col_of(first),
            },
            second: Square { row, col },
            line,
        });
    }
    None
}

/// Checks any set of squares on an `n` x `n` board (for example read from a drawn board, where
/// a row may hold several queens or none) and returns the first flaw, or `None` when the
/// squares are exactly a solution. A square off the board is [`Flaw::OffBoard`], named when
/// it is reached (an attack among the squares before it is named first).
///
/// Its memory follows the squares given, not `n`: one entry per line they occupy, so any `n`
/// is checked, however large.
///
/// # Example
/// ```
/// use queens_core::{find_flaw_in_squares, Flaw, Square};
/// let squares = [Square { row: 0, col: 1 }, Square { row: 1, col: 3 }];
/// assert_eq!(find_flaw_in_squares(4, squares), Some(Flaw::EmptyRow(2)));
/// assert_eq!(find_flaw_in_squares(usize::MAX, []), Some(Flaw::EmptyRow(0)));
/// ```
pub fn find_flaw_in_squares(n: usize, squares: impl IntoIterator<Item = Square>) -> Option<Flaw> {
    use std::collections::HashMap;
    // Each line taken, keyed by its index, to the first square seen on it (its index in
    // `seen`); the diagonals by `row - col` and `row + col`, computed wide enough for any `n`.
    let mut rows: HashMap<usize, usize> = HashMap::new();
    let mut cols: HashMap<usize, usize> = HashMap::new();
    let mut diag: HashMap<i128, usize> = HashMap::new();
    let mut anti: HashMap<u128, usize> = HashMap::new();
    let mut seen: Vec<Square> = Vec::new();
    for sq in squares {
        if sq.row >= n || sq.col >= n {
            return Some(Flaw::OffBoard(sq));
        }
        let idx = seen.len();
        let taken = [
            (rows.insert(sq.row, idx), Line::Row),
            (cols.insert(sq.col, idx), Line::Column),
            (
                diag.insert(sq.row as i128 - sq.col as i128, idx),
                Line::Diagonal,
            ),
            (
                anti.insert(sq.row as u128 + sq.col as u128, idx),
                Line::AntiDiagonal,
            ),
        ];
        if let Some((first, line)) = taken.into_iter().find_map(|(t, line)| Some((t?, line))) {
            return Some(Flaw::Attack {
                first: seen[first],
                second: sq,
                line,
            });
        }
        seen.push(sq);
    }
    // No two squares share a row: the first empty row is the first gap in their sorted rows.
    let mut taken: Vec<usize> = seen.iter().map(|sq| sq.row).collect();
    taken.sort_unstable();
    let gap = taken
        .iter()
        .enumerate()
        .find(|&(i, &r)| i != r)
        .map(|(i, _)| i);
    gap.or((taken.len() < n).then_some(taken.len()))
        .map(Flaw::EmptyRow)
}

/// Checks the squares of a drawn board of side `n` (several queens in a row, or none, as the
/// placement reader keeps them), with the same answer as [`find_flaw_in_squares`], in 6 bits
/// per row of the board (one per row, column and diagonal) beyond the squares: the check for a
/// board whose `n` is bounded by its text and the memory budget, where the other's maps would
/// take about 200 bytes per row. When a line is found taken, the earlier square on it is found
/// by scanning the squares before, once.
///
/// # Example
/// ```
/// use queens_core::board::find_flaw_on_board;
/// use queens_core::{Flaw, Square};
/// let squares = [Square { row: 0, col: 1 }, Square { row: 1, col: 3 }];
/// assert_eq!(find_flaw_on_board(4, &squares), Some(Flaw::EmptyRow(2)));
/// ```
pub fn find_flaw_on_board(n: usize, squares: &[Square]) -> Option<Flaw> {
    let mut rows = Bits::new(n);
    let mut lines = LineBits::new(n);
    for (i, &sq) in squares.iter().enumerate() {
        if sq.row >= n || sq.col >= n {
            return Some(Flaw::OffBoard(sq));
        }
        let line = if rows.insert(sq.row) {
            Line::Row
        } else if let Some(line) = lines.first_taken(sq) {
            line
        } else {
            continue;
        };
        let on_line = |s: &&Square| line.holds(**s, sq);
        let first = *squares[..i]
            .iter()
            .find(on_line)
            .expect("the line was taken by an earlier square");
        return Some(Flaw::Attack {
            first,
            second: sq,
            line,
        });
    }
    (0..n).find(|&r| !rows.contains(r)).map(Flaw::EmptyRow)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(row: usize, col: usize) -> Square {
        Square { row, col }
    }

    #[test]
    fn accepts_the_first_solution_of_eight() {
        assert_eq!(find_flaw(&[0, 4, 7, 5, 2, 6, 1, 3]), None);
    }

    #[test]
    fn names_a_shared_column() {
        assert_eq!(
            find_flaw(&[0, 4, 7, 5, 2, 6, 1, 0]),
            Some(Flaw::Attack {
                first: sq(0, 0),
                second: sq(7, 0),
                line: Line::Column
            })
        );
    }

    #[test]
    fn names_a_shared_anti_diagonal() {
        assert_eq!(
            find_flaw(&[2, 1, 0]),
            Some(Flaw::Attack {
                first: sq(0, 2),
                second: sq(1, 1),
                line: Line::AntiDiagonal
            })
        );
    }

    /// The check of squares as it was first written, with dense arrays of 48 N bytes: the
    /// reference the check by taken lines must agree with.
    fn dense_flaw_in_squares(n: usize, squares: &[Square]) -> Option<Flaw> {
        const EMPTY: usize = usize::MAX;
        let mut rows = vec![EMPTY; n];
        let mut cols = vec![EMPTY; n];
        let mut diag = vec![EMPTY; 2 * n];
        let mut anti = vec![EMPTY; 2 * n];
        let mut seen: Vec<Square> = Vec::new();
        for &sq in squares {
            if sq.row >= n || sq.col >= n {
                return Some(Flaw::OffBoard(sq));
            }
            let idx = seen.len();
            let slots = [
                (&mut rows[sq.row], Line::Row),
                (&mut cols[sq.col], Line::Column),
                (&mut diag[sq.row + n - sq.col], Line::Diagonal),
                (&mut anti[sq.row + sq.col], Line::AntiDiagonal),
            ];
            for (slot, line) in slots {
                if *slot != EMPTY {
                    return Some(Flaw::Attack {
                        first: seen[*slot],
                        second: sq,
                        line,
                    });
                }
                *slot = idx;
            }
            seen.push(sq);
        }
        rows.iter().position(|&r| r == EMPTY).map(Flaw::EmptyRow)
    }

    proptest::proptest! {
        #[test]
        fn the_check_of_a_board_agrees_with_the_dense_check_and_the_maps(
            n in 1usize..9,
            squares in proptest::collection::vec((0usize..10, 0usize..10), 0..12),
        ) {
            let mut squares: Vec<Square> =
                squares.into_iter().map(|(row, col)| sq(row, col)).collect();
            proptest::prop_assert_eq!(
                find_flaw_on_board(n, &squares),
                dense_flaw_in_squares(n, &squares)
            );
            // In reading order too, as the reader hands a board's squares over.
            squares.sort_unstable_by_key(|s| (s.row, s.col));
            proptest::prop_assert_eq!(
                find_flaw_on_board(n, &squares),
                find_flaw_in_squares(n, squares.iter().copied())
            );
        }

        #[test]
        fn the_check_of_squares_agrees_with_the_dense_check(
            n in 1usize..9,
            squares in proptest::collection::vec((0usize..10, 0usize..10), 0..12),
        ) {
            let squares: Vec<Square> = squares.into_iter().map(|(row, col)| sq(row, col)).collect();
            proptest::prop_assert_eq!(
                find_flaw_in_squares(n, squares.iter().copied()),
                dense_flaw_in_squares(n, &squares)
            );
        }
    }

    #[test]
    fn the_check_of_squares_agrees_with_the_dense_check_on_every_solution() {
        // Solutions and their rows dropped: the empty row named must be the first gap.
        for n in 1..=7 {
            for q in crate::search::every_solution(n) {
                let all: Vec<Square> = q.iter().enumerate().map(|(r, &c)| sq(r, c)).collect();
                for skip in 0..=n {
                    let some: Vec<Square> = (all.iter().enumerate())
                        .filter(|&(r, _)| r != skip)
                        .map(|(_, &s)| s)
                        .rev()
                        .collect();
                    assert_eq!(
                        find_flaw_in_squares(n, some.iter().copied()),
                        dense_flaw_in_squares(n, &some),
                        "{some:?}"
                    );
                    assert_eq!(
                        find_flaw_on_board(n, &some),
                        dense_flaw_in_squares(n, &some),
                        "{some:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_check_of_squares_takes_memory_for_the_squares_not_the_board() {
        // 48 N bytes up front would panic (usize::MAX) or abort (2^40) here.
        assert_eq!(
            find_flaw_in_squares(usize::MAX, []),
            Some(Flaw::EmptyRow(0))
        );
        assert_eq!(find_flaw_in_squares(1 << 40, []), Some(Flaw::EmptyRow(0)));
        let far = usize::MAX - 1;
        assert_eq!(
            find_flaw_in_squares(usize::MAX, [sq(far, 0), sq(0, far)]),
            Some(Flaw::Attack {
                first: sq(far, 0),
                second: sq(0, far),
                line: Line::AntiDiagonal
            })
        );
        assert_eq!(
            find_flaw_in_squares(usize::MAX, [sq(far, far), sq(0, 0)]),
            Some(Flaw::Attack {
                first: sq(far, far),
                second: sq(0, 0),
                line: Line::Diagonal
            })
        );
        assert_eq!(
            find_flaw_in_squares(usize::MAX, [sq(far, 0), sq(0, 1)]),
            Some(Flaw::EmptyRow(1))
        );
    }

    #[test]
    fn names_a_shared_row_and_an_empty_row_on_boards() {
        assert_eq!(
            find_flaw_in_squares(4, [sq(0, 1), sq(0, 3)]),
            Some(Flaw::Attack {
                first: sq(0, 1),
                second: sq(0, 3),
                line: Line::Row
            })
        );
        assert_eq!(
            find_flaw_in_squares(4, [sq(0, 1), sq(1, 3), sq(3, 2)]),
            Some(Flaw::EmptyRow(2))
        );
    }

    #[test]
    fn the_compact_form_agrees_with_a_pairwise_search_for_the_first_pair() {
        // Every placement of 5 columns in 0..5: the flaw named must be, for the first row that
        // meets an earlier queen, the first line (column, diagonal, anti-diagonal) it meets one
        // on, and the earliest queen on that line, as found by comparing pairs.
        let n: usize = 5;
        for code in 0..n.pow(5) {
            let q: Vec<usize> = (0..n).map(|i| code / n.pow(i as u32) % n).collect();
            let q32: Vec<u32> = q.iter().map(|&c| c as u32).collect();
            let pairwise = (0..n).find_map(|j| {
                let meets = |line: Line, i: usize| match line {
                    Line::Column => q[i] == q[j],
                    Line::Diagonal => q[j].wrapping_sub(q[i]) == j - i,
                    _ => q[i].wrapping_sub(q[j]) == j - i,
                };
                [Line::Column, Line::Diagonal, Line::AntiDiagonal]
                    .into_iter()
                    .find_map(|line| {
                        (0..j).find(|&i| meets(line, i)).map(|i| Flaw::Attack {
                            first: sq(i, q[i]),
                            second: sq(j, q[j]),
                            line,
                        })
                    })
            });
            assert_eq!(find_flaw_in_columns(&q32), pairwise, "{q:?}");
            assert_eq!(find_flaw(&q), pairwise, "{q:?}");
        }
    }

    #[test]
    fn messages_read_as_english() {
        let flaw = find_flaw(&[2, 1, 0]).unwrap();
        assert_eq!(
            flaw.to_string(),
            "the queens at row 0, column 2 and row 1, column 1 attack each other along an \
             anti-diagonal"
        );
    }

    #[test]
    fn the_single_queen_is_a_solution() {
        assert_eq!(find_flaw(&[0]), None);
    }

    #[test]
    fn a_queen_off_the_board_is_a_flaw_of_its_own() {
        let off = |row, col| Some(Flaw::OffBoard(sq(row, col)));
        assert_eq!(find_flaw(&[0, 3]), off(1, 3));
        assert_eq!(find_flaw(&[1, 3, 0, 6]), off(3, 6));
        // Before any attack, and in the compact form too.
        assert_eq!(find_flaw(&[0, 0, usize::MAX]), off(2, usize::MAX));
        assert_eq!(find_flaw_in_columns(&[1, 3, 0, 4]), off(3, 4));
        assert_eq!(find_flaw_in_squares(2, [sq(0, 0), sq(1, 3)]), off(1, 3));
        assert_eq!(find_flaw_in_squares(2, [sq(5, 0)]), off(5, 0));
        assert_eq!(
            Flaw::OffBoard(sq(1, 3)).to_string(),
            "the queen at row 1, column 3 is off the board"
        );
    }
}
