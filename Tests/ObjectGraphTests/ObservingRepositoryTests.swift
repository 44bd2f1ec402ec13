import Foundation
import ObjectGraph
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// `ObservingRepository` on an object graph: a thread waits for commits of another and gets
/// the change set; commits elsewhere in the store do not wake it with a change.
@Suite("ObjectGraph as an ObservingRepository")
struct ObservingRepositoryTests {
    @Test func aWatchingThreadGetsTheChangeSetOfAnotherThreadsCommit() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("og-observe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let graph = ObjectGraph(store: try SQLiteStore(directory: dir, schema: SocialSchema.make(), options: StoreOptions(durability: .relaxed)))
        defer { try? graph.close() }
        let users = try SocialFixture.users(graph.schema)
        try graph.write { tx in for u in users { try tx.insert(u) } }
        let watched = try graph.observeResults(try Query("User", format: "id <= 3", sort: [.asc("id")]))
        #expect(watched.count == 3)
        #expect(try watched.waitForChange(timeout: 0.05) == nil, "nothing committed yet")

        let writer = Thread {
            try? graph.write { tx in try tx.update("User", id: 5, set: ["displayName": "outside"]) }   // not in the results
            try? graph.write { tx in try tx.update("User", id: 2, set: ["displayName": "changed"]) }
        }
        writer.start()
        let change = try #require(try watched.waitForChange(timeout: 10))
        #expect(change.modificationsInNew == [1] && change.insertions.isEmpty && change.deletions.isEmpty)
        #expect(try watched.value("displayName", at: 1) == "changed")
        #expect(throws: StoreError.self) { try watched.value("displayName", at: 7) }

        watched.cancel()
        try graph.write { tx in try tx.delete("User", id: 1) }
        #expect(try watched.waitForChange(timeout: 0.05) == nil, "cancelled: no change is returned")
    }
}
