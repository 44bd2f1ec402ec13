import Foundation
import ObjectGraph
import LMDBStore
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// A graph's contexts refuse a store mid-migration, and a store that another open migrated past
/// the graph's schema, instead of using it with the wrong shape.
@Suite("ObjectGraph and migrations")
struct MigrationRefusalTests {
    static let v2 = try! Schema(version: 2, entities: SocialSchema.kitDescriptions.map { d in
        guard d.name == "User" else { return d }
        var u = d
        u.attributes.append(Attribute("nickname", .string, optional: true))
        return u
    })

    @Test func contextsRefuseAStoreMidMigrationAndAfterIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("graph-migration-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let graph = ObjectGraph(store: try SQLiteStore(directory: dir, schema: SocialSchema.make()))
        defer { try? graph.close() }
        try SocialFixture.load(into: graph)
        let context = graph.newContext()
        #expect(try context.object("User", id: 1) != nil)

        // A second open migrates the file; inside its migration, the graph's contexts are refused.
        let seenMidMigration = Locked<[StoreError.Category]>([])
        let plan = MigrationPlan([Migration(from: SocialSchema.make(), to: Self.v2).transforming("User") { user in
            if user.old.id == 1 {
                let probe = graph.newContext()
                do { _ = try probe.fetch(Query("Post")) } catch let e as StoreError { seenMidMigration.withLock { $0.append(e.category) } }
                do { _ = try graph.read { try $0.count(Query("Post")) } } catch let e as StoreError { seenMidMigration.withLock { $0.append(e.category) } }
            }
        }])
        let migrated = try SQLiteStore(directory: dir, schema: Self.v2, options: StoreOptions(migrations: plan))
        #expect(seenMidMigration.withLock { $0 } == [.busy, .busy])

        // Afterwards the version-1 graph is stale: every way in says so.
        let fresh = graph.newContext()
        #expect(throws: StoreError.self) { _ = try fresh.fetch(Query("User")) }
        let stale = #expect(throws: StoreError.self) { _ = try graph.read { try $0.count(Query("User")) } }
        #expect(stale?.category == .schemaMismatch)
        #expect(stale?.message.contains("version 2") == true)
        #expect(throws: StoreError.self) { try graph.write { try $0.update("User", id: 1, set: ["age": 31]) } }
        // The migrated store has the data, unchanged by the refused write.
        #expect(try migrated.read { try $0.fetch("User", id: 1)?["age"] } == 30)
        try migrated.close()
    }

    /// Only migrations after a store's open count: a store migrated, deleted and created again
    /// at the old version is not refused, on either engine.
    @Test(arguments: ["sqlite", "lmdb"])
    func aStoreCreatedAgainAfterAMigrationIsNotRefused(_ engine: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("graph-recreated-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        func open(_ schema: Schema, _ plan: MigrationPlan? = nil) throws -> any Repository {
            let options = StoreOptions(migrations: plan)
            return engine == "sqlite" ? try SQLiteStore(directory: dir, schema: schema, options: options)
                : try LMDBStore(directory: dir, schema: schema, options: options)
        }
        let first = try open(SocialSchema.make())
        try SocialFixture.load(into: first)
        try first.close()
        try open(Self.v2, MigrationPlan([Migration(from: SocialSchema.make(), to: Self.v2)])).close()
        try FileManager.default.removeItem(at: dir)

        let graph = ObjectGraph(store: try open(SocialSchema.make()))
        defer { try? graph.close() }
        try SocialFixture.load(into: graph)
        #expect(try graph.newContext().object("User", id: 1) != nil)
        #expect(try graph.read { try $0.count(Query("User")) } == 5)
    }
}
