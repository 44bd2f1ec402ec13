import CLMDB
import Foundation
import StoreCore

/// The LMDB floor: `mdb_put`, `mdb_get` and cursor walks over a minimal hand-written record
/// layout, with the same sync setting LMDBStore uses for the run's durability (`MDB_NOSYNC`
/// when relaxed). Users keep LMDBStore's two indexes (username unique, age+score duplicates).
///
/// Internal: owns one environment, freed in `close()`.
final class LMDBFloor: Floor {
    let engine = "lmdb"
    private var env: OpaquePointer?
    private var dbis: [String: MDB_dbi] = [:]
    private var reader: OpaquePointer?

    init(directory: String, durability: Durability) throws {
        var e: OpaquePointer?
        try check(mdb_env_create(&e), "mdb_env_create")
        env = e
        do {
            try check(mdb_env_set_maxdbs(e, 8), "mdb_env_set_maxdbs")
            try check(mdb_env_set_mapsize(e, 64 << 30), "mdb_env_set_mapsize")
            let flags = UInt32(MDB_NOTLS) | (durability == .relaxed ? UInt32(MDB_NOSYNC) : 0)
            try check(mdb_env_open(e, directory, flags, 0o644), "mdb_env_open \(directory)")
            try write { txn in
                for (name, dup) in [("User", false), ("User#username", false), ("User#age,score", true), ("Post", false), ("Row", false)] {
                    var dbi = MDB_dbi()
                    let flags = UInt32(MDB_CREATE) | (dup ? UInt32(MDB_DUPSORT) : 0)
                    try check(mdb_dbi_open(txn, name, flags, &dbi), "mdb_dbi_open \(name)")
                    dbis[name] = dbi
                }
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    func close() {
        if let reader { mdb_txn_abort(reader) }
        reader = nil
        if let env { mdb_env_close(env) }
        env = nil
    }

    // MARK: Loading

    func loadSocial(_ g: SocialGenerator) throws {
        try loadUsers(g)
        let postDBI = dbis["Post"]!
        var next: Int64 = 1
        while next <= Int64(g.posts) {
            let end = min(Int64(g.posts), next + 4_999)
            try write { txn in
                for pid in next...end {
                    let r = g.post(pid).record
                    var value = Encoder()
                    value.int(r[3].int64Value!)
                    value.double(r[4].dateValue!.timeIntervalSince1970)
                    value.byte(r[6].boolValue! ? 1 : 0)
                    value.optionalDouble(r[5].doubleValue)
                    value.string(r[1].stringValue!)
                    value.string(r[2].stringValue!)
                    try put(txn, postDBI, Self.key(pid), value.bytes, 0, "post \(pid)")
                }
            }
            next = end + 1
        }
    }

    // MARK: Workloads

    func insertUsers(_ users: [UserInput], timer: OperationTimer) throws {
        let (main, byName, byAge) = (dbis["User"]!, dbis["User#username"]!, dbis["User#age,score"]!)
        try timer.unit(operations: users.count) {
            try write { txn in
                for u in users {
                    let key = Self.key(u.id)
                    var value = Encoder()
                    value.string(u.username)
                    value.string(u.displayName)
                    value.optionalString(u.email)
                    value.optionalInt(u.age)
                    value.double(u.score)
                    value.byte(u.active ? 1 : 0)
                    value.double(u.joinedAt)
                    value.optionalBytes(u.avatar)
                    value.optionalBytes(u.externalID.map { x in withUnsafeBytes(of: x.uuid) { Array($0) } })
                    try put(txn, main, key, value.bytes, UInt32(MDB_NOOVERWRITE), "user \(u.id)")
                    try put(txn, byName, Array(u.username.utf8), key, UInt32(MDB_NOOVERWRITE), "username \(u.username)")
                    var ageKey: [UInt8] = u.age.map { [1] + Self.key($0) } ?? [0]
                    ageKey += Self.key(Int64(bitPattern: Self.orderedBits(u.score)))
                    try put(txn, byAge, ageKey, key, 0, "age,score of user \(u.id)")
                }
            }
        }
    }

    func readPosts(_ ids: [Int64], perTransaction: Int, timer: OperationTimer) throws -> Int {
        let dbi = dbis["Post"]!
        var sink = 0
        func read(_ txn: OpaquePointer, _ id: Int64) throws {
            var k = Self.key(id)
            var value = MDB_val()
            let rc = k.withUnsafeMutableBytes { kb -> Int32 in
                var key = MDB_val(mv_size: 8, mv_data: kb.baseAddress)
                return mdb_get(txn, dbi, &key, &value)
            }
            try check(rc, "mdb_get post \(id)")
            sink &+= Self.decodePost(id, value).touch
        }
        if perTransaction <= 1 {
            try timer.each(ids.count) { i in
                let txn = try beginRead()
                defer { mdb_txn_reset(txn) }
                try read(txn, ids[i])
            }
        } else {
            for start in stride(from: 0, to: ids.count, by: perTransaction) {
                let end = min(ids.count, start + perTransaction)
                try timer.unit(operations: end - start) {
                    let txn = try beginRead()
                    defer { mdb_txn_reset(txn) }
                    for i in start..<end { try read(txn, ids[i]) }
                }
            }
        }
        return sink
    }

    func scanPosts(timer: OperationTimer) throws -> Int {
        var sink = 0
        try walk("Post", timer: timer) { key, value in sink &+= Self.decodePost(Self.id(key), value).touch }
        return sink
    }

    func insertRows(first: Int64, count: Int, timer: OperationTimer) throws {
        let dbi = dbis["Row"]!
        try timer.unit(operations: count) {
            try write { txn in
                var value = [UInt8](repeating: 0, count: 80)
                for id in first..<(first + Int64(count)) {
                    value.withUnsafeMutableBytes { b in
                        for k in 0..<10 { b.storeBytes(of: (id &* 10 &+ Int64(k)).littleEndian, toByteOffset: 8 * k, as: Int64.self) }
                    }
                    try put(txn, dbi, Self.key(id), value, UInt32(MDB_NOOVERWRITE), "row \(id)")
                }
            }
        }
    }

    func fetchRows(timer: OperationTimer) throws -> Int {
        var sink = 0
        try walk("Row", timer: timer) { key, value in
            var h = Touch.fold(0, Touch.int(Self.id(key)))
            let raw = UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)
            for k in 0..<10 { h = Touch.fold(h, Touch.int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * k, as: Int64.self)))) }
            sink &+= h
        }
        return sink
    }

    // MARK: Helpers (internal)

    /// Walks a whole database with a cursor in one read transaction, timed as one span.
    private func walk(_ name: String, timer: OperationTimer, _ body: (MDB_val, MDB_val) -> Void) throws {
        let started = MonotonicClock.now()
        let txn = try beginRead()
        defer { mdb_txn_reset(txn) }
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(txn, dbis[name]!, &cursor), "mdb_cursor_open \(name)")
        defer { mdb_cursor_close(cursor) }
        var key = MDB_val(), value = MDB_val()
        var rows = 0
        var rc = mdb_cursor_get(cursor, &key, &value, MDB_FIRST)
        while rc == 0 {
            body(key, value)
            rows += 1
            rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)
        }
        if rc != MDB_NOTFOUND { try check(rc, "mdb_cursor_get \(name)") }
        timer.record(MonotonicClock.now() &- started, operations: rows)
    }

    /// The one read transaction, renewed for each use (a reset transaction keeps its slot).
    private func beginRead() throws -> OpaquePointer {
        if let reader {
            try check(mdb_txn_renew(reader), "mdb_txn_renew")
            return reader
        }
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin read-only")
        reader = txn
        return txn!
    }

    private func write(_ body: (OpaquePointer) throws -> Void) throws {
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
        do {
            try body(txn!)
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
        try check(mdb_txn_commit(txn), "mdb_txn_commit")
    }

    private func put(_ txn: OpaquePointer, _ dbi: MDB_dbi, _ key: [UInt8], _ value: [UInt8], _ flags: UInt32, _ what: String) throws {
        var key = key, value = value
        let rc = key.withUnsafeMutableBytes { kb in
            value.withUnsafeMutableBytes { vb in
                var k = MDB_val(mv_size: kb.count, mv_data: kb.baseAddress)
                var v = MDB_val(mv_size: vb.count, mv_data: vb.baseAddress)
                return mdb_put(txn, dbi, &k, &v, flags)
            }
        }
        try check(rc, "mdb_put \(what)")
    }

    private func check(_ rc: Int32, _ what: String) throws {
        if rc != 0 { throw BenchError("lmdb floor: \(String(cString: mdb_strerror(rc))) (code \(rc)) in \(what)") }
    }

    /// Big-endian with the sign bit flipped, so byte order is numeric order.
    static func key(_ id: Int64) -> [UInt8] {
        let u = UInt64(bitPattern: id) ^ (1 << 63)
        return (0..<8).map { UInt8(truncatingIfNeeded: u >> UInt64(56 - 8 * $0)) }
    }

    static func id(_ key: MDB_val) -> Int64 {
        let raw = UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size)
        return Int64(bitPattern: UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)) ^ (1 << 63))
    }

    static func orderedBits(_ d: Double) -> UInt64 {
        let b = d.bitPattern
        return (b >> 63 == 1) ? ~b : b | (1 << 63)
    }

    static func decodePost(_ id: Int64, _ value: MDB_val) -> PostOutput {
        var d = Decoder(UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
        let score = d.int()
        let created = d.double()
        let published = d.byte() != 0
        let rating = d.optionalDouble()
        return PostOutput(id: id, title: d.string(), body: d.string(), score: score,
                          createdAt: Date(timeIntervalSince1970: created), rating: rating, published: published)
    }

    /// The floor's record layout: little-endian fixed fields, u32-length-prefixed strings and
    /// bytes, a presence byte before optional fields.
    struct Encoder {
        var bytes: [UInt8] = []
        init() { bytes.reserveCapacity(128) }
        mutating func byte(_ b: UInt8) { bytes.append(b) }
        mutating func int(_ v: Int64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func double(_ v: Double) { int(Int64(bitPattern: v.bitPattern)) }
        mutating func raw(_ b: [UInt8]) {
            withUnsafeBytes(of: UInt32(b.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: b)
        }
        mutating func string(_ s: String) { raw(Array(s.utf8)) }
        mutating func optionalString(_ s: String?) { if let s { byte(1); string(s) } else { byte(0) } }
        mutating func optionalInt(_ v: Int64?) { if let v { byte(1); int(v) } else { byte(0) } }
        mutating func optionalDouble(_ v: Double?) { if let v { byte(1); double(v) } else { byte(0) } }
        mutating func optionalBytes(_ v: [UInt8]?) { if let v { byte(1); raw(v) } else { byte(0) } }
    }

    struct Decoder {
        let buffer: UnsafeRawBufferPointer
        var offset = 0
        init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }
        mutating func byte() -> UInt8 { defer { offset += 1 }; return buffer[offset] }
        mutating func int() -> Int64 {
            defer { offset += 8 }
            return Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Int64.self))
        }
        mutating func double() -> Double { Double(bitPattern: UInt64(bitPattern: int())) }
        mutating func optionalDouble() -> Double? { byte() == 1 ? double() : nil }
        mutating func string() -> String {
            let n = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            offset += 4
            defer { offset += n }
            return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + n)]), as: UTF8.self)
        }
    }
}
