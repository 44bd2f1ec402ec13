import CSQLite
import Foundation
@testable import SQLiteStore
import StoreConformance
import StoreCore
import StoreSQL
import Testing

/// SQLite-specific behaviour beyond the kit: files that are not stores, native error codes,
/// bound parameters, WAL, nested writes, the stored schema version.
@Suite("SQLiteStore")
struct SQLiteStoreTests {
    /// Removed when the test ends.
    let folder: TemporaryDirectory
    let schema = SocialSchema.make()

    init() throws {
        folder = try TemporaryDirectory("sqlite-tests")
    }

    var dir: URL { folder.url }

    var file: URL { dir.appendingPathComponent(SQLiteStore.fileName) }

    func expectCategory(_ c: StoreError.Category, _ body: () throws -> Void) -> StoreError? {
        do { try body() } catch let e as StoreError {
            #expect(e.category == c, "\(e)")
            return e
        } catch { Issue.record("not a StoreError: \(error)") }
        Issue.record("expected a \(c) error")
        return nil
    }

    @Test("a file that is not a database is `corrupted`, and is left as it was")
    func garbageFile() throws {
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: file)
        let e = expectCategory(.corrupted) { _ = try SQLiteStore(directory: dir, schema: schema) }
        #expect(e?.nativeCode == SQLITE_NOTADB)
        #expect(try Data(contentsOf: file) == garbage)
    }

    @Test("a truncated store is `corrupted`, never a crash")
    func truncatedFile() throws {
        let store = try SQLiteStore(directory: dir, schema: schema)
        let u = try schema.entity("User")
        try store.write { tx in
            for i in 1...3000 {
                try tx.insert(try u.record(["id": .int64(Int64(i)), "username": .string("user\(i)"), "displayName": .string(String(repeating: "d", count: 100)),
                                            "joinedAt": .date(Date())]))
            }
        }
        try store.close()
        // Fold the WAL into the main file, then cut the file short.
        var db: OpaquePointer?
        sqlite3_open(file.path, &db)
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil)
        sqlite3_close(db)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 16_384)
        try handle.close()
        _ = expectCategory(.corrupted) {
            let s = try SQLiteStore(directory: dir, schema: schema)
            defer { try? s.close() }
            _ = try s.read { try $0.fetch(Query("User")) }
        }
    }

    /// A store cut short by a few bytes, as an outside sweep found: SQLite would open it and read
    /// a missing link without any error.
    @Test("a store cut short by 75 bytes is `corrupted` at open, and the file is left as it was")
    func cutShortByAFewBytes() throws {
        let store = try SQLiteStore(directory: dir, schema: schema)
        let u = try schema.entity("User")
        try store.write { tx in for i in 1...50 { try tx.insert(try u.record(["id": .int64(Int64(i)), "username": .string("u\(i)"), "displayName": "d", "joinedAt": .date(Date())])) } }
        try store.close()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(size - 75))
        try handle.close()
        let cut = try Data(contentsOf: file)
        let e = expectCategory(.corrupted) { _ = try SQLiteStore(directory: dir, schema: schema) }
        #expect(e?.message.contains("cut short") == true, "\(String(describing: e))")
        #expect(try Data(contentsOf: file) == cut, "nothing written to the damaged file")
        #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"), "no WAL created beside it")
    }

    @Test("a folder holding an LMDB store is refused, and no SQLite file is added to it")
    func anotherEnginesFolder() throws {
        try Data(count: 8_192).write(to: dir.appendingPathComponent("data.mdb"))
        let e = expectCategory(.invalidValue) { _ = try SQLiteStore(directory: dir, schema: schema) }
        #expect(e?.message.contains("LMDB store") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["data.mdb"])
    }

    @Test("a path that is a directory is an `io` error naming it")
    func pathIsADirectory() throws {
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        let e = expectCategory(.io) { _ = try SQLiteStore(directory: dir, schema: schema) }
        #expect(e?.message.contains(file.path) == true)
    }

    /// SQLite takes a double-quoted name that matches no column as a string; StoreSQL's
    /// connections refuse it, so a misspelt column in SQL is an error.
    @Test("double-quoted string literals are refused on the store's connections")
    func doubleQuotedStringsAreRefused() throws {
        try SQLiteStore(directory: dir, schema: schema).close()
        let misspelt = #"SELECT "nosuchcolumn" FROM "User""#
        var db: OpaquePointer?
        sqlite3_open(file.path, &db)
        #expect(sqlite3_exec(db, misspelt, nil, nil, nil) == SQLITE_OK, "SQLite's default takes it as a string")
        sqlite3_close(db)
        let connection = try SQLiteConnection(path: file.path, create: false)
        defer { connection.close() }
        #expect(throws: StoreError.self) { try connection.exec(misspelt) }
    }

    @Test("a SQLite database written by something else is refused as `corrupted`")
    func foreignDatabase() throws {
        var db: OpaquePointer?
        sqlite3_open(file.path, &db)
        sqlite3_exec(db, "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('keep me')", nil, nil, nil)
        sqlite3_close(db)
        let e = expectCategory(.corrupted) { _ = try SQLiteStore(directory: dir, schema: schema) }
        #expect(e?.message.contains("not a StoreBench store") == true)
    }

    @Test("errors carry the extended result code, the message and the SQL")
    func nativeDetails() throws {
        let store = try SQLiteStore(directory: dir, schema: schema)
        defer { try? store.close() }
        try SocialFixture.load(into: store)
        let e = expectCategory(.conflict) {
            try store.write { try $0.insert(try schema.entity("Tag").record(["name": "swift"])) }
        }
        #expect(e?.nativeCode == SQLiteResultCode.constraintPrimaryKey.rawValue)
        #expect(e?.nativeMessage?.contains("UNIQUE constraint failed") == true)
        #expect(e?.context?.hasPrefix("INSERT INTO \"Tag\"") == true)
        let u = expectCategory(.conflict) { try store.write { try $0.update("User", id: 2, set: ["username": "ann"]) } }
        #expect(u?.nativeCode == SQLiteResultCode.constraintUnique.rawValue)
    }

    @Test("a duplicate key's message ends with SQLite's name and number for the code")
    func duplicateKeyMessage() throws {
        let store = try SQLiteStore(directory: dir, schema: schema)
        defer { try? store.close() }
        try store.write { try $0.insert(try schema.entity("Tag").record(["name": "swift"])) }
        let e = expectCategory(.conflict) {
            try store.write { try $0.insert(try schema.entity("Tag").record(["name": "swift"])) }
        }
        #expect(e?.message.hasSuffix("(SQLITE_CONSTRAINT_PRIMARYKEY, 1555)") == true, "\(e?.message ?? "")")
    }

    @Test("values are bound, never spliced into SQL")
    func boundParameters() throws {
        let store = try SQLiteStore(directory: dir, schema: schema)
        defer { try? store.close() }
        let evil = "x'); DROP TABLE \"User\"; --"
        try store.write { tx in
            try tx.insert(try schema.entity("Tag").record(["name": .string(evil), "color": "'"]))
        }
        let found = try store.read { try $0.fetch(Query("Tag", where: "name" == .string(evil))) }
        #expect(found.map(\.id) == [.string(evil)])
        #expect(try store.read { try $0.count(Query("User")) } == 0)
        let parsed = try store.read { try $0.fetch(Query("Tag", format: "color == %@", "'")) }
        #expect(parsed.count == 1)
    }

    @Test("WAL mode, and the schema version kept in the file")
    func fileFormat() throws {
        let store = try SQLiteStore(directory: dir, schema: SocialSchema.make(version: 7))
        try store.write { try $0.insert(try schema.entity("Tag").record(["name": "a"])) }
        #expect(FileManager.default.fileExists(atPath: file.path + "-wal"))
        try store.close()
        var db: OpaquePointer?
        sqlite3_open(file.path, &db)
        defer { sqlite3_close(db) }
        var stmt: OpaquePointer?
        sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nil)
        sqlite3_step(stmt)
        #expect(sqlite3_column_int(stmt, 0) == 7)
        sqlite3_finalize(stmt)
        sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &stmt, nil)
        sqlite3_step(stmt)
        #expect(String(cString: sqlite3_column_text(stmt, 0)) == "wal")
        sqlite3_finalize(stmt)
    }

    @Test("a write inside a write on the same thread is `busy`, not a deadlock")
    func nestedWrite() throws {
        let store = try SQLiteStore(directory: dir, schema: schema)
        defer { try? store.close() }
        try store.write { _ in
            _ = expectCategory(.busy) { try store.write { _ in } }
            _ = expectCategory(.busy) { try store.close() }
        }
        try store.write { try $0.insert(try schema.entity("Tag").record(["name": "after"])) }
        #expect(try store.read { try $0.count(Query("Tag")) } == 1)
    }

    @Test("a transaction used after its closure is `closed`")
    func escapedTransaction() throws {
        let store = try SQLiteStore(directory: dir, schema: schema)
        defer { try? store.close() }
        var escaped: (any ReadTransaction)?
        try store.read { escaped = $0 }
        _ = expectCategory(.closed) { _ = try escaped?.fetch(Query("Tag")) }
    }

    @Test("a read transaction refuses writes")
    func writeInRead() throws {
        let store = try SQLiteStore(directory: dir, schema: schema)
        defer { try? store.close() }
        _ = expectCategory(.unsupported) {
            try store.read { tx in try (tx as? any WriteTransaction)?.insert(try schema.entity("Tag").record(["name": "x"])) }
        }
    }

    @Test("both durability modes open and persist")
    func durabilityModes() throws {
        for d in Durability.allCases {
            let sub = dir.appendingPathComponent(d.rawValue)
            let store = try SQLiteStore(directory: sub, schema: schema, options: StoreOptions(durability: d))
            try store.write { try $0.insert(try schema.entity("Tag").record(["name": .string(d.rawValue)])) }
            try store.close()
            let again = try SQLiteStore(directory: sub, schema: schema)
            #expect(try again.read { try $0.count(Query("Tag")) } == 1)
            try again.close()
        }
    }
}
