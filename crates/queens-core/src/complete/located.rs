//! Where a CSPLib file gave its queens: an instance as read with the line of each given queen
//! ([`InstanceFile`], by [`read_instance_within`] over the reader of `csplib.rs`, which this
//! file sits above), and what the checks of the given queens find, named by those lines: a
//! square given twice ([`InstanceParseError::Duplicate`]) and two given queens that attack
//! each other ([`GivenAttack`]).
//!
//! A drawn board keeps no lines: its queens are named by their row and column, and row R is
//! the R-th line of the drawing (from 0, its first row), which says where each is drawn more
//! plainly than a line of the file would; and it cannot give a square twice.

use thiserror::Error;

use super::csplib::{read_with_lines, InstanceParseError};
use super::instance::Instance;
use crate::board::{Flaw, Square};

/// An instance as read, with the 1-based line of the text that gave each of its queens: those
/// of a CSPLib file ([`read_instance_within`]); none for a drawn board, or for an instance made
/// otherwise ([`InstanceFile::from`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceFile {
    /// The instance.
    pub instance: Instance,
    /// The line of each given queen, in the order of `instance.fixed`; empty when none is
    /// known.
    lines: Vec<u32>,
}

/// Two given queens that attack each other, so that nothing completes them, with the lines
/// that gave them when they were read from a CSPLib file.
///
/// # Example
/// ```
/// use queens_core::complete::{read_instance_within, Counted, DEFAULT_BUDGET};
/// let text = "letting n = 8\nletting init = [\n  [0, 0],\n  [5, 2],\n  [3, 3]\n]\n";
/// let file = read_instance_within(text, DEFAULT_BUDGET).unwrap();
/// let Counted::GivenQueensAttack(flaw) = file.instance.count().unwrap() else { panic!() };
/// assert_eq!(
///     file.locate_attack(flaw).to_string(),
///     "the queens at row 0, column 0 and row 3, column 3 attack each other along a diagonal \
///      (given on lines 3 and 5)"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("{flaw}{}", given_on(*lines))]
pub struct GivenAttack {
    /// The two queens and the line they share.
    pub flaw: Flaw,
    /// The lines that gave the first and the second queen of the flaw, when known.
    pub lines: Option<(usize, usize)>,
}

/// The lines of an attack, in words: ` (given on lines 3 and 5)`, ` (both given on line 3)`,
/// or nothing.
fn given_on(lines: Option<(usize, usize)>) -> String {
    match lines {
        Some((a, b)) if a == b => format!(" (both given on line {a})"),
        Some((a, b)) => format!(" (given on lines {a} and {b})"),
        None => String::new(),
    }
}

impl From<Instance> for InstanceFile {
    /// An instance whose queens were not read from a file: no lines.
    fn from(instance: Instance) -> InstanceFile {
        InstanceFile {
            instance,
            lines: Vec::new(),
        }
    }
}

/// [`parse_instance_within`](super::parse_instance_within) that keeps the line of each given
/// queen of a CSPLib file (none for a drawn board), so that a square given twice or two given
/// queens that attack each other can be named by the lines that gave them
/// ([`InstanceFile::locate_duplicate`], [`InstanceFile::locate_attack`]). The lines are 4 bytes
/// a given queen, counted in [`BYTES_PER_GIVEN_QUEEN`](super::BYTES_PER_GIVEN_QUEEN).
pub fn read_instance_within(text: &str, budget: u64) -> Result<InstanceFile, InstanceParseError> {
    let (instance, lines) = read_with_lines(text, budget)?;
    debug_assert!(lines.is_empty() || lines.len() == instance.fixed.len());
    Ok(InstanceFile { instance, lines })
}

impl InstanceFile {
    /// The line that gave the queen `index` (of `instance.fixed`), when known.
    pub fn line_of(&self, index: usize) -> Option<usize> {
        self.lines.get(index).map(|&line| line as usize)
    }

    /// The line of the first queen given on `square`, in the order given.
    fn line_of_square(&self, square: Square) -> Option<usize> {
        let index = self.instance.fixed.iter().position(|&q| q == square)?;
        self.line_of(index)
    }

    /// A square given twice ([`InstanceError::Duplicate`](super::InstanceError::Duplicate)),
    /// named by its lines: the line that gave it again and the line that gave it first; `None`
    /// when the lines are not known, or `square` is not given twice.
    ///
    /// # Example
    /// ```
    /// use queens_core::complete::{read_instance_within, InstanceError, DEFAULT_BUDGET};
    /// let text = "letting n = 8\nletting init = [\n  [0, 3],\n  [5, 2],\n  [0, 3]\n]\n";
    /// let file = read_instance_within(text, DEFAULT_BUDGET).unwrap();
    /// let Err(InstanceError::Duplicate(square)) = file.instance.solve() else { panic!() };
    /// assert_eq!(
    ///     file.locate_duplicate(square).unwrap().to_string(),
    ///     "line 5: the queen at row 0, column 3 is given twice (first on line 3)"
    /// );
    /// ```
    pub fn locate_duplicate(&self, square: Square) -> Option<InstanceParseError> {
        let mut at = self
            .instance
            .fixed
            .iter()
            .enumerate()
            .filter(|&(_, &q)| q == square)
            .map(|(i, _)| i);
        let (first, again) = (at.next()?, at.next()?);
        Some(InstanceParseError::Duplicate {
            line: self.line_of(again)?,
            square,
            first: self.line_of(first)?,
        })
    }

    /// Two given queens that attack each other (a [`Flaw::Attack`] of the checks), with the
    /// lines that gave them when they are known.
    pub fn locate_attack(&self, flaw: Flaw) -> GivenAttack {
        let lines = match flaw {
            Flaw::Attack { first, second, .. } => {
                self.line_of_square(first).zip(self.line_of_square(second))
            }
            Flaw::EmptyRow(_) | Flaw::OffBoard(_) => None,
        };
        GivenAttack { flaw, lines }
    }
}
