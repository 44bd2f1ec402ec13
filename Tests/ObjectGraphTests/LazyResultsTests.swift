import Foundation
import ObjectGraph
import StoreConformance
import StoreCore
import Testing

/// `fetch(_:batchSize:)`: keys first, objects in batches as they are touched.
@Suite("ObjectGraph lazy results")
struct LazyResultsTests {
    /// 30 users (ids 100...129), usernames in reverse id order.
    static func thirtyUsers(_ engine: String) throws -> EngineGraph {
        let f = try EngineGraph(engine, seeded: false)
        try f.graph.write { tx in
            for i in 0..<30 { try tx.insert(try f.user(Int64(100 + i), "user\(String(format: "%02d", 29 - i))")) }
        }
        return f
    }

    @Test(arguments: graphEngines)
    func touchingAnElementLoadsOnlyItsBatch(_ engine: String) throws {
        let f = try Self.thirtyUsers(engine)
        let context = f.graph.newContext()
        let before = f.store.current.reads
        let users = try context.fetch(Query("User", sort: [.asc("username")]), batchSize: 10)
        #expect(users.count == 30)
        #expect(f.store.current.reads == before + 1, "one query for the keys")
        #expect(context.registeredObjectCount == 0 && users.loadedBatchCount == 0)

        let u13 = users[13]   // batch 1: elements 10..<20
        #expect(!u13.isFault && u13.id == 116)
        #expect(f.store.current.reads == before + 2)
        #expect(context.registeredObjectCount == 10 && users.loadedBatchCount == 1)
        _ = users[17]
        _ = users[10]
        #expect(f.store.current.reads == before + 2, "same batch: no read")
        _ = users[29]
        #expect(f.store.current.reads == before + 3)
        #expect(context.registeredObjectCount == 20 && users.loadedBatchCount == 2)

        // In the query's order; the last batch is short.
        let all = try context.fetch(Query("User", sort: [.asc("username")]))
        #expect(ids(Array(users)) == ids(all))
        #expect(users.objectIDs.map(\.key) == ids(all))
    }

    @Test(arguments: graphEngines)
    func unsavedChangesCountAndBadBatchSizesAreRefused(_ engine: String) throws {
        let f = try Self.thirtyUsers(engine)
        let context = f.graph.newContext()
        try context.insert(try f.user(7, "aaa"))
        let users = try context.fetch(Query("User", sort: [.asc("username")]), batchSize: 8)
        #expect(users.count == 31 && users[0].id == 7 && users[0].isInserted)
        expectCategory(.invalidValue) { _ = try context.fetch(Query("User"), batchSize: 0) }
    }

    @Test func aRecordDeletedAfterTheKeysWereReadIsAFaultThatFails() throws {
        let f = try Self.thirtyUsers("sqlite")
        let context = f.graph.newContext()
        let users = try context.fetch(Query("User", sort: [.asc("id")]), batchSize: 5)
        try f.store.base.write { try $0.delete("User", id: 101) }   // behind the graph's back
        let gone = users[1]
        #expect(gone.isFault)
        expectCategory(.notFound) { _ = try gone.value("username") }
        #expect(try users[2].value("username") == "user27")
    }
}
