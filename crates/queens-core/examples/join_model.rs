//! A model of the groups kernel's join (`queens_count_groups` in count/gpu/kernel.cu), for
//! choosing between its two joins without a GPU: on sampled groups of the `n` x `n` board it
//! counts the warp instructions each join would issue, from the instructions of their loops
//! as compiled for sm_90 (`scripts/kernel-sass`) and estimates of their set-up, and prints
//! their ratio. It is where [`SLICED_BOARDS`] comes from; a GPU's times
//! (`scripts/gpu-check --joins`) overrule it.
//!
//! Each sampled group is listed as the kernel lists it (the upper halves on a random half of
//! the columns, the lower halves on the others, each as the mask of the squares of row N/2 its
//! diagonals reach), keyed as the kernel keys it (as many key bits as keep 2^5 halves of the
//! smaller side a key value, twice as many for an 11th; the bits set in the most pairs, here
//! counted on every half rather than a sample), and cut into chunks of 32 lower halves of one
//! key. A chunk meets the upper halves of every key inside the complement of its own:
//!
//! - by the lanes, each lane a lower half (2 or 4 lanes a lower half for 16 or 8 at most), the
//!   upper halves read 4 a line: 41 instructions for 4 lines;
//! - bit-sliced, 32 votes for the planes and 4 table entries a lane made of them (about 200
//!   instructions), then each lane an upper half: 33 instructions a pass of 32 upper halves
//!   (8 table lookups among them), the last pass of a key as dear as a whole one.
//!
//! Each pays its set-up for a key met (about 30 instructions by the lanes, 36 bit-sliced) and
//! 30 a chunk. Groups are sampled uniformly, so
//! the sums weigh them as the board does (up to its symmetry).
//!
//! ```sh
//! cargo run --release -p queens-core --example join_model -- 22 [groups, default 40]
//! ```

use queens_core::count::gpu::groups::{SLICED_BOARDS, SLICED_FROM};

/// Instructions of the lanes' loop for one line of 4 packed upper halves.
const LANES_LINE: f64 = 41.0 / 4.0;
/// Instructions of the bit-sliced loop for one pass of up to 32 upper halves (its 8 lookups
/// keep the shared memory about as busy as its instructions keep the schedulers).
const SLICED_PASS: f64 = 33.0;
/// What makes a chunk's planes (a shift, a test and a vote a bit) and its tables, in the SASS.
const PLANES: f64 = 200.0;
/// Set-up a key met, by the lanes and bit-sliced (read off the SASS, rounded up), and a chunk.
const LANES_KEY: f64 = 30.0;
const SLICED_KEY: f64 = 36.0;
const PER_CHUNK: f64 = 30.0;

/// Every placement of `rows` on exactly the columns `cols`, as the mask of the squares of row
/// `n/2` its queens' diagonals reach (towards the other half: right-going in the low `n` bits).
fn side(n: usize, rows: std::ops::Range<usize>, cols: u32) -> Vec<u64> {
    struct Walk<'a> {
        n: usize,
        rows: std::ops::Range<usize>,
        cols: u32,
        queens: Vec<(usize, usize)>,
        out: &'a mut Vec<u64>,
    }
    fn place(w: &mut Walk<'_>, r: usize, used: u32, left: u64, right: u64) {
        if r == w.rows.end {
            let h = w.n / 2;
            let mut mask = 0u64;
            for &(qr, qc) in &w.queens {
                let d = qr.abs_diff(h);
                if qc + d < w.n {
                    mask |= 1 << if qr < h { qc + d } else { w.n + qc + d };
                }
                if qc >= d {
                    mask |= 1 << if qr < h { w.n + qc - d } else { qc - d };
                }
            }
            w.out.push(mask);
            return;
        }
        let mut free = w.cols & !used;
        while free != 0 {
            let c = free.trailing_zeros() as usize;
            free &= free - 1;
            let (a, b) = (r + c, r + w.n - c);
            if left >> a & 1 == 0 && right >> b & 1 == 0 {
                w.queens.push((r, c));
                place(w, r + 1, used | 1 << c, left | 1 << a, right | 1 << b);
                w.queens.pop();
            }
        }
    }
    let mut out = Vec::new();
    let start = rows.start;
    let mut walk = Walk {
        n,
        rows,
        cols,
        queens: Vec::new(),
        out: &mut out,
    };
    place(&mut walk, start, 0, 0, 0);
    out
}

/// Warp instructions of one group's join, by the lanes and bit-sliced (chunks of at least
/// [`SLICED_FROM`]), and its pairs.
fn group(n: usize, cols: u32) -> (f64, f64, f64) {
    let full = (1u32 << n) - 1;
    let uppers = side(n, 0..n / 2, cols);
    let lowers = side(n, n / 2..n, full & !cols);
    let small = uppers.len().min(lowers.len());
    if small == 0 {
        return (0.0, 0.0, 0.0);
    }
    let mut k = 0;
    while k < 11 && small >> (k + 5 + usize::from(k >= 10)) != 0 {
        k += 1;
    }
    let set = |halves: &[u64], b: usize| halves.iter().filter(|&&m| m >> b & 1 == 1).count();
    let pairs_at: Vec<f64> = (0..2 * n)
        .map(|b| set(&uppers, b) as f64 * set(&lowers, b) as f64)
        .collect();
    let mut bits: Vec<usize> = Vec::new();
    for _ in 0..k {
        let best = (0..2 * n)
            .filter(|b| !bits.contains(b))
            .max_by(|&a, &b| pairs_at[a].total_cmp(&pairs_at[b]).then(a.cmp(&b)))
            .expect("fewer key bits than mask bits");
        bits.push(best);
    }
    let key = |m: u64| -> usize {
        bits.iter()
            .enumerate()
            .map(|(j, &b)| ((m >> b & 1) as usize) << j)
            .sum()
    };
    let keys = 1usize << k;
    let (mut up, mut low) = (vec![0usize; keys], vec![0usize; keys]);
    uppers.iter().for_each(|&m| up[key(m)] += 1);
    lowers.iter().for_each(|&m| low[key(m)] += 1);
    let (mut lanes, mut sliced) = (0.0, 0.0);
    for y in (0..keys).filter(|&y| low[y] > 0) {
        let free = !y & (keys - 1);
        // Over the keys x inside `free`: keys met, lines for 1, 2 and 4 streams, passes.
        let (mut met, mut lines, mut passes) = (0.0, [0.0f64; 3], 0.0);
        let mut x = free;
        loop {
            let l = up[x].div_ceil(4);
            met += 1.0;
            for (s, streams) in [1, 2, 4].into_iter().enumerate() {
                lines[s] += l.div_ceil(streams) as f64;
            }
            passes += up[x].div_ceil(32) as f64;
            if x == 0 {
                break;
            }
            x = (x - 1) & free;
        }
        for first in (0..low[y]).step_by(32) {
            let left = (low[y] - first).min(32);
            let streams = if left > 16 {
                0
            } else if left > 8 {
                1
            } else {
                2
            };
            let by_lanes = PER_CHUNK + met * LANES_KEY + LANES_LINE * lines[streams];
            let by_slices = PER_CHUNK + PLANES + met * SLICED_KEY + SLICED_PASS * passes;
            lanes += by_lanes;
            sliced += if left as u32 >= SLICED_FROM {
                by_slices
            } else {
                by_lanes
            };
        }
    }
    (lanes, sliced, uppers.len() as f64 * lowers.len() as f64)
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()
        .unwrap_or_default();
    let (n, groups) = match args[..] {
        [n] => (n, 40),
        [n, g] => (n, g),
        _ => (0, 0),
    };
    if !(4..=26).contains(&n) || groups == 0 {
        eprintln!("usage: join_model N (4 to 26) [groups, default 40]");
        std::process::exit(2);
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64 ^ n as u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut lanes, mut sliced, mut pairs) = (0.0, 0.0, 0.0);
    for _ in 0..groups {
        let mut cols = 0u32;
        while (cols.count_ones() as usize) < n / 2 {
            cols |= 1 << (next() % n as u64);
        }
        let (l, s, p) = group(n, cols);
        lanes += l;
        sliced += s;
        pairs += p;
    }
    println!(
        "N = {n}, {groups} groups: the lanes' join {:.2} warp instructions a thousand pairs, \
         bit-sliced {:.2}: {:.2}x the lanes' speed (bit-sliced by default from N = {SLICED_BOARDS})",
        1000.0 * lanes / pairs,
        1000.0 * sliced / pairs,
        lanes / sliced
    );
}
