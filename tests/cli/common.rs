//! Helpers shared by the CLI tests.

use std::path::Path;
use std::process::{Child, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use assert_cmd::Command;

/// The `queens` binary under test.
pub fn queens() -> Command {
    Command::cargo_bin("queens").expect("the queens binary is built")
}

/// Whether `queens` (as `[row] = column`) is a solution, by comparing every pair of queens:
/// an independent check that shares no code with the library.
pub fn is_solution(queens: &[usize]) -> bool {
    let n = queens.len();
    queens.iter().all(|&c| c < n)
        && (0..n).all(|i| {
            (i + 1..n).all(|j| queens[i] != queens[j] && queens[i].abs_diff(queens[j]) != j - i)
        })
}

/// Parses a `positions` line.
pub fn positions(line: &str) -> Vec<usize> {
    line.split(' ')
        .map(|w| w.parse().expect("a column"))
        .collect()
}

/// The standard output of a successful run of `queens` with `args`.
pub fn stdout_of(args: &[&str]) -> String {
    let out = queens().args(args).output().expect("queens runs");
    assert!(out.status.success(), "queens {args:?} failed: {out:?}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The one JSON object printed by a successful run of `queens` with `args`.
pub fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(stdout_of(args).trim()).expect("one JSON object")
}

/// Runs `queens ARGS` with the file `input` on its standard input (its outputs thrown away) and
/// returns its exit code and its peak resident memory in KiB; `None` where `python3` is missing.
///
/// The process is started by a small Python program, which reads the figure with
/// `getrusage(RUSAGE_CHILDREN)`: Linux carries a process's high-water mark over `exec`, so a
/// program started straight from this test process would report the test process's own peak
/// (with the many inputs its tests hold) whenever that is higher.
#[cfg(target_os = "linux")]
pub fn peak_kib(args: &[&str], input: &Path) -> Option<(i32, u64)> {
    const MEASURE: &str = "import resource, subprocess, sys\n\
        code = subprocess.run(sys.argv[2:], stdin=open(sys.argv[1], 'rb'), \
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode\n\
        print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)";
    let out = std::process::Command::new("python3")
        .args(["-c", MEASURE])
        .arg(input)
        .arg(queens().get_program())
        .args(args)
        .output()
        .ok()?;
    assert!(out.status.success(), "the measuring program: {out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let (code, kib) = text.trim().split_once(' ').expect("a code and a size");
    Some((code.parse().expect("a code"), kib.parse().expect("KiB")))
}

/// `(n, total, unique)` rows of the reference table (OEIS A000170 and A002562), from the
/// engine's one reader of its data file.
pub fn known() -> Vec<(usize, u128, u128)> {
    queens_core::reference::known()
        .into_iter()
        .map(|k| (k.n, k.total, k.unique))
        .collect()
}

/// Every search algorithm `solve`, `list` and `trace` take, in the order `--help` lists them.
pub const ALGORITHMS: [&str; 6] = [
    "backtrack",
    "iterative",
    "recursive",
    "wirth",
    "bfs",
    "bitboard",
];

/// What one run of `queens` did: the command line, the exit status and both outputs as text.
/// Each check names the command line and shows both outputs when it fails.
#[derive(Debug)]
pub struct Ran {
    pub command: String,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// A command that runs `queens ARGS` under `prlimit LIMIT` (a limit such as `--as=BYTES`), its
/// standard output and error piped; standard input is the caller's to set.
pub fn under_prlimit(limit: &str, args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new("prlimit");
    command
        .arg(limit)
        .arg(assert_cmd::cargo::cargo_bin("queens"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Runs `queens` with `args`, standard input empty.
pub fn run_args(args: &[&str]) -> Ran {
    ran(args, queens().args(args).output())
}

/// Runs `command`, a `queens` command built with arguments that are not all text (paths),
/// standard input empty.
pub fn run_command(command: &mut Command) -> Ran {
    let args: Vec<String> = command
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ran(&args, command.output())
}

/// Runs `queens LINE`: the command line split at spaces (so no argument has a space in it; a
/// path from a temporary folder goes through [`run_args`]).
pub fn run(line: &str) -> Ran {
    run_args(&words(line))
}

/// Runs `queens LINE` with `input` on standard input.
pub fn run_with_input(line: &str, input: &str) -> Ran {
    let args = words(line);
    ran(&args, queens().args(&args).write_stdin(input).output())
}

/// The words of a command line: `line` split at spaces.
pub fn words(line: &str) -> Vec<&str> {
    line.split(' ').filter(|w| !w.is_empty()).collect()
}

fn ran(args: &[&str], output: std::io::Result<std::process::Output>) -> Ran {
    let command = format!("queens {}", args.join(" "));
    let out = output.unwrap_or_else(|e| panic!("{command} runs: {e}"));
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        command,
    }
}

impl Ran {
    /// Checks that the run ended with exit status `code`.
    pub fn status(self, code: i32) -> Ran {
        assert_eq!(
            self.code,
            Some(code),
            "the exit status of {}: {self:#?}",
            self.command
        );
        self
    }

    /// Checks that the run ended with exit status 0.
    pub fn succeeds(self) -> Ran {
        self.status(0)
    }

    /// Checks that standard output is `expected`, to the byte.
    pub fn stdout_is(self, expected: &str) -> Ran {
        assert_eq!(self.stdout, expected, "the standard output of {self:#?}");
        self
    }

    /// Checks that standard error is `expected`, to the byte.
    pub fn stderr_is(self, expected: &str) -> Ran {
        assert_eq!(self.stderr, expected, "the standard error of {self:#?}");
        self
    }

    /// Checks that standard output holds each of `needles`.
    pub fn stdout_has(self, needles: &[&str]) -> Ran {
        self.assert_holds("standard output", &self.stdout, needles);
        self
    }

    /// Checks that standard error holds each of `needles`.
    pub fn stderr_has(self, needles: &[&str]) -> Ran {
        self.assert_holds("standard error", &self.stderr, needles);
        self
    }

    fn assert_holds(&self, stream: &str, text: &str, needles: &[&str]) {
        for needle in needles {
            assert!(
                text.contains(needle),
                "no {needle:?} on the {stream} of {self:#?}"
            );
        }
    }
}

/// Checks that `queens LINE` succeeds and prints `expected`, to the byte.
pub fn assert_prints(line: &str, expected: &str) {
    run(line).succeeds().stdout_is(expected);
}

/// Checks that `queens LINE` ends with exit status `code` and names each of `needles` on
/// standard error; the run, for more checks.
pub fn fails_with(line: &str, code: i32, needles: &[&str]) -> Ran {
    run(line).status(code).stderr_has(needles)
}

/// Checks that `queens LINE`, given `input` on standard input, ends with exit status `code` and
/// names each of `needles` on standard error; the run, for more checks.
pub fn fails_with_input(line: &str, input: &str, code: i32, needles: &[&str]) -> Ran {
    run_with_input(line, input).status(code).stderr_has(needles)
}

/// The standard output of `queens LINE`, checked to succeed.
pub fn printed(line: &str) -> String {
    run(line).succeeds().stdout
}

/// `(total, unique)` of N from the reference table.
pub fn known_for(n: usize) -> (u128, u128) {
    let row = known().into_iter().find(|k| k.0 == n).expect("a known row");
    (row.1, row.2)
}

/// A whole number of a JSON result.
pub fn number(v: &serde_json::Value) -> u128 {
    v.as_u64().expect("a whole number") as u128
}

/// The value of line `key` of a checkpoint file, when the file and the line are there.
pub fn checkpoint_field(path: &Path, key: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let prefix = format!("{key} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix).map(str::to_string))
}

/// The subproblems a checkpoint says are finished, once it is written.
pub fn finished_in(path: &Path) -> Option<u64> {
    checkpoint_field(path, "finished")?.parse().ok()
}

/// The subproblems of the run a checkpoint is for.
pub fn subproblems_in(path: &Path) -> u64 {
    let value = checkpoint_field(path, "subproblems").expect("a subproblems line");
    value.parse().expect("a number of subproblems")
}

/// Starts `queens count N` with `args` and the checkpoint `ckpt` (its outputs dropped), and waits
/// until the checkpoint holds finished work, for at most `patience`.
pub fn start_until_saved(n: &str, ckpt: &Path, args: &[&str], patience: Duration) -> Child {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("queens"))
        .args(["count", n])
        .args(args)
        .arg("--checkpoint")
        .arg(ckpt)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while finished_in(ckpt).unwrap_or(0) == 0 {
        assert!(start.elapsed() < patience, "no checkpoint");
        sleep(Duration::from_millis(10));
    }
    child
}

/// Kills `child` (SIGKILL on Unix) and checks that its checkpoint `ckpt` holds some of the work,
/// not all of it.
pub fn kill_mid_way(mut child: Child, ckpt: &Path) {
    child.kill().unwrap();
    child.wait().unwrap();
    let saved = finished_in(ckpt).unwrap();
    let all = subproblems_in(ckpt);
    assert!(saved > 0 && saved < all, "killed mid-way: {saved} of {all}");
}

/// Runs `queens LINE --shard i/m --json` for each shard `i` of `m`, `line(i)` its command line,
/// and writes each result to `dir/NAME-i.json`: the files, in order.
pub fn write_shards(
    dir: &Path,
    name: &str,
    m: usize,
    line: impl Fn(usize) -> String,
) -> Vec<std::path::PathBuf> {
    (0..m)
        .map(|i| {
            let (line, spec) = (line(i), format!("{i}/{m}"));
            let args = [&words(&line)[..], &["--shard", &spec, "--json"]].concat();
            let path = dir.join(format!("{name}-{i}.json"));
            std::fs::write(&path, stdout_of(&args)).unwrap();
            path
        })
        .collect()
}

/// A new temporary folder and the path of a checkpoint, `run.ckpt`, in it (the folder is removed
/// when dropped).
pub fn temp_checkpoint() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("run.ckpt");
    (dir, ckpt)
}

/// Writes `text` to the file `name` of `dir`: its path.
pub fn write_file(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The JSON of `queens count N --json --checkpoint CKPT` with `extra` arguments (a run resumed
/// or read back from its checkpoint), checked to hold N's exact total and number of classes.
pub fn exact_count_from(n: usize, ckpt: &Path, extra: &[&str]) -> serde_json::Value {
    let (n_arg, ckpt_arg) = (n.to_string(), ckpt.to_str().unwrap());
    let args = [
        &["count", &n_arg, "--json", "--checkpoint", ckpt_arg],
        extra,
    ]
    .concat();
    let v = json_of(&args);
    let counts = (number(&v["total"]), number(&v["unique"]));
    assert_eq!(counts, known_for(n), "{v}");
    v
}

/// Runs `queens ARGS` with standard output on `/dev/full` (a full disk): its exit status and
/// standard error.
#[cfg(target_os = "linux")]
pub fn on_a_full_disk(args: &[&str]) -> (Option<i32>, String) {
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("queens"))
        .args(args)
        .stdout(std::fs::File::create("/dev/full").expect("/dev/full"))
        .output()
        .expect("queens starts");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
