#define _GNU_SOURCE
#include "benchsupport.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// MARK: Allocation counting (glibc's documented malloc replacement)

#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#    define SB_SANITIZED 1
#  endif
#endif

#ifndef SB_SANITIZED

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *ptr);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static atomic_int counting;
static atomic_int_least64_t calls;
static atomic_int_least64_t requested;
static atomic_int replaced;

static inline void count(size_t size) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&requested, (int64_t)size, memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    atomic_store_explicit(&replaced, 1, memory_order_relaxed);
    count(size);
    return __libc_malloc(size);
}

void free(void *ptr) { __libc_free(ptr); }

void *calloc(size_t n, size_t size) {
    count(n * size);
    return __libc_calloc(n, size);
}

void *realloc(void *ptr, size_t size) {
    count(size);
    return __libc_realloc(ptr, size);
}

void *memalign(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count(size);
    void *p = __libc_memalign(alignment, size);
    if (p == NULL && size != 0) return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t size) {
    count(size);
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    count(size);
    return __libc_pvalloc(size);
}

#else
// A sanitizer brings its own allocator; counting is then unavailable.
static atomic_int counting;
static atomic_int_least64_t calls;
static atomic_int_least64_t requested;
static atomic_int replaced;
#endif

void sb_alloc_counting(int on) { atomic_store_explicit(&counting, on ? 1 : 0, memory_order_seq_cst); }

void sb_alloc_reset(void) {
    atomic_store(&calls, 0);
    atomic_store(&requested, 0);
}

void sb_alloc_read(int64_t *out_calls, int64_t *out_bytes) {
    *out_calls = atomic_load(&calls);
    *out_bytes = atomic_load(&requested);
}

int sb_alloc_is_counting_allocator(void) {
    void *volatile p = malloc(1);  // sets `replaced` when this file's malloc is the one in use
    free(p);
    return atomic_load(&replaced);
}

// MARK: Hardware counters

int sb_perf_open_instructions(void) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof attr;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    return fd < 0 ? -errno : (int)fd;
}

void sb_perf_start(int fd) {
    ioctl(fd, PERF_EVENT_IOC_RESET, 0);
    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}

int64_t sb_perf_stop(int fd) {
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    int64_t value = 0;
    return read(fd, &value, sizeof value) == (ssize_t)sizeof value ? value : -1;
}

void sb_perf_close(int fd) { close(fd); }

// MARK: The measured region

__attribute__((noinline)) void sb_measured_region(void (*body)(void *), void *context) {
    body(context);
    __asm__ volatile("" ::: "memory");  // keeps the call a call, not a tail jump
}
