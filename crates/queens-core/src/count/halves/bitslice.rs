//! The bit-sliced join of the half-board engine: the number of pairs of an upper and a lower
//! group of halves whose masks share no bit, by tables of 512 halves at a time (one row per
//! 4-bit piece of a mask), large groups first sorted by one piece; a portable copy and an AVX2
//! one of the table building, and AVX-512 ones of the probe of a tile of 128, 256 or 512
//! halves (a table row is one register, its zero bits counted by `vpopcntq`: 7 % of N = 18 on
//! this project's machine for the full tiles, 6 % of N = 16 for the others). It calls only
//! `group.rs` (the groups of halves) and `alloc.rs` (to grow its buffers).

use std::sync::atomic::{AtomicBool, Ordering};

use super::alloc::{room_exact, room_for, AllocError};
use super::group::Groups;

/// The bits of a mask each table piece covers.
pub(super) const PIECE: usize = 4;

/// How many 64-bit words of halves one table tile covers (512 halves).
const TILE: usize = 8;

/// The words a table may skip to start on a 64-byte boundary.
const ALIGN: usize = 8;

/// The buffers of [`join_groups`], kept between subproblems.
#[derive(Default)]
pub(super) struct JoinBuffers {
    table: Vec<u64>,
    split: Split,
}

impl JoinBuffers {
    /// Makes room, fallibly, for what [`join_groups`] of `pieces` pieces on the same groups
    /// resizes its buffers to (the table, and the sorted copies of the pairs of groups it
    /// splits), so that the join allocates nothing. The lengths of the two sorted copies.
    pub(super) fn reserve(
        &mut self,
        pieces: usize,
        full: u32,
        uppers: &Groups,
        lowers: &Groups,
    ) -> Result<(usize, usize), AllocError> {
        room_for(&mut self.table, pieces * 16 * TILE + ALIGN)?;
        let (big_most, small_most) = largest_split_pair(full, uppers, lowers);
        // The copies are refilled whole by each split and hold at most a group each: their
        // room is the longest copy so far, not twice that (a third of a side's halves can sit
        // in one group, 4.8 million at N = 23: 37 MiB less per thread).
        room_exact(&mut self.split.big, big_most)?;
        room_exact(&mut self.split.small, small_most)?;
        Ok((big_most, small_most))
    }

    /// [`JoinBuffers::reserve`], and every word of the buffers the join would write to, written
    /// (zeros): the memory a join of these groups holds, without the join (the rehearsal of a
    /// run's memory, `queens_core::internals::rehearse`). The lengths of the two sorted copies.
    pub(super) fn fill(
        &mut self,
        pieces: usize,
        full: u32,
        uppers: &Groups,
        lowers: &Groups,
    ) -> Result<(usize, usize), AllocError> {
        let (big_most, small_most) = self.reserve(pieces, full, uppers, lowers)?;
        self.table.resize(pieces * 16 * TILE + ALIGN, 0);
        for (buffer, len) in [
            (&mut self.split.big, big_most),
            (&mut self.split.small, small_most),
        ] {
            buffer.clear();
            buffer.resize(len, 0);
        }
        Ok((big_most, small_most))
    }

    /// The bytes these buffers hold room for.
    #[cfg(test)]
    pub(super) fn bytes(&self) -> u64 {
        let words = self.table.capacity() + self.split.big.capacity() + self.split.small.capacity();
        (words * size_of::<u64>()) as u64
    }

    /// The most bytes the buffers of joins of `pieces` pieces can hold room for on a thread
    /// whose subproblems sorted copies of at most `copied` halves ([`JoinBuffers::reserve`]'s
    /// lengths): the table, and each copy its longest (its room is reserved exactly).
    pub(super) fn ceiling(pieces: usize, copied: (u64, u64)) -> u64 {
        let table = (pieces * 16 * TILE + ALIGN) as u64;
        (table + copied.0 + copied.1) * size_of::<u64>() as u64
    }
}

/// The largest group of halves, and the largest smaller one, among the pairs of groups that
/// [`match_split`] sorts: the lengths of its two copies.
fn largest_split_pair(full: u32, uppers: &Groups, lowers: &Groups) -> (usize, usize) {
    let (mut big_most, mut small_most) = (0, 0);
    for key in 0..=full as usize {
        let ups = uppers.get(key).len();
        let lows = lowers.get(full as usize & !key).len();
        let (big, small) = (ups.max(lows), ups.min(lows));
        if big >= SPLIT_FROM && small >= 64 {
            big_most = big_most.max(big);
            small_most = small_most.max(small);
        }
    }
    (big_most, small_most)
}

/// Matches every group of upper halves with the group of lower halves of the complementary
/// columns; `P` is the number of 4-bit pieces of a mask, `Q = P - 1` that of a mask whose
/// split piece was taken out ([`match_split`]).
#[inline(always)]
pub(super) fn join_groups<const P: usize, const Q: usize, const FAST: bool>(
    full: u32,
    uppers: &Groups,
    lowers: &Groups,
    s: &mut JoinBuffers,
    cancel: &AtomicBool,
) -> Option<u64> {
    let mut total = 0u64;
    let mut done = 0usize;
    s.table.resize(P * 16 * TILE + ALIGN, 0);
    let piece = busiest_piece(uppers, lowers, P);
    // The rows of a full tile are 64 bytes: from a 64-byte boundary, each is one cache line
    // (from the 16-byte one `malloc` gives, every AVX-512 load of a row spanned two, and the
    // probe took 60 % longer in one binary than in another).
    let at = match s.table.as_ptr().align_offset(64) {
        at if at < ALIGN => at,
        _ => 0,
    };
    let table = &mut s.table[at..at + P * 16 * TILE];
    for key in 0..=full as usize {
        let ups = uppers.get(key);
        if ups.is_empty() {
            continue;
        }
        let lows = lowers.get(full as usize & !key);
        if lows.is_empty() {
            continue;
        }
        let (big, small) = if ups.len() >= lows.len() {
            (ups, lows)
        } else {
            (lows, ups)
        };
        // A group may hold billions of pairs (seconds of a core from N = 22): its tiles look at
        // the flag too, so that a cancelled join stops within milliseconds.
        total += if P > 1 && big.len() >= SPLIT_FROM && small.len() >= 64 {
            match_split::<Q, FAST>(big, small, piece, table, &mut s.split, cancel)?
        } else {
            match_group::<P, FAST>(big, small, table, cancel)?
        };
        done += big.len() * small.len();
        if done > 1 << 26 {
            done = 0;
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
        }
    }
    Some(total)
}

/// The number of pairs of `big` x `small` whose masks share no bit, by tables of `big` (or
/// one test per pair when the groups are too small to pay for a table); `None` when `cancel`
/// is raised (looked at before each tile).
#[inline(always)]
fn match_group<const P: usize, const FAST: bool>(
    big: &[u64],
    small: &[u64],
    table: &mut [u64],
    cancel: &AtomicBool,
) -> Option<u64> {
    if small.len() < 24 || big.len() < 32 {
        let mut count = 0u64;
        for &x in small {
            let mut lanes = [0u64; 4];
            let chunks = big.chunks_exact(4);
            let rest = chunks.remainder();
            for chunk in chunks {
                for (lane, &y) in lanes.iter_mut().zip(chunk) {
                    *lane += u64::from(x & y == 0);
                }
            }
            count += lanes.iter().sum::<u64>();
            count += rest.iter().filter(|&&y| x & y == 0).count() as u64;
        }
        return Some(count);
    }
    let mut count = 0u64;
    for tile in big.chunks(64 * TILE) {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        count += match tile.len().div_ceil(64) {
            1 => match_tile::<P, 1, FAST>(tile, small, table),
            2 => match_tile::<P, 2, FAST>(tile, small, table),
            3 | 4 => match_tile::<P, 4, FAST>(tile, small, table),
            _ => match_tile::<P, TILE, FAST>(tile, small, table),
        };
    }
    Some(count)
}

/// [`match_group`] for one tile of at most `64 W` halves of the big group.
#[inline(always)]
fn match_tile<const P: usize, const W: usize, const FAST: bool>(
    tile: &[u64],
    small: &[u64],
    table: &mut [u64],
) -> u64 {
    build::<P, W, FAST>(tile, table);
    probe::<P, W, FAST>(table, small)
}

/// Builds the table of a tile of at most `64 W` halves: for piece p and value v, the halves
/// of the tile with a bit of v in piece p, W words from (p * 16 + v) * W. Padding halves
/// (past the tile's end) conflict with everything.
#[inline(always)]
fn build<const P: usize, const W: usize, const FAST: bool>(tile: &[u64], table: &mut [u64]) {
    let stride = 16 * W;
    let table = &mut table[..P * stride];
    // Only the rows of no bit and of one bit are read before written below.
    for p in 0..P {
        for v in [0, 1, 2, 4, 8] {
            table[p * stride + v * W..][..W].fill(0);
        }
    }
    slices::<P, W, FAST>(tile, table);
    for p in 0..P {
        let rows = &mut table[p * stride..(p + 1) * stride];
        for v in 3..16usize {
            if v & (v - 1) == 0 {
                continue;
            }
            let low = v & v.wrapping_neg();
            for w in 0..W {
                rows[v * W + w] = rows[(v ^ low) * W + w] | rows[low * W + w];
            }
        }
    }
    let used = tile.len();
    for w in 0..W {
        let pad = if used >= 64 * (w + 1) {
            0
        } else if used <= 64 * w {
            u64::MAX
        } else {
            u64::MAX << (used - 64 * w)
        };
        for v in 0..16 {
            table[v * W + w] |= pad;
        }
    }
}

/// The table as its `P` pieces of 16 rows of `W` words, so that a probe indexes a row
/// without checks.
#[inline(always)]
fn pieces<const P: usize, const W: usize>(table: &[u64]) -> &[[[u64; W]; 16]; P] {
    table.as_chunks::<W>().0.as_chunks::<16>().0[..P]
        .try_into()
        .expect("a table of P pieces")
}

/// How many pairs of (a tile whose table is `table`) x `small` share no bit.
#[inline(always)]
fn probe<const P: usize, const W: usize, const FAST: bool>(table: &[u64], small: &[u64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if FAST
        && W == TILE
        && std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
    {
        // SAFETY: the features `probe_avx512` is compiled for were checked just above.
        return unsafe { probe_avx512::<P>(table, small) };
    }
    #[cfg(target_arch = "x86_64")]
    if FAST
        && (W == 2 || W == 4)
        && std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
    {
        // SAFETY: the features `probe_narrow` is compiled for were checked just above (AVX2:
        // FAST is only set on the path chosen after checking for it).
        return unsafe { probe_narrow::<P, W>(table, small) };
    }
    let pieces = pieces::<P, W>(table);
    let mut count = 0u64;
    for &x in small {
        let mut acc = [0u64; W];
        for (p, rows) in pieces.iter().enumerate() {
            let row = &rows[(x >> (PIECE * p)) as usize & 15];
            for (a, &r) in acc.iter_mut().zip(row) {
                *a |= r;
            }
        }
        count += acc
            .iter()
            .map(|a| u64::from((!a).count_ones()))
            .sum::<u64>();
    }
    count
}

/// [`probe`] of a full tile (512 halves: a table row is one 512-bit register) with AVX-512:
/// one OR per piece and one population count per half of `small`, the counts summed in a
/// register and added up once at the end.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
fn probe_avx512<const P: usize>(table: &[u64], small: &[u64]) -> u64 {
    use std::arch::x86_64::{
        __m512i, _mm512_add_epi64, _mm512_loadu_si512, _mm512_or_si512, _mm512_popcnt_epi64,
        _mm512_reduce_add_epi64, _mm512_setzero_si512, _mm512_ternarylogic_epi64,
    };
    let pieces = pieces::<P, TILE>(table);
    let mut sum = _mm512_setzero_si512();
    for &x in small {
        let mut acc = _mm512_setzero_si512();
        for (p, rows) in pieces.iter().enumerate() {
            let row = &rows[(x >> (PIECE * p)) as usize & 15];
            // SAFETY: `row` holds the 8 words (64 bytes) loaded.
            acc = _mm512_or_si512(acc, unsafe {
                _mm512_loadu_si512(row.as_ptr().cast::<__m512i>())
            });
        }
        // The halves sharing no bit with x are the zero bits of acc (0x55: NOT of the first).
        let free = _mm512_ternarylogic_epi64::<0x55>(acc, acc, acc);
        sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(free));
    }
    _mm512_reduce_add_epi64(sum) as u64
}

/// [`probe`] of a tile of 128 or 256 halves (the last tile of a group, or of a value of a
/// split one: at N = 16 most of the probes, at N = 18 a third) with AVX-512's 128- and 256-bit
/// forms: a table row is one register, its zero bits counted by `vpopcntq`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512vpopcntdq")]
fn probe_narrow<const P: usize, const W: usize>(table: &[u64], small: &[u64]) -> u64 {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_add_epi64, _mm256_loadu_si256, _mm256_or_si256,
        _mm256_popcnt_epi64, _mm256_setzero_si256, _mm256_storeu_si256, _mm256_ternarylogic_epi64,
        _mm256_zextsi128_si256, _mm_loadu_si128,
    };
    let pieces = pieces::<P, W>(table);
    let mut sum = _mm256_setzero_si256();
    for &x in small {
        let mut acc = _mm256_setzero_si256();
        for (p, rows) in pieces.iter().enumerate() {
            let row = &rows[(x >> (PIECE * p)) as usize & 15];
            // SAFETY: `row` holds the W words (8 W bytes) loaded.
            let r = unsafe {
                if W == 4 {
                    _mm256_loadu_si256(row.as_ptr().cast::<__m256i>())
                } else {
                    _mm256_zextsi128_si256(_mm_loadu_si128(row.as_ptr().cast::<__m128i>()))
                }
            };
            acc = _mm256_or_si256(acc, r);
        }
        // The halves sharing no bit with x are the zero bits of acc (0x55: NOT of the first);
        // with W = 2 the upper 128 bits are zero, and their 128 "free" bits are taken off
        // below.
        let free = _mm256_ternarylogic_epi64::<0x55>(acc, acc, acc);
        sum = _mm256_add_epi64(sum, _mm256_popcnt_epi64(free));
    }
    let mut lanes = [0u64; 4];
    // SAFETY: `lanes` is 32 bytes.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), sum) };
    let total: u64 = lanes.iter().sum();
    if W == 2 {
        total - 128 * small.len() as u64
    } else {
        total
    }
}

/// Groups of at least this many halves are split by the value of one piece first.
pub(super) const SPLIT_FROM: usize = 512;

/// The buffers of [`match_split`].
#[derive(Default)]
struct Split {
    big: Vec<u64>,
    small: Vec<u64>,
}

/// Sorts `items` into `out` by the value of the piece at `shift` (16 buckets), each without
/// that piece (the bits above it moved down 4 places: [`squeeze`]); returns the buckets'
/// starts.
#[inline(always)]
fn sort16(items: &[u64], shift: u32, out: &mut Vec<u64>) -> [u32; 17] {
    let mut start = [0u32; 17];
    for &x in items {
        start[(x >> shift) as usize % 16 + 1] += 1;
    }
    for v in 0..16 {
        start[v + 1] += start[v];
    }
    let mut at = start;
    out.clear();
    // Room was made by `JoinBuffers::reserve`: this allocates nothing.
    debug_assert!(out.capacity() >= items.len());
    out.resize(items.len(), 0);
    for &x in items {
        let v = (x >> shift) as usize % 16;
        out[at[v] as usize] = squeeze(x, shift);
        at[v] += 1;
    }
    start
}

/// `x` without its 4-bit piece at `shift`: the bits above it moved down into its place.
#[inline(always)]
fn squeeze(x: u64, shift: u32) -> u64 {
    let low = (1u64 << shift) - 1;
    x & low | (x >> (shift + PIECE as u32)) << shift
}

/// [`match_group`] for large groups: both sides are sorted by their value `v` in one piece
/// (the one where the halves of this subproblem meet most), and each tile of big halves of
/// value `v` is matched only with the small halves whose value shares no bit with `v`, about
/// a third of them. Those pairs cannot meet in that piece, so it is taken out of the sorted
/// copies: the tables and probes work on the `Q` other pieces (one table row OR fewer per
/// half, and one piece fewer to build: 0 to 4 % of N = 18 on one thread).
#[inline(always)]
fn match_split<const Q: usize, const FAST: bool>(
    big: &[u64],
    small: &[u64],
    piece: usize,
    table: &mut [u64],
    split: &mut Split,
    cancel: &AtomicBool,
) -> Option<u64> {
    let shift = (PIECE * piece) as u32;
    let big_start = sort16(big, shift, &mut split.big);
    let small_start = sort16(small, shift, &mut split.small);
    let mut count = 0u64;
    for vb in 0..16 {
        let bucket = &split.big[big_start[vb] as usize..big_start[vb + 1] as usize];
        let free = !vb & 15;
        for tile in bucket.chunks(64 * TILE) {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            count += match tile.len().div_ceil(64) {
                1 => tile_split::<Q, 1, FAST>(tile, &split.small, &small_start, free, table),
                2 => tile_split::<Q, 2, FAST>(tile, &split.small, &small_start, free, table),
                3 | 4 => tile_split::<Q, 4, FAST>(tile, &split.small, &small_start, free, table),
                _ => tile_split::<Q, TILE, FAST>(tile, &split.small, &small_start, free, table),
            };
        }
    }
    Some(count)
}

/// One tile of [`match_split`]: its table, probed by the small halves of every value within
/// `free`.
#[inline(always)]
fn tile_split<const P: usize, const W: usize, const FAST: bool>(
    tile: &[u64],
    small: &[u64],
    start: &[u32; 17],
    free: usize,
    table: &mut [u64],
) -> u64 {
    let mut any = false;
    let mut sub = free;
    loop {
        if start[sub] != start[sub + 1] {
            any = true;
            break;
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & free;
    }
    if !any {
        return 0;
    }
    build::<P, W, FAST>(tile, table);
    let mut count = 0u64;
    let mut sub = free;
    loop {
        let part = &small[start[sub] as usize..start[sub + 1] as usize];
        if !part.is_empty() {
            count += probe::<P, W, FAST>(table, part);
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & free;
    }
    count
}

/// The piece of the masks where the halves in `a` and `b` meet most often (by a sample):
/// the one to split large groups by.
fn busiest_piece(a: &Groups, b: &Groups, pieces: usize) -> usize {
    let count = |groups: &Groups| {
        let mut bits = [0u64; 64];
        // One half in 32, and at most about 2048 of them (one in 8 cost 4 % of N = 16 and
        // 18, by perf): the choice only steers the speed of large groups, never the count.
        let step = (groups.len() / 2048).max(32);
        for &x in groups.all().flat_map(|g| g.iter().step_by(step)) {
            let mut x = x;
            while x != 0 {
                bits[x.trailing_zeros() as usize] += 1;
                x &= x - 1;
            }
        }
        bits
    };
    let (ca, cb) = (count(a), count(b));
    (0..pieces)
        .max_by_key(|&p| {
            (PIECE * p..PIECE * (p + 1))
                .map(|bit| u128::from(ca[bit]) * u128::from(cb[bit]))
                .sum::<u128>()
        })
        .unwrap_or(0)
}

/// Sets, for each bit `b` of the masks, bit `j` of word `j / 64` of table row
/// `(b / 4) * 16 + (1 << b % 4)` when half `j` of the tile has bit `b`.
#[inline(always)]
fn slices<const P: usize, const W: usize, const FAST: bool>(tile: &[u64], table: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: FAST is only set on the path chosen after checking for AVX2.
        unsafe { slices_avx2::<P, W>(tile, table) };
        return;
    }
    // A mask has at most 2N <= 4P bits: every one is in a piece.
    for (j, mut m) in tile.iter().copied().enumerate() {
        let (w, bit) = (j / 64, 1u64 << (j % 64));
        while m != 0 {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            table[((b / PIECE) * 16 + (1 << (b % PIECE))) * W + w] |= bit;
        }
    }
}

/// [`slices`] with AVX2: the masks are cut into byte planes, and each plane gives the bits of
/// 32 halves at a time by one `movemask` per bit.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn slices_avx2<const P: usize, const W: usize>(tile: &[u64], table: &mut [u64]) {
    use std::arch::x86_64::{__m256i, _mm256_add_epi8, _mm256_loadu_si256, _mm256_movemask_epi8};
    let bytes = (P * PIECE).div_ceil(8);
    let mut planes = [[0u8; 64 * TILE]; 6];
    for (j, &m) in tile.iter().enumerate() {
        for (k, plane) in planes.iter_mut().enumerate().take(bytes) {
            plane[j] = (m >> (8 * k)) as u8;
        }
    }
    for (k, plane) in planes.iter().enumerate().take(bytes) {
        for q in 0..2 * W {
            // SAFETY: 32 bytes from 32 q, inside the plane of 64 TILE >= 64 W bytes.
            let mut x = unsafe { _mm256_loadu_si256(plane.as_ptr().add(32 * q).cast::<__m256i>()) };
            for i in (0..8).rev() {
                let b = 8 * k + i;
                let bits = _mm256_movemask_epi8(x) as u32;
                if b < P * PIECE {
                    table[((b / PIECE) * 16 + (1 << (b % PIECE))) * W + q / 2] |=
                        u64::from(bits) << (32 * (q % 2));
                }
                x = _mm256_add_epi8(x, x);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_match_and_the_pair_tests_agree() {
        let mut table = Vec::new();
        let never = AtomicBool::new(false);
        let mut x = 0x1234_5678_9abc_def1u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & x >> 3 & ((1 << 36) - 1)
        };
        for (nb, ns) in [
            (64, 32),
            (600, 40),
            (1500, 100),
            (513, 33),
            (100, 30),
            (150, 50),
            (250, 25),
            (40, 30),
        ] {
            let big: Vec<u64> = (0..nb).map(|_| next()).collect();
            let small: Vec<u64> = (0..ns).map(|_| next()).collect();
            let want: u64 = small
                .iter()
                .map(|&s| big.iter().filter(|&&b| b & s == 0).count() as u64)
                .sum();
            table.resize(9 * 16 * TILE, 0);
            assert_eq!(
                match_group::<9, false>(&big, &small, &mut table, &never),
                Some(want)
            );
            let mut split = Split::default();
            for piece in [0, 4, 8] {
                room_for(&mut split.big, big.len()).unwrap();
                room_for(&mut split.small, small.len()).unwrap();
                let got =
                    match_split::<8, false>(&big, &small, piece, &mut table, &mut split, &never);
                assert_eq!(got, Some(want), "split by piece {piece}, {nb} x {ns}");
            }
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                assert_eq!(
                    match_group::<9, true>(&big, &small, &mut table, &never),
                    Some(want)
                );
                for piece in [0, 4, 8] {
                    let got =
                        match_split::<8, true>(&big, &small, piece, &mut table, &mut split, &never);
                    assert_eq!(
                        got,
                        Some(want),
                        "split by piece {piece} (AVX2), {nb} x {ns}"
                    );
                }
            }
        }
    }
}
