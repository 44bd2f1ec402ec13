import CLMDB
import Foundation
import LMDBStore
import StoreConformance
import StoreCore
import Testing

/// Record formats: a store written before format 3 (committed: `Fixtures/format2-social`,
/// the kit's social fixture written by LMDBStore at bf72421, plus user 1's avatar and
/// externalID) opens and reads as it did; records rewritten are stored in format 3 beside the
/// old ones; and the packed rows of `forEachPacked` agree with `forEach`.
@Suite("LMDBStore record formats")
struct LMDBFormatTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/format2-social")

    /// A copy of the committed format-2 store (the tests write to it).
    private func format2Store(_ label: String) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(label)
        try FileManager.default.copyItem(at: Self.fixture.appendingPathComponent("data.mdb"), to: dir.url.appendingPathComponent("data.mdb"))
        return dir
    }

    /// The same data written today (format 3).
    private func format3Store(_ label: String) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(label)
        let store = try LMDBStore(directory: dir.url, schema: SocialSchema.make())
        try SocialFixture.load(into: store)
        try store.write { tx in
            try tx.update("User", id: 1, set: ["avatar": .bytes([0, 1, 2, 0xFF]), "externalID": .uuid(UUID(uuidString: "12345678-9ABC-DEF0-1234-56789ABCDEF0")!)])
        }
        try store.close()
        return dir
    }

    private func everything(_ store: LMDBStore) throws -> [String: [Record]] {
        try store.read { tx in
            var out: [String: [Record]] = [:]
            for e in store.schema.entities { out[e.name] = try tx.fetch(Query(e.name)) }
            return out
        }
    }

    @Test("a store of format 2 opens, reads the same records as one written today, and verifies clean")
    func format2StoreReads() throws {
        let old = try format2Store("format2-read"), new = try format3Store("format3-read")
        #expect(try LMDBMigrationTests.rawRecords(old.url, "User").allSatisfy { $0[0] == 2 }, "the fixture is in format 2")
        #expect(try LMDBMigrationTests.rawRecords(new.url, "User").allSatisfy { $0[0] == 3 }, "new stores write format 3")
        let a = try LMDBStore(directory: old.url, schema: SocialSchema.make())
        defer { try? a.close() }
        let b = try LMDBStore(directory: new.url, schema: SocialSchema.make())
        defer { try? b.close() }
        let before = try everything(a)
        #expect(before.values.map(\.count).reduce(0, +) > 20)
        #expect(before == (try everything(b)))
        #expect(try a.read { try $0.fetch("User", id: 1) }?["avatar"] == .bytes([0, 1, 2, 0xFF]))
        #expect(try a.verify().isClean)
        // Queries through indexes and relationships read the old records too.
        #expect(try a.read { try $0.fetch(Query("User", format: "age == 30")).map(\.id) } == [1, 4])
        #expect(try a.read { try $0.related("Tag", id: "swift", via: "posts").map(\.id) } == [12, 14])
        try a.close()
        try b.close()
        #expect(try LMDBMigrationTests.rawRecords(old.url, "sb_meta").contains(Array("2+3".utf8)), "opened: marked as holding both formats")
        #expect(try LMDBMigrationTests.rawRecords(new.url, "sb_meta").contains(Array("3".utf8)))
    }

    @Test("a format-2 record is corrupted in a store created in format 3, and a format-2 record with a damaged byte is corrupted in an old store")
    func format2RecordsAreCheckedToo() throws {
        let new = try format3Store("format2-refused")
        let user = SocialSchema.make()["User"]!
        let ann = try SocialFixture.users(SocialSchema.make())[0]
        try Self.putRaw(new.url, "User", key: KeyEncoding.encode(.int64(1)), RecordCodec.encodeLegacy(ann.values, schemaVersion: 1))
        let store = try LMDBStore(directory: new.url, schema: SocialSchema.make())
        #expect { try store.read { try $0.fetch("User", id: 1) } } throws: { "\($0)".contains("format 2 in a store whose records are all in format 3") }
        #expect { try store.read { tx in try tx.forEach(Query("User")) { _ in } } } throws: { ($0 as? StoreError)?.category == .corrupted }
        try store.close()

        let old = try format2Store("format2-damaged")
        var bytes = try LMDBMigrationTests.rawRecords(old.url, "User")[1]
        bytes[bytes.count - 6] ^= 0x01    // inside the last field, before the checksum
        try Self.putRaw(old.url, "User", key: KeyEncoding.encode(.int64(2)), bytes)
        let again = try LMDBStore(directory: old.url, schema: SocialSchema.make())
        defer { try? again.close() }
        #expect { try again.read { try $0.fetch("User", id: 2) } } throws: { "\($0)".contains("checksum") }
        #expect(try again.read { try $0.fetch("User", id: 1) }?["username"] == "ann")
        _ = user
    }

    @Test("a damaged byte anywhere in a record: no query hands out a wrong value (a filter's rejects are glanced at, every match is checked in full), and verify finds it")
    func damagedRecordsNeverReachTheCaller() throws {
        let dir = try format3Store("format3-damaged")
        let original = try LMDBMigrationTests.rawRecords(dir.url, "User")[1]
        let clean = try { let s = try LMDBStore(directory: dir.url, schema: SocialSchema.make()); defer { try? s.close() }; return try everything(s)["User"]! }()
        let queries = try [Query("User"), Query("User", format: "username == 'ann'"), Query("User", format: "score > 0"),
                           Query("User", format: "username BEGINSWITH[c] 'B'"), Query("User", format: "age >= 0", sort: [.desc("score")], limit: 2),
                           Query("User", format: "score > 0", offset: 1), Query("User", format: "ANY posts.published == true"),
                           Query("User", format: "posts.@count >= 0"), Query("User", format: "NONE posts.published == true", sort: [.asc("username")])]
        var refused = 0
        for position in original.indices {
            var bytes = original
            bytes[position] ^= 0x10
            try Self.putRaw(dir.url, "User", key: KeyEncoding.encode(.int64(2)), bytes)
            let store = try LMDBStore(directory: dir.url, schema: SocialSchema.make())
            defer { try? store.close() }
            for q in queries {
                do {
                    for r in try store.read({ try $0.fetch(q) }) { #expect(clean.contains(r), "byte \(position), \(q.predicate): \(r)") }
                    _ = try store.read { try $0.count(q) }
                } catch let e as StoreError {
                    #expect(e.category == .corrupted, "byte \(position): \(e)")
                    refused += 1
                }
            }
            #expect(try !store.verify().isClean, "byte \(position): verify misses the damage")
        }
        #expect(refused > 0)
    }

    /// Puts raw bytes at a key of a database, beside LMDBStore (the store must be closed).
    static func putRaw(_ dir: URL, _ db: String, key: [UInt8], _ value: [UInt8]) throws {
        var env: OpaquePointer?
        mdb_env_create(&env)
        defer { mdb_env_close(env) }
        mdb_env_set_maxdbs(env, 64)
        mdb_env_set_mapsize(env, 1 << 30)
        guard mdb_env_open(env, dir.path, 0, 0o644) == 0 else { throw StoreError(.io, "cannot open \(dir.path)") }
        var txn: OpaquePointer?
        mdb_txn_begin(env, nil, 0, &txn)
        var dbi: MDB_dbi = 0
        guard mdb_dbi_open(txn, db, 0, &dbi) == 0 else { mdb_txn_abort(txn); throw StoreError(.io, "no database \(db)") }
        var k = key, v = value
        let rc = k.withUnsafeMutableBytes { kb in
            v.withUnsafeMutableBytes { vb -> Int32 in
                var kv = MDB_val(mv_size: kb.count, mv_data: kb.baseAddress), vv = MDB_val(mv_size: vb.count, mv_data: vb.baseAddress)
                return mdb_put(txn, dbi, &kv, &vv, 0)
            }
        }
        guard rc == 0, mdb_txn_commit(txn) == 0 else { throw StoreError(.io, "cannot put: \(rc)") }
    }

    @Test("records written again are stored in format 3 beside the old ones; both read after reopening")
    func rewrittenRecordsUseFormat3() throws {
        let dir = try format2Store("format2-write")
        do {
            let store = try LMDBStore(directory: dir.url, schema: SocialSchema.make())
            try store.write { tx in
                try tx.update("User", id: 2, set: ["score": 9.5])
                try tx.insert(try tx.schema.entity("User").record(["id": 6, "username": "new", "displayName": "New", "score": 1.0, "active": true, "joinedAt": .date(SocialFixture.epoch)]))
            }
            try store.close()
        }
        let formats = try LMDBMigrationTests.rawRecords(dir.url, "User").map { $0[0] }
        #expect(formats == [2, 3, 2, 2, 2, 3], "users 2 and 6 rewritten, the rest kept")
        let store = try LMDBStore(directory: dir.url, schema: SocialSchema.make())
        defer { try? store.close() }
        #expect(try store.read { try $0.fetch(Query("User")).map { $0["score"] } } == [4.5, 9.5, 3.0, 4.5, 1.0, 1.0])
        #expect(try store.read { try $0.fetch(Query("User", format: "score > 4")).map(\.id) } == [1, 2, 4])
        #expect(try store.verify().isClean)
    }

    @Test("forEachPacked gives the values forEach gives, for records of either format and inside a write", arguments: [false, true])
    func packedRowsAgree(legacy: Bool) throws {
        let dir = legacy ? try format2Store("packed-old") : try format3Store("packed-new")
        let store = try LMDBStore(directory: dir.url, schema: SocialSchema.make())
        defer { try? store.close() }
        for e in store.schema.entities {
            let q = Query(e.name)
            let viaRows = try store.read { tx in
                var out: [Record] = []
                try tx.forEach(q) { out.append(Record($0)) }
                return out
            }
            let viaPacked = try store.read { tx in
                var out: [Record] = []
                try tx.forEachPacked(q) { out.append(Record($0)) }
                return out
            }
            let inWrite = try store.write { tx in
                var out: [Record] = []
                try tx.forEachPacked(q) { out.append(Record($0)) }
                return out
            }
            #expect(viaPacked == viaRows, "\(e.name)")
            #expect(inWrite == viaRows, "\(e.name)")
        }
    }

    /// Whether an open-file-description write lock on byte 0 of `lock.mdb` is granted, i.e. no
    /// process holds LMDB's reader lock there (released at once).
    static func lockFileIsFree(_ dir: URL) -> Bool {
        let fd = open(dir.appendingPathComponent("lock.mdb").path, O_RDWR)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_len = 1
        return fcntl(fd, 37 /* F_OFD_SETLK */, &lock) == 0
    }

    @Test("a refused insert takes back the unique index entries it put: the value is free again in the same transaction")
    func refusedInsertUndoesItsUniqueEntries() throws {
        let dir = try TemporaryDirectory("lmdb-undo")
        let s = SocialSchema.make()
        let store = try LMDBStore(directory: dir.url, schema: s)
        defer { try? store.close() }
        try SocialFixture.load(into: store)
        let user = try s.entity("User")
        func ann(_ id: Int64, _ name: String) throws -> Record {
            try user.record(["id": .int64(id), "username": .string(name), "displayName": "X", "score": 1.0, "active": true, "joinedAt": .date(SocialFixture.epoch)])
        }
        try store.write { tx in
            // Key 1 exists: its fresh username went in first and must come out again.
            #expect { try tx.insert(try ann(1, "fresh")) } throws: { ($0 as? StoreError)?.category == .conflict && "\($0)".contains("User 1 already exists") }
            try tx.insert(try ann(50, "fresh"))
            // A taken username with a free key: the unique index refuses it, nothing is left behind.
            #expect { try tx.insert(try ann(51, "ann")) } throws: { "\($0)".contains("unique index") }
            #expect(try tx.fetch("User", id: 51) == nil)
        }
        #expect(try store.read { try $0.fetch(Query("User", format: "username == 'fresh'")).map(\.id) } == [50])
        #expect(try store.verify().isClean)
    }

    @Test("compaction: a store that lost half its records shrinks, keeps every record, and refuses to run while open")
    func compaction() throws {
        let dir = try TemporaryDirectory("lmdb-compact")
        let s = SocialSchema.make()
        let store = try LMDBStore(directory: dir.url, schema: s)
        let tag = try s.entity("Tag")
        try store.write { tx in
            for i in 0..<4_000 { try tx.insert(try tag.record(["name": .string("tag-\(i)-" + String(repeating: "x", count: 200))])) }
        }
        try store.write { tx in _ = try tx.delete("Tag", where: StorePredicate(format: "name BEGINSWITH %@", "tag-1")) }
        #expect { try LMDBStore.compact(directory: dir.url, schema: s) } throws: { ($0 as? StoreError)?.category == .busy }
        #expect(!Self.lockFileIsFree(dir.url), "the refused compaction left the open store's lock on lock.mdb in place")
        let kept = try everything(store)
        try store.close()
        let data = dir.url.appendingPathComponent("data.mdb")
        let before = try FileManager.default.attributesOfItem(atPath: data.path)[.size] as! Int
        try LMDBStore.compact(directory: dir.url, schema: s)
        #expect(Self.lockFileIsFree(dir.url), "closed: nobody holds the lock file")
        let after = try FileManager.default.attributesOfItem(atPath: data.path)[.size] as! Int
        #expect(after < before * 3 / 4, "\(before) → \(after) bytes")
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent(".compacting").path))
        let again = try LMDBStore(directory: dir.url, schema: s)
        defer { try? again.close() }
        #expect(try everything(again) == kept)
        #expect(try again.verify().isClean)
        // The wrong schema is refused before anything is copied.
        #expect(throws: StoreError.self) { try LMDBStore.compact(directory: dir.url, schema: try Schema(version: 9, entities: [EntityDescription("X", primaryKey: "id", attributes: [Attribute("id", .int64)])])) }
    }
}
