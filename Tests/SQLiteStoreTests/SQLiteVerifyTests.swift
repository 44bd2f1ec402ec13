import CSQLite
import Foundation
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// `verify()` on SQLite: integrity_check, the stored DDL and the row checksums.
@Suite("SQLiteStore verify")
struct SQLiteVerifyTests {
    let schema = SocialSchema.make()

    private func seeded(_ label: String) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(label)
        let store = try SQLiteStore(directory: dir.url, schema: schema)
        try SocialFixture.load(into: store)
        try store.write { tx in
            try tx.update("User", id: 2, set: ["age": 41, "score": .double(-0.0)])   // stored as the integer 0
            _ = try tx.update("Post", where: KeyPathExpression("score") > 0, set: ["published": true])
        }
        try store.close()
        return dir
    }

    /// Runs SQL on the store's file through a connection of its own, as another client would.
    private func outside(_ dir: TemporaryDirectory, _ sql: String) {
        var db: OpaquePointer?
        #expect(sqlite3_open(dir.url.appendingPathComponent(SQLiteStore.fileName).path, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK, "\(String(cString: sqlite3_errmsg(db)))")
        sqlite3_close(db)
    }

    @Test("a sound store is clean, after inserts, updates by key and by predicate, and a -0.0")
    func soundStoreIsClean() throws {
        let dir = try seeded("sqlverify-sound")
        let report = try SQLiteStore.descriptor.verify(schema, dir.url, StoreOptions())
        #expect(report.isClean, "\(report)")
        #expect(report.checks.contains("PRAGMA integrity_check"))
        #expect(report.records > 0 && report.links > 0)
    }

    @Test("an embedded record another client unlinked from its owner is reported as an orphan")
    func orphanIsFound() throws {
        let dir = try TemporaryDirectory("sqlverify-orphan")
        let schema = try Schema(version: 1, entities: [
            EntityDescription("User", primaryKey: "id", attributes: [Attribute("id", .int64)],
                              relationships: [Relationship("phones", to: "Phone", inverse: "user", .toMany, deleteRule: .cascade)]),
            EntityDescription("Phone", primaryKey: "id", attributes: [Attribute("id", .int64)],
                              relationships: [Relationship("user", to: "User", inverse: "phones", .toOne)], embedded: true),
        ])
        let store = try SQLiteStore(directory: dir.url, schema: schema)
        try store.write { tx in
            try tx.insert(Record(schema["User"]!, values: [1]))
            try tx.insert(contentsOf: [Record(schema["Phone"]!, values: [11]), Record(schema["Phone"]!, values: [12])])
            try tx.link("User", id: 1, "phones", to: 11)
            try tx.link("User", id: 1, "phones", to: 12)
        }
        try store.close()
        #expect(try SQLiteStore.descriptor.verify(schema, dir.url, StoreOptions()).isClean)
        outside(dir, #"UPDATE "Phone" SET "user" = NULL WHERE "id" = 12"#)
        let report = try SQLiteStore.descriptor.verify(schema, dir.url, StoreOptions())
        #expect(report.problems.contains { $0.area == "Phone" && $0.detail.contains("embedded record 12 has no owner") }, "\(report)")
        #expect(!report.problems.contains { $0.detail.contains("embedded record 11") })
    }

    @Test("a value changed by another client, without the checksum, is found")
    func changedBehindTheStore() throws {
        let dir = try seeded("sqlverify-changed")
        outside(dir, #"UPDATE "User" SET "displayName" = 'Mallory' WHERE "id" = 1"#)
        let report = try SQLiteStore.descriptor.verify(schema, dir.url, StoreOptions())
        #expect(report.problems.contains { $0.area == "User" && $0.detail.contains("record 1 does not match its checksum") }, "\(report)")
    }

    @Test("a row another client inserted has no checksum: counted, not a problem")
    func rowWithoutChecksum() throws {
        let dir = try seeded("sqlverify-outside")
        outside(dir, #"INSERT INTO "Tag" ("name") VALUES ('outside')"#)
        let report = try SQLiteStore.descriptor.verify(schema, dir.url, StoreOptions())
        #expect(report.isClean, "\(report)")
        #expect(report.checks.contains { $0.contains("1 rows without one") }, "\(report.checks)")
    }

    @Test("a schema format number no SQLite reads: corrupted on open, a problem (not an error) for verify")
    func unsupportedFileFormat() throws {
        let dir = try seeded("sqlverify-format")
        let file = dir.url.appendingPathComponent(SQLiteStore.fileName)
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes.replaceSubrange(44..<48, with: [0, 0, 0, 9])   // the header's schema format: 1...4
        try Data(bytes).write(to: file)
        #expect { try SQLiteStore(directory: dir.url, schema: schema) } throws: { ($0 as? StoreError)?.category == .corrupted }
        let report = try SQLiteStore.descriptor.verify(schema, dir.url, StoreOptions())
        #expect(report.problems.contains { $0.detail.contains("unsupported file format") }, "\(report)")
    }

    @Test("a missing index is found as a schema difference")
    func droppedIndex() throws {
        let dir = try seeded("sqlverify-ddl")
        outside(dir, #"DROP INDEX "idx_User_username""#)
        let report = try SQLiteStore.descriptor.verify(schema, dir.url, StoreOptions())
        #expect(report.problems.contains { $0.area == "schema" }, "\(report)")
    }

    @Test("an empty file is damage, and verify does not turn it into a new store")
    func emptyFile() throws {
        let dir = try TemporaryDirectory("sqlverify-empty")
        let file = dir.url.appendingPathComponent(SQLiteStore.fileName)
        _ = FileManager.default.createFile(atPath: file.path, contents: Data())
        let report = try SQLiteStore.descriptor.verify(schema, dir.url, StoreOptions())
        #expect(!report.isClean)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int == 0)
        expectNotFound { _ = try SQLiteStore.descriptor.verify(schema, dir.url.appendingPathComponent("none"), StoreOptions()) }
    }

    private func expectNotFound(_ body: () throws -> Void) {
        do { try body(); Issue.record("expected notFound") } catch let e as StoreError { #expect(e.category == .notFound, "\(e)") } catch {
            Issue.record("\(error)")
        }
    }
}

/// `verify()` of ordered relationships: positions repeated or missing, written by another client.
extension SQLiteVerifyTests {
    @Test("a repeated or missing list position, written by another client, is found; a sound list is clean")
    func brokenOrder() throws {
        let schema = try Schema(version: 1, entities: [
            EntityDescription("Album", primaryKey: "id", attributes: [Attribute("id", .int64)],
                              relationships: [Relationship("tracks", to: "Track", inverse: "album", .toMany, ordered: true),
                                              Relationship("picks", to: "Track", inverse: "pickedBy", .toMany, ordered: true)]),
            EntityDescription("Track", primaryKey: "id", attributes: [Attribute("id", .int64)],
                              relationships: [Relationship("album", to: "Album", inverse: "tracks", .toOne),
                                              Relationship("pickedBy", to: "Album", inverse: "picks", .toMany)]),
        ])
        let dir = try TemporaryDirectory("sqlverify-order")
        let store = try SQLiteStore(directory: dir.url, schema: schema)
        try store.write { tx in
            try tx.insert(try schema["Album"]!.record(["id": 1]))
            for i in 1...3 {
                try tx.insert(try schema["Track"]!.record(["id": .int64(Int64(i))]))
                try tx.link("Album", id: 1, "tracks", to: .int64(Int64(i)))
                try tx.link("Album", id: 1, "picks", to: .int64(Int64(i)))
            }
        }
        try store.close()
        #expect(try SQLiteStore.descriptor.verify(schema, dir.url, StoreOptions()).isClean)
        outside(dir, #"UPDATE "Track" SET "sb_pos_album" = 0 WHERE "id" = 3"#)
        outside(dir, #"UPDATE "sb_j_Album_picks" SET "sb_pos_src" = 7 WHERE "dst" = 2"#)
        let report = try SQLiteStore.descriptor.verify(schema, dir.url, StoreOptions())
        #expect(report.problems.contains { $0.area == "Album.tracks" && $0.detail.contains("Album 1 has missing or repeated positions") }, "\(report)")
        #expect(report.problems.contains { $0.area == "Album.picks" && $0.detail.contains("missing or repeated") }, "\(report)")
    }
}
