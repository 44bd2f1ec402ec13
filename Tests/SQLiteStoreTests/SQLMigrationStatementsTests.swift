import Foundation
@testable import SQLiteStore
import StoreConformance
import StoreCore
import StoreSQL
import Testing

/// The statements a StoreSQL migration runs on a real SQLite file: an index whose columns keep
/// their values stays where it is. Rebuilding the untouched indexes (the foreign-key ones on
/// posts and comments) gives the same store, so only the statements show it; it made every
/// SQLite migration of the standard dataset cost about 35 µs per user.
@Suite("StoreSQL migration statements")
struct SQLMigrationStatementsTests {
    /// Records every statement `execute` runs, then runs it on the real connection.
    /// Internal helper.
    final class Recorder: SQLExecutor {
        let connection: SQLiteConnection
        var statements: [String] = []
        init(_ connection: SQLiteConnection) { self.connection = connection }

        func execute(_ sql: SQLStatement, _ arguments: [Value]) throws -> Int {
            statements.append(sql.text)
            return try connection.execute(sql, arguments)
        }
        func scalarInt(_ sql: SQLStatement, _ arguments: [Value]) throws -> Int64? { try connection.scalarInt(sql, arguments) }
        func column(_ sql: SQLStatement, _ type: AttributeType, _ arguments: [Value]) throws -> [Value] {
            try connection.column(sql, type, arguments)
        }
        func rows(_ sql: SQLStatement, _ arguments: [Value], of entity: Entity, _ body: (any RowView) throws -> Void) throws {
            try connection.rows(sql, arguments, of: entity, body)
        }
        func atomically<T>(_ body: () throws -> T) throws -> T { try connection.atomically(body) }
    }

    /// Migrates a loaded kit store from version 1 to `v2` and returns the index statements run.
    private func indexStatements(to v2: Schema, _ migration: Migration) throws -> [String] {
        let dir = try TemporaryDirectory("sql-migration-statements")
        let store = try SQLiteStore(directory: dir.url, schema: SocialSchema.make())
        try SocialFixture.load(into: store)
        try store.close()
        let path = dir.url.appendingPathComponent(SQLiteStore.fileName).path
        let recorder = Recorder(try SQLiteConnection(path: path, create: false))
        defer { recorder.connection.close() }
        try recorder.connection.exec("BEGIN IMMEDIATE")
        try SQLStoreMetadata.prepare(recorder, mapping: SQLSchemaMapping(schema: v2), path: path,
                                     migrations: MigrationPlan([migration]))
        try recorder.connection.exec("COMMIT")
        let reopened = try SQLiteStore(directory: dir.url, schema: v2)
        #expect(try reopened.verify().isClean)
        try reopened.close()
        return recorder.statements.filter { $0.contains("INDEX") }
    }

    private func v2(_ edit: (inout [EntityDescription]) -> Void) throws -> Schema {
        var d = SocialSchema.kitDescriptions
        edit(&d)
        return try Schema(version: 2, entities: d)
    }

    @Test func anAddedAttributeLeavesEveryIndex() throws {
        let schema = try v2 { $0[0].attributes.append(Attribute("level", .int64, default: 0)) }
        #expect(try indexStatements(to: schema, Migration(from: SocialSchema.make(), to: schema)) == [])
    }

    @Test func aRenamedAttributeLeavesEveryIndex() throws {
        let schema = try v2 { d in
            let email = d[0].attributes.firstIndex { $0.name == "email" }!
            d[0].attributes[email].name = "emailAddress"
        }
        let migration = Migration(from: SocialSchema.make(), to: schema).renamingAttribute("email", to: "emailAddress", of: "User")
        #expect(try indexStatements(to: schema, migration) == [])
    }

    @Test func anAddedIndexIsTheOnlyOneBuilt() throws {
        let schema = try v2 { $0[0].indexes.append(IndexDescription(["displayName"])) }
        let statements = try indexStatements(to: schema, Migration(from: SocialSchema.make(), to: schema))
        #expect(statements.count == 1)
        #expect(statements.first?.hasPrefix("CREATE INDEX") == true)
        #expect(statements.first?.contains("displayName") == true)
    }

    @Test func aRemovedRelationshipDropsOnlyItsForeignKeyIndex() throws {
        let schema = try v2 { d in
            let p = d.firstIndex { $0.name == "Post" }!
            d[p].relationships.removeAll { $0.name == "author" }
            d[0].relationships.removeAll { $0.name == "posts" }
        }
        let statements = try indexStatements(to: schema, Migration(from: SocialSchema.make(), to: schema))
        #expect(statements == [#"DROP INDEX "sb_fk_Post_author""#])
    }
}
