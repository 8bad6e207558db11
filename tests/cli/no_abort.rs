//! No abort at any setting (issue 20), under the limits a process can be given: an address
//! space too small for the budget asked (`RLIMIT_AS`), a small main-thread stack
//! (`RLIMIT_STACK`, as `ulimit -s` sets it), SIGINT ignored on entry (as a script's background
//! job starts), and checkpoint paths that are not checkpoints. The limits are set in the child
//! between `fork` and `exec` (`pre_exec`), so no outside tool is needed.

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{run_args, temp_checkpoint, words};

/// The binary under test, with the soft and hard `limits` set and SIGINT ignored on entry when
/// `ignore_sigint`.
fn limited(
    args: &[&str],
    limits: &[(libc::__rlimit_resource_t, u64)],
    ignore_sigint: bool,
) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("queens"));
    cmd.args(args).stdin(Stdio::null());
    let limits = limits.to_vec();
    // SAFETY: between fork and exec the closure calls only async-signal-safe functions
    // (`setrlimit`, `signal`) on values it owns.
    unsafe {
        cmd.pre_exec(move || {
            for &(resource, bytes) in &limits {
                let limit = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // Either way explicitly: a shell's background job starts its children with SIGINT
            // (and SIGQUIT) ignored, which would otherwise leak into the `false` case.
            let handling = if ignore_sigint {
                libc::SIG_IGN
            } else {
                libc::SIG_DFL
            };
            libc::signal(libc::SIGINT, handling);
            Ok(())
        });
    }
    cmd
}

const GIB: u64 = 1 << 30;

/// Asserts that `out` ended with status 2 and a message, not by a signal (SIGABRT, SIGSEGV).
fn ends_in_an_error(args: &[&str], out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.signal(), None, "{args:?} was killed: {err}");
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("memory allocation"), "{args:?}: {err}");
    err
}

#[test]
fn huge_requests_with_a_terabyte_budget_under_a_4_gib_address_space_end_in_an_error() {
    let cases = [
        "solve 4294967295 --algo backtrack --format positions",
        "solve 4294967295 --algo min-conflicts --format positions",
        "trace 4294967295 --summary",
        "complete 4294967295 --format positions",
    ];
    for line in cases {
        let line = format!("{line} --max-memory 1T");
        let args = words(&line);
        let out = limited(&args, &[(libc::RLIMIT_AS, 4 * GIB)], false)
            .output()
            .expect("runs");
        let err = ends_in_an_error(&args, &out);
        assert!(
            err.contains("--max-memory 1.0 TiB is more than this process can have (RLIMIT_AS"),
            "{args:?}: {err}"
        );
        assert!(err.contains("lowered to"), "{args:?}: {err}");
        assert_eq!(err.matches("lowered").count(), 1, "{args:?}: {err}");
        assert!(err.contains("needs"), "{args:?}: {err}");
    }
    // A budget given under the ceiling is kept, and the default is lowered without a word.
    let args = words(cases[0]);
    let out = limited(&args, &[(libc::RLIMIT_AS, GIB)], false)
        .output()
        .expect("runs");
    let err = ends_in_an_error(&args, &out);
    assert!(!err.contains("lowered"), "{err}");
    let args = [&args[..], &["--max-memory", "100M"]].concat();
    let out = limited(&args, &[(libc::RLIMIT_DATA, 4 * GIB)], false)
        .output()
        .expect("runs");
    let err = ends_in_an_error(&args, &out);
    assert!(
        !err.contains("lowered") && err.contains("104857600 bytes"),
        "{err}"
    );
}

/// Sends SIGINT to `child` and waits at most `limit` for its status.
fn interrupt(child: &mut std::process::Child, limit: Duration) -> std::process::ExitStatus {
    // SAFETY: `kill` sends a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("no end {limit:?} after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts `command`, sends it SIGINT `after` its start and waits at most `limit` for its end:
/// its status and standard error.
fn interrupt_after(
    mut command: Command,
    after: Duration,
    limit: Duration,
) -> (std::process::ExitStatus, String) {
    let mut child = command.stderr(Stdio::piped()).spawn().expect("starts");
    std::thread::sleep(after);
    let status = interrupt(&mut child, limit);
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    (status, err)
}

#[test]
fn count_22_with_a_terabyte_budget_under_a_4_gib_address_space_runs_and_stops_on_sigint() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("n22.ckpt");
    let ckpt = ckpt.to_str().unwrap();
    let args = [
        &words("count 22 --max-memory 1T --progress none")[..],
        &["--checkpoint", ckpt],
    ];
    let command = limited(&args.concat(), &[(libc::RLIMIT_AS, 4 * GIB)], false);
    // Long enough for the plan and the first subproblems' halves to be allocated.
    let (status, err) = interrupt_after(command, Duration::from_secs(3), Duration::from_secs(120));
    assert_eq!(status.signal(), None, "{err}");
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("lowered to"), "{err}");
    assert!(err.contains("interrupted"), "{err}");
}

#[test]
fn the_recursive_solvers_run_deep_under_a_small_main_thread_stack() {
    for (line, stack) in [
        ("solve 5000 --algo recursive --format positions", 128 << 10),
        ("trace 5000 --algo wirth --summary", 512 << 10),
    ] {
        let args = words(line);
        // These searches find no solution of N = 5000 in reach: alive after 2 s, they went
        // thousands of rows deep without overflowing (the main thread did within a second).
        let mut child = limited(&args, &[(libc::RLIMIT_STACK, stack)], false)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts");
        std::thread::sleep(Duration::from_secs(2));
        let early = child.try_wait().expect("wait");
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(early, None, "{args:?} ended early (stack overflow?)");
    }
    // And a board they solve, under the smallest stack.
    let out = limited(
        &words("solve 16 --algo wirth --format positions"),
        &[(libc::RLIMIT_STACK, 128 << 10)],
        false,
    )
    .output()
    .expect("runs");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).split(' ').count(), 16);
}

#[test]
fn sigint_in_the_first_moments_of_a_count_started_with_it_ignored_saves_and_ends() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("n24.ckpt");
    // Past the program's start, and before the plan is ready.
    let after = Duration::from_millis(150);
    let (status, err) = interrupt_after(
        limited(&count_24_args(&ckpt), &[], true),
        after,
        Duration::from_secs(60),
    );
    assert_saved_and_ended_with_130(status, &err, &ckpt);
}

/// `count 24 --progress none --checkpoint CKPT`, the run the early-signal tests interrupt.
fn count_24_args(ckpt: &std::path::Path) -> Vec<&str> {
    let mut args = words("count 24 --progress none");
    args.extend(["--checkpoint", ckpt.to_str().unwrap()]);
    args
}

/// Checks that an interrupted `count 24` said so, saved its checkpoint `ckpt`, and ended with
/// status 130.
fn assert_saved_and_ended_with_130(
    status: std::process::ExitStatus,
    err: &str,
    ckpt: &std::path::Path,
) {
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted") && err.contains("saved in"),
        "{err}"
    );
    let saved = std::fs::read_to_string(ckpt).expect("the checkpoint is saved");
    assert!(
        saved.starts_with("queens-count-checkpoint 2\nn 24\n"),
        "{saved}"
    );
}

/// The threads of process `pid` named `name`.
fn threads_named(pid: u32, name: &str) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm")).is_ok_and(|c| c.trim() == name)
        })
        .count()
}

/// Whether process `pid` catches `signal` (`SigCgt` of `/proc/PID/status`).
fn catches(pid: u32, signal: i32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (signal - 1)) != 0)
}

/// Starts `command` and waits until the thread that runs the command has started: a third
/// thread named `queens`, after the main one and the one that parses the arguments. (A thread
/// shows its parent's name for a moment after it starts, so the second one could be another.)
/// Whether SIGINT was caught by then, and the child.
fn at_the_command(mut command: Command) -> (bool, std::process::Child) {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let start = Instant::now();
    while threads_named(child.id(), "queens") < 3 {
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("no thread runs the command after 10 s");
        }
        std::hint::spin_loop();
    }
    (catches(child.id(), libc::SIGINT), child)
}

/// Issue 40: a SIGINT in the first milliseconds of `count 24 --checkpoint x` started with it
/// ignored was lost, because the handlers came after the arguments were parsed (on the thread
/// that runs the command, a moment after it starts). They come first now: SIGINT is caught
/// before the command's thread starts, and one sent then is answered as any other (the
/// checkpoint saved, status 130).
#[test]
fn sigint_is_caught_before_the_command_starts_and_answered() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("n24.ckpt");
    let (caught, mut child) = at_the_command(limited(&count_24_args(&ckpt), &[], true));
    if !caught {
        let _ = child.kill();
        let _ = child.wait();
        panic!("SIGINT was not caught yet when the command's thread started");
    }
    let status = interrupt(&mut child, Duration::from_secs(60));
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_saved_and_ended_with_130(status, &err, &ckpt);
}

/// The commands that do not stop gracefully get the default handling back once the arguments
/// are parsed: SIGINT ends them as a signal does, and one ignored at the start stays ignored.
#[test]
fn other_commands_keep_the_default_handling_of_sigint() {
    let args = words("list 40 --format positions");
    for ignore in [false, true] {
        // The command runs on a third thread named `queens`, started after the arguments.
        let (_, mut child) = at_the_command(limited(&args, &[], ignore));
        // SAFETY: `kill` sends a signal to our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        std::thread::sleep(Duration::from_millis(300));
        let early = child.try_wait().expect("wait");
        let _ = child.kill();
        let _ = child.wait();
        if ignore {
            assert_eq!(early, None, "SIGINT ignored at the start ended the listing");
        } else {
            let status = early.expect("SIGINT ends the listing");
            assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
        }
    }
}

/// A count that does not save (`--estimate`, `--algo`) ends on SIGINT as a signal ends any
/// program, and even when it was started with SIGINT ignored (a script's `count ... &`), as
/// every count does: whoever sends SIGINT to a count means it to stop.
#[test]
fn a_count_that_does_not_save_ends_on_sigint_even_started_with_it_ignored() {
    for line in ["count 20 --estimate", "count 18 --algo bitboard"] {
        let (_, mut child) = at_the_command(limited(&words(line), &[], true));
        // SAFETY: `kill` sends a signal to our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break Some(status);
            }
            if start.elapsed() > Duration::from_secs(2) {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let status = status.unwrap_or_else(|| panic!("{line}: still running 2 s after SIGINT"));
        assert_eq!(status.signal(), Some(libc::SIGINT), "{line}: {status:?}");
    }
}

#[test]
fn a_sparse_gigabyte_checkpoint_is_refused_from_its_size() {
    let (_dir, path) = temp_checkpoint();
    let args = [
        &words("count 12 --engine frame --checkpoint")[..],
        &[path.to_str().unwrap()],
    ]
    .concat();
    run_args(&args).succeeds();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(1 << 30).unwrap();
    let ran = run_args(&args).status(2);
    assert!(!ran.stderr.contains("memory allocation"), "{ran:#?}");
    assert!(
        ran.stderr.contains("1073741824 bytes long, more than the"),
        "{ran:#?}"
    );
}

/// Whether process `pid` has a thread named `name` (`comm` of `/proc/PID/task/TID`).
fn has_thread(pid: u32, name: &str) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().any(|task| {
        std::fs::read_to_string(task.path().join("comm")).is_ok_and(|comm| comm.trim() == name)
    })
}

/// The bytes of address space process `pid` maps (`VmSize` of `/proc/PID/status`).
fn mapped_bytes(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmSize:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The half-board engine's halves grow while it counts, long after the budget was checked
/// against the memory the process could have at start-up. When the process can have less by
/// then, the growth must fail softly. Here its `RLIMIT_AS` is lowered while it runs (as
/// `prlimit --pid` does), once its checkpoint is first saved, to 16 MiB above what it maps:
/// the lists of its first subproblem (millions of halves, tens of MiB: the dearest is counted
/// first) cannot grow past that, whenever the limit lands in their growth. The run saves its
/// checkpoint and ends in status 2 with a message naming the memory, not in an abort
/// ("memory allocation of N bytes failed", SIGABRT). One thread, so that nothing else grows
/// meanwhile.
#[test]
fn a_count_whose_address_space_is_lowered_while_it_runs_saves_and_ends_in_an_error() {
    let (_dir, ckpt) = temp_checkpoint();
    let args = [
        &words("count 20 --engine halves --threads 1 --checkpoint")[..],
        &[ckpt.to_str().unwrap(), "--progress", "none"],
    ]
    .concat();
    let mut child = limited(&args, &[], false)
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let pid = child.id();
    let start = Instant::now();
    // The first save comes before the thread that watches the run starts: a thread started
    // under the lowered limit would find no memory for its signal stack, which the standard
    // library answers with an abort. The count waits for its watcher before it takes memory;
    // the limit waits for it too, so that it lands in the count, not in the thread's start.
    while !ckpt.exists() || !has_thread(pid, "watcher") {
        if let Some(status) = child.try_wait().expect("wait") {
            panic!("the count ended before its limit was lowered: {status}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no checkpoint and watcher thread after 60 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let limit = mapped_bytes(pid).expect("the child's VmSize") + (16 << 20);
    let rlimit = libc::rlimit {
        rlim_cur: limit,
        rlim_max: limit,
    };
    // SAFETY: `prlimit` sets a limit of our own child from a value owned by this frame.
    let set = unsafe { libc::prlimit(pid as i32, libc::RLIMIT_AS, &rlimit, std::ptr::null_mut()) };
    assert_eq!(set, 0, "prlimit: {}", std::io::Error::last_os_error());
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("still counting 120 s after its address space was lowered");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.signal(), None, "killed: {err}");
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(
        !err.contains("memory allocation") && !err.contains("panicked"),
        "{err}"
    );
    assert!(
        err.contains("queens: error: out of memory: the half-board engine could not allocate")
            && err.contains(" bytes (")
            && err.contains("subproblem of N = 20"),
        "{err}"
    );
    assert!(err.contains("subproblems are saved in"), "{err}");
    // What to do about it, in flags (the engine's error names none; the binary adds them).
    assert!(
        err.contains("(lower --max-memory or --threads, or use --engine frame)"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let saved = std::fs::read_to_string(&ckpt).expect("the checkpoint is saved");
    assert!(
        saved.starts_with("queens-count-checkpoint 2\nn 20\n"),
        "{saved}"
    );
}

/// The binary under `RLIMIT_NPROC` = `most` (processes and threads of its user). Root ignores
/// that limit, so when the tests run as root the child first becomes the unprivileged user
/// 65534 (`nobody`), who normally runs nothing else: then the limit counts the child's own
/// threads only. (The binary must be readable and executable by that user: the test says so
/// when it is not.) Run as another user, the limit counts that user's other processes too, and
/// the child fails at one of its earlier threads: still the error the test asks for.
fn with_few_threads(args: &[&str], most: u64) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("queens"));
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .current_dir("/");
    // SAFETY: between fork and exec the closure calls only async-signal-safe functions
    // (`geteuid`, `setgroups`, `setgid`, `setuid`, `setrlimit`) on values it owns.
    unsafe {
        cmd.pre_exec(move || {
            if libc::geteuid() == 0
                && (libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setgid(65534) != 0
                    || libc::setuid(65534) != 0)
            {
                return Err(std::io::Error::last_os_error());
            }
            let limit = libc::rlimit {
                rlim_cur: most,
                rlim_max: most,
            };
            if libc::setrlimit(libc::RLIMIT_NPROC, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd
}

/// Every thread the commands start may fail to start: under a small `RLIMIT_NPROC`, `count`
/// (the argument and command threads, the signal thread, the watcher, the worker pool of
/// `--threads 64`), `count --estimate` (its sampling threads, with either engine), `solve`
/// (the argument and command threads) and `serve` (its runtime's threads) end in status 2 with
/// one line naming the thread that could not start, never a panic (status 101 and a
/// backtrace, as `--estimate` and `serve` did).
#[test]
fn commands_under_a_small_process_limit_end_in_an_error_not_a_panic() {
    // N = 16: 73 subproblems, so that all 64 threads are started (a run starts no more
    // threads than it has subproblems, and N = 14 has 21).
    let count: &[&str] = &["count", "16", "--threads", "64", "--progress", "none"];
    let estimate: &[&str] = &["count", "14", "--estimate", "--threads", "64"];
    let frame_estimate: &[&str] = &["count", "14", "--estimate", "--engine", "frame"];
    let cases: [(&[&str], u64); 11] = [
        (count, 1),
        (count, 2),
        (count, 3),
        (count, 4),
        (count, 8),
        (count, 32),
        (estimate, 4),
        (estimate, 16),
        (frame_estimate, 3),
        (&["solve", "14", "--format", "positions"], 2),
        (&["serve", "--port", "0"], 4),
    ];
    for (args, most) in cases {
        let mut child = match with_few_threads(args, most).spawn() {
            Ok(child) => child,
            Err(err) if err.kind() == std::io::ErrorKind::PermissionDenied => {
                // Only as root, when the binary lies where user 65534 cannot reach it.
                eprintln!(
                    "skipped: user 65534 cannot run {} ({err}); run the tests as another user \
                     or from a readable directory",
                    assert_cmd::cargo::cargo_bin("queens").display()
                );
                return;
            }
            Err(err) => panic!("{args:?}: cannot start: {err}"),
        };
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if start.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{args:?} under RLIMIT_NPROC {most}: still running after 60 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        let context = format!("{args:?} under RLIMIT_NPROC {most}: {status:?}: {err}");
        assert_eq!(status.signal(), None, "{context}");
        assert_eq!(status.code(), Some(2), "{context}");
        assert!(
            !err.contains("panicked") && !err.contains("backtrace"),
            "{context}"
        );
        assert!(err.starts_with("queens: error: "), "{context}");
        assert!(
            err.contains("start the") && err.contains("(os error"),
            "{context}"
        );
        assert_eq!(err.lines().count(), 1, "{context}");
    }
}
