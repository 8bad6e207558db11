//! Reliability edges (issue 40), tried as a hostile user would: input that tries to drive the
//! terminal, checkpoints reached through symbolic links, instance files built to exhaust the
//! memory budget, and signals sent before the arguments are read.

use crate::common::{queens, run_command, run_with_input, Ran};

/// Checks that nothing on standard error could act on a terminal: no control character but
/// the line ends.
fn assert_no_control_bytes(ran: &Ran) {
    let raw = ran
        .stderr
        .chars()
        .find(|&c| c != '\n' && (c.is_control() || c == '\u{202e}'));
    assert_eq!(
        raw, None,
        "a raw control character on standard error: {ran:#?}"
    );
}

#[test]
fn verify_shows_escape_sequences_of_its_input_escaped() {
    let ran = run_with_input("verify", "\u{1b}]0;pwned\u{7}\u{1b}[2J\n").status(2);
    assert_no_control_bytes(&ran);
    ran.stderr_has(&[r"line 1: '\x1b]0;pwned\x07\x1b[2J' is neither"]);
    // NUL, a C1 control (CSI) and a right-to-left override inside a positions line.
    let input = "0 4 7 5 2 6 1 3\n0 1\u{0}2 \u{9b}2J\u{202e}\n";
    let ran = run_with_input("verify", input).status(2);
    assert_no_control_bytes(&ran);
    ran.stderr_has(&[r"line 2: '0 1\02 \u{9b}2J\u{202e}'"]);
}

#[test]
fn verify_and_complete_show_control_characters_of_file_names_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().join("no\u{1b}[2Jsuch\u{7}");
    let shown = r"no\x1b[2Jsuch\x07";
    for command in ["verify", "complete"] {
        let ran = run_command(queens().arg(command).arg(&name)).status(2);
        assert_no_control_bytes(&ran);
        ran.stderr_has(&["cannot read", shown]);
    }
    let ran = run_command(queens().args(["complete", "--fixed", "0:0"]).arg(&name)).status(2);
    assert_no_control_bytes(&ran);
    ran.stderr_has(&["--fixed goes with a board size N", shown]);
    // A file that exists: its name in the message about its content is escaped too.
    std::fs::write(&name, "0 1 x\n").unwrap();
    let ran = run_command(queens().arg("verify").arg(&name)).status(2);
    assert_no_control_bytes(&ran);
    ran.stderr_has(&[shown, "line 1: '0 1 x'"]);
}

#[test]
fn complete_shows_control_characters_of_its_input_escaped() {
    let csplib = "letting n = 8\nletting init = [[0, 3]]\n\u{1b}[2J\n";
    let ran = run_with_input("complete -", csplib).status(2);
    assert_no_control_bytes(&ran);
    ran.stderr_has(&[r"line 3: unexpected '\x1b' in a CSPLib parameter file"]);
    let board = "Q.\u{7}.\n....\n....\n....\n";
    let ran = run_with_input("complete -", board).status(2);
    assert_no_control_bytes(&ran);
    ran.stderr_has(&[r"'Q.\x07.'"]);
    // Printable UTF-8 is kept as it is.
    let ran = run_with_input("complete -", "letting n = 8\nletting ü = 1\n").status(2);
    ran.stderr_has(&["unexpected 'ü'"]);
}
