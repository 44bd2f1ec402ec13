#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#include <stdint.h>

/*
 * Counts heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign)
 * made by the calling thread between start and stop, split by caller: `engine` counts the
 * calls made straight from libsqlite3 or liblmdb (page buffers, statement memory: what a C
 * loop over the engine also gets), `other` everything else (Swift, Foundation, this binary).
 *
 * The test binary's own malloc forwards to glibc's (__libc_malloc and friends) and counts only
 * while the calling thread's counter runs, so other threads and other tests are untouched.
 * Linux/glibc only; for tests.
 */
typedef struct {
    int64_t other;
    int64_t engine;
} allocation_count;

void allocation_counter_start(void);
allocation_count allocation_counter_stop(void);

#endif
