import Foundation
import GRDBStore
import LMDBStore
import ObjectGraph
import SQLiteStore
@testable import StoreBench
import StoreConformance
import StoreCore
import Testing

/// The object graph over a store that another process writes: its observers hear of the other
/// process's commits without a call, with the right insertions and modifications.
@Suite struct OtherProcessObservationTests {
    static let backends = [SQLiteStore.descriptor, GRDBStore.descriptor, LMDBStore.descriptor]

    @Test("an observer of the object graph sees another process's inserts and updates", arguments: backends)
    func observerSeesOtherProcess(_ backend: BackendDescriptor) throws {
        let dir = try TemporaryDirectory("other-process")
        let graph = ObjectGraph(store: try backend.open(SocialSchema.make(), dir.url, StoreOptions(durability: .relaxed)))
        defer { try? graph.close() }
        let watched = try graph.observeResults(Query("User", sort: [.asc("id")]))
        #expect(watched.count == 0)
        try commit(backend, dir, upTo: 1)    // the writer's head user and its first user
        let first = try #require(try wait(watched, until: 2), "\(backend.name): no delivery of the other process's first commit")
        #expect(first.insertions == [0, 1] && first.modifications.isEmpty, "\(first)")
        try commit(backend, dir, upTo: 2)    // the head's age changes, one more user
        let second = try #require(try wait(watched, until: 3), "\(backend.name): no delivery of the other process's second commit")
        #expect(second.insertions == [2] && second.modifications == [0], "the head (index 0) changed, one user came: \(second)")
        try graph.write { tx in
            try tx.update("User", id: .int64(1_000_001), set: ["displayName": "mine"])
            for id in [5, 6] as [Int64] { try tx.insert(try tx.schema.entity("User").record(Self.user(id))) }   // a batch: LMDB nests it
        }
        let own = try #require(try wait(watched, until: 5))
        #expect(own.modifications == [1] && own.modificationsInNew == [3] && own.insertions == [0, 1], "the graph's own write, once: \(own)")
        #expect(try watched.waitForChange(timeout: 0.3) == nil, "no second delivery for the graph's own write")
    }

    @Test("an object observer hears of another process's update and delete", arguments: backends)
    func objectObserverSeesOtherProcess(_ backend: BackendDescriptor) throws {
        let dir = try TemporaryDirectory("other-process-object")
        try commit(backend, dir, upTo: 1)
        let graph = ObjectGraph(store: try backend.open(SocialSchema.make(), dir.url, StoreOptions(durability: .relaxed)))
        defer { try? graph.close() }
        let context = graph.newContext()
        let head = try #require(try context.fetch(Query("User", where: KeyPathExpression("id") == .int64(1_000_000))).first)
        var heard: [ObjectChange] = []
        let token = try context.observe(head) { heard.append($0) }
        defer { token.cancel() }
        try commit(backend, dir, upTo: 2)
        try mergeUntil(context) { !heard.isEmpty }
        #expect(heard == [.changed(keys: ["age"])], "\(backend.name): the head's age, from the other process: \(heard)")
        try deleteHead(backend, dir)
        try mergeUntil(context) { heard.count == 2 }
        #expect(heard.last == .deleted, "\(backend.name): \(heard)")
    }

    @Test("an observer of a read-only SQLite store hears of another process's commits", arguments: [SQLiteStore.descriptor, GRDBStore.descriptor])
    func readOnlyStoreSeesOtherProcess(_ backend: BackendDescriptor) throws {
        let dir = try TemporaryDirectory("other-process-read-only")
        try commit(backend, dir, upTo: 1)
        let readOnly = ObjectGraph(store: try backend.open(SocialSchema.make(), dir.url, StoreOptions(readOnly: true)))
        defer { try? readOnly.close() }
        let watched = try readOnly.observeResults(Query("User", sort: [.asc("id")]))
        try commit(backend, dir, upTo: 2)
        let change = try #require(try wait(watched, until: 3), "\(backend.name): the read-only store's observer saw no commit")
        #expect(change.insertions == [2] && change.modifications == [0], "\(change)")
    }

    @Test("two stores of one SQLite file in this process both see another process's delete (no raw read drops the locks)",
          arguments: [SQLiteStore.descriptor, GRDBStore.descriptor])
    func twoStoresInOneProcessStayCurrent(_ backend: BackendDescriptor) throws {
        let dir = try TemporaryDirectory("two-stores")
        try commit(backend, dir, upTo: 1)
        let first = try backend.open(SocialSchema.make(), dir.url, StoreOptions(durability: .relaxed))
        defer { try? first.close() }
        #expect(try first.read { try $0.fetch("User", id: .int64(1_000_000)) } != nil)
        let second = try backend.open(SocialSchema.make(), dir.url, StoreOptions(readOnly: true))
        defer { try? second.close() }
        let third = try backend.open(SocialSchema.make(), dir.url, StoreOptions(durability: .relaxed))
        defer { try? third.close() }
        try commit(backend, dir, upTo: 2)
        #expect(try first.read { try $0.fetch("User", id: .int64(1_000_000))?["age"] } == .int64(2))
        try deleteHead(backend, dir)
        // Opening `second` read the file's header with open(2) and close(2), which dropped this
        // process's POSIX locks: the other process, closing, took itself for the last connection
        // and removed the WAL both stores still read.
        #expect(try first.read { try $0.fetch("User", id: .int64(1_000_000)) } == nil, "\(backend.name): the first store reads a stale WAL")
        #expect(try second.read { try $0.fetch("User", id: .int64(1_000_000)) } == nil, "\(backend.name): the second store reads a stale WAL")
        #expect(try third.read { try $0.fetch("User", id: .int64(1_000_000)) } == nil, "\(backend.name): the third store reads a stale WAL")
    }

    /// Merges the context's pending changes until `done`, for at most 5 s.
    private func mergeUntil(_ context: ObjectContext, _ done: () -> Bool) throws {
        let deadline = Date(timeIntervalSinceNow: 5)
        while !done() && Date() < deadline {
            try context.mergeChanges()
            usleep(10_000)
        }
    }

    /// Deletes writer 0's head user in another process (`shared-store-child --delete-head`).
    private func deleteHead(_ backend: BackendDescriptor, _ dir: TemporaryDirectory) throws {
        let child = Process()
        child.executableURL = try Bench.binary()
        child.arguments = ["shared-store-child", "--backend", backend.name, "--writers", "1", "--writer", "0", "--durability", "relaxed",
                           "--acks", dir.url.appendingPathComponent("acks").path, "--delete-head", dir.url.path]
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
    }

    static func user(_ id: Int64) -> [String: Value] {
        ["id": .int64(id), "username": .string("u\(id)"), "displayName": "U", "joinedAt": .date(Date(timeIntervalSince1970: 0))]
    }

    /// Runs writer 0 of the shared-store trial in a process of its own, up to its commit `limit`.
    private func commit(_ backend: BackendDescriptor, _ dir: TemporaryDirectory, upTo limit: Int) throws {
        let child = Process()
        child.executableURL = try Bench.binary()
        child.arguments = ["shared-store-child", "--backend", backend.name, "--writers", "1", "--writer", "0", "--durability", "relaxed",
                           "--acks", dir.url.appendingPathComponent("acks").path, "--limit", "\(limit)", dir.url.path]
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
    }

    /// The changes delivered until the results hold `count` records, merged; nil after 5 s.
    private func wait(_ watched: any ResultsObservation, until count: Int) throws -> CollectionChange? {
        let deadline = Date(timeIntervalSinceNow: 5)
        var merged: CollectionChange?
        while Date() < deadline {
            guard let c = try watched.waitForChange(timeout: deadline.timeIntervalSinceNow) else { break }
            merged = merged.map { m in CollectionChange(deletions: m.deletions + c.deletions, insertions: m.insertions + c.insertions,
                                                        modifications: m.modifications + c.modifications) } ?? c
            if watched.count == count { return merged }
        }
        return watched.count == count ? merged : nil
    }
}
