//! The CUDA kernel's own source, run on the host: its layout matches the engine's, and the GPU
//! engine counting with it finds the known counts, part by part as the CPU twin does.

use std::sync::atomic::AtomicBool;

use queens_core::count::gpu::groups::{count_groups, GROUP_BLOCK, OVERFLOW, SLICED_FROM};
use queens_core::count::gpu::{tally_on, CpuTwin, FrameRows, GroupTask, Kernel, Task, BLOCK};
use queens_core::count::halves;
use queens_core::count::{Shard, Tally};
use queens_kernel_host::{group_size, layout, GroupLaunch, HostKernel};

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
    assert_eq!(group_size() as usize, std::mem::size_of::<GroupTask>());
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

/// The groups of every pattern subproblem of a half-board plan: its number, its groups and
/// the factor of their pairs.
fn subproblems(plan: &halves::Plan) -> Vec<(usize, Vec<GroupTask>, u64)> {
    (0..plan.len())
        .filter_map(|i| {
            let sets = plan.column_sets(i)?;
            Some((i, GroupTask::of(&sets, 1).collect(), sets.factor))
        })
        .collect()
}

/// The groups kernel's own source, run with its blocks' threads at once, counts every group
/// of every subproblem of N = 1 to 12 (two splits each) as its independent CPU twin does, and
/// those counts add up to what the half-board engine counts for each subproblem; through the
/// engine's launches, whose groups too large for the first launch's room go again with more.
#[test]
fn the_groups_kernel_counts_what_the_half_board_engine_counts() {
    let mut again = false;
    for n in 1..=12 {
        for k in [0, halves::default_pattern_columns(n)] {
            let plan = halves::Plan::new(n, k);
            for (i, groups, factor) in subproblems(&plan) {
                let mut host = vec![0; groups.len()];
                count_groups(&HostKernel, n, &groups, &mut host).unwrap();
                let mut twin = vec![0; groups.len()];
                CpuTwin
                    .count_groups(n, &groups, u32::MAX, &mut twin)
                    .unwrap();
                assert_eq!(host, twin, "N = {n}, k = {k}, subproblem {i}");
                let found = host.iter().sum::<u64>() * factor;
                let want = plan.solve(i, &AtomicBool::new(false)).unwrap();
                assert_eq!(plan.counts_of(i, found), want, "N = {n}, k = {k}, {i}");
                let mut first = vec![0; groups.len()];
                HostKernel
                    .count_groups(n, &groups, HostKernel.group_capacity(n), &mut first)
                    .unwrap();
                again |= first.contains(&OVERFLOW);
            }
        }
    }
    assert!(again, "some group needed a second launch");
}

/// Launches of other shapes (one warp, one block of the device's size, several blocks), with
/// the masks packed into 32 bits or whole (as some past N = 23), and room too small for some groups
/// count the same, marking exactly the groups a side of which has more halves than the room.
#[test]
fn the_groups_kernel_counts_the_same_in_any_launch_and_marks_what_does_not_fit() {
    let n = 11;
    let groups: Vec<GroupTask> = subproblems(&halves::Plan::new(n, 4))
        .into_iter()
        .flat_map(|(_, groups, _)| groups)
        .collect();
    let mut twin = vec![0; groups.len()];
    CpuTwin
        .count_groups(n, &groups, u32::MAX, &mut twin)
        .unwrap();
    let mut small = vec![0; groups.len()];
    CpuTwin.count_groups(n, &groups, 20, &mut small).unwrap();
    assert!(small.contains(&OVERFLOW) && small.iter().any(|&s| s != OVERFLOW && s > 0));
    for ((blocks, threads), room, want) in [
        ((1, 32), 1 << 12, &twin),
        ((1, GROUP_BLOCK), 1 << 12, &twin),
        ((4, 96), 1 << 12, &twin),
        ((2, 64), 20, &small),
    ] {
        for (narrow, sliced) in [(true, 0), (true, 1), (false, 0)] {
            let launch = GroupLaunch {
                blocks,
                threads,
                narrow,
                sliced,
                key_halves: 1,
            };
            let mut out = vec![0; groups.len()];
            queens_kernel_host::count_groups(n, &groups, room, launch, &mut out);
            assert_eq!(&out, want, "{launch:?}, room {room}");
        }
    }
}

/// A group cut into shares counts, share by share summed, what it counts whole: on the kernel
/// (which deals the keys of the lower halves to the shares) and on the twin (which deals the
/// lower halves themselves); a group too large for the room is marked in every share.
#[test]
fn the_shares_of_a_group_add_up_to_the_group() {
    let n = 11;
    let plan = halves::Plan::new(n, 4);
    let sets: Vec<_> = (0..plan.len())
        .filter_map(|i| plan.column_sets(i))
        .collect();
    let whole: Vec<GroupTask> = sets.iter().flat_map(|s| GroupTask::of(s, 1)).collect();
    let parts = 3;
    let shared: Vec<GroupTask> = sets.iter().flat_map(|s| GroupTask::of(s, parts)).collect();
    assert_eq!(shared.len(), whole.len() * parts as usize);
    let mut want = vec![0; whole.len()];
    CpuTwin
        .count_groups(n, &whole, u32::MAX, &mut want)
        .unwrap();
    let sum = |out: &[u64]| -> Vec<u64> {
        out.chunks(parts as usize)
            .map(|c| match c.contains(&OVERFLOW) {
                true => OVERFLOW,
                false => c.iter().sum(),
            })
            .collect()
    };
    let mut twin = vec![0; shared.len()];
    CpuTwin
        .count_groups(n, &shared, u32::MAX, &mut twin)
        .unwrap();
    assert_eq!(sum(&twin), want);
    let launch = GroupLaunch {
        blocks: 2,
        threads: 64,
        narrow: true,
        sliced: 1,
        key_halves: 1,
    };
    let mut host = vec![0; shared.len()];
    queens_kernel_host::count_groups(n, &shared, 1 << 12, launch, &mut host);
    assert_eq!(sum(&host), want);
    // Some shares count more than others: the group's pairs are dealt, not repeated.
    assert!(host.chunks(3).any(|c| c[0] != c[1] || c[1] != c[2]));
    let mut small = vec![0; shared.len()];
    queens_kernel_host::count_groups(n, &shared, 20, launch, &mut small);
    for (c, w) in small.chunks(parts as usize).zip(&want) {
        assert!(c.iter().all(|&s| s == OVERFLOW) || c.iter().all(|&s| s != OVERFLOW));
        assert!(c.contains(&OVERFLOW) || c.iter().sum::<u64>() == *w);
    }
    assert!(small.contains(&OVERFLOW));
}

/// The shares of groups large enough that a key holds more than one chunk of lower halves and
/// the key bits are chosen from a sample (N = 17, where the order in which the threads list and
/// sort a side differs from launch to launch) add up to the group, and each counts the same in
/// every launch: a share must not depend on that order.
#[test]
fn the_shares_of_large_groups_add_up_whatever_the_order() {
    let n = 17;
    let plan = halves::Plan::new(n, 4);
    let sets = (0..plan.len())
        .find_map(|i| plan.column_sets(i))
        .expect("a subproblem with groups");
    let whole: Vec<GroupTask> = GroupTask::of(&sets, 1).step_by(97).take(8).collect();
    let parts = 4;
    let shared: Vec<GroupTask> = whole
        .iter()
        .flat_map(|g| {
            (0..parts).map(move |part| GroupTask {
                share: part | parts << 16,
                ..*g
            })
        })
        .collect();
    let mut first: Option<Vec<u64>> = None;
    for (blocks, threads) in [(2, GROUP_BLOCK), (3, 96), (1, 64)] {
        let launch = GroupLaunch {
            blocks,
            threads,
            narrow: true,
            sliced: SLICED_FROM,
            key_halves: 1,
        };
        let mut want = vec![0; whole.len()];
        queens_kernel_host::count_groups(n, &whole, 1 << 16, launch, &mut want);
        assert!(!want.contains(&OVERFLOW) && want.iter().filter(|&&w| w > 0).count() > 4);
        let mut got = vec![0; shared.len()];
        queens_kernel_host::count_groups(n, &shared, 1 << 16, launch, &mut got);
        let sums: Vec<u64> = got.chunks(parts as usize).map(|c| c.iter().sum()).collect();
        assert_eq!(sums, want, "{launch:?}");
        assert!(got.chunks(parts as usize).any(|c| c[0] != c[1]));
        assert_eq!(first.get_or_insert_with(|| got.clone()), &got, "{launch:?}");
    }
}

/// The bit-sliced join counts what the independent twin counts: with every chunk sliced, on
/// every group of N = 1 to 9 (two splits each), where lower halves of few rows and masks with
/// no bit the test reads abound; and on groups whose keys hold whole chunks of lower halves
/// (N = 17 with the device's key sizing, 2^5 halves a key value). Each against the lanes'
/// join.
#[test]
fn the_bit_sliced_join_counts_what_the_twin_counts() {
    let launch = |threads, sliced, key_halves| GroupLaunch {
        blocks: 2,
        threads,
        narrow: true,
        sliced,
        key_halves,
    };
    for n in 1..=9 {
        for k in [0, halves::default_pattern_columns(n)] {
            let groups: Vec<GroupTask> = subproblems(&halves::Plan::new(n, k))
                .into_iter()
                .flat_map(|(_, groups, _)| groups)
                .collect();
            let mut want = vec![0; groups.len()];
            CpuTwin
                .count_groups(n, &groups, u32::MAX, &mut want)
                .unwrap();
            let mut got = vec![0; groups.len()];
            let votes =
                queens_kernel_host::count_groups(n, &groups, 1 << 12, launch(64, 1, 1), &mut got);
            assert_eq!(got, want, "N = {n}, k = {k}");
            assert!(n < 3 || votes > 0, "N = {n}: no chunk was sliced");
        }
    }
    let n = 17;
    let plan = halves::Plan::new(n, 4);
    let sets = (0..plan.len())
        .find_map(|i| plan.column_sets(i))
        .expect("a subproblem with groups");
    let groups: Vec<GroupTask> = GroupTask::of(&sets, 1).step_by(61).take(6).collect();
    let mut want = vec![0; groups.len()];
    CpuTwin
        .count_groups(n, &groups, u32::MAX, &mut want)
        .unwrap();
    assert!(want.iter().filter(|&&w| w > 0).count() > 3);
    for (threads, sliced, key_halves) in [
        (GROUP_BLOCK, 0, 5),
        (GROUP_BLOCK, SLICED_FROM, 5),
        (64, 1, 5),
        (96, 32, 5),
    ] {
        let launch = launch(threads, sliced, key_halves);
        let mut got = vec![0; groups.len()];
        let votes = queens_kernel_host::count_groups(n, &groups, 1 << 16, launch, &mut got);
        assert_eq!(got, want, "{launch:?}");
        // Some keys hold whole chunks: each threshold slices some, none for the lanes' join.
        assert_eq!(votes > 0, sliced > 0, "{launch:?}: {votes} votes");
    }
}

/// One chunk joined bit-sliced counts what testing every pair counts, with masks of all 32
/// bits (the groups tested above pack fewer): chunks of 1 to 32 lower halves, against none to
/// a hundred upper halves, some of mask 0 and some meeting only at bit 31.
#[test]
fn a_bit_sliced_chunk_counts_every_fitting_pair() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    // Sparse masks, so that many pairs fit: 3 random bits, or bit 31 alone, or none.
    let mut mask = || match next() % 8 {
        0 => 0,
        1 => 1 << 31,
        _ => (0..3).fold(0u32, |m, _| m | 1 << (next() % 32)),
    };
    for left in [1, 2, 7, 16, 17, 31, 32] {
        for count in [0, 1, 31, 32, 33, 100] {
            let lowers: Vec<u32> = (0..left).map(|_| mask()).collect();
            let uppers: Vec<u32> = (0..count).map(|_| mask()).collect();
            let want: u32 = uppers
                .iter()
                .map(|u| lowers.iter().filter(|&&l| u & l == 0).count() as u32)
                .sum();
            let lanes = queens_kernel_host::join_sliced(&uppers, &lowers);
            assert_eq!(
                lanes.iter().sum::<u32>(),
                want,
                "{left} lowers, {count} uppers"
            );
            // Lane j tests the uppers j, j + 32, ...
            for (j, &got) in lanes.iter().enumerate() {
                let mine = uppers.iter().skip(j).step_by(32);
                let fit = mine.map(|u| lowers.iter().filter(|&&l| u & l == 0).count() as u32);
                assert_eq!(got, fit.sum::<u32>(), "lane {j}");
            }
        }
    }
}
