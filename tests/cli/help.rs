//! Help texts that agree with behaviour, shell completions and the manual page generated from
//! the clap definitions, and `--color` / `NO_COLOR`.

use crate::common::{fails_with, json_of, queens, run, stdout_of};

/// The text after `queens COMMAND --help`.
fn help_of(command: &str) -> String {
    stdout_of(&[command, "--help"])
}

#[test]
fn count_help_names_every_signal_status_it_ends_with() {
    let help = help_of("count");
    for (status, signal) in [("130", "SIGINT"), ("129", "SIGHUP"), ("143", "SIGTERM")] {
        assert!(help.contains(status), "{status} missing:\n{help}");
        assert!(help.contains(signal), "{signal} missing:\n{help}");
    }
}

/// Issue 39: `count --help` names every field `--json` prints, and status 1 of `--recount`.
#[test]
fn issue_39_count_help_names_every_json_field_and_the_recount_status() {
    let help = help_of("count");
    let words: Vec<&str> = help
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .collect();
    for args in [
        &["count", "8", "--json"][..],
        &["count", "14", "--shard", "1/4", "--json"],
    ] {
        let value = json_of(args);
        for field in value.as_object().expect("an object").keys() {
            assert!(
                words.contains(&field.as_str()),
                "count --help does not name {field}:\n{help}"
            );
        }
    }
    assert!(help.contains("1 --recount"), "{help}");
}

/// Issue 39: the global `--color` is listed under its own heading, in every command's help.
#[test]
fn issue_39_color_is_shown_with_the_global_options() {
    for args in [&["--help"][..], &["count", "--help"], &["verify", "--help"]] {
        let help = stdout_of(args);
        let heading = help
            .find("\nGlobal options:\n")
            .expect("a Global options heading");
        let color = help.find("--color <WHEN>").expect("--color");
        assert!(
            color > heading,
            "--color is not under Global options:\n{help}"
        );
    }
}

#[test]
fn serve_help_says_ctrl_c_ends_with_130_as_the_server_does() {
    // `ctrl_c_stops_the_server_gracefully_with_status_130` (tests/cli/serve.rs) checks the status.
    let help = help_of("serve");
    assert!(help.contains("130 stopped by Ctrl-C"), "{help}");
    assert!(!help.contains("status: 0 after Ctrl-C"), "{help}");
}

#[test]
fn the_top_level_help_ends_with_examples_of_several_commands() {
    let help = stdout_of(&["--help"]);
    let examples = help.split("Examples:").nth(1).expect("an Examples section");
    for command in ["solve", "list", "count", "completions", "man"] {
        assert!(
            examples.contains(&format!("queens {command} ")),
            "no example of {command}:\n{help}"
        );
    }
}

/// The subcommands, as the top-level help lists them.
fn subcommands() -> Vec<String> {
    let help = stdout_of(&["--help"]);
    let list = help
        .split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("Options:").next())
        .expect("a Commands section");
    list.lines()
        .filter(|line| line.starts_with("  ") && !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_shell_gets_a_completion_script_that_names_every_subcommand() {
    let commands = subcommands();
    assert!(commands.len() >= 11, "{commands:?}");
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = stdout_of(&["completions", shell]);
        assert!(script.len() > 500, "{shell}: {script}");
        for command in &commands {
            assert!(script.contains(command.as_str()), "{shell} lacks {command}");
        }
    }
}

#[test]
fn an_unknown_shell_is_refused_with_the_list_of_shells() {
    fails_with("completions tcsh", 2, &["bash", "powershell"]);
}

#[test]
fn the_bash_completion_completes_co_to_count_and_complete() {
    if std::process::Command::new("bash")
        .arg("--version")
        .output()
        .is_err()
    {
        panic!("bash is needed for this test");
    }
    let script = stdout_of(&["completions", "bash"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("queens.bash");
    std::fs::write(&path, script).unwrap();
    // What bash does on `queens co<TAB>`: the completion function sees the words and the index
    // of the word under the cursor, and leaves the candidates in COMPREPLY.
    let probe = format!(
        "source '{}'; COMP_WORDS=(queens co); COMP_CWORD=1; COMP_LINE='queens co'; \
         COMP_POINT=9; _queens queens co queens; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        path.display()
    );
    let out = std::process::Command::new("bash")
        .args(["-c", &probe])
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{out:?}");
    let mut words: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    words.sort();
    assert_eq!(words, ["complete", "completions", "count"]);
}

#[test]
fn the_man_page_is_roff_with_a_title_and_every_subcommand() {
    let page = stdout_of(&["man"]);
    // roff: string definitions (`.ie`/`.el`) may come first, then the title `.TH` opens the page.
    let first = page
        .lines()
        .find(|l| !l.starts_with(".ie ") && !l.starts_with(".el ") && !l.starts_with(".\\\""))
        .expect("a line");
    assert!(first.starts_with(".TH queens 1"), "{first}");
    assert!(
        page.lines().all(|l| !l.starts_with('.') || l.len() > 1),
        "{page}"
    );
    assert!(page.contains(".SH NAME"), "{page}");
    assert!(page.contains(".SH SYNOPSIS"), "{page}");
    for command in subcommands() {
        assert!(page.contains(&command), "the page lacks {command}");
    }
    assert!(page.ends_with('\n'));
    // groff reads it without a warning (-ww: every warning; -z: no output).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("queens.1");
    std::fs::write(&path, &page).unwrap();
    match std::process::Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .arg(&path)
        .output()
    {
        Ok(out) => {
            assert!(out.status.success(), "{out:?}");
            assert!(
                out.stderr.is_empty(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Err(_) if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("groff is missing: CI must have it to check the manual page")
        }
        Err(_) => eprintln!("SKIPPED: groff is missing; the page was checked as text only"),
    }
}

#[test]
fn errors_and_help_are_coloured_only_when_asked_or_on_a_terminal() {
    let escape = |text: &str| text.contains('\x1b');
    // Into a pipe: no colour by default, with NO_COLOR, or with never.
    for line in [
        "count 0",
        "--color never count 0",
        "--color=auto solve 27 --format algebraic",
    ] {
        let ran = run(line).status(2);
        assert!(!escape(&ran.stderr), "{ran:#?}");
    }
    let ran = run("solve 27 --format algebraic --color always").status(2);
    assert!(
        ran.stderr
            .starts_with("queens: \x1b[1;31merror:\x1b[0m the"),
        "{ran:#?}"
    );
    let help = run("--color always --help");
    assert!(escape(&help.stdout), "{help:#?}");
    let help = run("--color never --help");
    assert!(!escape(&help.stdout), "{help:#?}");
    // Data is never coloured.
    let ran = run("--color always solve 8");
    assert!(!escape(&ran.stdout), "{ran:#?}");
    // NO_COLOR wins over a forced colour of clap's (CLICOLOR_FORCE) in auto mode too.
    let out = queens()
        .env("NO_COLOR", "1")
        .args(["solve", "27", "--format", "algebraic"])
        .output()
        .unwrap();
    assert!(!escape(&String::from_utf8_lossy(&out.stderr)), "{out:?}");
}

#[test]
fn a_progress_bar_asked_for_is_never_drawn_on_a_pipe_or_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("stderr.txt");
    let file = std::fs::File::create(&log).unwrap();
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("queens"))
        .args(["count", "14", "--progress", "bar", "--threads", "1"])
        .args(["--color", "always"])
        .stderr(file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "365596\n");
    let written = std::fs::read(&log).unwrap();
    assert!(
        !written.contains(&0x1b) && !written.contains(&b'\r'),
        "{:?}",
        String::from_utf8_lossy(&written)
    );
    // `--progress lines` is made for logs: plain lines, no escape codes.
    let ran = run("count 13 --progress lines --progress-every 0.1").succeeds();
    assert!(!ran.stderr.contains('\x1b'), "{ran:#?}");
}

/// `queens man COMMAND` prints queens-COMMAND(1) for every command the top page lists: its
/// name, every long flag its help lists, its examples as examples (each command in bold) and its
/// exit status in sections of their own; a command that does not exist is refused (2).
#[test]
fn issue_39_every_command_has_its_manual_page_with_its_flags_and_examples() {
    let top = stdout_of(&["man"]);
    let commands: Vec<String> = top
        .lines()
        .filter_map(|l| l.strip_prefix("queens\\-"))
        .filter_map(|l| l.strip_suffix("(1)"))
        .map(|c| c.replace("\\-", "-"))
        .collect();
    assert!(
        commands.len() >= 11,
        "the top page cites the commands: {commands:?}"
    );
    for command in &commands {
        let page = stdout_of(&["man", command]);
        assert!(
            page.contains(&format!(".TH queens-{command} 1")),
            "queens-{command}(1) is titled so"
        );
        let help = stdout_of(&[command, "--help"]);
        for flag in help
            .split_whitespace()
            .filter(|w| w.starts_with("--") && w.len() > 2)
            .map(|w| w.trim_end_matches([',', '.', ')', ';', ':']))
            .filter(|w| w[2..].chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        {
            assert!(
                page.contains(&flag.replace('-', "\\-")),
                "queens-{command}(1) names {flag}"
            );
        }
        assert!(
            page.contains(".SH \"EXAMPLES\"\n.TP\n\\fBqueens"),
            "queens-{command}(1): {page}"
        );
        let status = page
            .split_once(".SH \"EXIT STATUS\"\n.PP\n")
            .map(|(_, rest)| rest);
        assert!(
            status.is_some_and(|s| s.starts_with(|c: char| c.is_ascii_digit())),
            "queens-{command}(1): an exit status section"
        );
        assert_eq!(
            page.matches(".ds Aq").count(),
            2,
            "queens-{command}(1): one preamble"
        );
    }
    // A name that has no page is refused with the list, which the completions offer too.
    fails_with(
        "man nope",
        2,
        &["invalid value 'nope'", "possible values", "count"],
    );
    fails_with("man help", 2, &["invalid value 'help'", "solve"]);
    let bash = stdout_of(&["completions", "bash"]);
    assert!(bash.contains("solve list count verify browse"), "{bash}");
}

/// Help and the version that cannot be written (a full disk) are an error, not a silent 0.
#[cfg(target_os = "linux")]
#[test]
fn help_that_cannot_be_written_is_an_error() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["help", "count"],
        &["count", "-h"],
    ] {
        let (code, err) = crate::common::on_a_full_disk(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains("cannot write to standard output"),
            "{args:?}: {err}"
        );
    }
}
