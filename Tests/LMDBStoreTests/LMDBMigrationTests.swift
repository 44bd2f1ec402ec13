import CLMDB
import Foundation
import LMDBStore
import StoreConformance
import StoreCore
import Testing

/// How LMDBStore migrates: an entity whose values stay keeps its records byte for byte (and
/// their version stamp); one whose values change is rewritten.
@Suite("LMDBStore migrations")
struct LMDBMigrationTests {
    /// The raw record bytes of every record of `entity`, read with liblmdb directly.
    static func rawRecords(_ dir: URL, _ entity: String) throws -> [[UInt8]] {
        var env: OpaquePointer?
        mdb_env_create(&env)
        defer { mdb_env_close(env) }
        mdb_env_set_maxdbs(env, 64)
        guard mdb_env_open(env, dir.path, UInt32(MDB_RDONLY), 0o644) == 0 else { throw StoreError(.io, "cannot open \(dir.path)") }
        var txn: OpaquePointer?
        mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn)
        defer { mdb_txn_abort(txn) }
        var dbi: MDB_dbi = 0
        guard mdb_dbi_open(txn, entity, 0, &dbi) == 0 else { throw StoreError(.io, "no database \(entity)") }
        var cursor: OpaquePointer?
        mdb_cursor_open(txn, dbi, &cursor)
        defer { mdb_cursor_close(cursor) }
        var k = MDB_val(), v = MDB_val(), out: [[UInt8]] = []
        var rc = mdb_cursor_get(cursor, &k, &v, MDB_FIRST)
        while rc == 0 {
            out.append(Array(UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)))
            rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT)
        }
        return out
    }

    @Test func onlyEntitiesWhoseValuesChangeAreRewritten() throws {
        let dir = try TemporaryDirectory("lmdb-migration")
        let v1 = SocialSchema.make()
        do {
            let store = try LMDBStore(directory: dir.url, schema: v1)
            try SocialFixture.load(into: store)
            try store.close()
        }
        let posts = try Self.rawRecords(dir.url, "Post"), tags = try Self.rawRecords(dir.url, "Tag")
        // v2: a new index on Post.title (Post's values stay), Tag renamed to Label, a new User attribute.
        var d = SocialSchema.kitDescriptions
        d[1].indexes.append(IndexDescription(["title"]))
        d[0].attributes.append(Attribute("level", .int64, default: 1))
        d[3].name = "Label"
        d[1].relationships = d[1].relationships.map { $0.name == "tags" ? Relationship("tags", to: "Label", inverse: "posts", .toMany) : $0 }
        let v2 = try Schema(version: 2, entities: d)
        let store = try LMDBStore(directory: dir.url, schema: v2,
                                  options: StoreOptions(migrations: MigrationPlan([Migration(from: v1, to: v2).renamingEntity("Tag", to: "Label")])))
        #expect(try store.read { try $0.fetch(Query("Post", format: "title == %@", "Swift concurrency")).map(\.id) } == [12])
        #expect(try store.read { try $0.related("Label", id: "swift", via: "posts").map(\.id) } == [12, 14])
        #expect(try store.verify().isClean)
        try store.close()
        #expect(try Self.rawRecords(dir.url, "Post") == posts, "Post's records were rewritten for a new index")
        #expect(try Self.rawRecords(dir.url, "Label") == tags, "Tag's records were rewritten for a rename")
        let users = try Self.rawRecords(dir.url, "User")
        #expect(users.count == 5 && users.allSatisfy { $0[4] == 2 }, "User's records carry version 2 (bytes 4–7 of a packed record) after gaining an attribute")
        #expect(posts.allSatisfy { $0[4] == 1 })
        // Reopened without a plan, the kept records (stamped 1) and the rewritten ones (2) both read.
        let again = try LMDBStore(directory: dir.url, schema: v2)
        #expect(try again.read { try $0.count(Query("Post")) + $0.count(Query("Label")) + $0.count(Query("User")) } == 15)
        try again.close()
    }
}
