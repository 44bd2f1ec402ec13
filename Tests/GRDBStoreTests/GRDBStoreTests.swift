import Foundation
import GRDBStore
import SQLiteStore
import StoreConformance
import StoreCore
import StoreSQL
import Testing

/// GRDBStore beyond the kit: files that are not stores, nesting that GRDB would stop the
/// process for, and files any StoreSQL driver can read.
@Suite("GRDBStore")
struct GRDBStoreTests {
    let dir: TemporaryDirectory
    let schema = SocialSchema.make()

    init() throws { dir = try TemporaryDirectory("grdb-tests") }

    var file: URL { dir.url.appendingPathComponent(GRDBStore.fileName) }

    func user(_ id: Int64, _ name: String) throws -> Record {
        try schema.entity("User").record(["id": .int64(id), "username": .string(name), "displayName": .string(name.capitalized),
                                          "joinedAt": .date(Date(timeIntervalSince1970: 1_700_000_000))])
    }

    @Test("a file that is not a database is `corrupted` with SQLite's code, and is left as it was")
    func garbageFile() throws {
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: file)
        do {
            _ = try GRDBStore(directory: dir.url, schema: schema)
            Issue.record("opened a garbage file")
        } catch let e as StoreError {
            #expect(e.category == .corrupted, "\(e)")
            #expect(e.nativeCode == SQLiteResultCode.notADatabase.rawValue, "\(e)")
        }
        #expect(try Data(contentsOf: file) == garbage)
    }

    @Test("a transaction inside another on the same thread is `busy`, not a crash; the outer one goes on")
    func nesting() throws {
        let store = try GRDBStore(directory: dir.url, schema: schema)
        try store.write { tx in
            try tx.insert(try user(1, "ann"))
            #expect(throws: StoreError.self) { try store.write { _ in } }
            #expect(throws: StoreError.self) { try store.read { _ in } }
            #expect(throws: StoreError.self) { try store.close() }
        }
        try store.read { tx in
            #expect(throws: StoreError.self) { try store.read { _ in } }
            let n = try tx.count(Query("User"))
            #expect(n == 1)
        }
        try store.close()
    }

    @Test("a conflict carries SQLite's extended code and the SQL")
    func nativeError() throws {
        let store = try GRDBStore(directory: dir.url, schema: schema)
        try store.write { try $0.insert(try user(1, "ann")) }
        do {
            try store.write { try $0.insert(try user(1, "bob")) }
            Issue.record("a duplicate key was accepted")
        } catch let e as StoreError {
            #expect(e.category == .conflict)
            #expect(e.nativeCode == SQLiteResultCode.constraintPrimaryKey.rawValue)
            #expect(e.message.hasSuffix("(SQLITE_CONSTRAINT_PRIMARYKEY, 1555)"), "\(e)")
            #expect(e.context?.hasPrefix("INSERT INTO \"User\"") == true, "\(e)")
        }
        let name = try store.read { try $0.fetch("User", id: 1)?["username"] }
        #expect(name == "ann")
    }

    @Test("GRDBStore writes the same tables as SQLiteStore: one reads what the other wrote")
    func sameFileFormat() throws {
        let store = try GRDBStore(directory: dir.url, schema: schema)
        try store.write { tx in
            try tx.insert(try user(1, "ann"))
            try tx.insert(try user(2, "Ünal"))
        }
        try store.close()
        let sqlite = try SQLiteStore(path: file.path, schema: schema)
        defer { try? sqlite.close() }
        let names = try sqlite.read { try $0.fetch(try Query("User", format: "username BEGINSWITH[cd] %@", "u")) }.map { $0["username"] }
        #expect(names == ["Ünal"])
        let ann = try sqlite.read { try $0.fetch("User", id: 1) }
        #expect(try ann == user(1, "ann"))
    }
}

@Suite("GRDBStore durability")
struct GRDBDurabilityTests {
    /// DatabasePool turns `synchronous` to NORMAL once WAL is on; a durable store must undo
    /// that, or its commits skip the fsync SQLiteStore and the floor pay.
    @Test("durable syncs at every commit (synchronous = FULL), relaxed does not (NORMAL)", arguments: [
        (Durability.durable, "2"), (Durability.relaxed, "1"),
    ])
    func synchronous(_ durability: Durability, _ expected: String) throws {
        let dir = try TemporaryDirectory("grdb-sync")
        let store = try GRDBStore(directory: dir.url, schema: SocialSchema.make(), options: StoreOptions(durability: durability))
        defer { try? store.close() }
        #expect(try store.writerPragma("synchronous") == expected)
        #expect(try store.writerPragma("journal_mode") == "wal")
    }
}
