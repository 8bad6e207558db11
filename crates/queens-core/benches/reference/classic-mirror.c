/* The classic single-threaded bitmask N-Queens counter with mirror symmetry only, the yardstick
 * the counting targets of issue 3 are stated against ("about 3.0 s for N=16 and 22 s for N=17",
 * gcc -O3). Same algorithm as `mirror_count` in ../counting.rs; kept in C so that the machine
 * can be compared with the by the very kind of program it timed.
 *
 *   gcc -O3 -o classic-mirror classic-mirror.c && time ./classic-mirror 17
 *
 * Queens of the first row in the left half are counted twice; on an odd board the middle
 * column once. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long full;

static unsigned long long descend(unsigned long long cols, unsigned long long left,
                                  unsigned long long right) {
    if (cols == full)
        return 1;
    unsigned long long free = full & ~(cols | left | right), total = 0;
    while (free) {
        unsigned long long bit = free & -free;
        free ^= bit;
        total += descend(cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    return total;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 0;
    if (n < 1 || n > 32) {
        fprintf(stderr, "usage: %s N (1 <= N <= 32)\n", argv[0]);
        return 2;
    }
    full = (1ULL << n) - 1;
    unsigned long long total = 0;
    for (int c = 0; c < n / 2; c++) {
        unsigned long long bit = 1ULL << c;
        total += 2 * descend(bit, bit << 1, bit >> 1);
    }
    if (n % 2 == 1) {
        unsigned long long bit = 1ULL << (n / 2);
        total += descend(bit, bit << 1, bit >> 1);
    }
    printf("%llu\n", total);
    return 0;
}
