// Sync counting: this file defines fsync, fdatasync, msync, sync_file_range and pwrite for
// the whole process, so the calls libsqlite3 and liblmdb make resolve here; each is passed to
// the kernel as the same system call glibc would make. Sync calls are always counted; a pwrite
// to a descriptor opened O_SYNC or O_DSYNC (LMDB writes its meta page so) only while watched.
#define _GNU_SOURCE
#include "benchsupport.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

static _Atomic int64_t syncs;
static _Thread_local int64_t thread_syncs;
static _Atomic int watching;

static inline void count_sync(void) {
    atomic_fetch_add_explicit(&syncs, 1, memory_order_relaxed);
    thread_syncs++;
}

int fsync(int fd) {
    count_sync();
    return (int)syscall(SYS_fsync, fd);
}

int fdatasync(int fd) {
    count_sync();
    return (int)syscall(SYS_fdatasync, fd);
}

int msync(void *addr, size_t length, int flags) {
    count_sync();
    return (int)syscall(SYS_msync, addr, length, flags);
}

int sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int flags) {
    count_sync();
    return (int)syscall(SYS_sync_file_range, fd, offset, nbytes, flags);
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
    if (atomic_load_explicit(&watching, memory_order_relaxed)) {
        int flags = fcntl(fd, F_GETFL);
        if (flags != -1 && (flags & (O_SYNC | O_DSYNC))) count_sync();
    }
    return (ssize_t)syscall(SYS_pwrite64, fd, buffer, count, offset);
}

void sb_syncs_watch_writes(int on) { atomic_store(&watching, on); }

int64_t sb_syncs(void) { return atomic_load_explicit(&syncs, memory_order_relaxed); }

int64_t sb_thread_syncs(void) { return thread_syncs; }

int sb_syncs_are_counted(void) {
    // The libraries' calls bind to the process's first definition: this file's when it is
    // exported from the executable.
    return dlsym(RTLD_DEFAULT, "fdatasync") == (void *)fdatasync && dlsym(RTLD_DEFAULT, "fsync") == (void *)fsync
        && dlsym(RTLD_DEFAULT, "pwrite") == (void *)pwrite;
}
