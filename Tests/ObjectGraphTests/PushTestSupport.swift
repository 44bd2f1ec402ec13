import Foundation
import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreConformance
import StoreCore
import Synchronization
import Testing

/// The engines the push, sectioned and lazy results tests run on.
let graphEngines = ["sqlite", "lmdb"]

/// An object graph over a counting SQLite or LMDB store in a temporary folder.
final class EngineGraph {
    let directory: TemporaryDirectory
    let store: CountingStore
    let graph: ObjectGraph

    init(_ engine: String, seeded: Bool = true) throws {
        directory = try TemporaryDirectory("graph-\(engine)")
        let options = StoreOptions(durability: .relaxed)
        let base: any Repository = engine == "lmdb"
            ? try LMDBStore(directory: directory.url, schema: SocialSchema.make(), options: options)
            : try SQLiteStore(directory: directory.url, schema: SocialSchema.make(), options: options)
        if seeded { try SocialFixture.load(into: base) }
        store = CountingStore(base)
        graph = ObjectGraph(store: store)
    }

    deinit { try? graph.close() }

    /// A User record; `displayName` doubles as a section name.
    func user(_ id: Int64, _ username: String, group: String = "A") throws -> Record {
        try graph.schema.entity("User").record([
            "id": .int64(id), "username": .string(username), "displayName": .string(group),
            "joinedAt": .date(SocialFixture.epoch),
        ])
    }
}

extension ObjectGraph {
    /// Deletes a tag in one `write`, unlinking its posts first (its delete rule is deny).
    func deleteTag(_ name: String) throws {
        try write { tx in
            for post in try tx.related("Tag", id: .string(name), via: "posts") { try tx.unlink("Tag", id: .string(name), "posts", from: post.id) }
            try tx.delete("Tag", id: .string(name))
        }
    }
}

/// What observers received, filled on any thread (e.g. a context's queue).
final class Mailbox<Item: Sendable>: Sendable {
    private let items = Mutex<[Item]>([])

    func put(_ item: Item) { items.withLock { $0.append(item) } }
    var all: [Item] { items.withLock { $0 } }
    var count: Int { items.withLock { $0.count } }

    /// Waits (up to `timeout` seconds) until at least `n` items arrived; true when they did.
    /// It sleeps as a task: blocking the test's thread could starve the tasks it waits for.
    func arrived(_ n: Int, timeout: Double = 20) async -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while count < n {
            if Date() > deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}

/// What a results observer got, without the (non-Sendable) objects.
struct Delivery: Sendable, Equatable {
    var ids: [Value]
    var change: CollectionChange?
    var onQueue = true
}

/// Holds a context's queue busy until `open()`: saves posted meanwhile wait for the queue, so
/// the order of posts and deliveries is fixed without timing.
actor QueueGate {
    nonisolated let queue: ContextQueue
    private let gate = DispatchSemaphore(value: 0)

    init(_ queue: ContextQueue) { self.queue = queue }

    nonisolated var unownedExecutor: UnownedSerialExecutor { queue.asUnownedSerialExecutor() }

    /// Blocks the queue; returns once the queue is held.
    nonisolated func close() async throws {
        let held = Mailbox<Bool>()
        Task(executorPreference: OwnThreads.shared) { await self.hold(held) }
        try #require(await held.arrived(1), "the context's queue was not held within the deadline")
    }

    nonisolated func open() { gate.signal() }

    private func hold(_ held: Mailbox<Bool>) {
        held.put(true)
        gate.wait()   // blocks the context's queue, not a task thread
    }
}
