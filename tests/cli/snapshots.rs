//! The outputs of today's commands, pinned byte for byte: every case of
//! `tests/cli/snapshots/cases.txt` is run and its exit status, standard output and standard
//! error compared with `NAME.snap`, written by the binary from before the reshaping of issue 18
//! (`generate.sh`). Only the run's seconds and the checksum that covers them vary between runs
//! of `count --json`; both are blanked on both sides before the comparison.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::queens;

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/snapshots")
}

/// One case: its name, the fixture fed to standard input (if any) and the arguments.
struct Case {
    name: String,
    stdin: Option<String>,
    args: Vec<String>,
}

fn cases() -> Vec<Case> {
    let text = fs::read_to_string(folder().join("cases.txt")).expect("cases.txt");
    text.lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut fields = line.splitn(3, '\t');
            let name = fields.next().expect("a name").to_string();
            let stdin = fields.next().expect("a stdin column");
            let args = fields.next().expect("arguments");
            Case {
                name,
                stdin: (stdin != "-").then(|| stdin.to_string()),
                args: args.split(' ').map(str::to_string).collect(),
            }
        })
        .collect()
}

/// The status, standard output and standard error kept in a snapshot file.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    status: i32,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

fn read_snapshot(path: &Path) -> Outcome {
    let bytes = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let end = bytes.iter().position(|&b| b == b'\n').expect("a header");
    let header = std::str::from_utf8(&bytes[..end]).expect("an ASCII header");
    // `status S, stdout B bytes, stderr E bytes`
    let numbers: Vec<usize> = header
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().expect("a number"))
        .collect();
    let [status, out, err] = numbers[..] else {
        panic!("{}: bad header {header:?}", path.display());
    };
    let body = &bytes[end + 1..];
    assert_eq!(body.len(), out + err, "{}: sizes", path.display());
    Outcome {
        status: status as i32,
        stdout: body[..out].to_vec(),
        stderr: body[out..].to_vec(),
    }
}

/// Blanks what varies from run to run: `"seconds":0.012` and the checksum of `count --json`.
fn steady(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    let mut rest: &str = &text;
    loop {
        let next = ["\"seconds\":", "\"checksum\":\"fnv1a64:"]
            .iter()
            .filter_map(|key| rest.find(key).map(|at| (at, *key)))
            .min();
        let Some((at, key)) = next else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..at + key.len()]);
        out.push('#');
        rest = &rest[at + key.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
            .unwrap_or(rest.len());
        rest = &rest[end..];
    }
}

fn steady_outcome(outcome: &Outcome) -> (i32, String, String) {
    (
        outcome.status,
        steady(&outcome.stdout),
        steady(&outcome.stderr),
    )
}

#[test]
fn every_pinned_command_prints_what_it_printed_before_the_reshaping() {
    let work = tempfile::tempdir().expect("a temporary directory");
    for entry in fs::read_dir(folder()).expect("the snapshots folder") {
        let path = entry.expect("an entry").path();
        let fixture = path
            .extension()
            .is_some_and(|e| e == "txt" || e == "param" || e == "json");
        if fixture {
            fs::copy(&path, work.path().join(path.file_name().unwrap())).expect("a copy");
        }
    }
    let mut differing = Vec::new();
    let all = cases();
    assert!(all.len() > 100, "the cases are read");
    for case in &all {
        let mut command = queens();
        command.current_dir(work.path()).args(&case.args);
        command.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
        match &case.stdin {
            Some(file) => {
                command.pipe_stdin(work.path().join(file)).expect("stdin");
            }
            None => {
                command.write_stdin(Vec::new());
            }
        }
        let out = command.output().expect("queens runs");
        let now = Outcome {
            status: out.status.code().unwrap_or(-1),
            stdout: out.stdout,
            stderr: out.stderr,
        };
        let before = read_snapshot(&folder().join(format!("{}.snap", case.name)));
        if steady_outcome(&now) != steady_outcome(&before) {
            differing.push(format!(
                "{} (queens {}):\n  before: {:?}\n  now:    {:?}",
                case.name,
                case.args.join(" "),
                steady_outcome(&before),
                steady_outcome(&now)
            ));
        }
    }
    assert!(differing.is_empty(), "{}", differing.join("\n"));
}

#[test]
fn only_the_seconds_and_the_checksum_are_blanked() {
    assert_eq!(
        steady(br#"{"n":9,"seconds":0.018,"split":"frame1-v1","checksum":"fnv1a64:82d8"}"#),
        r#"{"n":9,"seconds":#,"split":"frame1-v1","checksum":"fnv1a64:#"}"#
    );
    assert_eq!(steady(b"724\n"), "724\n");
}
