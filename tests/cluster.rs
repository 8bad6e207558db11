//! The cluster recipes of docs/counting.md run for real: the Slurm job array on a one-node Slurm
//! cluster (started by `.ci/slurm-up`), with one task sent SIGTERM mid-run and requeued, and the
//! GNU parallel recipe on the local machine with one job killed and retried. Each merges its
//! parts and checks the exact total against the reference table.
//!
//! The recipes are read from docs/counting.md and only scaled down (the board, the number of
//! shards, the cores per task), so a change of the documented recipe is tested as written. When
//! the tools are missing, a test fails under CI (`.ci/run` installs slurm-wlm, munge and
//! parallel and starts the cluster) and is reported as ignored, with what to install, elsewhere:
//! the convention of docs/development.md, "Skipped tests" (this file runs under the
//! `libtest-mimic` harness, which can ignore a test at run time).

#[path = "support/skip.rs"]
mod skip;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Completion, Failed, Trial};

/// The board counted: about 35 s of work on one core with the default (half-board) engine, so
/// that a task of a quarter or an eighth of it can be caught mid-run.
const N: usize = 19;

/// The board of the GNU parallel test, counted in pieces (slower than whole frames on boards
/// this small, where a piece is a few microseconds of work and its setup as many).
const N_PIECES: usize = 18;

fn queens_bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("queens")
}

fn known_total(n: usize) -> u128 {
    queens_core::reference::known_for(n)
        .expect("a reference count")
        .total
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("the command starts");
    assert!(out.status.success(), "{cmd:?} failed: {out:?}");
    out
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The page that holds the recipes.
const RECIPES: &str = "docs/counting.md";

/// The first code block after the text `after` in docs/counting.md.
fn recipe_block(after: &str) -> String {
    let page = fs::read_to_string(format!("{}/{RECIPES}", env!("CARGO_MANIFEST_DIR")))
        .expect("docs/counting.md");
    let at = page
        .find(after)
        .unwrap_or_else(|| panic!("{RECIPES} has {after:?}"));
    let rest = &page[at..];
    let start = rest.find("```").expect("a code block") + 3;
    let start = start + rest[start..].find('\n').expect("a fence line") + 1;
    let len = rest[start..].find("```").expect("the end of the block");
    rest[start..start + len].to_string()
}

/// `text` with `from` replaced by `to`, which must occur: the recipe is scaled, not rewritten.
fn scaled(text: &str, from: &str, to: &str) -> String {
    assert!(
        text.contains(from),
        "the recipe of {RECIPES} has {from:?}:\n{text}"
    );
    text.replace(from, to)
}

/// Polls `done` every 200 ms for at most `limit`.
fn wait_for(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        thread::sleep(Duration::from_millis(200));
    }
}

/// `queens merge` of the part files, run in `dir`.
fn merged(dir: &Path, files: &[PathBuf]) -> String {
    text(&run(Command::new(queens_bin())
        .current_dir(dir)
        .arg("merge")
        .args(files)))
}

/// The Slurm array of docs/counting.md, scaled to 4 shards of N = 19 on one core each, the tasks
/// on 1 and 16 threads as on nodes of different sizes (the split used to follow the threads):
/// task 0 is requeued mid-run with `scontrol requeue` (Slurm sends it SIGTERM, as on a
/// preemption), runs again from its checkpoint on the other number of threads, and the array's
/// parts merge to the exact total.
fn the_slurm_array_survives_a_sigterm_and_a_requeue() -> Result<Completion, Failed> {
    if let Some(outcome) = skip::needs(
        &["sbatch", "squeue", "scontrol", "sinfo"],
        "slurm-wlm and munge: bash .ci/slurm-up",
    ) {
        return outcome;
    }
    let up = Command::new("sinfo").args(["-h", "-o", "%t"]).output();
    let state = up.as_ref().map(text).unwrap_or_default();
    if !state.starts_with("idle") && !state.starts_with("mix") && !state.starts_with("alloc") {
        return skip::cannot_run(format!(
            "needs a Slurm node that takes jobs (sinfo says {state:?}): run bash .ci/slurm-up"
        ));
    }
    let recipe = recipe_block("As a Slurm job array");
    let script = scaled(&recipe, "--array=0-63", "--array=0-3");
    let script = scaled(&script, "--cpus-per-task=8", "--cpus-per-task=1");
    let script = scaled(&script, "queens count 22", &format!("queens count {N}"));
    let script = scaled(&script, "/64\"", "/4\"");
    // Nodes of different sizes: the odd tasks on 16 threads, the even ones on 1, and a task
    // that resumes from its checkpoint (the requeued one) on the other count.
    let script = scaled(
        &script,
        "--threads \"${SLURM_CPUS_PER_TASK}\"",
        "--threads \"$(( (SLURM_ARRAY_TASK_ID + $([ -e \"checkpoints/${SLURM_ARRAY_TASK_ID}.ckpt\" ] \
         && echo 1 || echo 0)) % 2 ? 16 : 1 ))\"",
    );
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("job.sh"), &script).unwrap();
    let bin_dir = queens_bin().parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let submitted = run(Command::new("sbatch")
        .current_dir(dir.path())
        .args(["--parsable", "--chdir"])
        .arg(dir.path())
        .arg(format!("--export=ALL,PATH={path}"))
        .arg(format!("--output={}/slurm-%A_%a.out", dir.path().display()))
        .arg("job.sh"));
    let job = text(&submitted);
    let job = job.split(';').next().unwrap().to_string();
    let task = format!("{job}_0");
    let checkpoint = dir.path().join("checkpoints/0.ckpt");
    let squeue_state = |id: &str| {
        Command::new("squeue")
            .args(["-h", "-j", id, "-o", "%T"])
            .output()
            .map(|o| text(&o))
            .unwrap_or_default()
    };
    // Mid-run: running, with a checkpoint written at least once after its start.
    wait_for(Duration::from_secs(120), "task 0 to run", || {
        squeue_state(&task) == "RUNNING" && checkpoint.exists()
    });
    thread::sleep(Duration::from_secs(4));
    assert_eq!(
        squeue_state(&task),
        "RUNNING",
        "task 0 still runs when requeued"
    );
    // As on a preemption or a time limit: Slurm sends SIGTERM (then SIGKILL after KillWait) and
    // puts the task back in the queue; it would wait two minutes, so it is released at once.
    run(Command::new("scontrol").args(["requeue", &task]));
    wait_for(
        Duration::from_secs(60),
        "task 0 to be pending again",
        || squeue_state(&task) == "PENDING",
    );
    let saved = fs::read_to_string(&checkpoint).expect("the checkpoint survives");
    assert!(!saved.is_empty());
    run(Command::new("scontrol").args(["update", &format!("JobId={task}"), "StartTime=now"]));
    wait_for(Duration::from_secs(600), "the array to finish", || {
        squeue_state(&job).is_empty()
    });
    let parts: Vec<PathBuf> = (0..4)
        .map(|i| PathBuf::from(format!("parts/{i}.json")))
        .collect();
    for part in &parts {
        let body = fs::read_to_string(dir.path().join(part)).unwrap_or_default();
        assert!(
            body.contains("\"total\""),
            "{} holds a result: {body:?}; logs: {:?}",
            part.display(),
            fs::read_dir(dir.path())
                .unwrap()
                .filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_string_lossy().starts_with("slurm-"))
                .map(|e| fs::read_to_string(e.path()).unwrap_or_default())
                .collect::<Vec<_>>()
        );
    }
    assert_eq!(merged(dir.path(), &parts), known_total(N).to_string());
    Ok(Completion::Completed)
}

/// The GNU parallel recipe of docs/counting.md on this machine (`--sshlogin 2/:`), scaled to 8 shards
/// of N = 18 counted by the frame engine cut into pieces (`--pieces 1`, so that shards of
/// pieces are merged end to end; the Slurm test counts N = 19 with the default half-board
/// engine): one running `queens` is killed with SIGKILL, `--retries` runs its shard
/// again, and the merged total is exact.
fn the_parallel_recipe_retries_a_killed_shard() -> Result<Completion, Failed> {
    if let Some(outcome) = skip::needs(&["parallel", "pgrep"], "Debian's parallel and procps") {
        return outcome;
    }
    let recipe = recipe_block("To try it on one machine first");
    // The command of the console block: its `$ ` line and the `> ` lines that continue it.
    let command: String = recipe
        .lines()
        .take_while(|l| !l.starts_with("$ queens merge"))
        .map(|l| {
            l.trim_start_matches("$ ")
                .trim_start_matches("> ")
                .trim_end_matches('\\')
        })
        .collect::<Vec<_>>()
        .join(" ");
    let command = scaled(
        &command,
        "queens count 14 --shard {}/16",
        &format!("queens count {N_PIECES} --pieces 1 --shard {{}}/8"),
    );
    let command = scaled(&command, "seq 0 15", "seq 0 7");
    let dir = tempfile::tempdir().unwrap();
    let bin_dir = queens_bin().parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("bash")
        .args(["-c", &command])
        .current_dir(dir.path())
        .env("PATH", &path)
        .env("PARALLEL_HOME", dir.path().join(".parallel"))
        .stdin(Stdio::null())
        .spawn()
        .expect("bash starts");
    // Kill one running shard once two are under way.
    // Only this test's shards (`/8`; the Slurm test's are `/4`), and only the program itself,
    // not the shells and the parallel process whose command lines name it.
    let pattern = format!("^queens count {N_PIECES} --pieces 1 --shard [0-9]+/8 ");
    wait_for(Duration::from_secs(60), "a shard to run", || {
        Command::new("pgrep")
            .args(["-f", &pattern])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    thread::sleep(Duration::from_secs(2));
    let oldest = Command::new("pgrep")
        .args(["-o", "-a", "-f", &pattern])
        .output()
        .unwrap();
    let line = text(&oldest);
    let mut words = line.split_whitespace();
    let pid = words.next().expect("a pid").to_string();
    let shard: String = words
        .skip_while(|w| *w != "--shard")
        .nth(1)
        .expect("the shard of the killed process")
        .to_string();
    let killed_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    assert!(Command::new("kill")
        .args(["-KILL", &pid])
        .status()
        .unwrap()
        .success());
    let status = child.wait().unwrap();
    assert!(
        status.success(),
        "parallel retried the killed shard: {status:?}"
    );
    // The job log keeps the attempt that succeeded: the killed shard's starts after the kill.
    let log = fs::read_to_string(dir.path().join("n14.log")).unwrap();
    let rerun = log
        .lines()
        .skip(1)
        .find(|l| l.contains(&format!("--shard {shard} ")))
        .unwrap_or_else(|| panic!("shard {shard} in the job log:\n{log}"));
    let started: f64 = rerun.split('\t').nth(2).unwrap().trim().parse().unwrap();
    assert!(
        started > killed_at,
        "shard {shard} ran again after the kill:\n{log}"
    );
    assert_eq!(
        merged(dir.path(), &[PathBuf::from("n14.jsonl")]),
        known_total(N_PIECES).to_string()
    );
    Ok(Completion::Completed)
}

fn main() {
    let args = Arguments::from_args();
    let trials = vec![
        Trial::ignorable_test(
            "the_slurm_array_survives_a_sigterm_and_a_requeue",
            the_slurm_array_survives_a_sigterm_and_a_requeue,
        ),
        Trial::ignorable_test(
            "the_parallel_recipe_retries_a_killed_shard",
            the_parallel_recipe_retries_a_killed_shard,
        ),
    ];
    libtest_mimic::run(&args, trials).exit();
}
