#ifndef STOREBENCH_BENCHSUPPORT_H
#define STOREBENCH_BENCHSUPPORT_H

#include <stdint.h>

/// Allocation counting. This target defines malloc, calloc, realloc, free and the aligned
/// allocators for the whole process (glibc documents this replacement), forwarding each to
/// glibc's own implementation. While counting is on, every allocation call and its requested
/// bytes are counted; while it is off, the cost is one relaxed load per call.
void sb_alloc_counting(int on);
void sb_alloc_reset(void);
/// Allocation calls (malloc, calloc, realloc, aligned) and requested bytes since the reset.
void sb_alloc_read(int64_t *calls, int64_t *bytes);
/// 1 when this process's allocator is the counting one (it is not when another library
/// replaced malloc first, e.g. under valgrind).
int sb_alloc_is_counting_allocator(void);

/// Hardware instruction counter of the calling thread (user space only), through
/// perf_event_open. Returns a descriptor, or -errno when the kernel or machine offers none.
int sb_perf_open_instructions(void);
void sb_perf_start(int fd);
/// Stops counting; returns the instructions counted since the start, or -1 on error.
int64_t sb_perf_stop(int fd);
void sb_perf_close(int fd);

/// Runs `body(context)`. Under `valgrind --tool=callgrind --toggle-collect=sb_measured_region`
/// only what runs inside it is counted, so instruction counts cover the measured work alone.
void sb_measured_region(void (*body)(void *), void *context);

#endif
