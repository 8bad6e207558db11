//! `solve`, `list`, `count` and `verify`: formats, exit statuses, bad input, closed pipes.

use crate::common::*;

#[test]
fn solve_prints_the_first_board_of_eight_by_default() {
    queens().arg("solve").assert().success().stdout(
        "Q.......\n....Q...\n.......Q\n.....Q..\n..Q.....\n......Q.\n.Q......\n...Q....\n\n",
    );
}
