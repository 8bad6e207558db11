//! The GPU engine's pipeline on the CPU twin: the same parts as the frame engine, subproblem
//! by subproblem, whole frames and pieces, shards, and a cancelled run resumed.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;
use crate::count::control::Tally;
use crate::count::frames::engine::{run_pieces, run_sequential};
use crate::count::frames::frame::subproblems;

/// The tally of the frame engine over every frame (pieces of `depth` rows of `shard`).
fn frame_engine(n: usize, depth: usize, shard: Shard) -> Tally {
    let plan = subproblems(n);
    let todo: Vec<usize> = (0..plan.len()).collect();
    let control = Control::new(Tally::new(plan.len()));
    if depth == 0 {
        run_sequential(n, &plan, &todo, &control);
    } else {
        run_pieces(n, &plan, &todo, depth, shard, 1, &control).unwrap();
    }
    let tally = control.tally().clone();
    tally
}

fn gpu_engine(kernel: &dyn Kernel, n: usize, depth: usize, shard: Shard) -> Tally {
    tally_on(kernel, n, depth, shard).unwrap()
}

#[test]
fn whole_frames_match_the_frame_engine_part_by_part() {
    for n in 4..=12 {
        let want = frame_engine(n, 0, Shard::WHOLE);
        let got = gpu_engine(&CpuTwin, n, 0, Shard::WHOLE);
        assert_eq!(got.parts, want.parts, "n = {n}");
        assert_eq!(got.finished, want.finished);
        let known = crate::reference::known();
        let k = known.iter().find(|k| k.n == n).unwrap();
        assert_eq!((got.counts.total, got.counts.unique), (k.total, k.unique));
    }
}

#[test]
fn pieces_and_shards_match_the_frame_engine() {
    for n in [9, 11, 12] {
        for depth in [1, 2, 3] {
            let mut total = 0;
            for index in 0..3 {
                let shard = Shard::new(index, 3).unwrap();
                let want = frame_engine(n, depth, shard);
                let got = gpu_engine(&CpuTwin, n, depth, shard);
                assert_eq!(
                    got.parts, want.parts,
                    "n = {n}, depth {depth}, shard {shard}"
                );
                total += got.counts.total;
            }
            let k = crate::reference::known()
                .into_iter()
                .find(|k| k.n == n)
                .unwrap();
            assert_eq!(total, k.total, "n = {n}, depth {depth}");
        }
    }
}

/// A kernel that raises the cancel flag after some launches: the run stops with an exact tally.
struct Stopping<'a> {
    control: &'a Control,
    after: usize,
    launches: AtomicUsize,
}

impl Kernel for Stopping<'_> {
    fn count(&self, frames: &[FrameRows], tasks: &[Task], out: &mut [u64]) -> Result<(), GpuError> {
        if self.launches.fetch_add(1, Ordering::SeqCst) + 1 == self.after {
            self.control.cancel.store(true, Ordering::SeqCst);
        }
        CpuTwin.count(frames, tasks, out)
    }

    fn max_tasks(&self) -> usize {
        // Small launches, so that a run has many.
        64
    }

    fn count_groups(&self, n: usize, groups: &[GroupTask], room: u32, out: &mut [u64]) -> Launched {
        if self.launches.fetch_add(1, Ordering::SeqCst) + 1 == self.after {
            self.control.cancel.store(true, Ordering::SeqCst);
        }
        CpuTwin.count_groups(n, groups, room, out)
    }

    fn group_capacity(&self, _n: usize) -> u32 {
        u32::MAX
    }

    fn describe(&self) -> String {
        "a twin that cancels".to_string()
    }
}

#[test]
fn a_cancelled_run_resumes_to_the_same_parts() {
    let n = 11;
    let frames = subproblems(n).len();
    let want = frame_engine(n, 2, Shard::WHOLE);
    let control = Control::new(Tally::new(frames));
    let stopping = Stopping {
        control: &control,
        after: 5,
        launches: AtomicUsize::new(0),
    };
    run_whole(&stopping, n, (2, Shard::WHOLE), &control).unwrap();
    let partial = control.tally().clone();
    assert!(partial.finished < frames as u64, "the run was cut short");
    for i in partial.finished_subproblems() {
        assert_eq!(partial.parts[i], want.parts[i], "subproblem {i}");
    }
    // Resume on the CPU twin, as a checkpoint would.
    let resumed = Control::new(partial);
    run_whole(&CpuTwin, n, (2, Shard::WHOLE), &resumed).unwrap();
    assert_eq!(resumed.tally().parts, want.parts);
}

/// A failing device stops the run with its error, and the CPU side stops too.
struct Broken;

impl Kernel for Broken {
    fn count(&self, _: &[FrameRows], _: &[Task], _: &mut [u64]) -> Result<(), GpuError> {
        Err(GpuError::Driver {
            call: "cuLaunchKernel".to_string(),
            message: "an illegal memory access was encountered".to_string(),
        })
    }

    fn max_tasks(&self) -> usize {
        1 << 10
    }

    fn count_groups(&self, _: usize, _: &[GroupTask], _: u32, _: &mut [u64]) -> join::Launched {
        Err(GpuError::Driver {
            call: "cuLaunchKernel".to_string(),
            message: "an illegal memory access was encountered".to_string(),
        })
    }

    fn group_capacity(&self, _n: usize) -> u32 {
        1
    }

    fn describe(&self) -> String {
        "a broken device".to_string()
    }
}

#[test]
fn a_device_error_ends_the_run() {
    let control = Control::new(Tally::new(subproblems(10).len()));
    let err = run_whole(&Broken, 10, (0, Shard::WHOLE), &control).unwrap_err();
    assert!(
        matches!(err, CountError::Gpu(GpuError::Driver { .. })),
        "{err}"
    );
    assert!(control.cancelled());
}

/// The half-board split on a device that cancels after a few launches keeps an exact tally,
/// which the twin resumes to the half-board engine's parts; a broken device ends the run with
/// its error.
#[test]
fn a_cancelled_half_board_run_resumes_to_the_same_parts_and_a_broken_one_stops() {
    let plan = crate::count::halves::Plan::new(13, 4);
    let todo: Vec<usize> = (0..plan.len()).collect();
    let want = Control::new(Tally::new(plan.len()));
    crate::count::halves::run(&plan, &todo, 1, &want).unwrap();
    let want = want.tally().clone();
    let control = Control::new(Tally::new(plan.len()));
    let stopping = Stopping {
        control: &control,
        after: 3,
        launches: AtomicUsize::new(0),
    };
    halves::run(&stopping, &plan, &todo, 1, &control).unwrap();
    let partial = control.tally().clone();
    assert!(
        partial.finished < plan.len() as u64,
        "the run was cut short"
    );
    assert!(partial.finished > 1, "some patterns were counted");
    for i in partial.finished_subproblems() {
        assert_eq!(partial.parts[i], want.parts[i], "subproblem {i}");
    }
    let resumed = Control::new(partial);
    halves::run(&CpuTwin, &plan, &todo, 1, &resumed).unwrap();
    assert_eq!(resumed.tally().parts, want.parts);

    let control = Control::new(Tally::new(plan.len()));
    let err = halves::run(&Broken, &plan, &todo, 1, &control).unwrap_err();
    assert!(
        matches!(err, CountError::Gpu(GpuError::Driver { .. })),
        "{err}"
    );
    assert!(control.cancelled());
}

/// A half-board run on the CPU cancelled part way, as a checkpoint saves it, resumes on the
/// device to the parts of a whole run.
#[test]
fn a_cancelled_cpu_half_board_run_resumes_on_the_device() {
    let plan = crate::count::halves::Plan::new(12, 4);
    let todo: Vec<usize> = (0..plan.len()).collect();
    let want = Control::new(Tally::new(plan.len()));
    crate::count::halves::run(&plan, &todo, 1, &want).unwrap();
    // The CPU counts the first half of the subproblems, as a run stopped there would have.
    let partial = Control::new(Tally::new(plan.len()));
    crate::count::halves::run(&plan, &todo[..todo.len() / 2], 1, &partial).unwrap();
    let saved = partial.tally().clone();
    assert!(saved.finished > 0 && saved.finished < plan.len() as u64);
    let resumed = Control::new(saved);
    halves::run(&CpuTwin, &plan, &todo, 1, &resumed).unwrap();
    assert_eq!(resumed.tally().parts, want.tally().parts);
}

/// A subproblem's tasks are listed as the launches take them, never more than a launch ahead:
/// a frame of N = 26 has hundreds of millions of tasks, gigabytes listed at once. Here a frame
/// of N = 16 with far more tasks than a launch of 1000, whole and by pieces.
#[test]
fn tasks_are_listed_a_launch_at_a_time() {
    let n = 16;
    let plan = subproblems(n);
    let control = Control::new(Tally::new(plan.len()));
    for depth in [0, 2] {
        let frames = FramePlan {
            n,
            frames: &plan,
            depth,
            shard: Shard::WHOLE,
        };
        let mut launches = Launches::new(&CpuTwin, frames, &control);
        launches.keep = 8;
        launches.launch = 1000;
        launches.open_subproblem(0);
        launches.list_more();
        assert_eq!(launches.tasks.len(), 1000, "depth {depth}");
        // The rest, a launch at a time, add up to the whole expansion's tasks.
        let mut listed = 1000;
        while launches.open.back().is_some_and(|o| o.lister.is_some()) {
            launches.tasks.clear();
            launches.list_more();
            assert!(launches.tasks.len() <= 1000);
            listed += launches.tasks.len();
        }
        let frame = Frame::new(n, &plan[0].oriented);
        let mut whole = Vec::new();
        if depth == 0 {
            frame.expand(frame.root, 0, 8, &mut whole);
        } else {
            for (_, queens) in PieceIter::new(n, &plan[0], depth) {
                if let Some(start) = frame.after(&queens) {
                    frame.expand(start, 0, 8, &mut whole);
                }
            }
        }
        assert!(whole.len() > 5000, "{}", whole.len());
        assert_eq!(listed, whole.len(), "depth {depth}");
        assert_eq!(launches.open.back().map(|o| o.waiting), Some(listed as u64));
    }
}
