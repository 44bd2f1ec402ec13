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
    /// Runs `body` with a graph over a new store (`engine` 0: SQLite, 1: LMDB) and the
    /// fixture's users, not yet inserted.
    static func withGraph(_ engine: Int, _ body: (ObjectGraph, [Record]) throws -> Void) throws {
        let dir = try TemporaryDirectory("og-direct")
        let options = StoreOptions(durability: .relaxed)
        let graph = engine == 0 ? ObjectGraph(store: try SQLiteStore(directory: dir.url, schema: SocialSchema.make(), options: options))
            : ObjectGraph(store: try LMDBStore(directory: dir.url, schema: SocialSchema.make(), options: options))
        defer { try? graph.close() }
        try body(graph, try SocialFixture.users(graph.schema))
    }

    @Test("observers see direct inserts; a refused one throws at its call; insert-then-delete is a deletion", arguments: [0, 1])
    func insertsAreObservedAndAtomic(_ engine: Int) throws {
        try Self.withGraph(engine) { graph, users in try insertsAreObservedAndAtomic(graph, users) }
    }

    private func insertsAreObservedAndAtomic(_ graph: ObjectGraph, _ users: [Record]) throws {
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

    /// Guards the order `ObjectGraph.broadcast` relies on: it looks for listening contexts after
    /// the commit, so one made while the write is open (registered when made) is still told.
    /// A look moved before the commit, or a broadcast that drops insert-only changes, fails here.
    @Test("a context made during the write, before its commit, is told of its direct inserts", arguments: [0, 1])
    func contextMadeDuringTheWriteIsTold(_ engine: Int) throws {
        try Self.withGraph(engine) { graph, users in try contextMadeDuringTheWriteIsTold(graph, users) }
    }

    private func contextMadeDuringTheWriteIsTold(_ graph: ObjectGraph, _ users: [Record]) throws {
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
