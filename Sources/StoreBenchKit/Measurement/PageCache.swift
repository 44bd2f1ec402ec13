import Foundation

/// The kernel's page cache for a store's files (internal): dropping it before a cold open,
/// and measuring how much of the files it still holds.
package enum PageCache {
    /// Writes back and evicts the cached pages of every file under `directory`
    /// (`fdatasync`, then `posix_fadvise(POSIX_FADV_DONTNEED)`: no root needed, unlike
    /// `drop_caches`). Returns the share of the files' pages still cached afterwards (0 when
    /// the drop worked; the kernel keeps pages another process maps or writes).
    package static func drop(_ directory: URL) -> Double {
        for path in StoreFiles.files(directory) {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { continue }
            _ = fdatasync(fd)
            _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
            close(fd)
        }
        return residentShare(directory)
    }

    /// Reads every file under `directory` once, so its pages are cached (a warm open).
    package static func warm(_ directory: URL) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 4096)
        defer { buffer.deallocate() }
        for path in StoreFiles.files(directory) {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { continue }
            while read(fd, buffer, 1 << 20) > 0 {}
            close(fd)
        }
    }

    /// The share of the pages of the files under `directory` in the page cache (`mincore`).
    package static func residentShare(_ directory: URL) -> Double {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = 0, total = 0
        for path in StoreFiles.files(directory) {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var st = stat()
            guard fstat(fd, &st) == 0, st.st_size > 0 else { continue }
            let size = Int(st.st_size)
            guard let map = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), map != MAP_FAILED else { continue }
            defer { munmap(map, size) }
            let pages = (size + page - 1) / page
            var vec = [UInt8](repeating: 0, count: pages)
            guard mincore(map, size, &vec) == 0 else { continue }
            resident += vec.reduce(0) { $0 + Int($1 & 1) }
            total += pages
        }
        return total == 0 ? 0 : Double(resident) / Double(total)
    }
}
