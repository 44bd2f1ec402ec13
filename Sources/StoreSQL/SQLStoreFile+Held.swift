import Foundation
import StoreCore

extension SQLStoreFile {
    /// The SQLite files that stores of this process hold open, with how many stores hold each.
    /// Their bytes are not read with plain file calls: closing such a descriptor drops every
    /// POSIX lock the process holds on the file (`fcntl`'s rule), and a connection of another
    /// process, closing, would then take itself for the last one and delete the WAL that this
    /// process's connections still read: they would go on reading a deleted file, stale for good.
    private static let held = Locked<[String: Int]>([:])

    /// Notes that a store of this process opened the file at `path`.
    public static func hold(_ path: String) { held.withLock { $0[key(path), default: 0] += 1 } }

    /// Notes that a store that held `path` closed.
    public static func release(_ path: String) {
        held.withLock { table in
            let k = key(path)
            guard let n = table[k] else { return }
            table[k] = n > 1 ? n - 1 : nil
        }
    }

    /// Whether a store of this process holds the file at `path` open.
    public static func isHeld(_ path: String) -> Bool { held.withLock { $0[key(path)] != nil } }

    private static func key(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path }
}
