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
        try graph.write { tx in try tx.update("User", id: .int64(1_000_001), set: ["displayName": "mine"]) }
        let own = try #require(try wait(watched, until: 3))
        #expect(own.modifications == [1] && own.insertions.isEmpty, "the graph's own write, once: \(own)")
        #expect(try watched.waitForChange(timeout: 0.3) == nil, "no second delivery for the graph's own write")
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
