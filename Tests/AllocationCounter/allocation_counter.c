/* Interposes glibc's allocation functions for the test binary: see allocation_counter.h.
 * The counters are thread-local (initial-exec: reaching them allocates nothing). */
#define _GNU_SOURCE
#include "allocation_counter.h"

#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread __attribute__((tls_model("initial-exec"))) int counting;
static __thread __attribute__((tls_model("initial-exec"))) allocation_count counted;

/* The executable segments of the engine libraries, found once. */
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

static inline void note(void *caller) {
    if (!counting) return;
    uintptr_t a = (uintptr_t)caller;
    for (int i = 0; i < ranges; i++) {
        if (a >= range_start[i] && a < range_end[i]) {
            counted.engine++;
            return;
        }
    }
    counted.other++;
}

void allocation_counter_start(void) {
    pthread_once(&ranges_found, find_ranges);
    counted.other = 0;
    counted.engine = 0;
    counting = 1;
}

allocation_count allocation_counter_stop(void) {
    counting = 0;
    return counted;
}

void *malloc(size_t size) {
    note(__builtin_return_address(0));
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note(__builtin_return_address(0));
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    note(__builtin_return_address(0));
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    note(__builtin_return_address(0));
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note(__builtin_return_address(0));
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    note(__builtin_return_address(0));
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
