import CBenchSupport
import Foundation
import Histogram
import StoreBenchKit
import StoreCore

/// The child side of a multi-process repetition: opens the shared store, says `ready` on
/// standard output, waits for the parent's byte on standard input, runs its task, writes its
/// result and exits. It dies with its parent.
public enum PeerWork {
    /// Runs `task` on `backend`'s store.
    public static func run(_ task: PeerTask, backend: BackendDescriptor) throws {
        _ = sb_die_with_parent(getppid())
        let store = try backend.open(BenchSchema.schema, URL(fileURLWithPath: task.store), StoreOptions(durability: task.durability))
        defer { try? store.close() }
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        guard let go = try FileHandle.standardInput.read(upToCount: 1), !go.isEmpty else {
            throw BenchError("the parent went away before the start")
        }
        var result = PeerResult(operations: 0, latency: OperationTimer.emptyHistogram(), started: MonotonicClock.now(), ended: 0, sink: 0)
        switch task.role {
        case .reader: try read(store, task, &result)
        case .writer: try write(store, task, &result)
        }
        result.ended = MonotonicClock.now()
        try JSONEncoder().encode(result).write(to: URL(fileURLWithPath: task.result), options: .atomic)
    }

    private static func read(_ store: any Repository, _ task: PeerTask, _ result: inout PeerResult) throws {
        guard !task.keys.isEmpty else { return }
        var i = 0
        while true {
            if let stop = task.stopFile, i % 64 == 0, i > 0, FileManager.default.fileExists(atPath: stop) { return }
            if task.stopFile == nil, i == task.keys.count { return }
            let start = MonotonicClock.now()
            result.sink &+= try store.readByKey("Post", task.keys[i % task.keys.count])
            result.latency.record(MonotonicClock.now() &- start)
            result.operations += 1
            i += 1
        }
    }

    private static func write(_ store: any Repository, _ task: PeerTask, _ result: inout PeerResult) throws {
        defer { if let stop = task.stopFile { FileManager.default.createFile(atPath: stop, contents: Data()) } }
        for (n, k) in task.keys.enumerated() {
            let start = MonotonicClock.now()
            try store.write { tx in
                try tx.update("Post", id: .int64(k), set: ["score": .int64(Int64(n % 997)), "title": .string("peer \(n)")])
            }
            result.latency.record(MonotonicClock.now() &- start)
            result.operations += 1
        }
    }
}
