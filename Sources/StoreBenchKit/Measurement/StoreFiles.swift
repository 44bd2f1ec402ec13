import Foundation

/// Sizes of a store's files (internal): bytes allocated on disk in all, their apparent size
/// (what `ls` shows, summed), and the apparent size of SQLite's write-ahead logs (`*-wal`).
/// Files in subdirectories count (LMDB's compacting copy is written into one).
package struct StoreFiles {
    package let allocated: UInt64
    package let apparent: UInt64
    package let wal: UInt64

    package init(_ directory: URL) {
        var allocated: UInt64 = 0, apparent: UInt64 = 0, wal: UInt64 = 0
        for path in Self.files(directory) {
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            allocated += UInt64(st.st_blocks) * 512
            apparent += UInt64(st.st_size)
            if path.hasSuffix("-wal") { wal += UInt64(st.st_size) }
        }
        self.allocated = allocated
        self.apparent = apparent
        self.wal = wal
    }

    /// The regular files under `directory`, recursively.
    package static func files(_ directory: URL) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var out: [String] = []
        while let name = e.nextObject() as? String {
            let path = directory.appendingPathComponent(name).path
            var st = stat()
            if lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG { out.append(path) }
        }
        return out
    }
}
