// The host shim of the GPU kernel: the CUDA built-ins kernel.cu uses, defined for the host.
//
// The kernels whose threads never wait for each other (queens_count_tasks, queens_join_pairs)
// run their grid's threads one after another on the calling thread: each thread's part of the
// shared memory is used only while that thread runs, so running them in turn is the same
// computation. The kernel whose threads meet at __syncthreads (queens_count_groups) runs each
// block's threads as that many host threads at once, __syncthreads a barrier among them, and
// its blocks one after another, so a missing barrier can show as a wrong count here too.
// Shared memory is one static copy, so launches are taken one at a time (`launches`).

#include <mutex>
#include <pthread.h>
#include <thread>
#include <vector>

struct QueensDim3 {
    unsigned int x, y, z;
};

static thread_local QueensDim3 blockIdx;
static thread_local QueensDim3 blockDim;
static thread_local QueensDim3 threadIdx;
static thread_local QueensDim3 gridDim;

static std::mutex launches;
static pthread_barrier_t block_barrier;
// One barrier for each warp of a block (of at most 1024 threads), for __syncwarp.
static pthread_barrier_t warp_barrier[32];

#define __global__
#define __device__
#define __shared__ static
#define __launch_bounds__(threads, blocks)

static inline void __syncthreads() { pthread_barrier_wait(&block_barrier); }
static inline void __syncwarp() { pthread_barrier_wait(&warp_barrier[threadIdx.x / 32]); }

// __ballot_sync over the whole warp (the kernel passes a full mask): each lane sets its bit in
// the warp's vote, and after the warp's barrier every lane reads it. The votes take turns in
// three words, the one after next cleared by lane 0 after the barrier, when every lane has
// read it (the vote before this one) and none can write it yet (the vote after next waits for
// the barrier of the next one, which lane 0 has not reached).
static unsigned int warp_vote[32][3];
static thread_local unsigned int votes_cast;
// The votes cast in the launch under way, one a warp (lane 0 counts), for tests to see that a
// launch took the bit-sliced join.
static unsigned long long votes_counted;
static inline unsigned int __ballot_sync(unsigned int mask, int pred)
{
    (void)mask;
    const unsigned int warp = threadIdx.x / 32;
    const unsigned int turn = votes_cast % 3;
    votes_cast += 1;
    if (threadIdx.x % 32 == 0) {
        __atomic_fetch_add(&votes_counted, 1ull, __ATOMIC_SEQ_CST);
    }
    if (pred) {
        __atomic_fetch_or(&warp_vote[warp][turn], 1u << (threadIdx.x % 32), __ATOMIC_SEQ_CST);
    }
    pthread_barrier_wait(&warp_barrier[warp]);
    const unsigned int vote = __atomic_load_n(&warp_vote[warp][turn], __ATOMIC_SEQ_CST);
    if (threadIdx.x % 32 == 0) {
        __atomic_store_n(&warp_vote[warp][(turn + 2) % 3], 0u, __ATOMIC_SEQ_CST);
    }
    return vote;
}
static inline int __popc(unsigned int x) { return __builtin_popcount(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline int __popcll(long long x) { return __builtin_popcountll((unsigned long long)x); }
static inline unsigned long long atomicOr(unsigned long long* at, unsigned long long v)
{
    return __atomic_fetch_or(at, v, __ATOMIC_SEQ_CST);
}
static inline unsigned long long atomicAdd(unsigned long long* at, unsigned long long v)
{
    return __atomic_fetch_add(at, v, __ATOMIC_SEQ_CST);
}
static inline unsigned int atomicAdd(unsigned int* at, unsigned int v)
{
    return __atomic_fetch_add(at, v, __ATOMIC_SEQ_CST);
}

// The halves a key value keeps, as a power of 2 (the device's is 5): set for each launch. The
// tests mostly take 1, so that the small groups of the boards they count (N <= 12, at most 132
// halves a side) use keys of up to 6 bits, as those of N = 20 use 9 on the device; the
// device's value makes the keys of larger groups hold whole chunks of lower halves.
static unsigned int host_key_halves = 1;
#define QUEENS_KEY_HALVES host_key_halves

#include "kernel.cu"

// The grid dimensions of a one-dimensional launch of `blocks` blocks of `threads` threads.
static void set_grid(unsigned int blocks, unsigned int threads)
{
    gridDim.x = blocks;
    gridDim.y = 1;
    gridDim.z = 1;
    blockDim.x = threads;
    blockDim.y = 1;
    blockDim.z = 1;
}

// Readies the barriers and votes of a block's `warps` warps, and takes them down after.
static void warps_begin(unsigned int warps)
{
    for (unsigned int w = 0; w < warps; ++w) {
        pthread_barrier_init(&warp_barrier[w], nullptr, 32);
        for (unsigned int& vote : warp_vote[w]) {
            vote = 0;
        }
    }
}

static void warps_end(unsigned int warps)
{
    for (unsigned int w = 0; w < warps; ++w) {
        pthread_barrier_destroy(&warp_barrier[w]);
    }
}

// Runs `thread` for every thread of a launch of `blocks` blocks of `threads` threads, one after
// another on the calling thread: for the kernels whose threads never wait for each other.
template <typename Thread>
static void run_in_turn(unsigned int blocks, unsigned int threads, Thread thread)
{
    std::lock_guard<std::mutex> one_launch(launches);
    set_grid(blocks, threads);
    for (unsigned int b = 0; b < blocks; ++b) {
        blockIdx.x = b;
        for (unsigned int t = 0; t < threads; ++t) {
            threadIdx.x = t;
            thread();
        }
    }
}

// Runs the kernel over `count` tasks as a launch of ceil(count / QUEENS_BLOCK) blocks of
// QUEENS_BLOCK threads would.
extern "C" void queens_kernel_host_launch(const QueensFrameRows* frames,
                                          const QueensTask* tasks,
                                          unsigned int count,
                                          unsigned long long* out)
{
    unsigned int blocks = (count + QUEENS_BLOCK - 1) / QUEENS_BLOCK;
    run_in_turn(blocks, QUEENS_BLOCK, [=] { queens_count_tasks(frames, tasks, count, out); });
}

// Runs the join over `count` tasks as a launch of one block of `threads` threads per task
// would (count/gpu/join.rs); `out` must be zeroed by the caller, as on the device.
extern "C" void queens_kernel_host_join(const unsigned long long* uppers,
                                        const unsigned long long* lowers,
                                        const QueensJoinTask* tasks,
                                        unsigned int count,
                                        unsigned int threads,
                                        unsigned long long* out)
{
    run_in_turn(count, threads, [=] { queens_join_pairs(uppers, lowers, tasks, count, out); });
}

// Runs the groups kernel as a launch of `blocks` blocks of `threads` threads would, the blocks
// one after another from the last (so that the block that takes the groups uses scratch past
// the first block's), each block's threads at once. `out` must be zeroed by the caller, as on
// the device; `scratch` holds 4 * capacity + QUEENS_KEYS words per block; `narrow` 0 keeps the
// masks whole; chunks of at least `sliced` lowers are joined bit-sliced (0: none); a key value
// keeps 2^key_halves halves. `threads` is a multiple of 32 (whole warps, as __syncwarp and
// __ballot_sync need), at most QUEENS_GROUP_BLOCK. Returns the warp votes the launch cast: 32
// for each chunk joined bit-sliced.
extern "C" unsigned long long queens_kernel_host_groups(const QueensGroup* groups,
                                                        unsigned int count,
                                                        unsigned int n,
                                                        unsigned int capacity,
                                                        unsigned int narrow,
                                                        unsigned int sliced,
                                                        unsigned long long* scratch,
                                                        unsigned int blocks,
                                                        unsigned int threads,
                                                        unsigned int key_halves,
                                                        unsigned long long* out)
{
    std::lock_guard<std::mutex> one_launch(launches);
    host_key_halves = key_halves;
    votes_counted = 0;
    unsigned int next = 0;
    for (unsigned int b = blocks; b-- > 0;) {
        pthread_barrier_init(&block_barrier, nullptr, threads);
        warps_begin(threads / 32);
        std::vector<std::thread> block;
        for (unsigned int t = 0; t < threads; ++t) {
            block.emplace_back([=, &next] {
                set_grid(blocks, threads);
                blockIdx.x = b;
                blockIdx.y = 0;
                blockIdx.z = 0;
                threadIdx.x = t;
                threadIdx.y = 0;
                threadIdx.z = 0;
                queens_count_groups(groups, count, n, capacity, narrow, sliced, scratch, &next,
                                    out);
            });
        }
        for (std::thread& thread : block) {
            thread.join();
        }
        pthread_barrier_destroy(&block_barrier);
        warps_end(threads / 32);
    }
    return votes_counted;
}

// The bit-sliced join of one chunk on its own, as one warp runs it: the `left` lowers (1 to 32)
// against the `count` uppers, all of one key (so that every mask may use all 32 bits); writes
// each lane's count of fitting pairs to lane_fit[0..32].
extern "C" void queens_kernel_host_sliced(const unsigned int* uppers,
                                          unsigned int count,
                                          const unsigned int* lowers,
                                          unsigned int left,
                                          unsigned int* lane_fit)
{
    std::lock_guard<std::mutex> one_launch(launches);
    warps_begin(1);
    const unsigned int up_start[1] = {0};
    const unsigned int up_end[1] = {count};
    // The warp's tables, as the kernel keeps them in shared memory.
    alignas(64) static unsigned int tables[128];
    unsigned int* table = tables;
    std::vector<std::thread> warp;
    for (unsigned int lane = 0; lane < 32; ++lane) {
        warp.emplace_back([=] {
            set_grid(1, 32);
            blockIdx.x = 0;
            threadIdx.x = lane;
            lane_fit[lane] =
                queens_join_sliced(uppers, lowers, up_start, up_end, 0, left, 0, lane, table);
        });
    }
    for (std::thread& thread : warp) {
        thread.join();
    }
    warps_end(1);
}

extern "C" unsigned int queens_kernel_host_sizeof_group(void) { return sizeof(QueensGroup); }

extern "C" unsigned int queens_kernel_host_sizeof_join_task(void) { return sizeof(QueensJoinTask); }

// The block size the kernel was compiled with, for the Rust side to check.
extern "C" unsigned int queens_kernel_host_block(void) { return QUEENS_BLOCK; }

// The size of the two structures, for the Rust side to check against its #[repr(C)] twins.
extern "C" unsigned int queens_kernel_host_sizeof_frame(void) { return sizeof(QueensFrameRows); }
extern "C" unsigned int queens_kernel_host_sizeof_task(void) { return sizeof(QueensTask); }
