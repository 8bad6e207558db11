//! `queens trace --format board` draws the COMP 333 description's figure: at N = 8, column 3,
//! candidate row 4 (the seed's own example), `Q?` on the candidate, `R?` on every square of
//! its row and `D?` on every square of its diagonals in the earlier columns (the squares the
//! conflict test checks, `R!`/`D!` where a queen stands on one), `CC` under the current column,
//! row and column numbers, and the two arrays after the board.

use crate::common::*;

/// The figure at the first try of (4, 3), checked by hand: the queens of columns 0, 1 and 2
/// are on rows 0, 2 and 4. The test looks along row 4 (columns 0 and 1 empty, the queen of
/// column 2 there: `R!`) and along the two diagonals through (4, 3): (3, 2) and (5, 2),
/// (2, 1) (a queen: `D!`) and (6, 1), (1, 0) and (7, 0). The queen on (0, 0) is on none of
/// them. `untried[3]` is 5: row 4 was marked tried as it was tried.
const SEED_FIGURE: &str = "   81  try       (4, 3)
         0  1  2  3  4  5  6  7
      0  Q  .  .  .  .  .  .  .
      1  D? .  .  .  .  .  .  .
      2  .  D! .  .  .  .  .  .
      3  .  .  D? .  .  .  .  .
      4  R? R? R! Q? .  .  .  .
      5  .  .  D? .  .  .  .  .
      6  .  D? .  .  .  .  .  .
      7  D? .  .  .  .  .  .  .
                  CC
         positions[col] [ 0,  2,  4, -1, -1, -1, -1, -1]
         untried[col]   [ 1,  3,  5,  5,  0,  0,  0,  0]
";

#[test]
fn the_trace_of_eight_draws_the_seeds_figure_at_column_3_row_4() {
    let out = printed("trace 8 --format board");
    let start = out
        .find("   81  try       (4, 3)\n")
        .expect("the first try of (4, 3) is step 81");
    assert!(
        !out[..start].contains("try       (4, 3)"),
        "no earlier try of (4, 3)"
    );
    assert_eq!(&out[start..start + SEED_FIGURE.len()], SEED_FIGURE);
    // The next step is its conflict, with the first attacker the test meets: column 1.
    assert!(out[start + SEED_FIGURE.len()..]
        .starts_with("\n   82  conflict  (4, 3) same diagonal as (2, 1)\n"));
    // The header names every mark.
    let legend = out.lines().nth(1).expect("a second header line");
    for mark in ["Q?", "R?", "D?", "R!", "CC"] {
        assert!(legend.contains(mark), "{legend}");
    }
}
