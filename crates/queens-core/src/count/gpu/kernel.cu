// The counting kernel of the GPU engine: one thread per task, each task a partial placement of
// a frame's free rows, searched to the last row by the bitmask loop of the CPU kernel
// (crates/queens-core/src/count/kernel.rs), its stack in shared memory.
//
// This one file is compiled twice: by NVRTC for the device at run time (count/gpu/cuda.rs), and
// by the host C++ compiler through the shim of crates/queens-kernel-host, so that CI runs the
// very same search on the CPU and checks it against the known counts. It therefore uses only
// what both compilers take: no headers, plain integer types, and the three CUDA built-ins the
// shim defines (blockIdx, blockDim, threadIdx) plus __popc.
//
// The layout must match `FrameRows` and `Task` in count/gpu/tasks.rs (#[repr(C)]).

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
