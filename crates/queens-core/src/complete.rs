//! N-Queens Completion: the solutions of a board that contain some given queens.
//!
//! Completion is NP-complete (Gent, Jefferson and Nightingale, "Complexity of n-Queens
//! Completion", JAIR 2017), so this is an exact search, made small first: the rows, columns and
//! diagonals of the given queens are struck out, leaving k free rows and k free columns. Each
//! free row keeps a bitset of the free columns it may still take (its *domain*). The search
//! then picks the unplaced row with the fewest choices (most constrained first), tries its
//! columns in increasing order, and after each placement removes the attacked squares from the
//! domains of the rows still unplaced (forward checking, undone from a trail on the way back).
//! A row left with an empty domain, or a free column that no open row can take any more, ends
//! the branch at once, so "no completion" is proved by exhausting a small tree, and a board of
//! thousands with a dozen queens missing costs about as much as a 12-queen problem.
//!
//! Cost: O(k^2) bits for the domains (the exact search refuses more than [`MAX_FREE`] free
//! rows), O(k) per search node, and a tree that is exponential in k at worst.
//!
//! Instances are read in the CSPLib problem 79 parameter format (`letting n = 8`,
//! `letting init = [[r, c], ...]`, 0-based as in the CSPLib generators) or as a drawn board.

use std::collections::HashMap;
use std::ops::ControlFlow;

use thiserror::Error;

use crate::check::{Flaw, Line, Square};
use crate::parse::{parse_entries, Entry};

/// The most free rows the exact search accepts: its domains take k^2 / 8 bytes (50 MB here).
pub const MAX_FREE: usize = 20_000;

/// A completion problem: a board size and the queens already on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The board size.
    pub n: usize,
    /// The given queens, in the order given.
    pub fixed: Vec<Square>,
}

/// Why an instance cannot be searched (as opposed to having no completion).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InstanceError {
    /// The board size was zero.
    #[error("N must be at least 1 (got 0)")]
    ZeroSize,
    /// A given queen is not on the board.
    #[error("the queen at {square} is off the {n}x{n} board (rows and columns are 0 to {max})", max = n - 1)]
    OffBoard {
        /// The queen.
        square: Square,
        /// The board size.
        n: usize,
    },
    /// The same square is given twice.
    #[error("the queen at {0} is given twice")]
    Duplicate(Square),
    /// Too many rows are free for the exact search.
    #[error(
        "{free} rows are free; the exact completion search handles up to {max} (use `queens \
         solve` for boards with few or no given queens)"
    )]
    TooManyFree {
        /// The free rows.
        free: usize,
        /// The limit, [`MAX_FREE`].
        max: usize,
    },
}

/// The answer to "complete this board".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// A solution containing every given queen: the column of the queen in each row.
    Found(Vec<usize>),
    /// Two given queens attack each other, so nothing completes them.
    GivenQueensAttack(Flaw),
    /// The given queens are peaceful, but no solution contains them all.
    Impossible,
}

/// The answer to "how many completions".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Counted {
    /// The number of solutions containing every given queen.
    Completions(u64),
    /// Two given queens attack each other (so there are no completions).
    GivenQueensAttack(Flaw),
}

impl Instance {
    /// Checks that the queens are on the board and distinct, then names the first two given
    /// queens that attack each other, if any. O(number of given queens).
    fn check(&self) -> Result<Option<Flaw>, InstanceError> {
        let n = self.n;
        if n == 0 {
            return Err(InstanceError::ZeroSize);
        }
        if let Some(&square) = self.fixed.iter().find(|q| q.row >= n || q.col >= n) {
            return Err(InstanceError::OffBoard { square, n });
        }
        let mut seen: HashMap<Square, ()> = HashMap::with_capacity(self.fixed.len());
        for &q in &self.fixed {
            if seen.insert(q, ()).is_some() {
                return Err(InstanceError::Duplicate(q));
            }
        }
        // The first given queen on each line; the first queen that finds its line taken names
        // the attack.
        let mut first: HashMap<(u8, usize), Square> = HashMap::with_capacity(4 * self.fixed.len());
        for &q in &self.fixed {
            let lines = [
                (Line::Row, 0, q.row),
                (Line::Column, 1, q.col),
                (Line::Diagonal, 2, q.row + n - q.col),
                (Line::AntiDiagonal, 3, q.row + q.col),
            ];
            for (line, tag, key) in lines {
                if let Some(&earlier) = first.get(&(tag, key)) {
                    return Ok(Some(Flaw::Attack {
                        first: earlier,
                        second: q,
                        line,
                    }));
                }
                first.insert((tag, key), q);
            }
        }
        Ok(None)
    }

    /// One solution containing the given queens, or why there is none.
    ///
    /// # Example
    /// ```
    /// use queens_core::complete::{Completion, Instance};
    /// use queens_core::Square;
    /// let puzzle = Instance { n: 8, fixed: vec![Square { row: 0, col: 3 }] };
    /// let Completion::Found(q) = puzzle.solve().unwrap() else { panic!() };
    /// assert_eq!(q, [3, 0, 4, 7, 1, 6, 2, 5]);
    /// let corner = Instance { n: 4, fixed: vec![Square { row: 0, col: 0 }] };
    /// assert_eq!(corner.solve().unwrap(), Completion::Impossible);
    /// ```
    pub fn solve(&self) -> Result<Completion, InstanceError> {
        if let Some(flaw) = self.check()? {
            return Ok(Completion::GivenQueensAttack(flaw));
        }
        let mut search = Search::new(self)?;
        let mut found = None;
        let _ = search.run(&mut |queens| {
            found = Some(queens.to_vec());
            ControlFlow::Break(())
        });
        Ok(found.map_or(Completion::Impossible, Completion::Found))
    }

    /// The number of solutions containing the given queens.
    pub fn count(&self) -> Result<Counted, InstanceError> {
        if let Some(flaw) = self.check()? {
            return Ok(Counted::GivenQueensAttack(flaw));
        }
        let mut search = Search::new(self)?;
        let mut count = 0u64;
        let _ = search.run(&mut |_| {
            count += 1;
            ControlFlow::Continue(())
        });
        Ok(Counted::Completions(count))
    }

    /// How many rows have no given queen: the size of the problem left to search.
    pub fn free_rows(&self) -> usize {
        let mut rows: Vec<usize> = self.fixed.iter().map(|q| q.row).collect();
        rows.sort_unstable();
        rows.dedup();
        self.n - rows.len()
    }
}

/// A search frame: a residual row placed at this depth, the next domain bit to try for it,
/// and where the trail stood before its current placement.
struct Frame {
    row: usize,
    next: usize,
    mark: usize,
    placed: bool,
}

/// The residual problem and the state of the search over it.
struct Search {
    /// The solution so far: given queens and placed rows; `usize::MAX` for free rows.
    board: Vec<usize>,
    /// The real row of each residual row.
    rows: Vec<usize>,
    /// The real column of each residual column.
    cols: Vec<usize>,
    /// The residual column of each real column, `u32::MAX` for taken ones.
    col_index: Vec<u32>,
    /// Words per domain.
    words: usize,
    /// The domains, `words` words per residual row.
    domains: Vec<u64>,
    /// The number of bits set in each domain.
    sizes: Vec<u32>,
    /// The residual rows not placed yet (unordered), and where each sits in that list.
    open: Vec<u32>,
    open_at: Vec<u32>,
    /// Removed (row, column) bits, to put back on the way up.
    trail: Vec<(u32, u32)>,
    /// For each residual column, how many open rows still have it in their domain.
    support: Vec<u32>,
    /// Whether each residual column is taken by a placed row.
    used: Vec<bool>,
}

impl Search {
    fn new(instance: &Instance) -> Result<Search, InstanceError> {
        let n = instance.n;
        let free = instance.free_rows();
        if free > MAX_FREE {
            return Err(InstanceError::TooManyFree {
                free,
                max: MAX_FREE,
            });
        }
        let mut board = vec![usize::MAX; n];
        let mut col_taken = vec![false; n];
        let mut down = vec![false; 2 * n];
        let mut up = vec![false; 2 * n];
        for q in &instance.fixed {
            board[q.row] = q.col;
            col_taken[q.col] = true;
            down[q.row + n - q.col] = true;
            up[q.row + q.col] = true;
        }
        let rows: Vec<usize> = (0..n).filter(|&r| board[r] == usize::MAX).collect();
        let cols: Vec<usize> = (0..n).filter(|&c| !col_taken[c]).collect();
        debug_assert_eq!(rows.len(), cols.len());
        let mut col_index = vec![u32::MAX; n];
        for (j, &c) in cols.iter().enumerate() {
            col_index[c] = j as u32;
        }
        let k = rows.len();
        let words = k.div_ceil(64).max(1);
        let mut domains = vec![0u64; k * words];
        let mut sizes = vec![0u32; k];
        for (i, &r) in rows.iter().enumerate() {
            for (j, &c) in cols.iter().enumerate() {
                if !down[r + n - c] && !up[r + c] {
                    domains[i * words + j / 64] |= 1 << (j % 64);
                    sizes[i] += 1;
                }
            }
        }
        let mut support = vec![0u32; k];
        for i in 0..k {
            for (j, s) in support.iter_mut().enumerate() {
                *s += u32::from(domains[i * words + j / 64] >> (j % 64) & 1 == 1);
            }
        }
        Ok(Search {
            support,
            used: vec![false; k],
            board,
            rows,
            cols,
            col_index,
            words,
            domains,
            sizes,
            open: (0..k as u32).collect(),
            open_at: (0..k as u32).collect(),
            trail: Vec::new(),
        })
    }

    /// Adds `delta` to the support of every column in the domain of `row`.
    fn shift_support(&mut self, row: usize, delta: i32) {
        for w in 0..self.words {
            let mut bits = self.domains[row * self.words + w];
            while bits != 0 {
                let j = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.support[j] = self.support[j].wrapping_add_signed(delta);
            }
        }
    }

    fn close(&mut self, row: usize) {
        self.shift_support(row, -1);
        let at = self.open_at[row] as usize;
        let last = *self.open.last().expect("the row is open");
        self.open.swap_remove(at);
        if last as usize != row {
            self.open_at[last as usize] = at as u32;
        }
    }

    fn reopen(&mut self, row: usize) {
        self.shift_support(row, 1);
        self.open_at[row] = self.open.len() as u32;
        self.open.push(row as u32);
    }

    /// The open row with the fewest choices (the lowest row among equals).
    fn most_constrained(&self) -> usize {
        let mut best = usize::MAX;
        let mut best_size = u32::MAX;
        for &r in &self.open {
            let (r, size) = (r as usize, self.sizes[r as usize]);
            if size < best_size || (size == best_size && r < best) {
                best = r;
                best_size = size;
            }
        }
        best
    }

    /// The first column at or after `from` in the domain of `row`.
    fn next_choice(&self, row: usize, from: usize) -> Option<usize> {
        let base = row * self.words;
        let mut word = from / 64;
        if word >= self.words {
            return None;
        }
        let mut bits = self.domains[base + word] & (u64::MAX << (from % 64));
        loop {
            if bits != 0 {
                return Some(word * 64 + bits.trailing_zeros() as usize);
            }
            word += 1;
            if word == self.words {
                return None;
            }
            bits = self.domains[base + word];
        }
    }

    /// Places residual row `row` on residual column `col` and strikes the attacked squares
    /// from the open rows. Returns false when an open row is left with no choice.
    fn place(&mut self, row: usize, col: usize) -> bool {
        let mark = self.trail.len();
        let (r, c) = (self.rows[row] as i64, self.cols[col] as i64);
        self.board[self.rows[row]] = self.cols[col];
        let n = self.board.len() as i64;
        let mut alive = true;
        for k in 0..self.open.len() {
            let other = self.open[k] as usize;
            let d = self.rows[other] as i64 - r;
            let targets = [
                Some(col as u32),
                self.residual(c + d, n),
                self.residual(c - d, n),
            ];
            for j in targets.into_iter().flatten() {
                let (w, bit) = (other * self.words + j as usize / 64, 1u64 << (j % 64));
                if self.domains[w] & bit != 0 {
                    self.domains[w] &= !bit;
                    self.sizes[other] -= 1;
                    self.support[j as usize] -= 1;
                    self.trail.push((other as u32, j));
                }
            }
            if self.sizes[other] == 0 {
                alive = false;
                break;
            }
        }
        self.used[col] = true;
        // Every free column must stay reachable from some open row. Forward checking can only
        // have taken support from columns of the trail; closing `row` from those of its domain.
        alive && {
            let words = &self.domains[row * self.words..(row + 1) * self.words];
            let from_close = words.iter().enumerate().any(|(w, &bits)| {
                let mut bits = bits;
                while bits != 0 {
                    let j = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.support[j] == 0 && !self.used[j] {
                        return true;
                    }
                }
                false
            });
            let from_trail = self.trail[mark..]
                .iter()
                .any(|&(_, j)| self.support[j as usize] == 0 && !self.used[j as usize]);
            !from_close && !from_trail
        }
    }

    /// The residual column of real column `c`, if it is on the board and free.
    fn residual(&self, c: i64, n: i64) -> Option<u32> {
        if (0..n).contains(&c) {
            Some(self.col_index[c as usize]).filter(|&j| j != u32::MAX)
        } else {
            None
        }
    }

    /// Takes back the placement of `row` and every removal made since `mark`.
    fn unplace(&mut self, row: usize, col: usize, mark: usize) {
        self.used[col] = false;
        self.board[self.rows[row]] = usize::MAX;
        while self.trail.len() > mark {
            let (other, j) = self.trail.pop().expect("the trail is longer than mark");
            self.domains[other as usize * self.words + j as usize / 64] |= 1 << (j % 64);
            self.sizes[other as usize] += 1;
            self.support[j as usize] += 1;
        }
    }

    /// Pushes the frame of the most constrained open row.
    fn descend(&mut self, stack: &mut Vec<Frame>) {
        let row = self.most_constrained();
        self.close(row);
        stack.push(Frame {
            row,
            next: 0,
            mark: self.trail.len(),
            placed: false,
        });
    }

    /// Visits every completion (the whole board, one column per row) until `visit` breaks.
    fn run(&mut self, visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>) -> ControlFlow<()> {
        if self.open.is_empty() {
            return visit(&self.board);
        }
        if self.sizes.contains(&0) || self.support.contains(&0) {
            return ControlFlow::Continue(());
        }
        let mut stack: Vec<Frame> = Vec::with_capacity(self.rows.len());
        self.descend(&mut stack);
        while let Some(top) = stack.len().checked_sub(1) {
            let Frame {
                row,
                next,
                mark,
                placed,
            } = stack[top];
            if placed {
                self.unplace(row, next - 1, mark);
                stack[top].placed = false;
            }
            let Some(col) = self.next_choice(row, next) else {
                stack.pop();
                self.reopen(row);
                continue;
            };
            stack[top].next = col + 1;
            stack[top].placed = true;
            stack[top].mark = self.trail.len();
            if !self.place(row, col) {
                continue;
            }
            if self.open.is_empty() {
                visit(&self.board)?;
                continue;
            }
            self.descend(&mut stack);
        }
        ControlFlow::Continue(())
    }
}

/// Why an instance file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InstanceParseError {
    /// The text is not a CSPLib parameter file or a board.
    #[error("line {line}: {message}")]
    Malformed {
        /// The 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A CSPLib parameter file without `letting n`.
    #[error("the instance does not give the board size (expected `letting n = ...`)")]
    MissingSize,
    /// A board-format instance that is not exactly one board.
    #[error(
        "expected one board (N rows of N squares, Q and .) or a CSPLib parameter file \
         (letting n = ... / letting init = [[r, c], ...])"
    )]
    NotOneBoard,
    /// The board could not be read.
    #[error(transparent)]
    Board(#[from] crate::parse::ParseError),
}

/// Reads an instance: a CSPLib problem 79 parameter file when the text has a `letting`,
/// otherwise one drawn board (`Q` for the given queens, `.` elsewhere).
///
/// The CSPLib format is Essence' parameter syntax: `letting n = 8` (or `be`), and
/// `letting init = [[r, c], ...]`, a list of row, column pairs, 0-based as written by the
/// CSPLib generators (`queens-gen-fast.py`, `queens-diag-transform.py`). `$` starts a comment,
/// a `language ESSENCE' 1.0` line is skipped, white space and line breaks are free, and other
/// `letting`s are ignored.
///
/// # Example
/// ```
/// use queens_core::complete::parse_instance;
/// let i = parse_instance("letting n = 8\nletting init = [[0, 3], [5, 2]]\n").unwrap();
/// assert_eq!((i.n, i.fixed.len(), i.fixed[1].row, i.fixed[1].col), (8, 2, 5, 2));
/// let b = parse_instance("...Q\n....\n....\n....\n").unwrap();
/// assert_eq!((b.n, b.fixed[0].col), (4, 3));
/// ```
pub fn parse_instance(text: &str) -> Result<Instance, InstanceParseError> {
    let is_csplib = text
        .lines()
        .any(|l| l.split('$').next().unwrap_or("").contains("letting"));
    if is_csplib {
        return parse_csplib(text);
    }
    let entries = parse_entries(text)?;
    match <[_; 1]>::try_from(entries) {
        Ok([located]) => match located.entry {
            Entry::Board { n, queens } => Ok(Instance { n, fixed: queens }),
            Entry::Positions(_) => Err(InstanceParseError::NotOneBoard),
        },
        Err(_) => Err(InstanceParseError::NotOneBoard),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Int(i128),
    Punct(char),
}

fn tokenize(text: &str) -> Result<Vec<(usize, Token)>, InstanceParseError> {
    let mut tokens = Vec::new();
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let body = raw.split('$').next().unwrap_or("");
        if body.trim_start().starts_with("language ") {
            continue;
        }
        let mut chars = body.char_indices().peekable();
        while let Some(&(start, ch)) = chars.peek() {
            if ch.is_whitespace() {
                chars.next();
            } else if ch.is_ascii_alphabetic() || ch == '_' {
                let mut end = start;
                while let Some(&(i, c)) = chars.peek() {
                    if c.is_ascii_alphanumeric() || c == '_' || c == '\'' {
                        end = i + c.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                tokens.push((line, Token::Word(body[start..end].to_string())));
            } else if ch.is_ascii_digit() || ch == '-' {
                let mut end = start + 1;
                chars.next();
                while let Some(&(i, c)) = chars.peek() {
                    if c.is_ascii_digit() {
                        end = i + 1;
                        chars.next();
                    } else {
                        break;
                    }
                }
                let value = body[start..end].parse::<i128>().map_err(|_| {
                    InstanceParseError::Malformed {
                        line,
                        message: format!("'{}' is not a whole number", &body[start..end]),
                    }
                })?;
                tokens.push((line, Token::Int(value)));
            } else if "[],=".contains(ch) {
                tokens.push((line, Token::Punct(ch)));
                chars.next();
            } else {
                return Err(InstanceParseError::Malformed {
                    line,
                    message: format!("unexpected '{ch}' in a CSPLib parameter file"),
                });
            }
        }
    }
    Ok(tokens)
}

/// A parameter value: a whole number or a list of values.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Value {
    Int(i128),
    List(Vec<(usize, Value)>),
}

struct Tokens {
    tokens: Vec<(usize, Token)>,
    at: usize,
}

impl Tokens {
    fn line(&self) -> usize {
        self.tokens
            .get(self.at)
            .or(self.tokens.last())
            .map_or(1, |t| t.0)
    }

    fn malformed(&self, message: impl Into<String>) -> InstanceParseError {
        InstanceParseError::Malformed {
            line: self.line(),
            message: message.into(),
        }
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.at).map(|t| t.1.clone());
        self.at += 1;
        t
    }

    fn value(&mut self) -> Result<Value, InstanceParseError> {
        let line = self.line();
        match self.next() {
            Some(Token::Int(v)) => Ok(Value::Int(v)),
            Some(Token::Punct('[')) => {
                let mut items = Vec::new();
                if self.tokens.get(self.at).map(|t| &t.1) == Some(&Token::Punct(']')) {
                    self.at += 1;
                    return Ok(Value::List(items));
                }
                loop {
                    let item_line = self.line();
                    items.push((item_line, self.value()?));
                    match self.next() {
                        Some(Token::Punct(',')) => {}
                        Some(Token::Punct(']')) => return Ok(Value::List(items)),
                        _ => {
                            self.at -= 1;
                            return Err(self.malformed("expected ',' or ']' in a list"));
                        }
                    }
                }
            }
            other => Err(InstanceParseError::Malformed {
                line,
                message: match other {
                    None => "the file ends where a value was expected".to_string(),
                    Some(t) => format!("expected a number or a list, found {}", describe(&t)),
                },
            }),
        }
    }
}

fn describe(t: &Token) -> String {
    match t {
        Token::Word(w) => format!("'{w}'"),
        Token::Int(v) => format!("{v}"),
        Token::Punct(c) => format!("'{c}'"),
    }
}

fn parse_csplib(text: &str) -> Result<Instance, InstanceParseError> {
    let mut toks = Tokens {
        tokens: tokenize(text)?,
        at: 0,
    };
    let mut n: Option<(usize, i128)> = None;
    let mut init: Option<Vec<(usize, Value)>> = None;
    while let Some(tok) = toks.next() {
        if tok != Token::Word("letting".into()) {
            toks.at -= 1;
            return Err(toks.malformed(format!("expected 'letting', found {}", describe(&tok))));
        }
        let name = match toks.next() {
            Some(Token::Word(w)) => w,
            _ => {
                toks.at -= 1;
                return Err(toks.malformed("expected a name after 'letting'"));
            }
        };
        match toks.next() {
            Some(Token::Punct('=')) => {}
            Some(Token::Word(w)) if w == "be" => {}
            _ => {
                toks.at -= 1;
                return Err(toks.malformed(format!("expected '=' or 'be' after 'letting {name}'")));
            }
        }
        let line = toks.line();
        let value = toks.value()?;
        match (name.as_str(), value) {
            ("n", Value::Int(v)) => n = Some((line, v)),
            ("n", Value::List(_)) => {
                return Err(InstanceParseError::Malformed {
                    line,
                    message: "n must be a whole number".into(),
                })
            }
            ("init", Value::List(items)) => init = Some(items),
            ("init", Value::Int(_)) => {
                return Err(InstanceParseError::Malformed {
                    line,
                    message: "init must be a list of [row, column] pairs".into(),
                })
            }
            _ => {}
        }
    }
    let (n_line, n) = n.ok_or(InstanceParseError::MissingSize)?;
    let n = usize::try_from(n).ok().filter(|&n| n >= 1).ok_or_else(|| {
        InstanceParseError::Malformed {
            line: n_line,
            message: format!("n must be at least 1 (got {n})"),
        }
    })?;
    let mut fixed = Vec::new();
    for (line, item) in init.unwrap_or_default() {
        let pair = match item {
            Value::List(pair) => match pair.as_slice() {
                [(_, Value::Int(r)), (_, Value::Int(c))] => (*r, *c),
                _ => return Err(pair_error(line)),
            },
            Value::Int(_) => return Err(pair_error(line)),
        };
        let (r, c) = pair;
        let on_board = |v: i128| usize::try_from(v).ok().filter(|&v| v < n);
        match (on_board(r), on_board(c)) {
            (Some(row), Some(col)) => fixed.push(Square { row, col }),
            _ => {
                return Err(InstanceParseError::Malformed {
                    line,
                    message: format!(
                        "the queen [{r}, {c}] is off the {n}x{n} board (rows and columns are 0 \
                         to {}, as in CSPLib)",
                        n - 1
                    ),
                })
            }
        }
    }
    Ok(Instance { n, fixed })
}

fn pair_error(line: usize) -> InstanceParseError {
    InstanceParseError::Malformed {
        line,
        message: "each element of init must be a [row, column] pair".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{construct, Algorithm, SearchOptions};

    fn sq(row: usize, col: usize) -> Square {
        Square { row, col }
    }

    /// An independent pairwise check.
    fn is_solution(q: &[usize]) -> bool {
        let n = q.len();
        q.iter().all(|&c| c < n)
            && (0..n).all(|i| (i + 1..n).all(|j| q[i] != q[j] && q[i].abs_diff(q[j]) != j - i))
    }

    fn all_solutions(n: usize) -> Vec<Vec<usize>> {
        let mut all = Vec::new();
        let _ = Algorithm::Bitboard
            .for_each_solution(n, &SearchOptions::default(), &mut |q| {
                all.push(q.to_vec());
                ControlFlow::Continue(())
            })
            .unwrap();
        all
    }

    #[test]
    fn counts_agree_with_filtering_the_full_list() {
        for n in 1..=8 {
            let all = all_solutions(n);
            // Every single given queen, and every pair of squares in the first two rows.
            let mut puzzles: Vec<Vec<Square>> = Vec::new();
            for r in 0..n {
                for c in 0..n {
                    puzzles.push(vec![sq(r, c)]);
                }
            }
            for c0 in 0..n {
                for c1 in 0..n {
                    if n > 1 {
                        puzzles.push(vec![sq(n - 1, c0), sq(0, c1)]);
                    }
                }
            }
            puzzles.push(vec![]);
            for fixed in puzzles {
                let expected = all
                    .iter()
                    .filter(|q| fixed.iter().all(|s| q[s.row] == s.col))
                    .count() as u64;
                let inst = Instance {
                    n,
                    fixed: fixed.clone(),
                };
                match inst.count().unwrap() {
                    Counted::Completions(c) => assert_eq!(c, expected, "N = {n}, {fixed:?}"),
                    Counted::GivenQueensAttack(_) => {
                        assert_eq!(expected, 0, "N = {n}, {fixed:?}")
                    }
                }
                match inst.solve().unwrap() {
                    Completion::Found(q) => {
                        assert!(is_solution(&q), "{q:?}");
                        assert!(fixed.iter().all(|s| q[s.row] == s.col));
                    }
                    _ => assert_eq!(expected, 0, "N = {n}, {fixed:?}"),
                }
            }
        }
    }

    #[test]
    fn counts_of_larger_boards_with_queens_on_the_first_row() {
        // Summing over the first-row column gives the full count (OEIS A000170: 14200 for 12).
        let n = 12;
        let total: u64 = (0..n)
            .map(|c| {
                match (Instance {
                    n,
                    fixed: vec![sq(0, c)],
                })
                .count()
                .unwrap()
                {
                    Counted::Completions(k) => k,
                    other => panic!("{other:?}"),
                }
            })
            .sum();
        assert_eq!(total, all_solutions(n).len() as u64);
    }

    #[test]
    fn proves_that_no_completion_exists() {
        // The 4x4 board has two solutions, [1, 3, 0, 2] and [2, 0, 3, 1]: no corner queen.
        for c in [0, 3] {
            let inst = Instance {
                n: 4,
                fixed: vec![sq(0, c)],
            };
            assert_eq!(inst.solve().unwrap(), Completion::Impossible);
            assert_eq!(inst.count().unwrap(), Counted::Completions(0));
        }
        // Peaceful queens that block every completion of 8x8.
        let inst = Instance {
            n: 8,
            fixed: vec![sq(0, 0), sq(1, 2)],
        };
        assert_eq!(inst.count().unwrap(), Counted::Completions(0));
    }

    #[test]
    fn names_two_given_queens_that_attack() {
        let inst = Instance {
            n: 8,
            fixed: vec![sq(0, 0), sq(3, 5), sq(5, 5)],
        };
        let expected = Flaw::Attack {
            first: sq(3, 5),
            second: sq(5, 5),
            line: Line::Column,
        };
        assert_eq!(
            inst.solve().unwrap(),
            Completion::GivenQueensAttack(expected)
        );
        assert_eq!(inst.count().unwrap(), Counted::GivenQueensAttack(expected));
        let diagonal = Instance {
            n: 8,
            fixed: vec![sq(2, 6), sq(4, 4)],
        };
        assert!(matches!(
            diagonal.solve().unwrap(),
            Completion::GivenQueensAttack(Flaw::Attack {
                line: Line::AntiDiagonal,
                ..
            })
        ));
    }

    #[test]
    fn refuses_queens_off_the_board_and_twice_given() {
        let off = Instance {
            n: 8,
            fixed: vec![sq(8, 0)],
        };
        assert!(matches!(off.solve(), Err(InstanceError::OffBoard { .. })));
        let twice = Instance {
            n: 8,
            fixed: vec![sq(1, 1), sq(1, 1)],
        };
        assert_eq!(twice.solve(), Err(InstanceError::Duplicate(sq(1, 1))));
        assert_eq!(
            Instance {
                n: 0,
                fixed: vec![]
            }
            .solve(),
            Err(InstanceError::ZeroSize)
        );
        assert!(matches!(
            Instance {
                n: MAX_FREE + 1,
                fixed: vec![]
            }
            .solve(),
            Err(InstanceError::TooManyFree { .. })
        ));
    }

    #[test]
    fn a_large_board_with_a_few_queens_missing_is_completed() {
        let n = 3000;
        let full = construct::solution(n).unwrap();
        // Remove 12 queens spread over the board.
        let missing: Vec<usize> = (0..12).map(|i| i * 249 + 7).collect();
        let fixed: Vec<Square> = (0..n)
            .filter(|r| !missing.contains(r))
            .map(|r| sq(r, full[r]))
            .collect();
        let inst = Instance { n, fixed };
        assert_eq!(inst.free_rows(), 12);
        let Completion::Found(q) = inst.solve().unwrap() else {
            panic!("the construction itself completes it")
        };
        assert!(inst.fixed.iter().all(|s| q[s.row] == s.col));
        assert!(crate::find_flaw(&q).is_none());
    }

    proptest::proptest! {
        #[test]
        fn any_subset_of_a_solution_is_completed_around_its_queens(
            n in 4usize..40,
            keep in proptest::collection::vec(proptest::bool::ANY, 40),
            seed in 0u64..1000,
        ) {
            let full = crate::min_conflicts::solve(n, seed).unwrap();
            let fixed: Vec<Square> = (0..n)
                .filter(|&r| keep[r])
                .map(|r| sq(r, full[r] as usize))
                .collect();
            let inst = Instance { n, fixed: fixed.clone() };
            match inst.solve().unwrap() {
                Completion::Found(q) => {
                    proptest::prop_assert!(is_solution(&q));
                    proptest::prop_assert!(fixed.iter().all(|s| q[s.row] == s.col));
                }
                other => proptest::prop_assert!(false, "{other:?}"),
            }
        }
    }

    #[test]
    fn a_full_solution_is_its_own_completion() {
        let q = vec![1, 3, 0, 2];
        let inst = Instance {
            n: 4,
            fixed: q.iter().enumerate().map(|(r, &c)| sq(r, c)).collect(),
        };
        assert_eq!(inst.solve().unwrap(), Completion::Found(q));
        assert_eq!(inst.count().unwrap(), Counted::Completions(1));
    }

    #[test]
    fn reads_csplib_parameter_files() {
        let text = "language ESSENCE' 1.0\n$ a comment\nletting n =  10\nletting init =  [[3, 5],\n\t\t[0, 2]]\n";
        let inst = parse_instance(text).unwrap();
        assert_eq!(inst.n, 10);
        assert_eq!(inst.fixed, vec![sq(3, 5), sq(0, 2)]);
        let be = parse_instance("letting n be 5 letting init be []").unwrap();
        assert_eq!(
            be,
            Instance {
                n: 5,
                fixed: vec![]
            }
        );
        let no_init = parse_instance("letting n = 6\nletting given_queens = 0\n").unwrap();
        assert_eq!(no_init.fixed, vec![]);
    }

    #[test]
    fn reports_malformed_csplib_files_with_their_line() {
        let cases = [
            ("letting n = 8\nletting init = [[1, 2], [3]]\n", 2, "pair"),
            ("letting n = 8\nletting init = [[1, 2] [3, 4]]\n", 2, "','"),
            ("letting n = 8\nletting init = [[1, 8]]\n", 2, "off the 8x8"),
            (
                "letting n = 8\nletting init = [[-1, 0]]\n",
                2,
                "off the 8x8",
            ),
            ("letting n = 0\n", 1, "at least 1"),
            ("letting n = [1]\n", 1, "whole number"),
            ("letting n = 8\nletting init = 3\n", 2, "pairs"),
            ("letting n = 8\nlet init = []\n", 2, "expected 'letting'"),
            ("letting n 8\n", 1, "'=' or 'be'"),
            ("letting n = 8\nletting init = [[1, 2]\n", 2, "','"),
            ("letting n = 8 ; \n", 1, "unexpected ';'"),
            ("letting n =\n", 1, "ends where a value"),
        ];
        for (text, line, needle) in cases {
            match parse_instance(text) {
                Err(e @ InstanceParseError::Malformed { line: l, .. }) => {
                    assert_eq!(l, line, "{text:?}: {e}");
                    assert!(e.to_string().contains(needle), "{text:?}: {e}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        assert_eq!(
            parse_instance("letting init = []\n"),
            Err(InstanceParseError::MissingSize)
        );
    }

    #[test]
    fn reads_board_instances_and_refuses_other_text() {
        let inst = parse_instance("# puzzle\n.Q..\n....\n....\n..Q.\n").unwrap();
        assert_eq!(inst.n, 4);
        assert_eq!(inst.fixed, vec![sq(0, 1), sq(3, 2)]);
        assert_eq!(
            parse_instance("1 3 0 2\n"),
            Err(InstanceParseError::NotOneBoard)
        );
        assert_eq!(parse_instance(""), Err(InstanceParseError::NotOneBoard));
        assert!(matches!(
            parse_instance("Q..\n...\n"),
            Err(InstanceParseError::Board(_))
        ));
    }
}
