// The host shim of the GPU kernel: the CUDA built-ins kernel.cu uses, defined for one host
// thread that runs the grid's threads one after another. Each thread's shared-memory stack is
// used only while that thread runs, so running them in turn is the same computation.

struct QueensDim3 {
    unsigned int x, y, z;
};

static thread_local QueensDim3 blockIdx;
static thread_local QueensDim3 blockDim;
static thread_local QueensDim3 threadIdx;

#define __global__
#define __shared__ static thread_local

static inline int __popc(unsigned int x) { return __builtin_popcount(x); }
// One host thread runs the grid: an atomic add is a plain one.
static inline unsigned long long atomicAdd(unsigned long long* at, unsigned long long v)
{
    unsigned long long old = *at;
    *at = old + v;
    return old;
}

#include "kernel.cu"

// Runs the kernel over `count` tasks as a launch of ceil(count / QUEENS_BLOCK) blocks of
// QUEENS_BLOCK threads would.
extern "C" void queens_kernel_host_launch(const QueensFrameRows* frames,
                                          const QueensTask* tasks,
                                          unsigned int count,
                                          unsigned long long* out)
{
    blockDim.x = QUEENS_BLOCK;
    blockDim.y = 1;
    blockDim.z = 1;
    unsigned int blocks = (count + QUEENS_BLOCK - 1) / QUEENS_BLOCK;
    for (unsigned int b = 0; b < blocks; ++b) {
        blockIdx.x = b;
        for (unsigned int t = 0; t < QUEENS_BLOCK; ++t) {
            threadIdx.x = t;
            queens_count_tasks(frames, tasks, count, out);
        }
    }
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
    blockDim.x = threads;
    blockDim.y = 1;
    blockDim.z = 1;
    for (unsigned int b = 0; b < count; ++b) {
        blockIdx.x = b;
        for (unsigned int t = 0; t < threads; ++t) {
            threadIdx.x = t;
            queens_join_pairs(uppers, lowers, tasks, count, out);
        }
    }
}

extern "C" unsigned int queens_kernel_host_sizeof_join_task(void) { return sizeof(QueensJoinTask); }

// The block size the kernel was compiled with, for the Rust side to check.
extern "C" unsigned int queens_kernel_host_block(void) { return QUEENS_BLOCK; }

// The size of the two structures, for the Rust side to check against its #[repr(C)] twins.
extern "C" unsigned int queens_kernel_host_sizeof_frame(void) { return sizeof(QueensFrameRows); }
extern "C" unsigned int queens_kernel_host_sizeof_task(void) { return sizeof(QueensTask); }
