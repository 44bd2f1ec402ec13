import CBenchSupport
import Foundation

/// What this process has asked of the disk so far: syncs (counted where they are made,
/// `CBenchSupport`'s fsync/fdatasync/msync/sync_file_range, and within `watchingWrites` its
/// pwrites to descriptors opened `O_SYNC`/`O_DSYNC`), bytes handed to `write`-family
/// calls and bytes the kernel sent to the block layer (`/proc/self/io`: `wchar`,
/// `write_bytes`). Take one before and one after, and subtract.
///
/// ```swift
/// let before = WriteCounters.now()
/// try commit()
/// let spent = WriteCounters.now() - before   // spent.syncs: fdatasyncs of the commit
/// ```
public struct WriteCounters: Sendable, Equatable {
    /// Syncs; nil when this process's libraries do not reach the counting definitions.
    public var syncs: Int64?
    /// Bytes passed to write, pwrite, writev… (`wchar`), to any file; nil without `/proc/self/io`.
    public var written: Int64?
    /// Bytes the kernel wrote, or will write, to storage for this process (`write_bytes`):
    /// 0 on tmpfs, and behind `written` until the page cache is flushed.
    public var storage: Int64?

    public init(syncs: Int64?, written: Int64?, storage: Int64?) {
        (self.syncs, self.written, self.storage) = (syncs, written, storage)
    }

    /// The counters now.
    public static func now() -> WriteCounters {
        let io = processIO()
        return WriteCounters(syncs: countsSyncs ? sb_syncs() : nil, written: io["wchar"], storage: io["write_bytes"])
    }

    /// Runs `body` with pwrites to synchronous descriptors counted as syncs (LMDB writes its
    /// meta page through one): one `fcntl` per pwrite meanwhile, so only around what is counted.
    public static func watchingWrites<T>(_ body: () throws -> T) rethrows -> T {
        sb_syncs_watch_writes(1)
        defer { sb_syncs_watch_writes(0) }
        return try body()
    }

    /// Whether sync calls are counted in this process (the executable exports the definitions).
    public static let countsSyncs = sb_syncs_are_counted() == 1

    public static func - (a: WriteCounters, b: WriteCounters) -> WriteCounters {
        func minus(_ x: Int64?, _ y: Int64?) -> Int64? { x.flatMap { x in y.map { x - $0 } } }
        return WriteCounters(syncs: minus(a.syncs, b.syncs), written: minus(a.written, b.written), storage: minus(a.storage, b.storage))
    }

    /// `/proc/self/io` as name → value; empty where the kernel does not offer it.
    static func processIO() -> [String: Int64] {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return [:] }
        var out: [String: Int64] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, let v = Int64(parts[1].trimmingCharacters(in: .whitespaces)) { out[String(parts[0])] = v }
        }
        return out
    }
}
