//! The memory this process can have, and the budget (`--max-memory`) fitted to it: the least
//! of the physical memory, the address-space and data-segment limits (`RLIMIT_AS`,
//! `RLIMIT_DATA`) and the memory limit of the process's cgroup (v2 `memory.max`, v1
//! `memory.limit_in_bytes`, of its own group and every group above it). A budget above three
//! quarters of that ceiling is lowered to them, so that what the budget checks before it
//! allocates is also what the allocator can give; the last quarter is left to what the budget
//! does not count (the program, thread stacks, the allocator's own reserves). Off Linux only
//! the physical memory and the resource limits are known.
//!
//! `queens count` without `--max-memory` uses those three quarters too ([`CountBudget`]): the
//! half-board engine runs as many subproblems at once as fit in them, while its split stays the
//! one of a fixed [`REFERENCE`] budget, so that shards and checkpoints of any machine match.
//!
//! May call: `libc` and the file system under `/proc` and `/sys/fs/cgroup`; nothing else.

use std::path::Path;

/// The least memory limit on this process, and what sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ceiling {
    /// The bytes the process can have, at most (for the address space: what is left of it).
    pub bytes: u64,
    /// What sets the ceiling, in words: "the physical memory", "RLIMIT_AS, less what is
    /// mapped", "RLIMIT_DATA" or "the cgroup's memory limit".
    pub what: &'static str,
}

impl Ceiling {
    /// The largest budget that fits under the ceiling: three quarters of it.
    pub fn usable(self) -> u64 {
        self.bytes / 4 * 3
    }
}

/// The budget the half-board engine's split is chosen by when `queens count` is given no
/// `--max-memory`: 1 GiB, the default budget of every command before the default of `count`
/// followed the machine, so that its splits stay the same.
pub const REFERENCE: u64 = 1 << 30;

/// The memory budgets of a count: the one its half-board split is chosen by, and the one that
/// bounds how many of its subproblems run at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountBudget {
    /// The budget the split is chosen by.
    pub split: u64,
    /// The budget that bounds how many subproblems run at once.
    pub at_once: u64,
    /// Whether the user gave `--max-memory` (then both are that).
    pub given: bool,
    /// What the process can have, when known.
    pub ceiling: Option<Ceiling>,
}

impl CountBudget {
    /// The budgets of a count given `--max-memory` (`given`; `max_memory` as already fitted
    /// under the ceiling) or not: then the split of [`REFERENCE`] and, at once, the usable part
    /// of the `ceiling` ([`REFERENCE`] when none is known).
    pub fn new(max_memory: u64, given: bool, ceiling: Option<Ceiling>) -> CountBudget {
        let (split, at_once) = if given {
            (max_memory, max_memory)
        } else {
            (REFERENCE, ceiling.map_or(REFERENCE, Ceiling::usable))
        };
        CountBudget {
            split,
            at_once,
            given,
            ceiling,
        }
    }

    /// The budgets once the split's subproblems are known to need `need` bytes each: when not
    /// even one fits in the budget at once (a process with less than a few hundred MiB: two
    /// fit in the 1 GiB below N = 24), the split is chosen by that budget instead, as the
    /// default of 1 GiB lowered to it always did.
    pub fn fitted(self, need: u64) -> CountBudget {
        if need <= self.at_once || self.given {
            return self;
        }
        CountBudget {
            split: self.at_once,
            ..self
        }
    }

    /// The budget at once in words, as the notes of `count` name it: `--max-memory 1.0 GiB`,
    /// or `the default --max-memory, 96.0 GiB (3/4 of the physical memory)`.
    pub fn describe(&self) -> String {
        match (self.given, self.ceiling) {
            (true, _) => format!("--max-memory {}", short(self.at_once)),
            (false, Some(ceiling)) => format!(
                "the default --max-memory, {} (3/4 of {})",
                short(self.at_once),
                ceiling.what
            ),
            (false, None) => format!("the default --max-memory, {}", short(self.at_once)),
        }
    }
}

/// The address space the program needs beyond what it maps at its start, to run any command:
/// the stacks of the thread that parses the arguments and of the one that runs the command
/// (8 MiB each, `main.rs`), the signal thread's, the alternative signal stacks the standard
/// library maps for each thread, and a heap of a few MiB.
pub const START_ADDRESS_SPACE: u64 = 24 << 20;

/// Prepares the process for an address-space limit (`ulimit -v`, `prlimit --as`, RLIMIT_AS),
/// before any thread starts. The C library (glibc) reserves 64 MiB of address space for each
/// thread's own heap arena, which no budget counts and which fails under caps of hundreds of
/// MiB: under a limit, one arena serves every thread (`mallopt(M_ARENA_MAX, 1)`, as
/// `MALLOC_ARENA_MAX=1` does). And a limit that leaves less than [`START_ADDRESS_SPACE`] beyond
/// what is mapped now is refused at once, saying so (the caller exits with status 2), rather
/// than failing later to map a thread's stack or a signal stack, where the standard library
/// aborts. `Ok` without a limit.
pub fn fit_address_space() -> Result<(), String> {
    let Some(limit) = soft_limit_as() else {
        return Ok(());
    };
    one_arena();
    let mapped = mapped().unwrap_or(0);
    let left = limit.saturating_sub(mapped);
    if left >= START_ADDRESS_SPACE {
        return Ok(());
    }
    Err(format!(
        "the address-space limit (RLIMIT_AS, ulimit -v) of {limit} bytes ({}) leaves {left} \
         bytes beyond the {mapped} the program maps at its start, less than the {} it needs to \
         start a command (its threads' stacks and a heap): raise the limit to at least {} \
         (ulimit -v {})",
        short(limit),
        short(START_ADDRESS_SPACE),
        short(mapped + START_ADDRESS_SPACE),
        (mapped + START_ADDRESS_SPACE).div_ceil(1024),
    ))
}

/// The soft address-space limit, when there is one.
#[cfg(unix)]
fn soft_limit_as() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` writes into `limit`, owned by this frame.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

#[cfg(not(unix))]
fn soft_limit_as() -> Option<u64> {
    None
}

/// One heap arena for every thread (glibc's `M_ARENA_MAX`); nothing with another C library.
fn one_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` sets a tunable of the allocator; called before any other thread runs.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// The ceiling of this process, if any limit is known.
pub fn ceiling() -> Option<Ceiling> {
    let mut limits = Vec::new();
    if let Some(bytes) = physical() {
        limits.push(Ceiling {
            bytes,
            what: "the physical memory",
        });
    }
    limits.extend(rlimits());
    if let Some(bytes) = cgroup_limit() {
        limits.push(Ceiling {
            bytes,
            what: "the cgroup's memory limit",
        });
    }
    limits.into_iter().min_by_key(|c| c.bytes)
}

/// The budget `asked` fitted under `ceiling`: lowered to its usable part when above it, with
/// the line to say so on standard error when the user gave the budget (`explicit`).
pub fn fit(asked: u64, explicit: bool, ceiling: Option<Ceiling>) -> (u64, Option<String>) {
    let Some(ceiling) = ceiling else {
        return (asked, None);
    };
    let usable = ceiling.usable();
    if asked <= usable {
        return (asked, None);
    }
    let note = explicit.then(|| {
        format!(
            "queens: note: --max-memory {} is more than this process can have ({}: {}); \
             lowered to {}, three quarters of it",
            short(asked),
            ceiling.what,
            short(ceiling.bytes),
            short(usable)
        )
    });
    (usable, note)
}

/// The least `--max-memory`, as the flag is written (`3277M`), that `works`, from the budgets
/// `candidates`: each rounded up to the shortest value that is at most a tenth more than it and
/// still `works` (a budget rounded up may choose another split), and the least taken. With its
/// bytes; `None` when none works.
pub fn least_flag(
    candidates: impl IntoIterator<Item = u64>,
    works: impl Fn(u64) -> bool,
) -> Option<(String, u64)> {
    candidates
        .into_iter()
        .filter_map(|bytes| {
            flag_values(bytes)
                .into_iter()
                .filter(|&(_, value)| value - bytes <= bytes / 10)
                .find(|&(_, value)| works(value))
        })
        .min_by_key(|&(_, value)| value)
}

/// The values of `--max-memory` of at least `bytes`, as the flag is written, shortest first:
/// `bytes` rounded up to whole G, whole M, whole K, and exact; each with the bytes it is.
pub fn flag_values(bytes: u64) -> Vec<(String, u64)> {
    let mut values = Vec::new();
    for (unit, shift) in [("G", 30), ("M", 20), ("K", 10)] {
        let whole = bytes.div_ceil(1 << shift);
        if whole > 0 {
            if let Some(exact) = whole.checked_mul(1 << shift) {
                values.push((format!("{whole}{unit}"), exact));
            }
        }
    }
    values.push((bytes.to_string(), bytes));
    values
}

/// `count` bytes in the largest unit of 1024 that leaves at least 1 (`3.0 GiB`).
pub fn short(count: u64) -> String {
    let words = queens_core::bytes(count);
    match words.split_once('(') {
        Some((_, unit)) => unit.trim_end_matches(')').to_string(),
        None => words,
    }
}

#[cfg(unix)]
fn physical() -> Option<u64> {
    // SAFETY: `sysconf` only reads system constants.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    (pages > 0 && size > 0).then(|| (pages as u64).saturating_mul(size as u64))
}

#[cfg(not(unix))]
fn physical() -> Option<u64> {
    None
}

/// The address-space limit (less what the process already maps) and the data limit.
#[cfg(unix)]
fn rlimits() -> Vec<Ceiling> {
    let soft = |resource| {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `getrlimit` writes into `limit`, owned by this frame.
        let ok = unsafe { libc::getrlimit(resource, &mut limit) } == 0;
        (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
    };
    let mut limits = Vec::new();
    if let Some(limit) = soft(libc::RLIMIT_AS) {
        limits.push(Ceiling {
            bytes: limit
                .saturating_sub(mapped().unwrap_or(0))
                .saturating_sub(thread_stacks()),
            what: "RLIMIT_AS, less what is mapped",
        });
    }
    if let Some(limit) = soft(libc::RLIMIT_DATA) {
        limits.push(Ceiling {
            bytes: limit,
            what: "RLIMIT_DATA",
        });
    }
    limits
}

#[cfg(not(unix))]
fn rlimits() -> Vec<Ceiling> {
    Vec::new()
}

/// The address space of the stacks still to be mapped when the budget is fitted: the
/// command's thread (8 MiB, `main.rs`) and, for a count, a thread per core, its watcher and
/// their signal stacks (2 MiB and 64 KiB each, the standard library's defaults).
fn thread_stacks() -> u64 {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    (8 << 20) + (cores + 1) * ((2 << 20) + (64 << 10))
}

/// The bytes of address space the process maps now (`/proc/self/statm`, first field).
fn mapped() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().next()?.parse().ok()?;
    // SAFETY: `sysconf` only reads a system constant.
    #[cfg(unix)]
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    #[cfg(not(unix))]
    let size = 4096;
    Some(pages.saturating_mul(size))
}

/// The least memory limit of this process's cgroup and the groups above it.
fn cgroup_limit() -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    limit_of_groups(&own, Path::new("/sys/fs/cgroup"))
}

/// The least limit, under the cgroup mount `root`, of the groups that `/proc/self/cgroup`
/// text `own` names, each with its ancestors: v2 (`0::/path`, `memory.max`) and v1 (a line
/// whose controllers include `memory`, `memory/path/memory.limit_in_bytes`).
pub fn limit_of_groups(own: &str, root: &Path) -> Option<u64> {
    let mut least: Option<u64> = None;
    for line in own.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let (base, file) = if id == "0" && controllers.is_empty() {
            (root.to_path_buf(), "memory.max")
        } else if controllers.split(',').any(|c| c == "memory") {
            (root.join("memory"), "memory.limit_in_bytes")
        } else {
            continue;
        };
        let mut dir = base.join(path.trim_start_matches('/'));
        loop {
            let value = std::fs::read_to_string(dir.join(file)).ok();
            if let Some(bytes) = value.and_then(|v| v.trim().parse::<u64>().ok()) {
                least = Some(least.map_or(bytes, |l| l.min(bytes)));
            }
            if dir == base || !dir.pop() || !dir.starts_with(&base) {
                break;
            }
        }
    }
    least
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_under_the_ceiling_stays_and_one_above_is_lowered_with_a_note() {
        let ceiling = Some(Ceiling {
            bytes: 4 << 30,
            what: "RLIMIT_DATA",
        });
        assert_eq!(fit(1 << 30, true, ceiling), (1 << 30, None));
        let (budget, note) = fit(1 << 40, true, ceiling);
        assert_eq!(budget, 3 << 30);
        let note = note.unwrap();
        assert!(
            note.contains("RLIMIT_DATA") && note.contains("3.0 GiB"),
            "{note}"
        );
        assert_eq!(fit(1 << 40, false, ceiling), (3 << 30, None));
        assert_eq!(fit(1 << 40, true, None), (1 << 40, None));
    }

    /// Issue 36: without `--max-memory`, a count's split is the one of 1 GiB on every machine,
    /// and the machine's usable memory bounds how many subproblems run at once; a machine too
    /// small for one subproblem of that split takes the split of its own budget, as before.
    #[test]
    fn the_default_budget_of_a_count_follows_the_machine_but_its_split_does_not() {
        let big = Some(Ceiling {
            bytes: 128 << 30,
            what: "the physical memory",
        });
        let budget = CountBudget::new(1 << 30, false, big);
        assert_eq!((budget.split, budget.at_once), (REFERENCE, 96 << 30));
        assert_eq!(budget.fitted(200 << 20), budget);
        assert_eq!(
            budget.describe(),
            "the default --max-memory, 96.0 GiB (3/4 of the physical memory)"
        );
        let given = CountBudget::new(3 << 30, true, big);
        assert_eq!((given.split, given.at_once), (3 << 30, 3 << 30));
        assert_eq!(given.fitted(4 << 30), given);
        assert_eq!(given.describe(), "--max-memory 3.0 GiB");
        let small = CountBudget::new(
            768 << 20,
            false,
            Some(Ceiling {
                bytes: 1 << 30,
                what: "the cgroup's memory limit",
            }),
        );
        assert_eq!((small.split, small.at_once), (REFERENCE, 768 << 20));
        assert_eq!(small.fitted(512 << 20), small);
        assert_eq!(small.fitted(800 << 20).split, 768 << 20);
        let unknown = CountBudget::new(1 << 30, false, None);
        assert_eq!((unknown.split, unknown.at_once), (REFERENCE, REFERENCE));
    }

    #[test]
    fn the_budget_that_would_run_every_thread_is_written_as_the_flag_takes_it() {
        let mib = 1u64 << 20;
        assert_eq!(
            flag_values(3277 * mib - 5),
            vec![
                ("4G".to_string(), 4 << 30),
                ("3277M".to_string(), 3277 * mib),
                ("3355648K".to_string(), 3277 * mib),
                ((3277 * mib - 5).to_string(), 3277 * mib - 5),
            ]
        );
        // 4G is a quarter more than 3.2 GiB: the least value within a tenth is taken.
        assert_eq!(
            least_flag([3277 * mib - 5], |_| true),
            Some(("3277M".to_string(), 3277 * mib))
        );
        assert_eq!(
            least_flag([96 << 30, 100 << 30], |_| true),
            Some(("96G".to_string(), 96 << 30))
        );
        // A value rounded up that does not work (another split) gives way to a finer one, and
        // the least of the candidates that work is taken.
        assert_eq!(
            least_flag([10235 * mib + 1, 12 << 30], |b| {
                !(10 << 30..12 << 30).contains(&b)
            }),
            Some(("10236M".to_string(), 10236 * mib))
        );
        assert_eq!(least_flag([1 << 30], |_| false), None);
    }

    #[test]
    fn cgroup_limits_are_read_for_the_group_and_its_ancestors_in_both_versions() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let v2 = root.join("a/b");
        std::fs::create_dir_all(&v2).unwrap();
        std::fs::write(v2.join("memory.max"), "max\n").unwrap();
        std::fs::write(root.join("a/memory.max"), "2147483648\n").unwrap();
        assert_eq!(limit_of_groups("0::/a/b\n", root), Some(2 << 30));
        let v1 = root.join("memory/c");
        std::fs::create_dir_all(&v1).unwrap();
        std::fs::write(v1.join("memory.limit_in_bytes"), "1073741824\n").unwrap();
        let own = "12:cpu,cpuacct:/c\n7:memory:/c\n";
        assert_eq!(limit_of_groups(own, root), Some(1 << 30));
        assert_eq!(limit_of_groups("0::/none\n", root), None);
    }

    #[test]
    fn the_ceiling_of_this_process_is_at_most_its_physical_memory() {
        let c = ceiling().expect("a ceiling on Linux");
        assert!(c.bytes <= physical().unwrap());
    }
}
