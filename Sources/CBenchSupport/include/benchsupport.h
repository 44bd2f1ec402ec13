#ifndef STOREBENCH_BENCHSUPPORT_H
#define STOREBENCH_BENCHSUPPORT_H

#include <stdint.h>

/// Allocation counting. This target defines malloc, calloc, realloc, free and the aligned
/// allocators for the whole process (glibc documents this replacement), forwarding each to
/// glibc's own implementation. While counting is on, every allocation call, its requested
/// bytes, and whether libsqlite3 or liblmdb made it are counted; while it is off, the cost is
/// one thread-local and one relaxed load per call.
typedef struct {
    int64_t calls;
    int64_t bytes;
    /// Calls made straight from libsqlite3 or liblmdb: what a C loop over the engine gets too.
    int64_t engine_calls;
} sb_alloc_counts;

/// Starts counting from zero: the calling thread's allocations only (`all_threads` 0: what
/// tests running in parallel need), or every thread's (1: a cell process).
void sb_alloc_start(int all_threads);
sb_alloc_counts sb_alloc_stop(void);
/// 1 when this process's allocator is the counting one (not under a sanitizer).
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

/// Makes the kernel send SIGKILL to the calling process when its parent dies
/// (`PR_SET_PDEATHSIG`), so a cell never outlives its runner, even one killed with SIGKILL.
/// Returns 1, or 0 when the runner `expected_parent` is already gone: the caller should exit
/// at once. (With a wrapper process between them, the signal follows the wrapper.)
int sb_die_with_parent(int32_t expected_parent);

/// Sync calls (fsync, fdatasync, msync, sync_file_range) made by any thread of this process
/// so far, and, while watched, pwrites to descriptors opened O_SYNC or O_DSYNC (each one a
/// sync): this target defines them, counts each, and makes the same system call.
int64_t sb_syncs(void);
/// The syncs counted as `sb_syncs` counts them, made by the calling thread only.
int64_t sb_thread_syncs(void);
/// Starts (1) or stops (0) counting synchronous pwrites: one fcntl per pwrite while on.
void sb_syncs_watch_writes(int on);
/// 1 when the calls of this process's libraries reach the counting definitions.
int sb_syncs_are_counted(void);

#endif
