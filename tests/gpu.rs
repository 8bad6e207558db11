//! `queens count --engine gpu` end to end, on two devices:
//!
//! - the kernel's CPU twin (`QUEENS_GPU_DEVICE=twin`), which runs the whole GPU pipeline (the
//!   tasks, the launches, the records, the checkpoints) without a GPU: these tests run
//!   everywhere, CI included, and check every feature of `count` through the GPU engine against
//!   the reference table and the frame engine;
//! - a stand-in for NVIDIA's driver library (`tests/fixtures/fake-libcuda.cpp`) that runs
//!   `kernel.cu` compiled for the host: the CUDA host path of the default device, in CI too;
//! - the NVIDIA GPUs of the machine (the default device): where there is none (CI, most
//!   machines), `--engine gpu` must exit with status 2 and say what is missing and how to get
//!   it; with one, it must count the boards of N = 4 to 13 exactly, and a shard counted on it
//!   must merge with shards counted on the CPU.
//!
//! The tests that need a GPU are reported as ignored, with the reason, where none is found:
//! also under CI, the one exception to the convention of docs/development.md, "Skipped tests",
//! since no CI machine has a GPU. This file runs under the `libtest-mimic` harness, which can
//! ignore a test at run time.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Completion, Failed, Trial};

#[path = "support/skip.rs"]
mod skip;

/// Which device `--engine gpu` counts on: the value of `QUEENS_GPU_DEVICE`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Twin,
    Cuda,
}

/// Where and how `--engine gpu` counts: the device, and the split it counts by
/// (`QUEENS_GPU_SPLIT`; unset: the board's default).
#[derive(Clone, Copy)]
struct Device {
    kind: Kind,
    split: Option<&'static str>,
}

impl Device {
    const TWIN: Device = Device {
        kind: Kind::Twin,
        split: None,
    };
    const CUDA: Device = Device {
        kind: Kind::Cuda,
        split: None,
    };

    fn name(self) -> &'static str {
        match self.kind {
            Kind::Twin => "twin",
            Kind::Cuda => "cuda",
        }
    }

    /// The same device counting by `split` (`frames` or `halves`).
    fn split(self, split: &'static str) -> Device {
        Device {
            split: Some(split),
            ..self
        }
    }
}

/// The GPU's splits, each with the CPU engine that makes it.
const SPLITS: [(&str, &str); 2] = [("frames", "frame"), ("halves", "halves")];

type Outcome = Result<Completion, Failed>;

fn command(device: Device, args: &[&str]) -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("queens"));
    command.args(args).env("QUEENS_GPU_DEVICE", device.name());
    match device.split {
        Some(split) => command.env("QUEENS_GPU_SPLIT", split),
        None => command.env_remove("QUEENS_GPU_SPLIT"),
    };
    command
}

fn queens(device: Device, args: &[&str]) -> Output {
    command(device, args).output().expect("queens starts")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).trim().to_string()
}

/// The standard output of a run that must succeed.
fn ok(device: Device, args: &[&str]) -> Result<String, Failed> {
    let out = queens(device, args);
    if !out.status.success() {
        return Err(format!("queens {args:?}: {:?}: {}", out.status, stderr(&out)).into());
    }
    Ok(stdout(&out))
}

fn json(device: Device, args: &[&str]) -> Result<serde_json::Value, Failed> {
    let text = ok(device, args)?;
    serde_json::from_str(&text).map_err(|e| format!("queens {args:?}: {e}: {text}").into())
}

/// The JSON result of `count N --engine ENGINE --checkpoint CKPT` on `device`: the run saved
/// in `ckpt` resumed to its end.
fn resumed(
    device: Device,
    ckpt: &std::path::Path,
    n: &str,
    engine: &str,
) -> Result<serde_json::Value, Failed> {
    let ckpt = ckpt.to_str().expect("a UTF-8 path");
    let args = [
        "count",
        n,
        "--engine",
        engine,
        "--json",
        "--checkpoint",
        ckpt,
    ];
    json(device, &args)
}

/// `(total, unique)` of the reference table.
fn known(n: usize) -> (u64, u64) {
    let known = queens_core::reference::known_for(n).expect("a reference count");
    (known.total as u64, known.unique as u64)
}

fn counts_of(v: &serde_json::Value) -> (Option<u64>, Option<u64>) {
    (v["total"].as_u64(), v["unique"].as_u64())
}

fn check(what: &str, got: impl std::fmt::Debug, want: impl std::fmt::Debug) -> Result<(), Failed> {
    let (got, want) = (format!("{got:?}"), format!("{want:?}"));
    if got != want {
        return Err(format!("{what}: {got}, want {want}").into());
    }
    Ok(())
}

/// `None` when the GPU engine runs on the machine's GPUs, else why not.
fn no_gpu() -> Option<String> {
    let out = queens(Device::CUDA, &["count", "4", "--engine", "gpu"]);
    (!out.status.success()).then(|| stderr(&out))
}

fn needs_gpu(device: Device) -> Option<Outcome> {
    match device.kind {
        Kind::Twin => None,
        Kind::Cuda => no_gpu().map(|why| {
            Ok(Completion::ignored_with(format!(
                "needs an NVIDIA GPU: {why}"
            )))
        }),
    }
}

// ---- Without a GPU ----

fn without_a_gpu_it_says_what_is_missing() -> Outcome {
    let out = queens(Device::CUDA, &["count", "10", "--engine", "gpu"]);
    if out.status.success() {
        return Ok(Completion::ignored_with("a GPU is here".to_string()));
    }
    let err = stderr(&out);
    check("the exit status", out.status.code(), Some(2))?;
    let names_it = ["driver", "GPU", "NVRTC", "cuda"]
        .iter()
        .any(|w| err.contains(w));
    let advises = err.contains("docs/gpu.md") && err.contains("--engine");
    if !(names_it && advises) {
        return Err(
            format!("the message names neither what is missing nor what to do: {err}").into(),
        );
    }
    if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
        return Err(format!("a panic: {err}").into());
    }
    // The default engine never needs the GPU.
    check("count 10", ok(Device::CUDA, &["count", "10"])?, "724")?;
    Ok(Completion::Completed)
}

fn an_unknown_device_is_refused() -> Outcome {
    let out = Command::new(assert_cmd::cargo::cargo_bin("queens"))
        .args(["count", "8", "--engine", "gpu"])
        .env("QUEENS_GPU_DEVICE", "tpu")
        .output()
        .expect("queens starts");
    check("the exit status", out.status.code(), Some(2))?;
    let err = stderr(&out);
    if !(err.contains("QUEENS_GPU_DEVICE") && err.contains("tpu") && err.contains("twin")) {
        return Err(format!("the message: {err}").into());
    }
    // A value that is not UTF-8 is refused too, not taken for unset (the default device).
    #[cfg(unix)]
    for var in ["QUEENS_GPU_DEVICE", "QUEENS_GPU_SPLIT", "QUEENS_GPU_JOIN"] {
        use std::os::unix::ffi::OsStrExt;
        let mut command = command(Device::TWIN, &["count", "8", "--engine", "gpu"]);
        let out = command
            .env(var, std::ffi::OsStr::from_bytes(b"tw\xffin"))
            .output()
            .expect("queens starts");
        let err = stderr(&out);
        check(
            &format!("{var} not UTF-8: {err}"),
            (out.status.code(), err.contains(var)),
            (Some(2), true),
        )?;
    }
    Ok(Completion::Completed)
}

/// A join `QUEENS_GPU_JOIN` does not name is refused whatever the device, with the ones it
/// takes; those it names are taken (the twin counts alike whichever is named).
fn an_unknown_join_is_refused() -> Outcome {
    let run = |join: &str| {
        Command::new(assert_cmd::cargo::cargo_bin("queens"))
            .args(["count", "12", "--engine", "gpu", "-q"])
            .env("QUEENS_GPU_DEVICE", "twin")
            .env("QUEENS_GPU_JOIN", join)
            .output()
            .expect("queens starts")
    };
    let out = run("fast");
    check("the exit status", out.status.code(), Some(2))?;
    let err = stderr(&out);
    if !(err.contains("QUEENS_GPU_JOIN") && err.contains("fast") && err.contains("lanes")) {
        return Err(format!("the message: {err}").into());
    }
    for join in ["sliced", "lanes", ""] {
        let out = run(join);
        check(
            &format!("QUEENS_GPU_JOIN={join:?}"),
            stdout(&out),
            "14200".to_string(),
        )?;
    }
    Ok(Completion::Completed)
}

// ---- On either device ----

/// N = 4 to 13 (the device's totals and classes against the reference table, its split and
/// subproblems against those of the CPU engine that makes that split: by default the one
/// `auto` takes, else the one asked for), with the boards the engine settles without the
/// device (N = 1 to 3).
fn counts_exactly(device: Device) -> Outcome {
    if let Some(skip) = needs_gpu(device) {
        return skip;
    }
    let by_default = [(device, "auto")];
    let asked = SPLITS.map(|(split, engine)| (device.split(split), engine));
    for (on, engine) in by_default.into_iter().chain(asked) {
        for n in 1..=13 {
            let arg = n.to_string();
            let got = json(on, &["count", &arg, "--engine", "gpu", "--json"])?;
            let (total, unique) = known(n);
            let what = format!("N = {n}, split {:?}", on.split);
            check(&what, counts_of(&got), (Some(total), Some(unique)))?;
            let cpu = json(on, &["count", &arg, "--engine", engine, "--json"])?;
            for key in ["n", "split", "subproblems"] {
                check(&format!("{what}: {key}"), &got[key], &cpu[key])?;
            }
        }
    }
    check(
        "count 12 --unique",
        ok(device, &["count", "12", "--engine", "gpu", "--unique"])?,
        "1787",
    )?;
    Ok(Completion::Completed)
}

/// Shards counted on the device and on the CPU engine of the same split, merged: for each of
/// the GPU's splits.
fn gpu_and_cpu_shards_merge(device: Device) -> Outcome {
    if let Some(skip) = needs_gpu(device) {
        return skip;
    }
    for (split, cpu) in SPLITS {
        let on = device.split(split);
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let mut files = Vec::new();
        for (i, engine) in ["gpu", cpu, "gpu"].iter().enumerate() {
            let shard = format!("{i}/3");
            let args = [
                "count", "13", "--engine", engine, "--shard", &shard, "--json",
            ];
            let path = dir.path().join(format!("{i}.json"));
            std::fs::write(&path, ok(on, &args)?).map_err(|e| e.to_string())?;
            files.push(path.display().to_string());
        }
        let mut args = vec!["merge", "--json"];
        args.extend(files.iter().map(String::as_str));
        let merged = json(on, &args)?;
        check(split, counts_of(&merged), (Some(73712), Some(9233)))?;
    }
    Ok(Completion::Completed)
}

/// `--pieces D` cuts the frames the device counts into pieces: the same counts.
fn pieces_count_the_same(device: Device) -> Outcome {
    if let Some(skip) = needs_gpu(device) {
        return skip;
    }
    for pieces in ["1", "2"] {
        let args = [
            "count", "14", "--engine", "gpu", "--pieces", pieces, "--json",
        ];
        let got = json(device, &args)?;
        check(
            &format!("--pieces {pieces}"),
            counts_of(&got),
            (Some(365596), Some(45752)),
        )?;
    }
    Ok(Completion::Completed)
}

// ---- Checkpoints and signals, on the twin ----

fn checkpoint_line(path: &Path, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let prefix = format!("{key} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix))?
        .parse()
        .ok()
}

/// `queens count N --engine E -j1 --checkpoint CKPT` on `device`, started and waited for
/// until the checkpoint holds some finished work.
fn start_saving(device: Device, n: &str, engine: &str, ckpt: &Path) -> Result<Child, Failed> {
    let mut child = command(device, &["count", n, "--engine", engine])
        .args(["-j", "1", "--checkpoint-every", "0.2", "--checkpoint"])
        .arg(ckpt)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    while checkpoint_line(ckpt, "finished").unwrap_or(0) == 0 {
        if start.elapsed() > Duration::from_secs(120) || child.try_wait().ok().flatten().is_some() {
            let _ = child.kill();
            return Err(format!("count {n} --engine {engine}: no checkpoint").into());
        }
        sleep(Duration::from_millis(10));
    }
    Ok(child)
}

/// A run on one engine killed mid-way, then finished on the other, the GPU on the twin
/// counting by `split`: the exact counts.
fn killed_on_one_engine_resumed_on_the_other(
    first: &str,
    then: &str,
    split: &'static str,
) -> Outcome {
    let twin = Device::TWIN.split(split);
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let ckpt = dir.path().join("run.ckpt");
    let mut child = start_saving(twin, "16", first, &ckpt)?;
    child.kill().map_err(|e| e.to_string())?;
    child.wait().map_err(|e| e.to_string())?;
    let saved = checkpoint_line(&ckpt, "finished").unwrap_or(0);
    let all = checkpoint_line(&ckpt, "subproblems").unwrap_or(0);
    if !(saved > 0 && saved < all) {
        return Err(format!("killed mid-way: {saved} of {all}").into());
    }
    let got = resumed(twin, &ckpt, "16", then)?;
    check("resumed", counts_of(&got), (Some(14772512), Some(1846955)))?;
    Ok(Completion::Completed)
}

/// SIGINT saves the checkpoint and exits with status 130; the same command resumes it: N = 17
/// by frames, and N = 15 by halves (the twin's join tests every pair: slow past that).
#[cfg(unix)]
fn sigint_saves_and_the_same_command_resumes(split: &'static str) -> Outcome {
    let twin = Device::TWIN.split(split);
    let n = if split == "frames" { "17" } else { "15" };
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let ckpt = dir.path().join("run.ckpt");
    let child = start_saving(twin, n, "gpu", &ckpt)?;
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .map_err(|e| e.to_string())?;
    check("kill -INT", sent.success(), true)?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    check("the exit status", out.status.code(), Some(130))?;
    check("interrupted", stderr(&out).contains("interrupted"), true)?;
    let got = resumed(twin, &ckpt, n, "gpu")?;
    let (total, unique) = known(n.parse().expect("a number"));
    check("resumed", counts_of(&got), (Some(total), Some(unique)))?;
    Ok(Completion::Completed)
}

/// By default the GPU counts the split `auto` takes on the CPU, within the same memory budget
/// (the frames where the half-board split does not fit); a split asked for where it cannot be
/// made is refused with status 2 and the reason.
fn the_gpu_counts_the_split_auto_takes() -> Outcome {
    for budget in ["1G", "1M"] {
        let args = ["count", "14", "--max-memory", budget, "--json"];
        let cpu = json(Device::TWIN, &args)?;
        let gpu = json(Device::TWIN, &[&args[..], &["--engine", "gpu"]].concat())?;
        check(
            &format!("--max-memory {budget}"),
            &gpu["split"],
            &cpu["split"],
        )?;
        check("counts", counts_of(&gpu), (Some(365596), Some(45752)))?;
    }
    for (split, n, says) in [("halves", "25", "half-board"), ("halves", "14", "budget")] {
        let out = queens(
            Device::TWIN.split(split),
            &["count", n, "--engine", "gpu", "--max-memory", "1M"],
        );
        check(&format!("{split} at N = {n}"), out.status.code(), Some(2))?;
        if !stderr(&out).contains(says) {
            return Err(format!("{split} at N = {n}: {}", stderr(&out)).into());
        }
    }
    Ok(Completion::Completed)
}

/// The estimate names the GPU engine and the split it would count, of each kind.
fn the_estimate_names_the_gpu_engine() -> Outcome {
    for (split, name) in [("frames", "frame1-v1"), ("halves", "halves6-v1")] {
        let text = ok(
            Device::TWIN.split(split),
            &["count", "14", "--engine", "gpu", "--estimate"],
        )?;
        if !(text.contains("engine: gpu") && text.contains(name)) {
            return Err(format!("the estimate by {split}: {text}").into());
        }
    }
    Ok(Completion::Completed)
}

/// `scripts/gpu-check` with `args`, on the twin: its exit status and standard output.
fn gpu_check(args: &[&str]) -> Result<(Option<i32>, String), Failed> {
    gpu_check_on("twin", args)
}

/// `scripts/gpu-check` with `args`, on `device` (`QUEENS_GPU_DEVICE`).
fn gpu_check_on(device: &str, args: &[&str]) -> Result<(Option<i32>, String), Failed> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gpu-check");
    let out = Command::new("python3")
        .arg(script)
        .args(args)
        .env("QUEENS_GPU_DEVICE", device)
        .env_remove("QUEENS_GPU_SPLIT")
        .env_remove("QUEENS_GPU_JOIN")
        .output()
        .map_err(|e| e.to_string())?;
    let text = format!("{}{}", stdout(&out), stderr(&out));
    Ok((out.status.code(), text))
}

/// A shell script at `path` that runs `body`.
#[cfg(unix)]
fn script(path: &Path, body: &str) -> Result<(), Failed> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).map_err(|e| e.to_string())?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// `scripts/gpu-check`, the one command a GPU session runs, works end to end on the twin with
/// small boards: every check of each split passes, the times table has a row for each N with
/// the ratio to a stand-in for ygch/n_queens; a binary that counts wrong fails its checks
/// with status 1; a board past the reference table is bad usage (status 2). Every line also
/// goes to `--out` as it comes; `--budget` skips what is left once spent; a GPU engine that
/// cannot count stops it at once; a ygch that gives no right result has no time.
#[cfg(unix)]
fn gpu_check_runs_end_to_end_on_the_twin() -> Outcome {
    if let Some(outcome) = skip::needs(&["python3"], "python3") {
        return outcome;
    }
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let queens = assert_cmd::cargo::cargo_bin("queens");
    let queens = queens.to_str().expect("a UTF-8 path");
    let ygch = dir.path().join("n_queens");
    script(
        &ygch,
        // ygch prints "cuda N queens result TOTAL, calc time: [...]", which gpu-check checks.
        &format!("echo \"cuda $1 queens result $('{queens}' count \"$1\" -q), calc time: [0ms]\""),
    )?;
    let ygch = ygch.to_str().expect("a UTF-8 path");
    // Long enough on the twin to be stopped after a second: N = 17 by frames, 16 by halves.
    for (split, signals) in [("frames", "17"), ("halves", "16")] {
        let log = dir.path().join(format!("{split}.log"));
        let log_arg = log.to_str().expect("a UTF-8 path");
        let args = [
            "--out",
            log_arg,
            "--queens",
            queens,
            "--ygch",
            ygch,
            "--splits",
            split,
            "--counts-to",
            "12",
            "--shards-n",
            "12",
            "--signals-n",
            signals,
            "--times-from",
            "10",
            "--times-to",
            "11",
            "--runs",
            "1",
            // On the twin, in a debug build beside the other tests, a launch takes long.
            "--signal-within",
            "20",
        ];
        let (code, text) = gpu_check(&args)?;
        if code != Some(0) || !text.contains("0 failed") {
            return Err(format!("gpu-check by {split}: {code:?}\n{text}").into());
        }
        // 9 counts, the shards, 3 of the signals.
        check(
            &format!("checks passed by {split}"),
            text.contains("13 passed"),
            true,
        )?;
        let logged = std::fs::read_to_string(&log).map_err(|e| e.to_string())?;
        check(
            &format!("--out by {split}: {logged}"),
            logged.contains("13 passed, 0 failed") && logged.lines().count() > 13,
            true,
        )?;
        let rows: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with(" 10 ") || l.starts_with(" 11 "))
            .collect();
        let ratios = rows
            .iter()
            .all(|r| r.split_whitespace().count() >= 4 && r.contains('s'));
        check(
            &format!("the times by {split}: {rows:?}"),
            rows.len() == 2 && ratios,
            true,
        )?;
    }
    let budget = ["--queens", queens, "--counts-to", "8", "--budget", "0"];
    let (code, text) = gpu_check(&budget)?;
    check(
        &format!("--budget 0: {text}"),
        (code, text.contains("skipped: --budget spent")),
        (Some(1), true),
    )?;
    // No driver: the GPU engine's own error, at once, and nothing else run.
    let (code, text) = gpu_check_on("cuda", &["--queens", queens])?;
    if let Some(why) = no_gpu() {
        let stopped = text.contains("stopped: the GPU engine cannot count here");
        check(
            &format!("no GPU ({why}): {text}"),
            (code, stopped, text.contains("0 passed")),
            (Some(1), true, false),
        )?;
    }
    let liar = dir.path().join("liar");
    script(&liar, "echo 'cuda 10 queens result 1, calc time: [0ms]'")?;
    let liar = liar.to_str().expect("a UTF-8 path");
    let times = [
        "--queens",
        queens,
        "--ygch",
        liar,
        "--only",
        "times",
        "--splits",
        "halves",
        "--times-from",
        "10",
        "--times-to",
        "10",
        "--runs",
        "1",
    ];
    let (code, text) = gpu_check(&times)?;
    check(
        &format!("a ygch with a wrong result: {text}"),
        (code, text.contains("FAIL  ygch 10: wrong or no result")),
        (Some(1), true),
    )?;
    let missing = dir
        .path()
        .join("missing")
        .to_str()
        .expect("UTF-8")
        .to_string();
    let (code, text) = gpu_check(&["--queens", queens, "--ygch", &missing])?;
    check(
        &format!("a missing ygch: {text}"),
        (code, text.contains("not an executable file")),
        (Some(2), true),
    )?;
    let wrong = dir.path().join("wrong");
    script(
        &wrong,
        "echo '{\"total\": 1, \"unique\": 1, \"split\": \"x\"}'",
    )?;
    let wrong = wrong.to_str().expect("a UTF-8 path");
    let (code, text) = gpu_check(&["--queens", wrong, "--only", "counts", "--counts-to", "6"])?;
    check(
        &format!("a wrong binary: {text}"),
        (code, text.contains("FAIL  [frames] count 4")),
        (Some(1), true),
    )?;
    for (bad, said) in [
        (["--counts-to", "40"], "--counts-to takes an N from 4 to 27"),
        (["--signals-n", "0"], "--signals-n takes an N from 8 to 27"),
    ] {
        let (code, text) = gpu_check(&["--queens", queens, bad[0], bad[1]])?;
        check(
            &format!("{bad:?}: {text}"),
            (code, text.contains(said)),
            (Some(2), true),
        )?;
    }
    Ok(Completion::Completed)
}

/// The CUDA host path (`cuda.rs`: opening the device, the kernel's cache, memory sizing, the
/// launches and their arguments, the retry of groups too large) on a stand-in for the driver,
/// `tests/fixtures/fake-libcuda.cpp`, which runs `kernel.cu` compiled for the host: the counts
/// of both splits exact, with little device memory too (groups taken again with more room, or
/// the clear error of a launch that cannot fit), a damaged cached cubin compiled again, and a
/// driver older than NVRTC.
/// Needs a C++ compiler and NVRTC (CI installs it and sets `QUEENS_NVRTC`).
#[cfg(target_os = "linux")]
fn the_cuda_host_path_counts_exactly_on_a_stand_in_driver() -> Outcome {
    if let Some(outcome) = skip::needs(&["c++"], "a C++ compiler (g++)") {
        return outcome;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let built = Command::new("c++")
        .args(["-std=c++14", "-O2", "-fPIC", "-shared", "-pthread", "-I"])
        .arg(root.join("crates/queens-kernel-host/src"))
        .arg("-I")
        .arg(root.join("crates/queens-core/src/count/gpu"))
        .arg(root.join("tests/fixtures/fake-libcuda.cpp"))
        .arg("-o")
        .arg(dir.path().join("libcuda.so.1"))
        .output()
        .map_err(|e| e.to_string())?;
    if !built.status.success() {
        return Err(format!("the stand-in driver does not build: {}", stderr(&built)).into());
    }
    // cudarc tries `libcuda.so` before `libcuda.so.1`: both names lead to the stand-in.
    #[cfg(unix)]
    std::os::unix::fs::symlink("libcuda.so.1", dir.path().join("libcuda.so"))
        .map_err(|e| e.to_string())?;
    // Run from a folder of its own: NVRTC looks for libcuda.so.1 in the current one too.
    let work = tempfile::tempdir().map_err(|e| e.to_string())?;
    let cache = dir.path().join("cache");
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut command = command(Device::CUDA, args);
        command
            .current_dir(work.path())
            .env("LD_LIBRARY_PATH", dir.path())
            .env("QUEENS_CACHE_DIR", &cache)
            .env_remove("QUEENS_GPU_JOIN");
        for (k, v) in env {
            command.env(k, v);
        }
        command.output().expect("queens starts")
    };
    let first = run(
        &["count", "8", "--engine", "gpu", "-q"],
        &[("FAKE_TRACE", "1")],
    );
    if first.status.success() && !stderr(&first).contains("fakecuda:") {
        return Err(format!("the stand-in was not the driver loaded: {}", stderr(&first)).into());
    }
    if !first.status.success() {
        let err = stderr(&first);
        if err.contains("NVRTC") && std::env::var_os("QUEENS_REQUIRE_NVRTC").is_none() {
            return skip::cannot_run(format!("needs NVRTC (docs/gpu.md): {err}"));
        }
        return Err(format!("count 8 on the stand-in driver: {err}").into());
    }
    for split in ["frames", "halves"] {
        for n in 4..=12 {
            let out = run(
                &["count", &n.to_string(), "--engine", "gpu", "--json"],
                &[("QUEENS_GPU_SPLIT", split)],
            );
            let v: serde_json::Value = serde_json::from_str(&stdout(&out))
                .map_err(|e| format!("{split} {n}: {e}: {}", stderr(&out)))?;
            check(&format!("{split} N = {n}"), counts_of(&v), {
                let (t, u) = known(n);
                (Some(t), Some(u))
            })?;
        }
    }
    // Little device memory: the groups that do not fit are taken again with more room.
    for free in ["8388608", "2097152"] {
        let out = run(
            &["count", "13", "--engine", "gpu", "-q"],
            &[("QUEENS_GPU_SPLIT", "halves"), ("FAKE_FREE", free)],
        );
        check(
            &format!("N = 13 in {free} bytes"),
            stdout(&out),
            "73712".to_string(),
        )?;
    }
    // Too little for one launch: the error says so, status 2.
    let out = run(
        &["count", "13", "--engine", "gpu", "-q"],
        &[("FAKE_FREE", "1048576")],
    );
    check(
        "N = 13 in 1 MiB",
        (out.status.code(), stderr(&out).contains("free, less than")),
        (Some(2), true),
    )?;
    // Several devices: each has a context, a module and memory of its own, takes a share of
    // every launch in a host thread of its own (the stand-in fails a call made on a thread
    // without its device's context), and the counts stay exact, with little memory too.
    for (split, n, free) in [
        ("frames", 12, "67108864"),
        ("halves", 13, "67108864"),
        ("halves", 13, "2097152"),
    ] {
        let out = run(
            &["count", &n.to_string(), "--engine", "gpu", "--json"],
            &[
                ("FAKE_DEVICES", "3"),
                ("FAKE_FREE", free),
                ("FAKE_TRACE", "1"),
                ("QUEENS_GPU_SPLIT", split),
            ],
        );
        let launched_on: std::collections::BTreeSet<String> = stderr(&out)
            .lines()
            .filter(|l| l.starts_with("fakecuda: launch"))
            .filter_map(|l| l.rsplit_once(" on device ").map(|(_, d)| d.to_string()))
            .collect();
        let what = format!("{split} N = {n} on 3 devices with {free} bytes each");
        let v: serde_json::Value =
            serde_json::from_str(&stdout(&out)).map_err(|e| format!("{what}: {e}"))?;
        // The classes weigh each subproblem's count apart: a count written to another
        // subproblem's place would change them, whatever the total.
        let (total, unique) = known(n);
        check(&what, counts_of(&v), (Some(total), Some(unique)))?;
        let every: std::collections::BTreeSet<String> = ["0", "1", "2"].map(String::from).into();
        check(&what, launched_on, every)?;
    }
    // One device failing fails the run, naming the device, status 2, whatever the others do.
    let out = run(
        &["count", "13", "--engine", "gpu", "-q"],
        &[("FAKE_DEVICES", "3"), ("FAKE_FAIL_ON", "1")],
    );
    check(
        "N = 13 with a device whose launches fail",
        (
            out.status.code(),
            stdout(&out),
            stderr(&out).contains("cuLaunchKernel on GPU 1 (Fake H100 1)"),
        ),
        (Some(2), String::new(), true),
    )?;
    // NVRTC loaded by path from a folder off the loader's path whose library has no RUNPATH to
    // find its builtins beside it (the CUDA 13 wheel's has none; the wheel's of CUDA 12 here
    // has `$ORIGIN`, patched out of a copy): the builtins of its folder are loaded first, so
    // the compile works (it failed with "failed to open libnvrtc-builtins.so.12.9").
    if let Some(nvrtc) = std::env::var_os("QUEENS_NVRTC").map(PathBuf::from) {
        let copy = tempfile::tempdir().map_err(|e| e.to_string())?;
        let folder = nvrtc.parent().ok_or("QUEENS_NVRTC has no folder")?;
        for entry in std::fs::read_dir(folder).map_err(|e| e.to_string())? {
            let from = entry.map_err(|e| e.to_string())?.path();
            if from.is_file() {
                std::fs::copy(&from, copy.path().join(from.file_name().unwrap()))
                    .map_err(|e| e.to_string())?;
            }
        }
        let library = copy.path().join(nvrtc.file_name().unwrap());
        let bytes = std::fs::read(&library).map_err(|e| e.to_string())?;
        let at = bytes.windows(7).position(|w| w == b"$ORIGIN");
        // A toolkit's NVRTC may have no RUNPATH at all: then the copy is already the case.
        if let Some(at) = at {
            let mut patched = bytes.clone();
            patched[at..at + 7].copy_from_slice(b"/no/dir");
            std::fs::write(&library, patched).map_err(|e| e.to_string())?;
        }
        let fresh = copy.path().join("cache");
        let out = run(
            &["count", "11", "--engine", "gpu", "-q"],
            &[
                ("QUEENS_NVRTC", library.to_str().unwrap()),
                ("QUEENS_CACHE_DIR", fresh.to_str().unwrap()),
            ],
        );
        check(
            "N = 11 with an NVRTC without RUNPATH",
            (stdout(&out), stderr(&out)),
            ("2680".to_string(), String::new()),
        )?;
    }
    // A cached cubin the driver refuses is compiled again and replaced.
    let cached: Vec<_> = std::fs::read_dir(&cache)
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    check("cached files", cached.len(), 1)?;
    let cubin = std::fs::read(&cached[0]).map_err(|e| e.to_string())?;
    check("a cubin cached", cubin.starts_with(b"\x7fELF"), true)?;
    // Damaged inside, where the stand-in reads it (a driver would not read past the file's
    // last section either), its entry points' names left whole.
    let mut damaged = cubin.clone();
    let at = cubin.len() / 2;
    damaged[at..at + 7].copy_from_slice(b"DAMAGED");
    // Checked, not assumed: a name cut would have the file compiled again before any load,
    // and the driver's refusal of a cached cubin would go untested.
    let names_whole = [
        "queens_count_tasks\0",
        "queens_join_pairs\0",
        "queens_count_groups\0",
    ]
    .iter()
    .all(|name| damaged.windows(name.len()).any(|w| w == name.as_bytes()));
    check("the damaged cubin's entry points named", names_whole, true)?;
    std::fs::write(&cached[0], &damaged).map_err(|e| e.to_string())?;
    let out = run(&["count", "11", "--engine", "gpu", "-q"], &[]);
    check(
        "N = 11 past a damaged cache",
        stdout(&out),
        "2680".to_string(),
    )?;
    let again = std::fs::read(&cached[0]).map_err(|e| e.to_string())?;
    check("the cache repaired", again == cubin, true)?;
    // A driver older than NVRTC (here one that reads PTX up to ISA 8.0, CUDA 12.0's, where
    // NVRTC 12.9 writes 8.8) loads the engine's machine code all the same: the engine loads a
    // cubin, not PTX, which such a driver refuses (CUDA_ERROR_UNSUPPORTED_PTX_VERSION).
    let fresh = dir.path().join("cache-old-driver");
    let out = run(
        &["count", "10", "--engine", "gpu", "-q"],
        &[
            ("FAKE_PTX_MAX", "8.0"),
            ("QUEENS_CACHE_DIR", fresh.to_str().unwrap()),
        ],
    );
    check(
        "N = 10 on a driver older than NVRTC",
        (stdout(&out), stderr(&out)),
        ("724".to_string(), String::new()),
    )?;
    // A GPU of another architecture (compute capability 8.0) gets code of its own.
    let out = run(
        &["count", "10", "--engine", "gpu", "-q"],
        &[
            ("FAKE_MAJOR", "8"),
            ("QUEENS_CACHE_DIR", fresh.to_str().unwrap()),
        ],
    );
    check(
        "N = 10 on a GPU of compute capability 8.0",
        (stdout(&out), stderr(&out)),
        ("724".to_string(), String::new()),
    )?;
    Ok(Completion::Completed)
}

/// The driver functions the engine looks up before any call (so that cudarc, which panics on
/// the first a library lacks, never meets one missing) are the ones the stand-in driver
/// defines: a function the engine starts to call must be added to the stand-in (else its test
/// fails), and to the list (else this one does).
fn the_driver_functions_looked_up_are_the_stand_ins() -> Outcome {
    let source = include_str!("fixtures/fake-libcuda.cpp");
    let mut defined: Vec<&str> = source
        .split("CUresult ")
        .skip(1)
        .filter_map(|rest| rest.split_once('(').map(|(name, _)| name))
        .filter(|name| {
            name.starts_with("cu") && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
        .collect();
    defined.sort_unstable();
    defined.dedup();
    let mut listed = queens_core::count::gpu::cuda::DRIVER_FUNCTIONS.to_vec();
    listed.sort_unstable();
    check("the driver functions", listed, defined)?;
    Ok(Completion::Completed)
}

/// A library of the driver's name that lacks functions the engine calls (a partial one, a
/// stand-in, a layer of another vendor's) is named with what it lacks, status 2, where cudarc
/// panicked at the first missing (status 101).
#[cfg(target_os = "linux")]
fn a_driver_library_lacking_functions_is_refused_naming_them() -> Outcome {
    if let Some(outcome) = skip::needs(&["c++"], "a C++ compiler (g++)") {
        return outcome;
    }
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let source = dir.path().join("partial.cpp");
    std::fs::write(&source, "extern \"C\" int cuInit(unsigned) { return 0; }\n")
        .map_err(|e| e.to_string())?;
    let built = Command::new("c++")
        .args(["-fPIC", "-shared", "-o"])
        .arg(dir.path().join("libcuda.so.1"))
        .arg(&source)
        .output()
        .map_err(|e| e.to_string())?;
    if !built.status.success() {
        return Err(format!("the partial driver does not build: {}", stderr(&built)).into());
    }
    std::os::unix::fs::symlink("libcuda.so.1", dir.path().join("libcuda.so"))
        .map_err(|e| e.to_string())?;
    let out = command(Device::CUDA, &["count", "8", "--engine", "gpu"])
        .current_dir(dir.path())
        .env("LD_LIBRARY_PATH", dir.path())
        .output()
        .map_err(|e| e.to_string())?;
    let err = stderr(&out);
    check("the status", out.status.code(), Some(2))?;
    let named = "the CUDA driver library loaded lacks cuCtxGetCurrent, cuCtxGetDevice, cuCtxGetFlags and 44 more: it is not NVIDIA's driver";
    if !err.contains(named) || err.contains("panicked") {
        return Err(format!("the message: {err}").into());
    }
    Ok(Completion::Completed)
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = vec![
        Trial::ignorable_test(
            "without_a_gpu_it_says_what_is_missing",
            without_a_gpu_it_says_what_is_missing,
        ),
        Trial::ignorable_test("an_unknown_device_is_refused", an_unknown_device_is_refused),
        Trial::ignorable_test("an_unknown_join_is_refused", an_unknown_join_is_refused),
        Trial::ignorable_test(
            "the_estimate_names_the_gpu_engine",
            the_estimate_names_the_gpu_engine,
        ),
        Trial::ignorable_test(
            "the_gpu_counts_the_split_auto_takes",
            the_gpu_counts_the_split_auto_takes,
        ),
    ];
    // A half-board run on the CPU is too quick to kill part way at N = 16, and the twin too slow
    // to finish a larger board: that direction is tested on the engine's tally instead
    // (count/gpu/tests.rs).
    trials.push(Trial::ignorable_test("frame_killed_gpu_resumes", || {
        killed_on_one_engine_resumed_on_the_other("frame", "gpu", "frames")
    }));
    for (split, cpu) in SPLITS {
        trials.push(Trial::ignorable_test(
            format!("gpu_killed_{cpu}_resumes"),
            move || killed_on_one_engine_resumed_on_the_other("gpu", cpu, split),
        ));
        #[cfg(unix)]
        trials.push(Trial::ignorable_test(
            format!("sigint_saves_and_the_same_command_resumes_by_{split}"),
            move || sigint_saves_and_the_same_command_resumes(split),
        ));
    }
    for device in [Device::TWIN, Device::CUDA] {
        let name = device.name();
        trials.push(Trial::ignorable_test(
            format!("{name}::counts_exactly"),
            move || counts_exactly(device),
        ));
        trials.push(Trial::ignorable_test(
            format!("{name}::gpu_and_cpu_shards_merge"),
            move || gpu_and_cpu_shards_merge(device),
        ));
        trials.push(Trial::ignorable_test(
            format!("{name}::pieces_count_the_same"),
            move || pieces_count_the_same(device),
        ));
    }
    #[cfg(unix)]
    trials.push(Trial::ignorable_test(
        "gpu_check_runs_end_to_end_on_the_twin",
        gpu_check_runs_end_to_end_on_the_twin,
    ));
    trials.push(Trial::ignorable_test(
        "the_driver_functions_looked_up_are_the_stand_ins",
        the_driver_functions_looked_up_are_the_stand_ins,
    ));
    #[cfg(target_os = "linux")]
    trials.push(Trial::ignorable_test(
        "a_driver_library_lacking_functions_is_refused_naming_them",
        a_driver_library_lacking_functions_is_refused_naming_them,
    ));
    #[cfg(target_os = "linux")]
    trials.push(Trial::ignorable_test(
        "the_cuda_host_path_counts_exactly_on_a_stand_in_driver",
        the_cuda_host_path_counts_exactly_on_a_stand_in_driver,
    ));
    libtest_mimic::run(&args, trials).exit();
}
