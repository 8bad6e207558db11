// The kernels of the GPU engine, three entry points:
//   queens_count_tasks   the frame split: one thread per task, each task a partial placement of
//                        a frame's free rows, searched to the last row by the bitmask loop of
//                        the CPU kernel (crates/queens-core/src/count/frames/kernel.rs), its
//                        stack in shared memory;
//   queens_join_pairs    every pair of given groups of halves tested (a yardstick, count/gpu/
//                        join.rs);
//   queens_count_groups  the half-board split: one block per group of halves, listed, sorted
//                        by key and joined on the device (count/gpu/groups.rs).
//
// This one file is compiled twice: by NVRTC for the device at run time (count/gpu/cuda.rs), and
// by the host C++ compiler through the shim of crates/queens-kernel-host, so that CI runs the
// very same code on the CPU and checks it against the known counts and independent twins. It
// therefore uses only what both compilers take: no headers, plain integer types, C++11
// (alignas), and the CUDA built-ins the shim defines (blockIdx, blockDim, threadIdx, gridDim,
// __syncthreads, __syncwarp, __ballot_sync, __launch_bounds__, __popc, __popcll, __ffsll,
// atomicAdd, atomicOr). Inline PTX appears only under __CUDA_ARCH__, beside the plain C it
// stands for, which the host build runs.
//
// The first kernel's layout must match `FrameRows` and `Task` in count/gpu/tasks.rs
// (#[repr(C)]).

#define QUEENS_MAX_ROWS 32
// The most levels one thread descends below its task: the host never hands out a task with
// more free rows left than QUEENS_STACK + 1 (the last row is counted, not descended into).
#define QUEENS_STACK 16
// Threads per block; the launch must use exactly this many.
#define QUEENS_BLOCK 128

struct QueensFrameRows {
    // The squares of each free row that the frame's queens leave open (top to bottom).
    unsigned int open[QUEENS_MAX_ROWS];
    // The row distance from free row i to free row i + 1.
    unsigned int gap[QUEENS_MAX_ROWS];
    // How many free rows the frame has.
    unsigned int rows;
    unsigned int reserved[3];
};

struct QueensTask {
    // The frame, as an index into the launch's table of frames.
    unsigned int frame;
    // The next free row to fill (0-based among the free rows).
    unsigned int level;
    // The columns taken so far (the frame's and those of the task's queens).
    unsigned int cols;
    // The two diagonal directions attacked on row `level` by the task's queens.
    unsigned int left;
    unsigned int right;
};

extern "C" __global__ void queens_count_tasks(const QueensFrameRows* frames,
                                              const QueensTask* tasks,
                                              unsigned int count,
                                              unsigned long long* out)
{
    // One stack per thread, level-major so that the threads of a warp touch consecutive words
    // (no bank conflicts): stack_x[level][thread].
    __shared__ unsigned int stack_f[QUEENS_STACK][QUEENS_BLOCK];
    __shared__ unsigned int stack_c[QUEENS_STACK][QUEENS_BLOCK];
    __shared__ unsigned int stack_l[QUEENS_STACK][QUEENS_BLOCK];
    __shared__ unsigned int stack_r[QUEENS_STACK][QUEENS_BLOCK];

    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    if (i >= count) {
        return;
    }
    const QueensTask task = tasks[i];
    const QueensFrameRows* fr = &frames[task.frame];
    const unsigned int m = fr->rows;
    unsigned int level = task.level;
    if (level >= m) {
        // Every free row is filled: the task is one solution.
        out[i] = 1;
        return;
    }
    unsigned int c = task.cols;
    unsigned int l = task.left;
    unsigned int r = task.right;
    unsigned int f = fr->open[level] & ~(c | l | r);
    const unsigned int last = m - 1;
    if (level == last) {
        out[i] = (unsigned long long)__popc(f);
        return;
    }
    const unsigned int open_last = fr->open[last];
    unsigned long long total = 0;
    unsigned int sp = 0;
    for (;;) {
        if (f == 0) {
            if (sp == 0) {
                break;
            }
            sp -= 1;
            level -= 1;
            f = stack_f[sp][t];
            c = stack_c[sp][t];
            l = stack_l[sp][t];
            r = stack_r[sp][t];
            continue;
        }
        unsigned int bit = f & (0u - f);
        f ^= bit;
        unsigned int g = fr->gap[level];
        unsigned int nc = c | bit;
        unsigned int nl = (l | bit) << g;
        unsigned int nr = (r | bit) >> g;
        if (level + 1 == last) {
            // One row left: at most one column is free, so a test counts it.
            total += (open_last & ~(nc | nl | nr)) != 0u;
            continue;
        }
        unsigned int nf = fr->open[level + 1] & ~(nc | nl | nr);
        if (nf != 0u) {
            stack_f[sp][t] = f;
            stack_c[sp][t] = c;
            stack_l[sp][t] = l;
            stack_r[sp][t] = r;
            sp += 1;
            level += 1;
            f = nf;
            c = nc;
            l = nl;
            r = nr;
        }
    }
    out[i] = total;
}

// The half-board join (count/gpu/join.rs): for each task, the pairs of one slice of lower
// halves and one slice of upper halves whose 2N-bit diagonal masks share no bit (a lower half
// and an upper half of complementary columns fit iff their masks are disjoint). One block per
// task, each thread taking the task's lower halves in turn (one each when a task holds at most
// blockDim.x of them); every thread of a warp reads the same upper half at the same time, one
// load broadcast to the warp. A thread adds its count to the task's with one atomicAdd.
//
// The layout must match `JoinTask` in count/gpu/join.rs (#[repr(C)]).

struct QueensJoinTask {
    // The task's lower halves: lowers[lower .. lower + lowers].
    unsigned int lower;
    unsigned int lowers;
    // Its upper halves: uppers[upper .. upper + uppers].
    unsigned int upper;
    unsigned int uppers;
};

extern "C" __global__ void queens_join_pairs(const unsigned long long* uppers,
                                             const unsigned long long* lowers,
                                             const QueensJoinTask* tasks,
                                             unsigned int count,
                                             unsigned long long* out)
{
    unsigned int t = blockIdx.x;
    if (t >= count) {
        return;
    }
    const QueensJoinTask task = tasks[t];
    const unsigned long long* up = uppers + task.upper;
    unsigned long long pairs = 0;
    for (unsigned int i = threadIdx.x; i < task.lowers; i += blockDim.x) {
        unsigned long long low = lowers[task.lower + i];
        unsigned int fit = 0;
        for (unsigned int j = 0; j < task.uppers; ++j) {
            fit += (up[j] & low) == 0ull;
        }
        pairs += fit;
    }
    if (pairs != 0ull) {
        atomicAdd(&out[t], pairs);
    }
}

// The half-board count of whole groups on the device (count/gpu/groups.rs): for each group, a
// set of columns S used by the upper half (rows 0..n/2), every upper half on exactly those
// columns and every lower half (rows n/2..n) on the others is listed, and the pairs whose
// diagonal masks share no bit are counted. One block per group at a time, the blocks fetching
// groups from a shared counter (`next`, zeroed by the host) until none is left:
//
//   1. list: each thread takes the placements of the side's first three rows numbered
//      t, t + blockDim.x, ... and searches each to the side's last row, appending every half's
//      2N-bit mask to the block's scratch (at most `capacity` a side; a larger side marks the
//      group QUEENS_OVERFLOW for the host to count again with more room);
//   2. key: the block picks up to QUEENS_KEY_BITS bits of the masks, those set in the most
//      pairs of an upper and a lower half (counted on a sample of each side), as many as keep
//      2^QUEENS_KEY_HALVES halves of the smaller side per key value on average (twice as many
//      for an 11th bit), and sorts both sides by the value of those bits (a counting sort into
//      the second half of the scratch, each key's uppers starting on a 16-byte line and padded
//      to whole lines);
//      measured on groups of N = 16 and 18, each key bit leaves about 0.7 of the pairs, 6 % at
//      8 bits; modelled on sampled groups (instructions issued, lanes idle), an 11th bit costs
//      N = 20 more than it saves at 32 halves a key value, and saves N = 21 about 7 % and
//      N = 22 about 20 % at 64;
//   3. pack: the bits a pair's test still reads are those set in some upper and some lower
//      half, less the key bits; where they are at most 32 (N <= 23 with a key of 10 bits or
//      more) and `narrow` allows it, the sort writes each mask as those bits only, a 32-bit
//      word, and the join tests a pair with one 32-bit AND instead of a 64-bit one;
//   4. join: an upper and a lower half whose keys share a bit cannot fit, so the halves of a
//      lower key y meet only the uppers of the keys inside ~y (3^k pairs of keys of 4^k): each
//      warp takes a chunk of 32 lowers of one key at a time. Packed, a chunk of at least
//      `sliced` lowers is joined bit-sliced: its lowers become 32 bit-planes, the planes 8
//      tables of 16 entries in shared memory, and each lane meets its own uppers against all
//      of them at once, 8 lookups an upper. Otherwise each lane takes a lower
//      (a key's last few lowers on 2 or 4 lanes each, which share out its uppers), and the
//      lanes that test one lower read the same uppers at once, 16 bytes a load.
//
// Upper halves are placed top-down, lower halves bottom-up; in both, x holds the diagonals
// that move one column right per row placed and y those that move left. An upper half's mask
// is the squares of row n/2 its queens attack (down-right in the low n bits, down-left in the
// next n); a lower half's is the squares of row n/2 its queens' diagonals cross (up-left low,
// up-right high), so the two fit iff their masks share no bit. The layout must match
// `GroupTask` in count/gpu/groups.rs (#[repr(C)]).

#define QUEENS_GROUP_BLOCK 256
// Blocks a multiprocessor of the H100 and H200 holds: 5 of 42 KB of static shared memory.
#define QUEENS_GROUP_RESIDENT 5
#define QUEENS_KEY_BITS 11
#define QUEENS_KEYS (1u << QUEENS_KEY_BITS)
// The bit-sliced join's tables, 128 words a warp, live in the lower cursors (s_cursor[1]),
// which the join does not read.
static_assert(QUEENS_GROUP_BLOCK / 32u * 128u <= QUEENS_KEYS, "a warp's tables fit the cursors");
#define QUEENS_PREFIX_ROWS 3u
#define QUEENS_SIDE_ROWS 16
#define QUEENS_OVERFLOW 0xffffffffffffffffull
// The halves of each side sampled to choose the key bits.
#define QUEENS_KEY_SAMPLE 2048u
// A key has bits while the smaller side has 2^QUEENS_KEY_HALVES halves per key value at least,
// twice as many for the 11th bit (the host shim lowers it, so that the small boards of CI's
// tests use keys of many lengths).
#ifndef QUEENS_KEY_HALVES
#define QUEENS_KEY_HALVES 5u
#endif

struct QueensGroup {
    // The columns of the upper half.
    unsigned int upper;
    // The columns its row 0 may use.
    unsigned int top;
    // The columns row n/2 (the lower half's) may use.
    unsigned int first;
    // The share of the group this task joins: part | parts << 16 (0: the whole group). Each
    // share lists the whole group and joins the lower halves of the keys queens_key_in_share
    // deals it.
    unsigned int share;
};

// The column of the d-th set bit of `set` (d counted from 0), as a one-bit mask; 0 if none.
__device__ static unsigned int queens_nth_bit(unsigned int set, unsigned int d)
{
    for (unsigned int i = 0; i < d && set != 0u; ++i) {
        set &= set - 1u;
    }
    return set & (0u - set);
}

// A hash of a mask or a key: the high half of a multiplicative (Fibonacci) hash.
__device__ static inline unsigned int queens_hash(unsigned long long value)
{
    return (unsigned int)((value * 0x9e3779b97f4a7c15ull) >> 32);
}

// Whether the lower halves of key `key` are in share `share` of their group (part | parts << 16,
// 0: the whole group). Each share of a group lists the whole group anew, in an order of its own
// (the threads' atomics), so the deal must not depend on that order: the key bits are chosen
// from a sample drawn by hash, the same in every share, and the keys are dealt by hash. A share
// then joins whole keys, as the whole group would, and the shares' work stays within about 10 %
// of each other (modelled on sampled groups of N = 21 and 22).
__device__ static inline bool queens_key_in_share(unsigned int key, unsigned int share)
{
    const unsigned int parts = share >> 16;
    return parts <= 1u || queens_hash(key) % parts == (share & 0xffffu);
}

// Appends one half to a side of the block's scratch; false when the side has no room left (its
// count is then past `capacity`, which marks the group, and the thread lists no more of it: the
// count stays within capacity + threads).
__device__ static bool queens_emit(unsigned long long mask, unsigned long long* out,
                                   unsigned int capacity, unsigned int* found)
{
    unsigned int at = atomicAdd(found, 1u);
    if (at < capacity) {
        out[at] = mask;
        return true;
    }
    return false;
}

// The mask of a half whose last queen goes on `bit` with the state (x, y) of its row.
__device__ static unsigned long long queens_half_mask(unsigned int n, unsigned int lower,
                                                      unsigned int x, unsigned int y,
                                                      unsigned int bit)
{
    const unsigned int full = (1u << n) - 1u;
    if (lower) {
        return (unsigned long long)(y | bit) | ((unsigned long long)((x | bit) & full) << n);
    }
    return (unsigned long long)(((x | bit) << 1) & full) | ((unsigned long long)((y | bit) >> 1) << n);
}

// Thread t's share of one side's listing: `rows` rows on exactly the columns `cols` (as many
// as the rows), the first row placed restricted to `first_row`, the last to `last_row`.
__device__ static void queens_list_side(unsigned int n, unsigned int rows, unsigned int cols,
                                        unsigned int first_row, unsigned int last_row,
                                        unsigned int lower, unsigned int t, unsigned int threads,
                                        unsigned long long* out, unsigned int capacity,
                                        unsigned int* found)
{
    if (rows == 0u) {
        // No row (the upper half of N = 1): one empty half.
        if (t == 0u) {
            queens_emit(0ull, out, capacity, found);
        }
        return;
    }
    const unsigned int depth = rows < QUEENS_PREFIX_ROWS ? rows : QUEENS_PREFIX_ROWS;
    unsigned int prefixes = 1u;
    for (unsigned int i = 0; i < depth; ++i) {
        prefixes *= rows;
    }
    unsigned int stack_f[QUEENS_SIDE_ROWS];
    unsigned int stack_c[QUEENS_SIDE_ROWS];
    unsigned int stack_x[QUEENS_SIDE_ROWS];
    unsigned int stack_y[QUEENS_SIDE_ROWS];
    for (unsigned int p = t; p < prefixes; p += threads) {
        unsigned int c = 0u, x = 0u, y = 0u, q = p;
        unsigned int placed = 0u;
        for (; placed < depth; ++placed) {
            unsigned int bit = queens_nth_bit(cols, q % rows);
            q /= rows;
            unsigned int allowed = cols;
            if (placed == 0u) {
                allowed &= first_row;
            }
            if (placed + 1u == rows) {
                allowed &= last_row;
            }
            if ((bit & allowed & ~(c | x | y)) == 0u) {
                break;
            }
            if (placed + 1u == rows) {
                if (!queens_emit(queens_half_mask(n, lower, x, y, bit), out, capacity, found)) {
                    return;
                }
                break;
            }
            c |= bit;
            x = (x | bit) << 1;
            y = (y | bit) >> 1;
        }
        if (placed != depth) {
            continue;
        }
        // The rest of the side, depth-first from row `placed`.
        unsigned int level = placed;
        unsigned int f = cols & ~(c | x | y);
        if (level + 1u == rows) {
            f &= last_row;
        }
        unsigned int sp = 0u;
        for (;;) {
            if (f == 0u) {
                if (sp == 0u) {
                    break;
                }
                sp -= 1u;
                level -= 1u;
                f = stack_f[sp];
                c = stack_c[sp];
                x = stack_x[sp];
                y = stack_y[sp];
                continue;
            }
            unsigned int bit = f & (0u - f);
            f ^= bit;
            if (level + 1u == rows) {
                if (!queens_emit(queens_half_mask(n, lower, x, y, bit), out, capacity, found)) {
                    return;
                }
                continue;
            }
            unsigned int nc = c | bit;
            unsigned int nx = (x | bit) << 1;
            unsigned int ny = (y | bit) >> 1;
            unsigned int nf = cols & ~(nc | nx | ny);
            if (level + 2u == rows) {
                nf &= last_row;
            }
            if (nf != 0u) {
                stack_f[sp] = f;
                stack_c[sp] = c;
                stack_x[sp] = x;
                stack_y[sp] = y;
                sp += 1u;
                level += 1u;
                f = nf;
                c = nc;
                x = nx;
                y = ny;
            }
        }
    }
}

// The key of a mask: its bits at the positions `bits[0..k]`.
__device__ static unsigned int queens_key(unsigned long long mask, const unsigned int* bits,
                                          unsigned int k)
{
    unsigned int key = 0u;
    for (unsigned int j = 0; j < k; ++j) {
        key |= (unsigned int)((mask >> bits[j]) & 1ull) << j;
    }
    return key;
}

// A mask's bits that a pair's test reads, packed into one word: run r of `runs` is the
// `run_len[r]` bits from `run_at[r]`, packed from bit `run_to[r]`.
__device__ static unsigned int queens_pack(unsigned long long mask, const unsigned int* run_at,
                                           const unsigned int* run_len, const unsigned int* run_to,
                                           unsigned int runs)
{
    unsigned int packed = 0u;
    for (unsigned int r = 0; r < runs; ++r) {
        const unsigned long long bits = (mask >> run_at[r]) & ((1ull << run_len[r]) - 1ull);
        packed |= (unsigned int)bits << run_to[r];
    }
    return packed;
}

// Adds 1 to `fit` when `meet` (the bits an upper and a lower share) is empty. On the device a
// compare and a predicated add, two instructions; from C, `fit += meet == 0` becomes three.
__device__ static inline unsigned int queens_fit(unsigned int fit, unsigned int meet)
{
#ifdef __CUDA_ARCH__
    asm("{\n\t.reg .pred e;\n\tsetp.eq.u32 e, %1, 0;\n\t@e add.u32 %0, %0, 1;\n\t}"
        : "+r"(fit)
        : "r"(meet));
    return fit;
#else
    return fit + (meet == 0u ? 1u : 0u);
#endif
}

__device__ static inline unsigned int queens_fit(unsigned int fit, unsigned long long meet)
{
#ifdef __CUDA_ARCH__
    asm("{\n\t.reg .pred e;\n\tsetp.eq.u64 e, %1, 0;\n\t@e add.u32 %0, %0, 1;\n\t}"
        : "+r"(fit)
        : "l"(meet));
    return fit;
#else
    return fit + (meet == 0ull ? 1u : 0u);
#endif
}

// 16 bytes of masks, read in one load: each key's uppers start on such a line and fill whole
// lines, the last padded with masks of all ones (step 3 of queens_count_groups).
template <typename W>
struct alignas(16) QueensLine {
    W w[16 / sizeof(W)];
};

// The line at `at`: one 16-byte load on the device; mask by mask on the host, whose scratch
// need not be 16-byte aligned.
template <typename W>
__device__ static inline QueensLine<W> queens_line(const QueensLine<W>* at)
{
#ifdef __CUDA_ARCH__
    return *at;
#else
    QueensLine<W> line;
    const W* masks = (const W*)at;
    for (unsigned int j = 0; j < 16u / sizeof(W); ++j) {
        line.w[j] = masks[j];
    }
    return line;
#endif
}

// `fit` plus the uppers of the `lines` lines from `up` that share no bit with `low`, those of
// stream `stream` of STREAMS only (lines stream, stream + STREAMS, ...). The lanes of one stream
// read the same line at once, so each load is a broadcast; a line holds 4 packed masks or 2
// whole ones, which keeps the loop at about two instructions a pair (a compare and a predicated
// add) instead of waiting on one load per pair. STREAMS is a constant, so that the unrolled
// loop's loads take constant offsets.
template <typename W, unsigned int STREAMS>
__device__ static unsigned int queens_fit_run(const QueensLine<W>* up, unsigned int lines, W low,
                                              unsigned int fit, unsigned int stream)
{
    const unsigned int mine = lines > stream ? (lines - stream + STREAMS - 1u) / STREAMS : 0u;
    up += stream;
#ifdef __CUDA_ARCH__
#pragma unroll 4
#endif
    // Counted down: the compiler then keeps the pointer in place, two moves a line fewer.
    for (unsigned int m = mine; m != 0u; --m) {
        const QueensLine<W> masks = queens_line(up);
        up += STREAMS;
        for (unsigned int j = 0; j < 16u / sizeof(W); ++j) {
            fit = queens_fit(fit, masks.w[j] & low);
        }
    }
    return fit;
}

// `fit` plus the uppers of the keys inside `free_keys` (all of them, from free_keys down to 0)
// that share no bit with `low`, stream `stream` of STREAMS. `up_start` holds the keys' starts
// in masks, each a whole number of lines.
template <typename W, unsigned int STREAMS>
__device__ static unsigned int queens_fit_keys(const W* uppers, const unsigned int* up_start,
                                               unsigned int free_keys, W low,
                                               unsigned int stream)
{
    const unsigned int per = 16u / sizeof(W);
    const QueensLine<W>* lines = (const QueensLine<W>*)uppers;
    unsigned int fit = 0u;
    unsigned int x = free_keys;
    for (;;) {
        const unsigned int from = up_start[x] / per;
        fit = queens_fit_run<W, STREAMS>(lines + from, up_start[x + 1u] / per - from, low, fit,
                                         stream);
        if (x == 0u) {
            return fit;
        }
        x = (x - 1u) & free_keys;
    }
}

// The key whose lowers chunk `chunk` holds: the last of the `keys` whose first chunk
// (`chunks`, ascending) is at most `chunk`.
__device__ static unsigned int queens_chunk_key(const unsigned int* chunks, unsigned int keys,
                                                unsigned int chunk)
{
    unsigned int lo = 0u, hi = keys;
    while (hi - lo > 1u) {
        unsigned int mid = (lo + hi) / 2u;
        if (chunks[mid] <= chunk) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// The `left` lowers from `first` (1 to 32, one a lane) against the uppers of the keys inside
// `free_keys`: the fitting pairs this lane tests. A last chunk of at most 16 (8) lowers has
// each of them on 2 (4) lanes, which split every key's lines of uppers between them as
// streams, so that a key with few lowers still keeps most of the warp's lanes busy. W is the
// width of a packed mask. `up_end` holds where each key's uppers end before their padding: a
// lower of mask 0 fits the padding too, so its count is taken from there instead.
template <typename W>
__device__ static unsigned int queens_join_lanes(const W* uppers, const W* lowers,
                                                 const unsigned int* up_start,
                                                 const unsigned int* up_end, unsigned int first,
                                                 unsigned int left, unsigned int free_keys,
                                                 unsigned int lane)
{
    const unsigned int streams = left > 16u ? 1u : left > 8u ? 2u : 4u;
    const unsigned int width = 32u / streams;
    const unsigned int stream = lane / width;
    const unsigned int i = first + lane % width;
    if (lane % width >= left) {
        return 0u;
    }
    const W low = lowers[i];
    if (low == (W)0) {
        // Every upper of the free keys fits; counted once, by the first stream.
        unsigned int fit = 0u;
        for (unsigned int x = free_keys;; x = (x - 1u) & free_keys) {
            fit += up_end[x] - up_start[x];
            if (x == 0u) {
                break;
            }
        }
        return stream == 0u ? fit : 0u;
    }
    if (streams == 1u) {
        return queens_fit_keys<W, 1u>(uppers, up_start, free_keys, low, stream);
    }
    if (streams == 2u) {
        return queens_fit_keys<W, 2u>(uppers, up_start, free_keys, low, stream);
    }
    return queens_fit_keys<W, 4u>(uppers, up_start, free_keys, low, stream);
}

// The lowers that meet upper `u`, from the chunk's 8 tables of 16 entries (table g, entry v:
// the lowers that meet an upper whose bits 4g..4g+3 are v), `table` 64-byte aligned in shared
// memory (s_cursor is declared so, and each warp's tables are 512 bytes from the last). On the
// device each entry's address is the table's ORed with the nibble's offset, two instructions a
// nibble before its load; an address not so aligned would count wrong on the device only.
#ifdef __CUDA_ARCH__
// The word at shared address `at` + OFFSET (a load the compiler keeps in place).
template <unsigned int OFFSET>
__device__ static inline unsigned int queens_shared_load(unsigned int at)
{
    unsigned int word;
    asm volatile("ld.shared.u32 %0, [%1+%2];" : "=r"(word) : "r"(at), "n"(OFFSET) : "memory");
    return word;
}
#endif

__device__ static inline unsigned int queens_meet(const unsigned int* table, unsigned int u)
{
#ifdef __CUDA_ARCH__
    const unsigned int at = (unsigned int)__cvta_generic_to_shared(table);
    return queens_shared_load<0>(at | ((u << 2) & 0x3cu)) |
           queens_shared_load<64>(at | ((u >> 2) & 0x3cu)) |
           queens_shared_load<128>(at | ((u >> 6) & 0x3cu)) |
           queens_shared_load<192>(at | ((u >> 10) & 0x3cu)) |
           queens_shared_load<256>(at | ((u >> 14) & 0x3cu)) |
           queens_shared_load<320>(at | ((u >> 18) & 0x3cu)) |
           queens_shared_load<384>(at | ((u >> 22) & 0x3cu)) |
           queens_shared_load<448>(at | ((u >> 26) & 0x3cu));
#else
    unsigned int meet = 0u;
    for (unsigned int g = 0; g < 8u; ++g) {
        meet |= table[16u * g + ((u >> (4u * g)) & 15u)];
    }
    return meet;
#endif
}

// The same chunk as queens_join_lanes takes, bit-sliced (packed masks only): the warp turns
// its `left` lowers into 32 bit-planes (plane b: bit b of lower j at bit j), and those into 8
// tables of 16 entries in shared memory (`table`, 512 bytes for the warp, 64-byte aligned):
// entry v of table g holds the lowers that meet an upper whose bits 4g..4g+3 are v. Each lane
// then takes its own uppers, 32 apart, and tests one against all the lowers at once: 8
// lookups, their union, and a population count of the lowers it leaves. For sm_90 that is 33
// instructions an upper, 1.03 a pair for a whole chunk, where the lanes take 2.56
// (scripts/kernel-sass); the 8 lookups an upper keep the shared memory about as busy as the
// instructions keep the schedulers. Every lane of the warp must call it with the same chunk:
// the planes are the warp's votes.
__device__ static unsigned int queens_join_sliced(const unsigned int* uppers,
                                                  const unsigned int* lowers,
                                                  const unsigned int* up_start,
                                                  const unsigned int* up_end, unsigned int first,
                                                  unsigned int left, unsigned int free_keys,
                                                  unsigned int lane, unsigned int* table)
{
    const unsigned int low = lane < left ? lowers[first + lane] : 0u;
    // The lanes past `left` hold no lower: their bits are never counted.
    const unsigned int valid = left >= 32u ? 0xffffffffu : (1u << left) - 1u;
    // plane[b]: the lowers with bit b, one a bit (a warp's vote).
    unsigned int plane[32];
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (unsigned int b = 0; b < 32u; ++b) {
        plane[b] = __ballot_sync(0xffffffffu, (low >> b) & 1u);
    }
    // table[16 g + v]: the lowers that meet an upper whose bits 4g..4g+3 are v (the planes of
    // those bits joined). Lane l writes the entries l, l + 32, l + 64 and l + 96: of nibble
    // 2i for the first 16 lanes, 2i + 1 for the others.
    const unsigned int v = lane & 15u;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (unsigned int i = 0; i < 4u; ++i) {
        unsigned int even = 0u, odd = 0u;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
        for (unsigned int j = 0; j < 4u; ++j) {
            if ((v >> j) & 1u) {
                even |= plane[8u * i + j];
                odd |= plane[8u * i + 4u + j];
            }
        }
        table[32u * i + lane] = lane < 16u ? even : odd;
    }
    __syncwarp();
    unsigned int fit = 0u;
    for (unsigned int x = free_keys;; x = (x - 1u) & free_keys) {
        // Up to where the key's uppers end: its padding (all ones) would fit lowers of mask 0.
        const unsigned int end = up_end[x];
        for (unsigned int i = up_start[x] + lane; i < end; i += 32u) {
            fit += (unsigned int)__popc(valid & ~queens_meet(table, uppers[i]));
        }
        if (x == 0u) {
            // The table is read by every lane before the next chunk's is written.
            __syncwarp();
            return fit;
        }
    }
}

// Chunk `chunk` of the lowers against the uppers of every key that shares no bit with theirs:
// the fitting pairs this lane tests. A chunk holds 32 lowers of one key, or the last 1 to 31 of
// a key. Packed masks (W of 32 bits) in a chunk of at least `sliced` lowers (1 to 32; 0: none)
// are joined bit-sliced, the others by the lanes.
template <typename W>
__device__ static unsigned int queens_join_chunk(const W* uppers, const W* lowers,
                                                 const unsigned int* up_start,
                                                 const unsigned int* up_end,
                                                 const unsigned int* low_start,
                                                 const unsigned int* chunks, unsigned int keys,
                                                 unsigned int chunk, unsigned int lane,
                                                 unsigned int sliced, unsigned int* table)
{
    const unsigned int y = queens_chunk_key(chunks, keys, chunk);
    const unsigned int first = low_start[y] + (chunk - chunks[y]) * 32u;
    const unsigned int rest = low_start[y + 1u] - first;
    const unsigned int left = rest < 32u ? rest : 32u;
    const unsigned int free_keys = ~y & (keys - 1u);
    if (sizeof(W) == 4u && sliced != 0u && left >= sliced) {
        return queens_join_sliced((const unsigned int*)uppers, (const unsigned int*)lowers,
                                  up_start, up_end, first, left, free_keys, lane, table);
    }
    return queens_join_lanes<W>(uppers, lowers, up_start, up_end, first, left, free_keys, lane);
}

// At most QUEENS_GROUP_BLOCK threads a block, and registers for QUEENS_GROUP_RESIDENT blocks a
// multiprocessor: what the static shared memory allows, so that the bit-sliced join's 32 planes
// do not cost a block (48 registers a thread, none spilled).
extern "C" __global__ void __launch_bounds__(QUEENS_GROUP_BLOCK, QUEENS_GROUP_RESIDENT)
    queens_count_groups(const QueensGroup* groups,
                        unsigned int count,
                        unsigned int n,
                        unsigned int capacity,
                        unsigned int narrow,
                        unsigned int sliced,
                        unsigned long long* scratch,
                        unsigned int* next,
                        unsigned long long* out)
{
    __shared__ unsigned int s_group;
    __shared__ unsigned int s_found[2];
    __shared__ unsigned int s_k;
    __shared__ unsigned int s_bits[QUEENS_KEY_BITS];
    __shared__ unsigned int s_set[2][64];
    __shared__ unsigned long long s_any[2];
    __shared__ unsigned int s_runs;
    __shared__ unsigned int s_run_at[64];
    __shared__ unsigned int s_run_len[64];
    __shared__ unsigned int s_run_to[64];
    __shared__ unsigned int s_start[2][QUEENS_KEYS + 1u];
    // Also the bit-sliced join's tables during the join (s_cursor[1], 512 bytes a warp).
    alignas(64) __shared__ unsigned int s_cursor[2][QUEENS_KEYS];
    __shared__ unsigned int s_chunks[QUEENS_KEYS + 1u];
    // The join's chunks handed out so far, and the one each warp holds.
    __shared__ unsigned int s_next_chunk;
    __shared__ unsigned int s_warp_chunk[QUEENS_GROUP_BLOCK / 32u];

    const unsigned int t = threadIdx.x;
    const unsigned int threads = blockDim.x;
    const unsigned int h = n / 2u;
    const unsigned int full = (1u << n) - 1u;
    unsigned long long* side[2];
    unsigned long long* sorted[2];
    // The block's scratch: both sides as listed, then both sorted, the sorted uppers with room
    // for a line of padding a key (count/gpu/groups.rs, scratch_words).
    side[0] = scratch + (unsigned long long)blockIdx.x * (4ull * capacity + QUEENS_KEYS);
    side[1] = side[0] + capacity;
    sorted[0] = side[1] + capacity;
    sorted[1] = sorted[0] + capacity + QUEENS_KEYS;
    // The packed masks, when the test reads 32 bits at most: in the sorted halves' room.
    unsigned int* packed[2];
    packed[0] = (unsigned int*)sorted[0];
    packed[1] = (unsigned int*)sorted[1];

    for (;;) {
        if (t == 0u) {
            s_group = atomicAdd(next, 1u);
            s_found[0] = 0u;
            s_found[1] = 0u;
            s_any[0] = 0ull;
            s_any[1] = 0ull;
            s_next_chunk = 0u;
        }
        for (unsigned int i = t; i < 64u; i += threads) {
            s_set[0][i] = 0u;
            s_set[1][i] = 0u;
        }
        for (unsigned int i = t; i < QUEENS_KEYS; i += threads) {
            s_cursor[0][i] = 0u;
            s_cursor[1][i] = 0u;
        }
        __syncthreads();
        const unsigned int g = s_group;
        if (g >= count) {
            break;
        }
        const QueensGroup group = groups[g];

        // 1. The halves of both sides.
        queens_list_side(n, h, group.upper, group.top, full, 0u, t, threads, side[0], capacity,
                         &s_found[0]);
        queens_list_side(n, n - h, full & ~group.upper, full, group.first, 1u, t, threads,
                         side[1], capacity, &s_found[1]);
        __syncthreads();
        const unsigned int found[2] = {s_found[0], s_found[1]};
        if (found[0] > capacity || found[1] > capacity || found[0] == 0u || found[1] == 0u) {
            if (t == 0u) {
                out[g] = (found[0] > capacity || found[1] > capacity) ? QUEENS_OVERFLOW : 0ull;
            }
            __syncthreads();
            continue;
        }

        // 2. The key bits: those set in the most pairs of a sampled upper and lower half; and
        // the bits set in some half of each side.
        for (unsigned int s = 0; s < 2u; ++s) {
            const unsigned int step = found[s] > QUEENS_KEY_SAMPLE ? found[s] / QUEENS_KEY_SAMPLE : 1u;
            unsigned long long any = 0ull;
            for (unsigned int i = t; i < found[s]; i += threads) {
                const unsigned long long m = side[s][i];
                any |= m;
                // Drawn by hash, not by place: every share of the group draws the same sample.
                if (queens_hash(m) % step == 0u) {
                    unsigned long long rest = m;
                    while (rest != 0ull) {
                        atomicAdd(&s_set[s][__ffsll((long long)rest) - 1], 1u);
                        rest &= rest - 1ull;
                    }
                }
            }
            if (any != 0ull) {
                atomicOr(&s_any[s], any);
            }
        }
        __syncthreads();
        if (t == 0u) {
            const unsigned int small = found[0] < found[1] ? found[0] : found[1];
            unsigned int k = 0u;
            while (k < QUEENS_KEY_BITS &&
                   (small >> (k + QUEENS_KEY_HALVES + (k >= 10u ? 1u : 0u))) != 0u) {
                k += 1u;
            }
            unsigned long long taken = 0ull;
            for (unsigned int j = 0; j < k; ++j) {
                unsigned int best = 0u;
                unsigned long long most = 0ull;
                for (unsigned int b = 0; b < 2u * n; ++b) {
                    unsigned long long pairs = (unsigned long long)s_set[0][b] * s_set[1][b];
                    if (((taken >> b) & 1ull) == 0ull && pairs >= most) {
                        most = pairs;
                        best = b;
                    }
                }
                taken |= 1ull << best;
                s_bits[j] = best;
            }
            s_k = k;
            // 3. The bits the test reads, as runs of consecutive bits; none when more than 32
            // (the masks stay whole).
            const unsigned long long read = s_any[0] & s_any[1] & ~taken;
            unsigned int runs = 0u;
            if (narrow != 0u && __popcll((long long)read) <= 32) {
                unsigned int to = 0u;
                for (unsigned int b = 0; b < 64u; ++b) {
                    if (((read >> b) & 1ull) == 0ull) {
                        continue;
                    }
                    if (runs > 0u && s_run_at[runs - 1u] + s_run_len[runs - 1u] == b) {
                        s_run_len[runs - 1u] += 1u;
                    } else {
                        s_run_at[runs] = b;
                        s_run_len[runs] = 1u;
                        s_run_to[runs] = to;
                        runs += 1u;
                    }
                    to += 1u;
                }
                // Masks that share no read bit: one empty run keeps the packed path.
                if (runs == 0u) {
                    s_run_at[0] = 0u;
                    s_run_len[0] = 0u;
                    s_run_to[0] = 0u;
                    runs = 1u;
                }
            }
            s_runs = runs;
        }
        __syncthreads();
        const unsigned int k = s_k;
        const unsigned int keys = 1u << k;
        const unsigned int runs = s_runs;
        for (unsigned int s = 0; s < 2u; ++s) {
            for (unsigned int i = t; i < found[s]; i += threads) {
                const unsigned int key = queens_key(side[s][i], s_bits, k);
                if (s == 0u || queens_key_in_share(key, group.share)) {
                    atomicAdd(&s_cursor[s][key], 1u);
                }
            }
        }
        __syncthreads();
        // Each key's uppers start on a 16-byte line and fill whole lines (4 packed masks or 2
        // whole ones a line), so that the join reads lines only; the padding is masks of all
        // ones, which fit no lower but those of mask 0 (counted apart, queens_join_lanes). It
        // adds at most per - 1 masks a key, which the room past `capacity` holds: QUEENS_KEYS
        // whole masks, or twice as many packed ones.
        const unsigned int per = runs != 0u ? 4u : 2u;
        if (t == 0u) {
            unsigned int at[2] = {0u, 0u};
            s_chunks[0] = 0u;
            for (unsigned int key = 0; key < keys; ++key) {
                for (unsigned int s = 0; s < 2u; ++s) {
                    s_start[s][key] = at[s];
                    at[s] += s == 0u ? (s_cursor[s][key] + per - 1u) / per * per : s_cursor[s][key];
                    s_cursor[s][key] = s_start[s][key];
                }
                const unsigned int lows = at[1] - s_start[1][key];
                s_chunks[key + 1u] = s_chunks[key] + (lows + 31u) / 32u;
            }
            s_start[0][keys] = at[0];
            s_start[1][keys] = at[1];
        }
        __syncthreads();
        for (unsigned int s = 0; s < 2u; ++s) {
            for (unsigned int i = t; i < found[s]; i += threads) {
                const unsigned long long m = side[s][i];
                const unsigned int key = queens_key(m, s_bits, k);
                if (s == 1u && !queens_key_in_share(key, group.share)) {
                    continue;
                }
                const unsigned int at = atomicAdd(&s_cursor[s][key], 1u);
                if (runs != 0u) {
                    packed[s][at] = queens_pack(m, s_run_at, s_run_len, s_run_to, runs);
                } else {
                    sorted[s][at] = m;
                }
            }
        }
        __syncthreads();
        // The padding: from where each key's uppers end (its cursor now) to the next key.
        for (unsigned int key = t; key < keys; key += threads) {
            for (unsigned int i = s_cursor[0][key]; i < s_start[0][key + 1u]; ++i) {
                if (runs != 0u) {
                    packed[0][i] = 0xffffffffu;
                } else {
                    sorted[0][i] = 0xffffffffffffffffull;
                }
            }
        }
        __syncthreads();

        // 4. The join: each warp takes the next chunk of lowers from a counter as it finishes
        // one, for chunks differ in work a hundredfold (a key's free keys number 2^(k - its
        // bits)) and a fixed deal leaves warps idle at the barrier.
        const unsigned int lane = t & 31u;
        const unsigned int warp = t / 32u;
        unsigned long long pairs = 0ull;
        for (;;) {
            if (lane == 0u) {
                s_warp_chunk[warp] = atomicAdd(&s_next_chunk, 1u);
            }
            __syncwarp();
            const unsigned int chunk = s_warp_chunk[warp];
            // Every lane has read it before lane 0 writes the next.
            __syncwarp();
            if (chunk >= s_chunks[keys]) {
                break;
            }
            if (runs != 0u) {
                pairs += queens_join_chunk<unsigned int>(packed[0], packed[1], s_start[0],
                                                         s_cursor[0], s_start[1], s_chunks, keys,
                                                         chunk, lane, sliced,
                                                         &s_cursor[1][128u * warp]);
            } else {
                pairs += queens_join_chunk<unsigned long long>(sorted[0], sorted[1], s_start[0],
                                                               s_cursor[0], s_start[1], s_chunks,
                                                               keys, chunk, lane, 0u, 0);
            }
        }
        if (pairs != 0ull) {
            atomicAdd(&out[g], pairs);
        }
        __syncthreads();
    }
}
