//! The half-board join on the GPU, measured (issue 38): a batch of groups of random 2N-bit
//! masks (about as sparse as the halves of N = 20), joined on every visible GPU and on the CPU
//! twin, the counts compared and the GPU's pairs a second printed. For a machine with an NVIDIA
//! GPU; elsewhere it says what is missing and exits 2.
//!
//! ```sh
//! cargo run --release -p queens-core --features cuda --example gpu_join -- [pairs in millions]
//! ```

use std::time::Instant;

use queens_core::count::gpu::cuda::Cuda;
use queens_core::count::gpu::join::{sample_masks, CpuTwin, JoinBatch};

/// Stand-ins for the halves of N = 20: about 20 of their 40 mask bits set.
fn masks(seed: u64, len: usize) -> Vec<u64> {
    sample_masks(seed, len, 40, 20)
}

fn main() {
    let millions: u64 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 20_000,
        Some(Ok(m)) if m > 0 => m,
        Some(_) => {
            eprintln!("usage: gpu_join [pairs in millions, default 20000]");
            std::process::exit(2);
        }
    };
    let cuda = match Cuda::open() {
        Ok(cuda) => cuda,
        Err(e) => {
            eprintln!("gpu_join: {e}");
            std::process::exit(2);
        }
    };
    // Groups of a few sizes, as a subproblem's are: most pairs in large groups.
    let side = 20_000usize;
    let groups_needed = (millions * 1_000_000).div_ceil((side * side) as u64) as usize;
    let groups: Vec<(Vec<u64>, Vec<u64>)> = (0..groups_needed)
        .map(|g| (masks(2 * g as u64 + 1, side), masks(2 * g as u64 + 2, side)))
        .collect();
    let batch = JoinBatch::of(groups.iter().map(|(u, l)| (&u[..], &l[..])));
    let pairs = (groups_needed * side * side) as f64;
    let start = Instant::now();
    let on_gpu = batch.count(&cuda).expect("the GPU joins");
    let gpu = start.elapsed().as_secs_f64();
    // The twin checks the first group only: it is a plain loop.
    let first = JoinBatch::of(std::iter::once((&groups[0].0[..], &groups[0].1[..])));
    let (a, b) = (first.count(&cuda).unwrap(), first.count(&CpuTwin).unwrap());
    assert_eq!(a, b, "the GPU and the CPU twin count the first group alike");
    println!(
        "{} groups of {side} x {side} halves: {on_gpu} pairs fit of {pairs:.3e}, {gpu:.3} s on {}, \
         {:.3e} pairs/s (transfers included)",
        groups_needed,
        cuda_name(&cuda),
        pairs / gpu
    );
}

fn cuda_name(cuda: &Cuda) -> String {
    use queens_core::count::gpu::Kernel;
    cuda.describe()
}
