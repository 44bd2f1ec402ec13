import CLMDB
import Foundation
import LMDBStore
import StoreConformance
import StoreCore
import Testing

/// `verify()` on LMDB: sound stores are clean (page accounting, counts, sub-databases,
/// overflow pages all agree), and each kind of damage is found without a crash.
@Suite("LMDBStore verify")
struct LMDBVerifyTests {
    /// A store with several tree levels, dupsort sub-databases (200 records per group),
    /// overflow pages and free pages (from deletes); closed.
    private func soundStore(_ label: String) throws -> (TemporaryDirectory, Schema) {
        let dir = try TemporaryDirectory(label)
        let s = try blobSchema()
        let store = try LMDBStore(directory: dir.url, schema: s)
        try store.write { tx in
            for i in 0..<2_000 { try tx.insert(try blob(s, i, size: i % 97 == 0 ? 9_000 : 60 + i % 200)) }
        }
        try store.write { tx in for i in stride(from: 0, to: 2_000, by: 7) { try tx.delete("Blob", id: .int64(Int64(i))) } }
        try store.write { tx in try tx.insert(try s["Blob"]!.record(["id": 0x5EED, "group": 3, "payload": .bytes(Array("needle-0123456789".utf8))])) }
        // A smaller value over a larger one in the same transaction keeps the longer overflow run.
        try store.write { tx in
            try tx.upsert(try blob(s, 1, size: 14_000))
            try tx.upsert(try blob(s, 1, size: 5_000))
        }
        try store.close()
        return (dir, s)
    }

    @Test("a sound store is clean: every page used once, every count and index entry agrees")
    func soundStoreIsClean() throws {
        let (dir, s) = try soundStore("verify-sound")
        let report = try LMDBStore.verify(directory: dir.url, schema: s)
        #expect(report.isClean, "\(report)")
        #expect(report.records == 2_000 - 286 + 1)
        #expect(report.indexEntries == report.records, "one index entry per record")
        #expect(report.checks.contains { $0.hasPrefix("LMDB page walk: ") }, "\(report.checks)")
        // An open store verifies the same way.
        let store = try LMDBStore(directory: dir.url, schema: s)
        defer { try? store.close() }
        #expect(try store.verify().isClean)
    }

    @Test("one changed byte inside a value is refused on read (the record's checksum), and verify finds it")
    func changedValueByte() throws {
        let (dir, s) = try soundStore("verify-byte")
        var file = [UInt8](try Data(contentsOf: dir.dataFile))
        let needle = Array("needle-0123456789".utf8)
        let at = try #require((0...(file.count - needle.count)).first { Array(file[$0..<($0 + needle.count)]) == needle })
        file[at + 10] ^= 0x01
        try Data(file).write(to: dir.dataFile)
        let store = try LMDBStore(directory: dir.url, schema: s)
        #expect { try store.read { try $0.fetch("Blob", id: 0x5EED) } } throws: { ($0 as? StoreError)?.category == .corrupted }
        #expect(try store.read { try $0.fetch("Blob", id: 1) } != nil, "other records still read")
        let report = try store.verify()
        try store.close()
        #expect(report.problems.contains { $0.detail.contains("does not match its checksum") }, "\(report)")
    }

    @Test("a page with impossible flags is found by the page walk, and the store is not opened")
    func damagedPageHeader() throws {
        let (dir, s) = try soundStore("verify-page")
        var file = [UInt8](try Data(contentsOf: dir.dataFile))
        // The leaf page (flags 0x02 at offset 10) that holds the needle record: one the tree uses.
        let needle = Array("needle-0123456789".utf8)
        let offsets: [Int] = (0...(file.count - needle.count)).filter { Array(file[$0..<($0 + needle.count)]) == needle }
        let pages: [Int] = offsets.map { $0 / 4096 * 4096 }.filter { file[$0 + 10] == 0x02 }
        let page = try #require(pages.last)
        file[page + 10] = 0x07
        try Data(file).write(to: dir.dataFile)
        let report = try LMDBStore.verify(directory: dir.url, schema: s)
        #expect(report.problems.contains { $0.area == "structure" && $0.detail.contains("flags 0x7") }, "\(report)")
        #expect(report.checks.contains { $0.contains("not opened") }, "\(report.checks)")
    }

    /// Every node of every inline sub-page (an index key with few duplicates) given flags or a
    /// data size LMDB never writes there: the page walk reports each, and verify neither
    /// crashes in liblmdb's cursor nor calls the store clean.
    @Test("impossible flags inside a dupsort sub-page are found, and verify does not crash")
    func damagedSubPageNodes() throws {
        let dir = try TemporaryDirectory("verify-subpage")
        let s = try blobSchema()
        let store = try LMDBStore(directory: dir.url, schema: s)
        try store.write { tx in for i in 0..<30 { try tx.insert(try blob(s, i, size: 40)) } }   // 3 per group: sub-pages
        try store.close()
        let sound = [UInt8](try Data(contentsOf: dir.dataFile))
        #expect(try LMDBStore.verify(directory: dir.url, schema: s).isClean)
        // Sub-page headers: flags leaf|subpage (0x42) at offset 10, inside a page (not at its start).
        func u16(_ o: Int) -> Int { Int(sound[o]) | Int(sound[o + 1]) << 8 }
        let subPages = stride(from: 0, to: sound.count - 16, by: 1).filter { x in
            guard x % 4096 != 0, u16(x + 10) & ~0x10 == 0x42 else { return false }   // P_DIRTY may stay set
            let (lower, upper) = (u16(x + 12), u16(x + 14))
            return lower >= 18 && lower % 2 == 0 && lower <= upper && upper < 4096
                && (0..<(lower - 16) / 2).allSatisfy { u16(x + 16 + 2 * $0) >= upper }
        }
        #expect(subPages.count >= 10, "the group index holds sub-pages")
        var damaged = 0
        for x in subPages {
            let n = (Int(sound[x + 12]) - 16) / 2
            for i in 0..<n {
                let node = x + u16(x + 16 + 2 * i)
                for (offset, value) in [(4, 0x01), (4, 0x02), (4, 0x04), (0, 0x05)] {   // F_BIGDATA, F_SUBDATA, F_DUPDATA; a data size
                    var file = sound
                    file[node + offset] = UInt8(value)
                    try Data(file).write(to: dir.dataFile)
                    let report = try LMDBStore.verify(directory: dir.url, schema: s)
                    #expect(report.problems.contains { $0.area == "structure" && $0.detail.contains("sub-page") }, "\(report)")
                    damaged += 1
                }
            }
        }
        #expect(damaged >= 120)
    }

    @Test("the walk of a file's bytes in memory finds what verify's walk of the file finds")
    func walkOfBytesInMemory() throws {
        let (dir, s) = try soundStore("verify-bytes")
        let sound = [UInt8](try Data(contentsOf: dir.dataFile))
        let walk = LMDBPageWalk.check(bytes: sound)
        let report = try LMDBStore.verify(directory: dir.url, schema: s)
        #expect(walk.problems.isEmpty && report.checks.contains(walk.summary), "\(walk.problems) \(report.checks)")
        let cut = LMDBPageWalk.check(bytes: Array(sound.prefix(40 * 4096)))
        #expect(cut.problems.contains { $0.contains("past the end of the file") }, "\(cut.problems)")
        #expect(LMDBPageWalk.check(bytes: Array(sound.prefix(100))).problems == ["the file is 100 bytes: too short for LMDB's meta pages"])
    }

    @Test("a truncated file is found, with the page it should reach")
    func truncatedFile() throws {
        let (dir, s) = try soundStore("verify-truncated")
        let handle = try FileHandle(forUpdating: dir.dataFile)
        try handle.truncate(atOffset: 40 * 4096)
        try handle.close()
        let report = try LMDBStore.verify(directory: dir.url, schema: s)
        #expect(report.problems.contains { $0.detail.contains("past the end of the file") }, "\(report)")
    }

    @Test("an index entry without its record, written behind the store's back, is found")
    func orphanIndexEntry() throws {
        let (dir, s) = try soundStore("verify-index")
        // Another client of the engine adds one entry to the group index.
        putBehindTheStore(dir, "Blob#group", dupsort: true, KeyEncoding.encode(.int64(3)), KeyEncoding.encode(.int64(999_999)))
        let report = try LMDBStore.verify(directory: dir.url, schema: s)
        #expect(report.problems.contains { $0.area == "Blob#group" && $0.detail.contains("not a stored record") }, "\(report)")
        #expect(report.problems.contains { $0.detail.contains("entries for") }, "\(report)")
    }

    @Test("a directory without data.mdb is `notFound`, not a new store")
    func noStore() throws {
        let dir = try TemporaryDirectory("verify-none")
        expectCategory(.notFound) { _ = try LMDBStore.verify(directory: dir.url, schema: try blobSchema()) }
        #expect(!FileManager.default.fileExists(atPath: dir.dataFile.path))
    }
}

/// `verify()` of ordered relationships: a list order that disagrees with the links.
extension LMDBVerifyTests {
    @Test("a list order repeating one link and missing another, written behind the store's back, is found")
    func brokenOrder() throws {
        let schema = try Schema(version: 1, entities: [
            EntityDescription("Album", primaryKey: "id", attributes: [Attribute("id", .int64)],
                              relationships: [Relationship("tracks", to: "Track", inverse: "album", .toMany, ordered: true)]),
            EntityDescription("Track", primaryKey: "id", attributes: [Attribute("id", .int64)],
                              relationships: [Relationship("album", to: "Album", inverse: "tracks", .toOne)]),
        ])
        let dir = try TemporaryDirectory("verify-order")
        let store = try LMDBStore(directory: dir.url, schema: schema)
        try store.write { tx in
            try tx.insert(try schema["Album"]!.record(["id": 1]))
            for i in 1...2 {
                try tx.insert(try schema["Track"]!.record(["id": .int64(Int64(i))]))
                try tx.link("Album", id: 1, "tracks", to: .int64(Int64(i)))
            }
        }
        try store.close()
        #expect(try LMDBStore.verify(directory: dir.url, schema: schema).isClean)
        let one = KeyEncoding.encode(.int64(1))
        putBehindTheStore(dir, "Album.tracks@order", dupsort: false, one, [0, UInt8(one.count)] + one + [0, UInt8(one.count)] + one)
        let report = try LMDBStore.verify(directory: dir.url, schema: schema)
        #expect(report.problems.contains { $0.area == "Album.tracks@order" && $0.detail.contains("missing or repeated positions") }, "\(report)")
    }
}

extension LMDBVerifyTests {
    /// Puts one entry into a named database of a closed store, as another client of the engine would.
    func putBehindTheStore(_ dir: TemporaryDirectory, _ database: String, dupsort: Bool, _ key: [UInt8], _ value: [UInt8]) {
        var env: OpaquePointer?
        mdb_env_create(&env)
        mdb_env_set_maxdbs(env, 16)
        #expect(mdb_env_open(env, dir.url.path, 0, 0o644) == 0)
        var txn: OpaquePointer?
        mdb_txn_begin(env, nil, 0, &txn)
        var dbi: MDB_dbi = 0
        #expect(mdb_dbi_open(txn, database, UInt32(dupsort ? MDB_DUPSORT : 0), &dbi) == 0)
        var key = key, value = value
        key.withUnsafeMutableBytes { k in
            value.withUnsafeMutableBytes { v in
                var mk = MDB_val(mv_size: k.count, mv_data: k.baseAddress), mv = MDB_val(mv_size: v.count, mv_data: v.baseAddress)
                #expect(mdb_put(txn, dbi, &mk, &mv, 0) == 0)
            }
        }
        #expect(mdb_txn_commit(txn) == 0)
        mdb_env_close(env)
    }
}
