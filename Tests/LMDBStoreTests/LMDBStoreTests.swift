import CLMDB
import Foundation
import LMDBStore
import StoreConformance
import StoreCore
import Testing

/// LMDB-specific behaviour beyond the kit: map growth and a full map, reopening, snapshots
/// under concurrent commits, files that are not stores, nested writes.
@Suite("LMDBStore")
struct LMDBStoreTests {
    let schema = SocialSchema.make()

    @Test("one write far larger than the initial map grows the map and commits; data intact after reopen")
    func mapGrowsInsideOneWrite() throws {
        let dir = try TemporaryDirectory("grow")
        let s = try blobSchema()
        let small = LMDBStore.MapSize(initial: 1 << 20, maximum: 1 << 32)
        let store = try LMDBStore(directory: dir.url, schema: s, mapSize: small)
        let initial = store.mapSize
        var runs = 0
        try store.write { tx in
            runs += 1
            for i in 0..<400 { try tx.insert(try blob(s, i, size: 64 << 10)) }   // 25 MiB
        }
        #expect(store.mapGrowths >= 1)
        #expect(store.mapSize > 20 << 20, "map size \(store.mapSize) after a 25 MiB write (started at \(initial))")
        #expect(runs == store.mapGrowths + 1, "the closure runs once more per growth")
        // Read in the grown (possibly moved) map: every value passes the map-bounds check.
        #expect(try store.read { try $0.fetch(Query("Blob")).count } == 400)
        #expect(try store.read { try $0.fetch("Blob", id: 399)?["payload"].bytesValue?.count } == 64 << 10)
        try store.close()
        let reopened = try LMDBStore(directory: dir.url, schema: s, mapSize: small)
        #expect(try reopened.read { try $0.count(Query("Blob")) } == 400)
        #expect(try reopened.read { try $0.fetch("Blob", id: 399)?["payload"].bytesValue?.count } == 64 << 10)
        #expect(try reopened.read { try $0.count(Query("Blob", where: "group" == 3)) } == 40)
    }

    @Test("a full map at its maximum gives `storageFull` and leaves stored data intact")
    func fullMapAtMaximum() throws {
        let dir = try TemporaryDirectory("full")
        let s = try blobSchema()
        let store = try LMDBStore(directory: dir.url, schema: s, mapSize: .init(initial: 1 << 20, maximum: 4 << 20))
        try store.write { tx in for i in 0..<10 { try tx.insert(try blob(s, i, size: 1000)) } }
        let e = expectCategory(.storageFull) {
            try store.write { tx in for i in 100..<300 { try tx.insert(try blob(s, i, size: 64 << 10)) } }
        }
        #expect(e?.nativeCode == MDB_MAP_FULL)
        #expect(try store.read { try $0.count(Query("Blob")) } == 10)
        // Still usable for writes that fit.
        try store.write { try $0.insert(try blob(s, 11, size: 1000)) }
        #expect(try store.read { try $0.count(Query("Blob")) } == 11)
    }

    @Test("a write that catches the full-map error itself is still grown and run again")
    func caughtMapFullIsStillRetried() throws {
        let dir = try TemporaryDirectory("caught")
        let s = try blobSchema()
        let store = try LMDBStore(directory: dir.url, schema: s, mapSize: .init(initial: 1 << 20))
        try store.write { tx in
            for i in 0..<100 {
                do { try tx.insert(try blob(s, i, size: 32 << 10)) } catch {}   // swallows everything
            }
        }
        #expect(try store.read { try $0.count(Query("Blob")) } == 100)
    }

    @Test("a reader's snapshot is unchanged while writers commit, across a map growth")
    func snapshotUnderConcurrentCommits() throws {
        let dir = try TemporaryDirectory("snap")
        let s = try blobSchema()
        let store = try LMDBStore(directory: dir.url, schema: s, mapSize: .init(initial: 1 << 20))
        try store.write { tx in for i in 0..<50 { try tx.insert(try blob(s, i, size: 100)) } }
        try store.read { tx in
            let before = try tx.fetch(Query("Blob")).map(\.id)
            let done = DispatchSemaphore(value: 0)
            Thread {
                try? store.write { w in
                    try w.delete("Blob", id: 0)
                    try w.update("Blob", id: 1, set: ["group": 99])
                    try w.insert(try blob(s, 1000, size: 100))
                }
                done.signal()
            }.start()
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(try tx.fetch(Query("Blob")).map(\.id) == before)
            #expect(try tx.fetch("Blob", id: 1)?["group"] == 1)
        }
        #expect(try store.read { try $0.count(Query("Blob")) } == 50)
        #expect(try store.read { try $0.fetch("Blob", id: 1)?["group"] } == 99)

        // Readers on four threads while one writer grows the map several times.
        let failures = ErrorList()
        let group = DispatchGroup()
        let stop = Flag()
        for t in 0..<4 {
            group.enter()
            Thread {
                defer { group.leave() }
                while !stop.isSet {
                    do {
                        try store.read { tx in
                            let n = try tx.count(Query("Blob"))
                            let m = try tx.fetch(Query("Blob", where: "group" >= 0)).count
                            if n != m { failures.add("reader \(t): count \(n) but fetched \(m)") }
                        }
                    } catch { failures.add("reader \(t): \(error)") }
                }
            }.start()
        }
        for i in 0..<40 {
            try store.write { tx in for j in 0..<10 { try tx.insert(try blob(s, 2000 + i * 10 + j, size: 16 << 10)) } }
        }
        stop.set()
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        #expect(store.mapGrowths >= 1, "the map grew \(store.mapGrowths) times under readers")
        #expect(try store.read { try $0.count(Query("Blob")) } == 450)
    }

    @Test("data, indexes and links are intact after close and reopen")
    func reopen() throws {
        let dir = try TemporaryDirectory("reopen")
        var store: LMDBStore? = try LMDBStore(directory: dir.url, schema: schema)
        try SocialFixture.load(into: store!)
        let before = try store!.read { tx in try schema.entities.map { try tx.fetch(Query($0.name)) } }
        try store!.close()
        store = nil
        let again = try LMDBStore(directory: dir.url, schema: schema)
        #expect(try again.read { tx in try schema.entities.map { try tx.fetch(Query($0.name)) } } == before)
        #expect(try again.read { try $0.fetch(Query("User", where: "username" == "ann")).map(\.id) } == [1])
        #expect(try again.read { try $0.related("User", id: 1, via: "posts").map(\.id) }.isEmpty == false)
    }

    @Test("files that are not a StoreBench LMDB store give `corrupted` and are left as they were")
    func damagedFiles() throws {
        // Noise in data.mdb.
        let noise = try TemporaryDirectory("noise")
        let garbage = Data((0..<16384).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        try garbage.write(to: noise.dataFile)
        let e = expectCategory(.corrupted) { _ = try LMDBStore(directory: noise.url, schema: schema) }
        #expect(e?.nativeCode == MDB_INVALID)
        #expect(try Data(contentsOf: noise.dataFile) == garbage)

        // A real store cut short.
        let cut = try TemporaryDirectory("cut")
        do {
            let s = try blobSchema()
            let store = try LMDBStore(directory: cut.url, schema: s)
            try store.write { tx in for i in 0..<200 { try tx.insert(try blob(s, i, size: 2000)) } }
            try store.close()
            let full = try Data(contentsOf: cut.dataFile)
            try full.prefix(full.count / 2).write(to: cut.dataFile)
            expectCategory(.corrupted) { _ = try LMDBStore(directory: cut.url, schema: s) }
            try full.prefix(100).write(to: cut.dataFile)
            expectCategory(.corrupted) { _ = try LMDBStore(directory: cut.url, schema: s) }
        }

        // An LMDB environment written by someone else.
        let foreign = try TemporaryDirectory("foreign")
        var env: OpaquePointer?
        mdb_env_create(&env)
        mdb_env_open(env, foreign.url.path, 0, 0o644)
        var txn: OpaquePointer?
        mdb_txn_begin(env, nil, 0, &txn)
        var k = MDB_val(mv_size: 3, mv_data: strdup("key")), v = MDB_val(mv_size: 5, mv_data: strdup("value"))
        mdb_put(txn, 1, &k, &v, 0)
        mdb_txn_commit(txn)
        mdb_env_close(env)
        free(k.mv_data); free(v.mv_data)
        let f = expectCategory(.corrupted) { _ = try LMDBStore(directory: foreign.url, schema: schema) }
        #expect(f?.message.contains("not a StoreBench store") == true)
    }

    /// A node whose stored size runs far past the end of the data file: LMDB hands out the
    /// pointer and the size as they are, and copying that value read unmapped file pages
    /// (SIGBUS). Each read now checks the value against the map's committed pages first.
    @Test("a value whose stored size runs past the data file is `corrupted`, not a crash")
    func valueLengthPastTheFile() throws {
        let dir = try TemporaryDirectory("oversize")
        let s = try blobSchema()
        let needle: Int64 = 0x5EED_5EED_5EED
        do {
            let store = try LMDBStore(directory: dir.url, schema: s)
            try store.write { tx in
                for i in 0..<20 { try tx.insert(try blob(s, i, size: 100)) }
                try tx.insert(try blob(s, Int(needle), size: 100))
            }
            try store.close()
        }
        // The record's leaf node: its key (9 bytes) preceded by a header of data size (lo, hi),
        // flags and key size, all 16-bit little-endian; the index's copy of the key has size 0.
        var file = [UInt8](try Data(contentsOf: dir.dataFile))
        let key = KeyEncoding.encode(.int64(needle))
        var patched = 0
        for o in 8...(file.count - key.count) where Array(file[o..<(o + key.count)]) == key {
            let ksize = Int(file[o - 2]) | Int(file[o - 1]) << 8
            let size = Int(file[o - 8]) | Int(file[o - 7]) << 8 | Int(file[o - 6]) << 16 | Int(file[o - 5]) << 24
            guard ksize == key.count, size > 50, size < 1_000 else { continue }
            file[o - 6] = 0xFF; file[o - 5] = 0x7F   // the size's high half: now about 2 GiB
            patched += 1
        }
        #expect(patched == 1, "the record's node was found once")
        try Data(file).write(to: dir.dataFile)

        let store = try LMDBStore(directory: dir.url, schema: s)
        defer { try? store.close() }
        let e = expectCategory(.corrupted) { _ = try store.read { try $0.fetch("Blob", id: .int64(needle)) } }
        #expect(e?.message.contains("outside the data file") == true, "\(String(describing: e))")
        expectCategory(.corrupted) { _ = try store.read { try $0.fetch(Query("Blob")) } }
        expectCategory(.corrupted) { try store.read { try $0.forEach(Query("Blob")) { _ in } } }
        #expect(try store.read { try $0.fetch("Blob", id: 3)?["group"] } == 3, "undamaged records still read")
    }

    @Test("opening a directory this process has open is `busy`; after close it opens")
    func doubleOpen() throws {
        let dir = try TemporaryDirectory("double")
        let store = try LMDBStore(directory: dir.url, schema: schema)
        expectCategory(.busy) { _ = try LMDBStore(directory: dir.url, schema: schema) }
        try store.close()
        let again = try LMDBStore(directory: dir.url, schema: schema)
        try again.close()
    }

    @Test("a nested write or close() inside a write is `busy`, not a deadlock")
    func nestedWrite() throws {
        let dir = try TemporaryDirectory("nested")
        let store = try LMDBStore(directory: dir.url, schema: schema)
        try store.write { _ in
            expectCategory(.busy) { try store.write { _ in } }
            expectCategory(.busy) { try store.close() }
        }
        try store.close()
        expectCategory(.closed) { _ = try store.read { _ in 0 } }
    }

    @Test("read transactions are reused, except one kept past its closure: that one stays closed")
    func keptReadTransactionStaysClosed() throws {
        let dir = try TemporaryDirectory("kept-read")
        let store = try LMDBStore(directory: dir.url, schema: schema)
        try store.write { try $0.insert(try schema["Tag"]!.record(["name": "a"])) }
        // Reads that keep nothing reuse one transaction object (the pool's point).
        let first = try store.read { ObjectIdentifier($0 as AnyObject) }
        #expect(try store.read { ObjectIdentifier($0 as AnyObject) } == first, "a read that kept nothing gives its object back")
        var kept: (any ReadTransaction)?
        try store.read { kept = $0 }
        for name in ["b", "c"] {
            // Each later read sees the newest commit, through a pooled or a fresh transaction.
            #expect(try store.read { try $0.count(Query("Tag")) } == (name == "b" ? 1 : 2))
            try store.write { try $0.insert(try schema["Tag"]!.record(["name": .string(name)])) }
            expectCategory(.closed) { _ = try kept!.fetch("Tag", id: "a") }
            try store.read { tx throws -> Void in
                #expect(tx as AnyObject !== kept! as AnyObject, "a kept transaction is never handed out again")
                #expect(try tx.fetch("Tag", id: "a") != nil)
            }
        }
        try store.close()
        expectCategory(.closed) { _ = try kept!.count(Query("Tag")) }
    }

    @Test("writes inside a read transaction are `unsupported`")
    func writeInRead() throws {
        let dir = try TemporaryDirectory("readonly")
        let store = try LMDBStore(directory: dir.url, schema: schema)
        try store.read { tx -> Void in
            expectCategory(.unsupported) { try (tx as! WriteTransaction).insert(try schema["Tag"]!.record(["name": "x"])) }
        }
    }
}

/// Thread-safe helpers for the concurrency tests.
final class ErrorList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.withLock { items.append(s) } }
    var all: [String] { lock.withLock { items } }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
