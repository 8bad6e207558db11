//! The memory of a half-board count, rehearsed: every subproblem listed on the run's threads,
//! in the run's order, into its buffers, but not joined (`queens_core::internals::rehearse`,
//! the measuring rig behind this example), so that the process reaches the count's peak
//! memory in the time of the listing. Prints the split, the largest subproblems by their
//! halves, and the peak resident memory of the process (Linux's `VmHWM`; elsewhere run it
//! under `/usr/bin/time -v`). A progress line goes to the standard
//! error each minute (subproblems listed, peak and present memory, the most halves so far):
//! the run takes its subproblems dearest first, so the peak is reached early, and a rehearsal
//! stopped before its end still shows it.
//!
//! Run: `cargo run --release -p queens-core --example rehearse_memory -- 16 2`
//! (N, threads, the memory budget in MiB: 1024 by default, as `queens count`'s, and a shard
//! `I/M` to rehearse every M-th subproblem only, a sample across the whole plan).
//! `rehearse_memory N T B --ceiling U L C D` rehearses nothing and prints the ceiling of the
//! buffers (`queens_core::internals::buffers_ceiling`) for subproblems of at most `U` upper
//! and `L` lower halves and sorted copies of `C` and `D`: for sizes folded over several
//! rehearsals (`scripts/rehearse-pieces`).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use queens_core::count::halves::Listed;
use queens_core::count::{Engine, Run, Shard};
use queens_core::internals::{buffers_ceiling, rehearse as rehearse_run};

fn main() -> std::process::ExitCode {
    match rehearse() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("rehearse_memory: {err}");
            std::process::ExitCode::from(2)
        }
    }
}

fn rehearse() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(Ok(16), |a| a.parse())?;
    let threads: usize = args.next().map_or(Ok(2), |a| a.parse())?;
    let budget: u64 = args.next().map_or(Ok(1024), |a| a.parse())?;
    let mut run = Run::with_engine(n, Engine::Halves, threads, budget << 20)?;
    match args.next().as_deref() {
        Some("--ceiling") => {
            let mut size = || -> Result<u64, Box<dyn std::error::Error>> {
                Ok(args
                    .next()
                    .ok_or("--ceiling takes 4 sizes: U L C D")?
                    .parse()?)
            };
            let most = Listed {
                uppers: size()?,
                lowers: size()?,
                copied: (size()?, size()?),
            };
            let bytes =
                buffers_ceiling(&run, most).ok_or("the half-board engine does not count N")?;
            print_ceiling(&run, bytes);
            return Ok(());
        }
        Some(shard) => run = run.shard(shard.parse::<Shard>()?),
        None => {}
    }
    let started = Instant::now();
    let total = run.todo();
    // Subproblems listed, the most of each size of one, and when the last line went.
    let progress = Mutex::new((0usize, Listed::default(), started));
    let on_listed = |_, halves: Listed| {
        let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
        p.0 += 1;
        p.1 = p.1.each_max(halves);
        if p.2.elapsed() >= Duration::from_secs(60) || p.0 == total {
            p.2 = Instant::now();
            let m = p.1;
            eprintln!(
                "{:.0} s: {} of {total} subproblems listed; peak {} MiB, now {} MiB; \
                 most so far {} upper and {} lower halves, copies {} and {}",
                started.elapsed().as_secs_f64(),
                p.0,
                status_kib("VmHWM:").map_or(0, |k| k >> 10),
                status_kib("VmRSS:").map_or(0, |k| k >> 10),
                m.uppers,
                m.lowers,
                m.copied.0,
                m.copied.1,
            );
        }
    };
    let mut listed =
        rehearse_run(&run, &on_listed).ok_or("the half-board engine does not count N")??;
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(listed.len(), run.todo(), "every subproblem listed");
    let (uppers, lowers) = listed
        .iter()
        .fold((0u64, 0u64), |(u, l), (_, h)| (u + h.uppers, l + h.lowers));
    println!(
        "N = {n}: split {}, {} of {} subproblems listed on {} threads in {seconds:.1} s: \
         {uppers} upper and {lowers} lower halves",
        run.split(),
        listed.len(),
        run.subproblems(),
        run.workers(),
    );
    let m = listed
        .iter()
        .fold(Listed::default(), |m, &(_, h)| m.each_max(h));
    println!(
        "most halves of one side in one subproblem: {} upper, {} lower; \
         most halves the join copies: {} and {}",
        m.uppers, m.lowers, m.copied.0, m.copied.1
    );
    if let Some(bytes) = buffers_ceiling(&run, m) {
        print_ceiling(&run, bytes);
    }
    listed.sort_by_key(|(i, h)| (std::cmp::Reverse(h.uppers + h.lowers), *i));
    for (i, h) in listed.iter().take(3) {
        println!(
            "largest: subproblem {i}, {} upper and {} lower halves ({:.0} MiB at 8 bytes a half)",
            h.uppers,
            h.lowers,
            (8 * (h.uppers + h.lowers)) as f64 / f64::from(1 << 20)
        );
    }
    match status_kib("VmHWM:") {
        Some(kib) => println!("peak resident memory: {:.0} MiB", kib as f64 / 1024.0),
        None => println!("peak resident memory: not known here (try /usr/bin/time -v)"),
    }
    Ok(())
}

/// The line that gives the ceiling of the run's buffers (`scripts/rehearse-pieces` reads it).
fn print_ceiling(run: &Run, bytes: u64) {
    println!(
        "ceiling of the buffers on {} threads for subproblems of these sizes: {:.1} MiB \
         ({bytes} bytes)",
        run.workers(),
        bytes as f64 / f64::from(1 << 20)
    );
}

/// A memory line of Linux's `/proc/self/status` in KiB (`VmHWM:`, the peak resident memory;
/// `VmRSS:`, the present); `None` elsewhere.
fn status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
