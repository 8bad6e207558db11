//! The CUDA kernel's own source, run on the host: its layout matches the engine's, and the GPU
//! engine counting with it finds the known counts, part by part as the CPU twin does.

use queens_core::count::gpu::{run, CpuTwin, FramePlan, FrameRows, Kernel, Task, BLOCK};
use queens_core::count::{subproblems, Control, Shard, Tally};
use queens_kernel_host::{layout, HostKernel};

#[test]
fn the_layout_is_the_engines() {
    assert_eq!(
        layout(),
        (
            BLOCK,
            std::mem::size_of::<FrameRows>() as u32,
            std::mem::size_of::<Task>() as u32
        )
    );
}

fn tally(kernel: &dyn Kernel, n: usize, depth: usize, shard: Shard) -> Tally {
    let plan = subproblems(n);
    let todo: Vec<usize> = (0..plan.len()).collect();
    let control = Control::new(Tally::new(plan.len()));
    run(
        kernel,
        FramePlan {
            n,
            frames: &plan,
            depth,
            shard,
        },
        &todo,
        1,
        &control,
    )
    .unwrap();
    let tally = control.tally().clone();
    tally
}

#[test]
fn counts_every_board_from_4_to_13() {
    for k in queens_core::reference::known() {
        if !(4..=13).contains(&k.n) {
            continue;
        }
        let got = tally(&HostKernel, k.n, 0, Shard::WHOLE);
        assert_eq!(
            (got.counts.total, got.counts.unique),
            (k.total, k.unique),
            "n = {}",
            k.n
        );
        assert_eq!(got.parts, tally(&CpuTwin, k.n, 0, Shard::WHOLE).parts);
    }
}

#[test]
fn counts_pieces_in_shards() {
    for n in [10, 12] {
        let mut total = 0;
        for index in 0..4 {
            let shard = Shard::new(index, 4).unwrap();
            total += tally(&HostKernel, n, 2, shard).counts.total;
        }
        let k = queens_core::reference::known()
            .into_iter()
            .find(|k| k.n == n)
            .unwrap();
        assert_eq!(total, k.total, "n = {n}");
    }
}
