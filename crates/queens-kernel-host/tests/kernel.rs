//! The CUDA kernel's own source, run on the host: its layout matches the engine's, and the GPU
//! engine counting with it finds the known counts, part by part as the CPU twin does.

use queens_core::count::gpu::{tally_on, CpuTwin, FrameRows, Kernel, Task, BLOCK};
use queens_core::count::{Shard, Tally};
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
    tally_on(kernel, n, depth, shard).unwrap()
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

/// The join kernel's own source counts, task by task, what its CPU twin counts: groups of
/// every awkward size, with one thread a block per lower half and with threads that take
/// several lower halves each; its task has the engine's layout.
#[test]
fn the_join_kernel_counts_each_task_as_the_twin_does() {
    use queens_core::count::gpu::join::{self, JoinBatch, JoinTask, Joiner};
    use queens_kernel_host::{join_task_size, HostJoiner};
    assert_eq!(join_task_size() as usize, std::mem::size_of::<JoinTask>());
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut masks = |len: usize| {
        seed += 1;
        join::sample_masks(seed, len, 40, 4)
    };
    let sizes = [
        (0, 5),
        (1, 1),
        (129, 4097),
        (300, 128),
        (5000, 1),
        (77, 9000),
    ];
    let groups: Vec<(Vec<u64>, Vec<u64>)> =
        sizes.iter().map(|&(u, l)| (masks(u), masks(l))).collect();
    let batch = JoinBatch::of(groups.iter().map(|(u, l)| (&u[..], &l[..])));
    let twin = batch.per_task(&join::CpuTwin).unwrap();
    assert!(twin.iter().sum::<u64>() > 0);
    for threads in [join::JOIN_LOWERS, 32, 1] {
        // Counters that start dirty: the kernel must set each, not add to it.
        let mut host = vec![7; batch.tasks.len()];
        HostJoiner { threads }
            .join(batch.halves(), &batch.tasks, &mut host)
            .unwrap();
        assert_eq!(host, twin, "{threads} threads a block");
    }
}
