//! The examples of README.md and docs/*.md run as tests, so they cannot go stale: every
//! ```` ```console ```` block is one test, named by its file and line, whose commands run in
//! bash, in order and in one shell, in a fresh temporary directory with the `queens` under test
//! first on the PATH, and whose output (standard output and standard error together) and exit
//! statuses must match the block.
//!
//! The syntax is trycmd's (the crate made for this, whose markdown runner cannot run pipes,
//! redirections or other programs, which these examples need): `$ ` starts a command, `> `
//! continues it (as bash's prompt shows it), a `? N` line right after a command is its exit
//! status (0 otherwise), and the lines up to the next command are its output, where a line
//! `...` stands for any number of lines and `[..]` for any text within a line (timings,
//! checksums, a free port). Blocks marked ```` ```console ignore ```` are not run (none should
//! be; they are for output that no test can reproduce).
//!
//! Blocks that call `curl localhost:8080` get one `queens serve` of the harness on a free port
//! (the address is rewritten); blocks that call `tmux` get their own tmux server (`TMUX_TMPDIR`
//! in the block's directory, killed at the end). A block whose tools are missing is ignored with
//! the reason outside CI and fails under CI (tests/support/skip.rs).
//!
//! The same harness checks that every `--example NAME` the documentation names exists in
//! `crates/queens-core/examples/` and is shown with `-p queens-core`, and that every long flag of
//! every `queens COMMAND --help` appears in docs/cli.md; every source path a page names in
//! backticks (`src/...`, `crates/...`, `tests/...`) exists.

#[path = "support/skip.rs"]
mod skip;

use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Completion, Failed, Trial};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const QUEENS: &str = env!("CARGO_BIN_EXE_queens");

/// The longest a block may take before it is killed and fails.
const BLOCK_LIMIT: Duration = Duration::from_secs(60);

/// The separator printed after each command, with its exit status.
const MARK: &str = "\u{1e}queens-docs-status ";

/// One command of a block and what it must print.
#[derive(Debug, Clone)]
struct Step {
    line: usize,
    command: String,
    status: i32,
    expected: Vec<String>,
}

/// One ```` ```console ```` block.
#[derive(Debug, Clone)]
struct Block {
    file: String,
    line: usize,
    steps: Vec<Step>,
}

/// The documentation pages whose examples are run: README.md and docs/*.md.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![Path::new(ROOT).join("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(Path::new(ROOT).join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

fn relative(path: &Path) -> String {
    path.strip_prefix(ROOT)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The console blocks of one page.
fn blocks(file: &str, text: &str) -> Result<Vec<Block>, String> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let Some(info) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        let mut words = info.split_whitespace();
        let console = words.next() == Some("console");
        let ignored = words.any(|w| w == "ignore");
        let mut block = Block {
            file: file.to_string(),
            line: i + 1,
            steps: Vec::new(),
        };
        let mut closed = false;
        for (j, body) in lines.by_ref() {
            if body.trim_start().starts_with("```") {
                closed = true;
                break;
            }
            if !console || ignored {
                continue;
            }
            if let Some(cmd) = body.strip_prefix("$ ") {
                block.steps.push(Step {
                    line: j + 1,
                    command: cmd.to_string(),
                    status: 0,
                    expected: Vec::new(),
                });
                continue;
            }
            let Some(step) = block.steps.last_mut() else {
                return Err(format!(
                    "{file}:{}: a console block's first line must be a command (`$ ...`)",
                    j + 1
                ));
            };
            if let Some(more) = body.strip_prefix("> ").filter(|_| step.expected.is_empty()) {
                step.command.push('\n');
                step.command.push_str(more);
            } else if let Some(code) = body.strip_prefix("? ").filter(|_| step.expected.is_empty())
            {
                step.status = code
                    .trim()
                    .parse()
                    .map_err(|_| format!("{file}:{}: `? {code}` is not an exit status", j + 1))?;
            } else {
                step.expected.push(body.to_string());
            }
        }
        if !closed {
            return Err(format!("{file}:{}: the code block is never closed", i + 1));
        }
        if console && !ignored {
            if block.steps.is_empty() {
                return Err(format!(
                    "{file}:{}: a console block without a command",
                    i + 1
                ));
            }
            out.push(block);
        }
    }
    Ok(out)
}

/// Whether one line matches an expected line, where `[..]` stands for any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split("[..]").collect();
    if parts.len() == 1 {
        return expected == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Whether the actual lines match the expected ones, where a line `...` stands for any lines.
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| line_matches(first, a) && lines_match(rest, more)),
    }
}

/// The harness's own `queens serve`, started by the first block that needs it.
struct Server {
    child: Child,
    address: String,
}

static SERVER: OnceLock<Mutex<Option<Server>>> = OnceLock::new();

/// The address (`127.0.0.1:PORT`) of the harness's server, started on first use.
fn server_address() -> Result<String, Failed> {
    let cell = SERVER.get_or_init(|| Mutex::new(None));
    let mut guard = cell.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(server) = guard.as_ref() {
        return Ok(server.address.clone());
    }
    // Many blocks run at once: give them more heavy slots than the default (one per core), so
    // that none gets a 503 because another block's request is being served.
    let mut child = Command::new(QUEENS)
        .args(["serve", "--port", "0", "--max-heavy", "64"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("queens serve does not start: {e}"))?;
    let mut stderr = BufReader::new(child.stderr.take().expect("piped"));
    let mut first = String::new();
    stderr
        .read_line(&mut first)
        .map_err(|e| format!("queens serve: {e}"))?;
    let address = first
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .ok_or_else(|| format!("queens serve printed {first:?}, not its address"))?
        .to_string();
    // Keep reading its standard error, so that it never blocks on a full pipe.
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut stderr, &mut std::io::sink());
    });
    *guard = Some(Server {
        child,
        address: address.clone(),
    });
    Ok(address)
}

fn stop_server() {
    if let Some(cell) = SERVER.get() {
        if let Some(mut server) = cell.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = server.child.kill();
            let _ = server.child.wait();
        }
    }
}

/// The bash script of a block: each command, then a mark with its status, which stays `$?`.
fn script(block: &Block, address: Option<&str>) -> String {
    let mut s = String::from("exec 2>&1 </dev/null\n");
    for step in &block.steps {
        let command = match address {
            Some(a) => step.command.replace("localhost:8080", a),
            None => step.command.clone(),
        };
        s.push_str(&command);
        s.push_str(&format!(
            "\n__queens_status=$?; printf '{MARK}%d\\n' \"$__queens_status\"; (exit \"$__queens_status\")\n"
        ));
    }
    s
}

/// Runs a block and compares each command's output and status with the page's.
fn run_block(block: &Block) -> Result<Completion, Failed> {
    let all = block
        .steps
        .iter()
        .map(|s| s.command.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let uses = |tool: &str| {
        all.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .any(|w| w == tool)
    };
    for (tool, package) in [
        ("parallel", "Debian's parallel"),
        ("curl", "curl"),
        ("tmux", "tmux"),
    ] {
        if uses(tool) {
            if let Some(outcome) = skip::needs(&[tool], package) {
                return outcome;
            }
        }
    }
    let address = if all.contains("localhost:8080") {
        Some(server_address()?)
    } else {
        None
    };
    let dir = tempfile::tempdir().map_err(|e| format!("a temporary directory: {e}"))?;
    let bin_dir = Path::new(QUEENS).parent().expect("the binary's directory");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(script(block, address.as_deref()))
        .current_dir(dir.path())
        .env("PATH", path)
        .env("TMUX_TMPDIR", dir.path())
        .env_remove("TMUX")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("bash does not start: {e}"))?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let start = Instant::now();
    let timed_out = loop {
        if child.try_wait().ok().flatten().is_some() {
            break false;
        }
        if start.elapsed() > BLOCK_LIMIT {
            let _ = Command::new("kill")
                .args(["-KILL", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            break true;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if uses("tmux") {
        let _ = Command::new("tmux")
            .arg("kill-server")
            .env("TMUX_TMPDIR", dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let bytes = reader.join().unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if timed_out {
        return Err(format!(
            "{}:{}: the block took more than {BLOCK_LIMIT:?}; its output so far:\n{text}",
            block.file, block.line
        )
        .into());
    }
    compare(block, &text).map(|()| Completion::Completed)
}

/// Compares the marked output of a block's script with the block.
fn compare(block: &Block, text: &str) -> Result<(), Failed> {
    let mut rest = text;
    for step in &block.steps {
        let at = rest.find(MARK).ok_or_else(|| {
            format!(
                "{}:{}: `{}` did not finish (the script stopped); output:\n{rest}",
                block.file, step.line, step.command
            )
        })?;
        let output = &rest[..at];
        let after = &rest[at + MARK.len()..];
        let end = after.find('\n').unwrap_or(after.len());
        let status: i32 = after[..end].trim().parse().unwrap_or(-1);
        rest = &after[(end + 1).min(after.len())..];
        let mut actual: Vec<&str> = output.split('\n').collect();
        // A last line ends with a newline: the split leaves an empty string after it.
        if actual.last() == Some(&"") {
            actual.pop();
        }
        // A last line without a newline (curl's answers) counts as a line.
        if !lines_match(&step.expected, &actual) {
            return Err(format!(
                "{}:{}: the output of `{}` differs from the page's\n--- the page shows:\n{}\n--- the command printed:\n{}",
                block.file,
                step.line,
                step.command,
                step.expected.join("\n"),
                output,
            )
            .into());
        }
        if status != step.status {
            return Err(format!(
                "{}:{}: `{}` exited with status {status}, the page shows {} (write `? {status}` under the command when that is meant)",
                block.file, step.line, step.command, step.status
            )
            .into());
        }
    }
    Ok(())
}

/// Every `--example NAME` of the pages exists in queens-core and is shown with `-p queens-core`
/// (from the repository's root, cargo finds the examples only so).
fn examples_named_exist(pages: &[(String, String)]) -> Result<(), Failed> {
    let mut problems = Vec::new();
    let mut seen = 0;
    for (file, text) in pages {
        for (i, line) in text.lines().enumerate() {
            let mut rest = line;
            while let Some(at) = rest.find("--example ") {
                let name: String = rest[at + "--example ".len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                    .collect();
                seen += 1;
                let path = Path::new(ROOT)
                    .join("crates/queens-core/examples")
                    .join(format!("{name}.rs"));
                if !path.is_file() {
                    problems.push(format!(
                        "{file}:{}: --example {name}: no {}",
                        i + 1,
                        relative(&path)
                    ));
                }
                if !rest[..at].contains("-p queens-core") {
                    problems.push(format!(
                        "{file}:{}: --example {name} without `-p queens-core` before it (cargo does not find it from the root)",
                        i + 1
                    ));
                }
                rest = &rest[at + 1..];
            }
        }
    }
    if seen == 0 {
        problems.push("no page names an --example".to_string());
    }
    reported(problems)
}

/// `Ok` when a check found no problems, else all of them, a line each.
fn reported(problems: Vec<String>) -> Result<(), Failed> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n").into())
    }
}

/// The folders of the repository a page may name a path in: a backticked word that starts with
/// one of them is a path, and must exist.
const ROOTS: [&str; 8] = [
    "src/", "crates/", "tests/", ".ci/", "scripts/", "fuzz/", "docs/", "assets/",
];

/// The paths the pages name that are not in the repository, and say so: the fuzz corpus (not
/// committed, development.md) and the generators of CSPLib's instances (huge-boards.md).
const ELSEWHERE: [&str; 3] = [
    "corpus/shard_results/",
    "queens-gen-fast.py",
    "queens-diag-transform.py",
];

/// Every source path a page names in backticks exists in the repository, so that moving a file
/// cannot leave a page naming the old place (links are checked by [`links_resolve`]):
/// - a path from the root (`` `src/cli/` ``, `` `crates/.../plan.rs` ``) exists as written;
/// - a shorter one (`` `count/halves/` ``, `` `api.rs` ``, `` `learn.js` ``): a file or folder of
///   the repository ends with it, a whole name at a time.
///
/// A short span counts as a path when it names a file of a kind the repository holds (`.rs`,
/// `.js`, `.cu`, `.cpp`, `.html`, `.css`, `.md`, `.py`, `.toml`, `.json`, `.tsv`) or a folder
/// (a name with a `/`, ending in one).
fn source_paths_exist(pages: &[(String, String)]) -> Result<(), Failed> {
    const KINDS: [&str; 11] = [
        ".rs", ".js", ".cu", ".cpp", ".html", ".css", ".md", ".py", ".toml", ".json", ".tsv",
    ];
    let tree = repository_paths();
    let mut problems = Vec::new();
    let mut seen = 0;
    for (file, text) in pages {
        for (i, line) in text.lines().enumerate() {
            // The odd pieces between backticks are the code spans.
            for span in line.split('`').skip(1).step_by(2) {
                let path = span.strip_prefix("./").unwrap_or(span);
                let plain = !path.is_empty()
                    && path
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c))
                    && !path.starts_with(['.', '/'])
                    || path.starts_with(".ci/");
                // What the pages name that is not the repository's: build outputs, and the
                // files they say are elsewhere.
                if path.starts_with("target/") || ELSEWHERE.contains(&path) {
                    continue;
                }
                let from_root = ROOTS.iter().any(|r| path.starts_with(r));
                let short = KINDS
                    .iter()
                    .any(|k| path.ends_with(k) && path.len() > k.len())
                    || (path.ends_with('/') && path.len() > 1);
                if !plain || !(from_root || short) {
                    continue;
                }
                seen += 1;
                let found = if from_root {
                    Path::new(ROOT).join(path).exists()
                } else {
                    let tail = path.trim_end_matches('/');
                    tree.iter()
                        .any(|p| p == tail || p.ends_with(&format!("/{tail}")))
                };
                if !found {
                    problems.push(format!("{file}:{}: `{path}` does not exist", i + 1));
                }
            }
        }
    }
    if seen == 0 {
        problems.push("no page names a source path".to_string());
    }
    reported(problems)
}

/// Every file and folder of the repository, as paths from its root with `/` between names;
/// the build's and git's own folders are left out.
fn repository_paths() -> Vec<String> {
    let mut paths = Vec::new();
    let mut folders = vec![PathBuf::new()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = fs::read_dir(Path::new(ROOT).join(&folder)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if folder.as_os_str().is_empty() && matches!(name.as_str(), "target" | ".git") {
                continue;
            }
            let path = folder.join(&name);
            paths.push(path.to_string_lossy().replace('\\', "/"));
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                folders.push(path);
            }
        }
    }
    paths
}

/// The table of counting.md's half-board split, computed from the engine: for each N the
/// half-board engine counts, its default pattern columns and the split and subproblems of the
/// default budget (1 GiB), as `queens count N` makes them on any machine.
fn split_table() -> String {
    use queens_core::count::halves::{default_pattern_columns, Plan, MAX_N};
    use queens_core::count::HALVES_FROM;
    let mut table = String::from(
        "| N | default pattern columns | split (default `--max-memory`, 1 GiB) | subproblems |\n\
         | --- | --- | --- | --- |\n",
    );
    for n in HALVES_FROM..=MAX_N {
        let cell = match Plan::fitting(n, 1 << 30) {
            Ok(plan) => format!("`{}` | {}", plan.split(), plan.len()),
            Err(e) => format!("none fits: {e} | -"),
        };
        table.push_str(&format!(
            "| {n} | {} | {cell} |\n",
            default_pattern_columns(n)
        ));
    }
    table
}

/// counting.md's split table is the one the engine makes (see [`split_table`]).
fn split_table_matches_the_engine() -> Result<(), Failed> {
    let page = fs::read_to_string(Path::new(ROOT).join("docs/counting.md"))
        .map_err(|e| format!("docs/counting.md: {e}"))?;
    let want = split_table();
    let header = want.lines().next().unwrap_or_default();
    let Some(at) = page.find(header) else {
        return Err(format!("docs/counting.md has no split table; it should read:\n{want}").into());
    };
    let got: String = page[at..]
        .lines()
        .take_while(|l| l.starts_with('|'))
        .map(|l| format!("{l}\n"))
        .collect();
    if got == want {
        Ok(())
    } else {
        Err(
            format!("docs/counting.md's split table is\n{got}\nbut the engine makes\n{want}")
                .into(),
        )
    }
}

/// The anchor GitHub gives a heading: lower case, spaces as `-`, punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut fence = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        } else if !fence && line.starts_with('#') {
            let heading = line.trim_start_matches('#');
            if heading.starts_with(' ') {
                out.push(anchor(heading));
            }
        }
    }
    out
}

/// Every relative link of the pages, `[text](page.md#anchor)` or `(#anchor)`, reaches a file and
/// a heading that exist: moving a section cannot leave a link behind.
fn links_resolve(pages: &[(String, String)]) -> Result<(), Failed> {
    let mut problems = Vec::new();
    for (file, text) in pages {
        let dir = Path::new(file).parent().unwrap_or(Path::new(""));
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                continue;
            }
            let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
            let page = if path.is_empty() {
                PathBuf::from(file)
            } else {
                dir.join(path)
            };
            let full = Path::new(ROOT).join(&page);
            if !full.exists() {
                problems.push(format!("{file}: link to {target}: no {}", page.display()));
                continue;
            }
            if !fragment.is_empty() && full.extension().is_some_and(|x| x == "md") {
                let body = fs::read_to_string(&full).unwrap_or_default();
                if !anchors(&body).iter().any(|a| a == fragment) {
                    problems.push(format!("{file}: link to {target}: no such heading"));
                }
            }
        }
    }
    reported(problems)
}

/// The subcommands of `queens --help`.
fn subcommands() -> Result<Vec<String>, Failed> {
    let out = Command::new(QUEENS)
        .arg("--help")
        .output()
        .map_err(|e| e.to_string())?;
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    let commands: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A command's line starts with two spaces; a wrapped description with more.
        .filter(|l| !l[2..].starts_with(' '))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    if commands.is_empty() {
        return Err(format!("no commands in queens --help:\n{help}").into());
    }
    Ok(commands)
}

/// Every command of `queens --help` and every long flag of its `--help` is named in
/// docs/cli.md (or a docs/cli-*.md page beside it).
fn every_flag_is_in_cli_md() -> Result<(), Failed> {
    // docs/cli.md, and any docs/cli-*.md page that adds to it.
    let mut page = fs::read_to_string(Path::new(ROOT).join("docs/cli.md"))
        .map_err(|e| format!("docs/cli.md: {e}"))?;
    for extra in pages() {
        let name = extra
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if name.starts_with("cli-") {
            page.push_str(&fs::read_to_string(&extra).unwrap_or_default());
        }
    }
    let mut missing = Vec::new();
    for command in subcommands()? {
        if !page.contains(&format!("queens {command}")) {
            missing.push(format!("the command `queens {command}`"));
        }
        let out = Command::new(QUEENS)
            .args([command.as_str(), "--help"])
            .output()
            .map_err(|e| e.to_string())?;
        let help = String::from_utf8_lossy(&out.stdout).into_owned();
        for word in help.split_whitespace() {
            let Some(flag) = word.strip_prefix("--") else {
                continue;
            };
            let flag: String = flag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if flag.is_empty() || flag == "help" || flag == "version" {
                continue;
            }
            let flag = format!("--{flag}");
            // A flag name ends at a character that cannot be part of one.
            let named = page.match_indices(&flag).any(|(at, _)| {
                !page[at + flag.len()..]
                    .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
            });
            if !named && !missing.contains(&format!("`{flag}` of `queens {command}`")) {
                missing.push(format!("`{flag}` of `queens {command}`"));
            }
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("docs/cli.md does not name: {}", missing.join(", ")).into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    let mut texts = Vec::new();
    let mut errors = Vec::new();
    for page in pages() {
        let file = relative(&page);
        let text = fs::read_to_string(&page).expect("a readable page");
        match blocks(&file, &text) {
            Ok(found) => {
                for block in found {
                    let name = format!("{}:{}", block.file, block.line);
                    trials.push(Trial::ignorable_test(name, move || run_block(&block)));
                }
            }
            Err(e) => errors.push(e),
        }
        texts.push((file, text));
    }
    trials.push(Trial::test("the pages parse", move || {
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("\n").into())
        }
    }));
    let linked = texts.clone();
    trials.push(Trial::test(
        "every --example named in the pages exists",
        move || examples_named_exist(&texts),
    ));
    let named = linked.clone();
    trials.push(Trial::test("every link of the pages resolves", move || {
        links_resolve(&linked)
    }));
    trials.push(Trial::test(
        "every source path the pages name exists",
        move || source_paths_exist(&named),
    ));
    trials.push(Trial::test(
        "every long flag of queens COMMAND --help is in docs/cli.md",
        every_flag_is_in_cli_md,
    ));
    trials.push(Trial::test(
        "counting.md's split table is the engine's",
        split_table_matches_the_engine,
    ));
    trials.push(Trial::test(
        "the matcher of [..] and ...",
        matcher_self_test,
    ));
    let conclusion = libtest_mimic::run(&args, trials);
    stop_server();
    conclusion.exit();
}

/// The wildcards match what they should and nothing else (the harness's own test).
fn matcher_self_test() -> Result<(), Failed> {
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    let cases: [(&str, &str, bool); 9] = [
        ("a[..]c", "abbbc", true),
        ("a[..]c", "ab", false),
        ("[..]", "x", true),
        ("x[..]y[..]z", "x1y2z", true),
        ("x[..]y[..]z", "x1z2y", false),
        ("a[..]a", "a", false),
        ("a\n...\nd", "a\nb\nc\nd", true),
        ("a\n...\nd", "a\nd", true),
        ("a\n...\nd", "a\nb\nc", false),
    ];
    for (expected, actual, want) in cases {
        let actual: Vec<&str> = actual.lines().collect();
        let got = lines_match(&lines(expected), &actual);
        if got != want {
            return Err(format!("{expected:?} against {actual:?}: {got}, not {want}").into());
        }
    }
    Ok(())
}
