import Foundation
import StoreCore

/// Internal helper: the directories this process has open. LMDB forbids opening one
/// environment twice in a process (its locks would not see each other), so a second open
/// throws `busy` instead.
enum OpenEnvironments {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths = Set<String>()   // guarded by lock

    static func claim(_ path: String) throws {
        try lock.withLock {
            guard paths.insert(path).inserted else {
                throw StoreError(.busy, "\(path) is already open in this process; close the other LMDBStore first")
            }
        }
    }

    /// Whether this process has the directory open.
    static func isOpen(_ path: String) -> Bool { lock.withLock { paths.contains(path) } }

    static func release(_ path: String) {
        _ = lock.withLock { paths.remove(path) }
    }
}
