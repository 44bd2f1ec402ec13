#define _GNU_SOURCE
#include "benchsupport.h"

#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <linux/perf_event.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// MARK: Allocation counting (glibc's documented malloc replacement)

#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#    define SB_SANITIZED 1
#  endif
#endif

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *ptr);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

/* The executable segments of the engine libraries, found once (attribution by caller). */
enum { max_ranges = 8 };
static uintptr_t range_start[max_ranges], range_end[max_ranges];
static int ranges;
static pthread_once_t ranges_found = PTHREAD_ONCE_INIT;

static int find_engine(struct dl_phdr_info *info, size_t size, void *unused) {
    (void)size;
    (void)unused;
    const char *name = info->dlpi_name;
    if (!name || (!strstr(name, "libsqlite3") && !strstr(name, "liblmdb"))) return 0;
    for (int i = 0; i < info->dlpi_phnum && ranges < max_ranges; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_LOAD || !(p->p_flags & PF_X)) continue;
        range_start[ranges] = info->dlpi_addr + p->p_vaddr;
        range_end[ranges] = range_start[ranges] + p->p_memsz;
        ranges++;
    }
    return 0;
}

static void find_ranges(void) { dl_iterate_phdr(find_engine, NULL); }

static int is_engine(const void *caller) {
    uintptr_t a = (uintptr_t)caller;
    for (int i = 0; i < ranges; i++) {
        if (a >= range_start[i] && a < range_end[i]) return 1;
    }
    return 0;
}

static __thread __attribute__((tls_model("initial-exec"))) int counting_thread;
static __thread __attribute__((tls_model("initial-exec"))) sb_alloc_counts thread_counts;
static atomic_int counting_all;
static atomic_int_least64_t all_calls, all_bytes, all_engine;
static atomic_int replaced;

#ifndef SB_SANITIZED

static inline void count(size_t size, const void *caller) {
    if (counting_thread) {
        thread_counts.calls++;
        thread_counts.bytes += (int64_t)size;
        thread_counts.engine_calls += is_engine(caller);
    } else if (atomic_load_explicit(&counting_all, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&all_calls, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&all_bytes, (int64_t)size, memory_order_relaxed);
        if (is_engine(caller)) atomic_fetch_add_explicit(&all_engine, 1, memory_order_relaxed);
    }
}

#define CALLER __builtin_return_address(0)

void *malloc(size_t size) {
    atomic_store_explicit(&replaced, 1, memory_order_relaxed);
    count(size, CALLER);
    return __libc_malloc(size);
}

void free(void *ptr) { __libc_free(ptr); }

void *calloc(size_t n, size_t size) {
    count(n * size, CALLER);
    return __libc_calloc(n, size);
}

void *realloc(void *ptr, size_t size) {
    count(size, CALLER);
    return __libc_realloc(ptr, size);
}

void *memalign(size_t alignment, size_t size) {
    count(size, CALLER);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(size, CALLER);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count(size, CALLER);
    void *p = __libc_memalign(alignment, size);
    if (p == NULL && size != 0) return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t size) {
    count(size, CALLER);
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    count(size, CALLER);
    return __libc_pvalloc(size);
}

#endif  // A sanitizer brings its own allocator; counting is then unavailable.

void sb_alloc_start(int all_threads) {
    pthread_once(&ranges_found, find_ranges);
    if (all_threads) {
        atomic_store(&all_calls, 0);
        atomic_store(&all_bytes, 0);
        atomic_store(&all_engine, 0);
        atomic_store(&counting_all, 1);
    } else {
        thread_counts = (sb_alloc_counts){0, 0, 0};
        counting_thread = 1;
    }
}

sb_alloc_counts sb_alloc_stop(void) {
    if (counting_thread) {
        counting_thread = 0;
        return thread_counts;
    }
    atomic_store(&counting_all, 0);
    return (sb_alloc_counts){atomic_load(&all_calls), atomic_load(&all_bytes), atomic_load(&all_engine)};
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

// MARK: - Dying with the runner

int sb_die_with_parent(int32_t expected_parent) {
    // The signal is tied to the thread that started this process; the runner starts cells
    // from its main thread, which lives as long as the run.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return 1;  // not offered: nothing more to do
    // The parent may have died before prctl took effect: then this process was re-parented.
    if (getppid() == (pid_t)expected_parent) return 1;
    // A wrapper between the runner and the cell (a valgrind launcher script): the death
    // signal follows the wrapper; go on while the runner itself is alive (a zombie is not).
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)expected_parent);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char buf[512];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *paren = strrchr(buf, ')');
    return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X' ? 1 : 0;
}
