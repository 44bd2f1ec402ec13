import Foundation
#if canImport(Glibc)
import Glibc
import StoreBenchKit
#endif

/// Copies a loaded store's folder for a cell: the files are copied by the kernel (`sendfile`)
/// and written back to disk before the cell starts, so the first durable commit of a
/// repetition does not pay for the copy.
///
/// Foundation's `copyItem` moves each file through user-space buffers, about 0.1 s for an
/// LMDB store of 90 MB; the kernel copy takes a quarter of that, and a `standard` run copies
/// a store for each of its thousands of cells (twice for cells that change the store).
///
/// Thread safety: touches only the two paths it is given.
enum StoreCopy {
    /// Replaces `destination` with a copy of the folder (or file) `source`.
    static func replace(_ destination: URL, with source: URL) throws {
        let fm = FileManager.default
        guard fm.fileExists(atPath: source.path) else {
            throw BenchError("the loaded store \(source.path) is missing; its load cell failed or did not run")
        }
        try? fm.removeItem(at: destination)
        try fm.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try copyTree(source.path, destination.path)
    }

    /// Copies `source` to the new path `destination`: folders entry by entry, files with
    /// `copyFile`, symbolic links as links.
    private static func copyTree(_ source: String, _ destination: String) throws {
        var st = stat()
        guard lstat(source, &st) == 0 else { throw failure("cannot read", source) }
        switch st.st_mode & S_IFMT {
        case S_IFDIR:
            guard mkdir(destination, st.st_mode & 0o7777) == 0 else { throw failure("cannot create", destination) }
            for name in try FileManager.default.contentsOfDirectory(atPath: source) {
                try copyTree(source + "/" + name, destination + "/" + name)
            }
        case S_IFREG:
            try copyFile(source, destination, size: Int(st.st_size), mode: st.st_mode & 0o7777)
        case S_IFLNK:
            try FileManager.default.copyItem(atPath: source, toPath: destination)
        default:
            break  // sockets, pipes: nothing a store keeps
        }
    }

    /// Copies a regular file in the kernel and syncs the copy.
    private static func copyFile(_ source: String, _ destination: String, size: Int, mode: mode_t) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure("cannot open", source) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard output >= 0 else { throw failure("cannot create", destination) }
        defer { close(output) }
        var left = size
        while left > 0 {
            let n = sendfile(output, input, nil, left)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw failure("cannot copy to", destination) }
            left -= n
        }
        guard fsync(output) == 0 else { throw failure("cannot sync", destination) }
    }

    private static func failure(_ what: String, _ path: String) -> BenchError {
        BenchError("\(what) \(path): \(String(cString: strerror(errno)))")
    }
}
