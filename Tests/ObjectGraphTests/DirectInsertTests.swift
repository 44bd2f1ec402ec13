import Foundation
import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// Inserts through the graph's `WriteTransaction` go straight to the store when nothing else is
/// pending: observers still see them, a refused insert throws at its call and leaves the
/// transaction usable, and an insert deleted later in the transaction is reported as deleted.
@Suite("ObjectGraph direct inserts")
struct DirectInsertTests {
    static func graph(_ engine: Int, _ dir: URL) throws -> ObjectGraph {
        let options = StoreOptions(durability: .relaxed)
        return engine == 0 ? ObjectGraph(store: try SQLiteStore(directory: dir, schema: SocialSchema.make(), options: options))
            : ObjectGraph(store: try LMDBStore(directory: dir, schema: SocialSchema.make(), options: options))
    }

    @Test("observers see direct inserts; a refused one throws at its call; insert-then-delete is a deletion", arguments: [0, 1])
    func insertsAreObservedAndAtomic(_ engine: Int) throws {
        let dir = try TemporaryDirectory("og-direct")
        let graph = try Self.graph(engine, dir.url)
        defer { try? graph.close() }
        let users = try SocialFixture.users(graph.schema)
        try graph.write { tx in try tx.insert(contentsOf: users) }
        let watched = try graph.observeResults(try Query("User", format: "id >= 2000", sort: [.asc("id")]))
        #expect(watched.count == 0)
        let user = try #require(graph.schema["User"])
        let newUser = { (id: Int64) in
            try user.record(["id": .int64(id), "username": .string("direct\(id)"), "displayName": "Direct", "joinedAt": .date(Date(timeIntervalSince1970: 1))])
        }

        try graph.write { tx in
            try tx.insert(try newUser(2000))
            #expect(throws: StoreError.self) { try tx.insert(users[0]) }              // key taken: refused here
            #expect(throws: StoreError.self) { try tx.insert(contentsOf: [try newUser(2001), users[1]]) }
            try tx.insert(contentsOf: [try newUser(2001), try newUser(2002)])
            #expect(try tx.count(Query("User", where: "id" >= 2000)) == 3)
        }
        let change = try #require(try watched.waitForChange(timeout: 10))
        #expect(change.insertions == [0, 1, 2])

        try graph.write { tx in
            try tx.insert(try newUser(2003))
            try tx.delete("User", id: 2003)
            try tx.update("User", id: 2000, set: ["displayName": "renamed"])
        }
        let second = try #require(try watched.waitForChange(timeout: 10))
        #expect(second.insertions.isEmpty && second.modificationsInNew == [0], "\(second)")
        #expect(try graph.read { try $0.fetch("User", id: 2003) } == nil)
    }

    @Test("a context made during the write, before its commit, is told of its direct inserts", arguments: [0, 1])
    func contextMadeDuringTheWriteIsTold(_ engine: Int) throws {
        let dir = try TemporaryDirectory("og-direct-late")
        let graph = try Self.graph(engine, dir.url)
        defer { try? graph.close() }
        let users = try SocialFixture.users(graph.schema)
        var context: ObjectContext?
        var counts: [Int] = []
        var token: ObservationToken?
        try graph.write { tx in
            try tx.insert(contentsOf: Array(users.prefix(3)))
            // Made while the write is open, so its first fetch does not see the inserts.
            let c = graph.newContext()
            token = try c.observe(Query("User")) { change in
                if case .initial(let objects) = change { counts.append(objects.count) }
                if case .update(let objects, _) = change { counts.append(objects.count) }
            }
            context = c
        }
        let c = try #require(context)
        try c.mergeChanges()
        #expect(counts == [0, 3], "the context's observer after the merge: \(counts)")
        _ = token
    }
}
