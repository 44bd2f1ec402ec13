import CLMDB
import Foundation
import StoreCore
import StoreBenchKit

/// The LMDB floor: `mdb_put`, `mdb_get` and cursor walks over a minimal hand-written record
/// layout, with the databases LMDBStore keeps for the same data (a primary database per
/// entity, a dupsort database per index and per side of each relationship) and the same
/// environment flags (`MDB_NOTLS`, `MDB_NOSYNC` when relaxed). Like LMDBStore, the map starts
/// at 1 GiB and doubles when a write fills it (the write starts again); like LMDBStore, one
/// read transaction handle is reset after each read and renewed for the next.
///
/// Keys are built on the stack or in a reused buffer and values in a reused buffer, so a put
/// or a get allocates nothing. Integer keys are 8 bytes, big-endian with the sign bit flipped
/// (LMDBStore adds a tag byte in front, which order-preserving integer keys do not need).
///
/// Internal: owns one environment, freed in `close()`.
final class LMDBFloor: Floor {
    let engine = "lmdb"
    private(set) var transactionsBegun = 0
    private let durability: Durability
    private var env: OpaquePointer?
    private var reader: OpaquePointer?
    private(set) var dbis: [String: MDB_dbi] = [:]
    private(set) var user = MDB_dbi(), userByName = MDB_dbi(), userByAgeScore = MDB_dbi()
    private(set) var post = MDB_dbi(), postByCreatedAt = MDB_dbi(), postByPublishedScore = MDB_dbi()
    private(set) var comment = MDB_dbi(), tag = MDB_dbi(), row = MDB_dbi()
    /// Encoded values and the second key of a link, reused by every put.
    private let value = ScratchBuffer(), key = ScratchBuffer(), otherKey = ScratchBuffer()
    /// Primary keys a query collects before it reads their records, reused by every query.
    var collectedKeys: [Int64] = []

    /// LMDBStore's first map size (`LMDBStore.MapSize.initial`) and its largest.
    static let initialMapSize = 1 << 30
    static let maximumMapSize = 1 << 40

    /// Every database: name and whether it is dupsort. Relationship databases hold both sides.
    static let databases: [(String, Bool)] = [
        ("User", false), ("User#username", false), ("User#age,score", true),
        ("Post", false), ("Post#createdAt", true), ("Post#published,score", true),
        ("Comment", false), ("Tag", false), ("Row", false),
        ("Post.author", true), ("User.posts", true), ("Post.tags", true), ("Tag.posts", true),
        ("Comment.post", true), ("Post.comments", true), ("Comment.author", true), ("User.comments", true),
        ("Comment.parent", true), ("Comment.replies", true), ("User.following", true), ("User.followers", true),
    ]

    /// The databases of the two sides of a link of the dataset: (forward, inverse).
    private func linkDatabases(_ l: SocialLink) throws -> (MDB_dbi, MDB_dbi) {
        let names: (String, String)
        switch (l.entity, l.relationship) {
        case ("Post", "author"): names = ("Post.author", "User.posts")
        case ("Post", "tags"): names = ("Post.tags", "Tag.posts")
        case ("Comment", "post"): names = ("Comment.post", "Post.comments")
        case ("Comment", "author"): names = ("Comment.author", "User.comments")
        case ("Comment", "parent"): names = ("Comment.parent", "Comment.replies")
        case ("User", "following"): names = ("User.following", "User.followers")
        default: throw BenchError("lmdb floor: no databases for the link \(l.entity).\(l.relationship)")
        }
        return (dbis[names.0]!, dbis[names.1]!)
    }

    /// `syncFlags` (`MDB_NOMETASYNC`, `MDB_NOSYNC`) replace the ones of `durability` (a commit
    /// mode of the durability suite).
    init(directory: String, durability: Durability, syncFlags: UInt32? = nil) throws {
        self.durability = durability
        var e: OpaquePointer?
        try check(mdb_env_create(&e), "mdb_env_create")
        env = e
        do {
            try check(mdb_env_set_maxdbs(e, MDB_dbi(Self.databases.count + 4)), "mdb_env_set_maxdbs")
            try check(mdb_env_set_mapsize(e, Self.initialMapSize), "mdb_env_set_mapsize")
            let flags = UInt32(MDB_NOTLS) | (syncFlags ?? (durability == .relaxed ? UInt32(MDB_NOSYNC) : 0))
            try check(mdb_env_open(e, directory, flags, 0o644), "mdb_env_open \(directory)")
            try write { txn in
                for (name, dup) in Self.databases {
                    var dbi = MDB_dbi()
                    let flags = UInt32(MDB_CREATE) | (dup ? UInt32(MDB_DUPSORT) : 0)
                    try check(mdb_dbi_open(txn, name, flags, &dbi), "mdb_dbi_open \(name)")
                    dbis[name] = dbi
                }
            }
            (user, userByName, userByAgeScore) = (dbis["User"]!, dbis["User#username"]!, dbis["User#age,score"]!)
            (post, postByCreatedAt, postByPublishedScore) = (dbis["Post"]!, dbis["Post#createdAt"]!, dbis["Post#published,score"]!)
            (comment, tag, row) = (dbis["Comment"]!, dbis["Tag"]!, dbis["Row"]!)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    func close() {
        if let reader { mdb_txn_abort(reader) }
        reader = nil
        if let env {
            if durability == .relaxed { mdb_env_sync(env, 1) }   // as LMDBStore closes a relaxed store
            mdb_env_close(env)
        }
        env = nil
    }

    // MARK: Loading

    func storeSocial(_ records: [Record], links: [SocialLink]) throws {
        try write { txn in
            for r in records {
                switch r.entity.name {
                case "User": try putUser(txn, UserInput(r))
                case "Post": try putPost(txn, r)
                case "Comment": try putComment(txn, r)
                case "Tag": try putTag(txn, r)
                default: throw BenchError("lmdb floor: no database for \(r.entity.name)")
                }
            }
            for l in links {
                let (forward, backward) = try linkDatabases(l)
                Self.encodeKey(l.source, into: key)
                Self.encodeKey(l.target, into: otherKey)
                try put(txn, forward, key.bytes, otherKey.bytes, UInt32(MDB_NODUPDATA), "link \(l.entity).\(l.relationship)")
                try put(txn, backward, otherKey.bytes, key.bytes, UInt32(MDB_NODUPDATA), "inverse link \(l.entity).\(l.relationship)")
            }
        }
    }

    // MARK: Workloads

    func insertUsers(_ users: [UserInput], timer: OperationTimer) throws {
        try timer.unit(operations: users.count) {
            try write { txn in
                for i in 0..<users.count { try putUser(txn, users[i]) }  // by index: see rereadPosts
            }
        }
    }

    func readPosts(_ ids: [Int64], perTransaction: Int, timer: OperationTimer) throws -> Int {
        var sink = 0
        if perTransaction <= 1 {
            try timer.each(ids.count) { i in
                try read { txn in sink &+= try readPost(txn, ids[i]) }
            }
        } else {
            try timer.batches(ids.count, of: perTransaction) { r in
                try read { txn in
                    for i in r { sink &+= try readPost(txn, ids[i]) }
                }
            }
        }
        return sink
    }

    func rereadPosts(_ hot: [Int64], rounds: Int, timer: OperationTimer) throws -> Int {
        var sink = 0
        try read { txn in
            for _ in 0..<rounds {
                try timer.unit(operations: hot.count) {
                    for i in 0..<hot.count { sink &+= try readPost(txn, hot[i]) }  // by index: for-in over an array allocates per element at -Onone
                }
            }
        }
        return sink
    }

    func scanPosts(timer: OperationTimer) throws -> Int {
        var sink = 0
        try walk(post, timer: timer) { key, value in sink &+= Self.decodePost(Self.id(key), value).touch }
        return sink
    }

    func insertRows(first: Int64, count: Int, timer: OperationTimer) throws {
        try timer.unit(operations: count) {
            try write { txn in
                var values = (Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0))
                try withUnsafeMutableBytes(of: &values) { v in
                    for i in 0..<count {  // an Int range: a Range<Int64> allocates per element at -Onone
                        let id = first &+ Int64(i)
                        for k in 0..<10 { v.storeBytes(of: (id &* 10 &+ Int64(k)).littleEndian, toByteOffset: 8 * k, as: Int64.self) }
                        try withKey(id) { k in try put(txn, row, k, UnsafeRawBufferPointer(v), UInt32(MDB_NOOVERWRITE), "row \(id)") }
                    }
                }
            }
        }
    }

    func fetchRows(timer: OperationTimer) throws -> Int {
        var sink = 0
        try walk(row, timer: timer) { key, value in
            var h = Touch.fold(0, Touch.int(Self.id(key)))
            let raw = UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)
            for k in 0..<10 { h = Touch.fold(h, Touch.int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * k, as: Int64.self)))) }
            sink &+= h
        }
        return sink
    }

    // MARK: Inspection (tests)

    /// What is stored, by entity and by link (`Entity.relationship`), as the generator counts
    /// it; a link whose two sides hold different numbers of entries counts -1.
    func storedCounts() throws -> [String: Int] {
        try read { txn in
            func entries(_ dbi: MDB_dbi) throws -> Int {
                var s = MDB_stat()
                try check(mdb_stat(txn, dbi, &s), "mdb_stat")
                return Int(s.ms_entries)
            }
            var out: [String: Int] = [:]
            for name in ["User", "Post", "Comment", "Tag"] { out[name] = try entries(dbis[name]!) }
            for (e, r) in [("Post", "author"), ("Post", "tags"), ("Comment", "post"), ("Comment", "author"), ("Comment", "parent"), ("User", "following")] {
                let (forward, backward) = try linkDatabases(SocialLink(entity: e, relationship: r, source: .null, target: .null))
                let n = try entries(forward)
                out["\(e).\(r)"] = try entries(backward) == n ? n : -1
            }
            return out
        }
    }

    /// The checksum of every user, every field, as `Touch.row` folds a backend's `User`.
    func usersChecksum() throws -> Int {
        var sink = 0
        try walk(user, timer: OperationTimer(minimumSpan: 0)) { key, value in
            var d = Decoder(UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
            var h = Touch.fold(0, Touch.int(Self.id(key)))
            h = Touch.fold(h, Touch.string(d.string()))
            h = Touch.fold(h, Touch.string(d.string()))
            h = Touch.fold(h, d.present() ? Touch.string(d.string()) : Touch.null)
            h = Touch.fold(h, d.present() ? Touch.int(d.int()) : Touch.null)
            h = Touch.fold(h, Touch.double(d.double()))
            h = Touch.fold(h, Touch.bool(d.byte() != 0))
            h = Touch.fold(h, Touch.date(Date(timeIntervalSince1970: d.double())))
            h = Touch.fold(h, d.present() ? d.raw().count : Touch.null)
            h = Touch.fold(h, d.present() ? Int(truncatingIfNeeded: d.raw().loadUnaligned(as: Int64.self)) : Touch.null)
            sink &+= h
        }
        return sink
    }

    // MARK: Records (internal)

    /// A user: the record, its unique username entry (refused when taken) and its (age, score)
    /// entry.
    @inline(__always)
    private func putUser(_ txn: OpaquePointer, _ u: UserInput) throws {
        value.reset()
        Self.appendString(u.username, to: value)
        Self.appendString(u.displayName, to: value)
        if let e = u.email { value.append(1); Self.appendString(e, to: value) } else { value.append(0) }
        if let a = u.age { value.append(1); value.append(littleEndian: a) } else { value.append(0) }
        value.append(littleEndian: u.score.bitPattern)
        value.append(u.active ? 1 : 0)
        value.append(littleEndian: u.joinedAt.bitPattern)
        if let a = u.avatar { value.append(1); value.append(littleEndian: UInt32(a.count)); value.append(a) } else { value.append(0) }
        if let x = u.externalID {
            value.append(1)
            value.append(littleEndian: UInt32(16))
            withUnsafeBytes(of: x.uuid) { value.append($0) }
        } else {
            value.append(0)
        }
        key.reset()
        if let a = u.age { key.append(1); key.append(bigEndian: Self.orderedBits(a)) } else { key.append(0) }
        key.append(bigEndian: Self.orderedBits(u.score))
        try withKey(u.id) { pk in
            try put(txn, user, pk, value.bytes, UInt32(MDB_NOOVERWRITE), "user \(u.id)")
            var name = u.username
            try name.withUTF8 { n in try put(txn, userByName, UnsafeRawBufferPointer(n), pk, UInt32(MDB_NOOVERWRITE), "username \(u.username)") }
            try put(txn, userByAgeScore, key.bytes, pk, 0, "age,score of user \(u.id)")
        }
    }

    /// A post: the record and its `createdAt` and `(published, score)` entries.
    private func putPost(_ txn: OpaquePointer, _ r: Record) throws {
        let id = r[0].int64Value!, score = r[3].int64Value!, created = r[4].dateValue!.timeIntervalSince1970
        let published = r[6].boolValue!
        value.reset()
        value.append(littleEndian: score)
        value.append(littleEndian: created.bitPattern)
        value.append(published ? 1 : 0)
        if let rating = r[5].doubleValue { value.append(1); value.append(littleEndian: rating.bitPattern) } else { value.append(0) }
        Self.appendString(r[1].stringValue!, to: value)
        Self.appendString(r[2].stringValue!, to: value)
        try withKey(id) { pk in
            try put(txn, post, pk, value.bytes, UInt32(MDB_NOOVERWRITE), "post \(id)")
            key.reset()
            key.append(bigEndian: Self.orderedBits(created))
            try put(txn, postByCreatedAt, key.bytes, pk, 0, "createdAt of post \(id)")
            key.reset()
            key.append(published ? 1 : 0)
            key.append(bigEndian: Self.orderedBits(score))
            try put(txn, postByPublishedScore, key.bytes, pk, 0, "published,score of post \(id)")
        }
    }

    private func putComment(_ txn: OpaquePointer, _ r: Record) throws {
        let id = r[0].int64Value!
        value.reset()
        value.append(littleEndian: r[2].dateValue!.timeIntervalSince1970.bitPattern)
        Self.appendString(r[1].stringValue!, to: value)
        try withKey(id) { pk in try put(txn, comment, pk, value.bytes, UInt32(MDB_NOOVERWRITE), "comment \(id)") }
    }

    private func putTag(_ txn: OpaquePointer, _ r: Record) throws {
        value.reset()
        if let c = r[1].stringValue { value.append(1); Self.appendString(c, to: value) } else { value.append(0) }
        key.reset()
        key.append(r[0].stringValue!)
        try put(txn, tag, key.bytes, value.bytes, UInt32(MDB_NOOVERWRITE), "tag \(r[0])")
    }

    /// One post by key, folded.
    @inline(__always)
    private func readPost(_ txn: OpaquePointer, _ id: Int64) throws -> Int {
        var found = MDB_val()
        let rc = withKey(id) { k -> Int32 in
            var kv = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
            return mdb_get(txn, post, &kv, &found)
        }
        try check(rc, "mdb_get post \(id)")
        return Self.decodePost(id, found).touch
    }

    // MARK: Transactions (internal)

    /// The one place a transaction begins: a write transaction, or the read handle begun once
    /// and renewed after each reset.
    @inline(__always)
    private func begin(readOnly: Bool) throws -> OpaquePointer {
        transactionsBegun += 1
        if readOnly, let reader {
            try check(mdb_txn_renew(reader), "mdb_txn_renew")
            return reader
        }
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn), "mdb_txn_begin")
        if readOnly { reader = txn }
        return txn!
    }

    /// A read transaction; reset (its handle kept for the next) when `body` returns.
    @inline(__always)
    func read<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        let txn = try begin(readOnly: true)
        defer { mdb_txn_reset(txn) }
        return try body(txn)
    }

    /// A write transaction, committed when `body` returns. When the map is full, the
    /// transaction is aborted, the map doubled and `body` run again (as LMDBStore does).
    private func write<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        while true {
            let txn = try begin(readOnly: false)
            let result: T
            do {
                result = try body(txn)
            } catch is MapFull {
                mdb_txn_abort(txn)
                try growMap()
                continue
            } catch {
                mdb_txn_abort(txn)
                throw error
            }
            let rc = mdb_txn_commit(txn)
            if rc == MDB_MAP_FULL {
                try growMap()
                continue
            }
            try check(rc, "mdb_txn_commit")
            return result
        }
    }

    private struct MapFull: Error {}

    /// Doubles the map (no transaction of this process may be open: the reader is let go).
    private func growMap() throws {
        if let reader { mdb_txn_abort(reader) }
        reader = nil
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        guard info.me_mapsize < Self.maximumMapSize else { throw BenchError("lmdb floor: the map is full at \(info.me_mapsize) bytes") }
        try check(mdb_env_set_mapsize(env, min(Self.maximumMapSize, info.me_mapsize * 2)), "mdb_env_set_mapsize")
    }

    /// Walks a whole database with a cursor in one read transaction, timed as one span (from
    /// before the transaction begins to after it is reset, as the backends' scans are).
    private func walk(_ dbi: MDB_dbi, timer: OperationTimer, _ body: (MDB_val, MDB_val) -> Void) throws {
        let started = MonotonicClock.now()
        let rows = try read { txn -> Int in
            var cursor: OpaquePointer?
            try check(mdb_cursor_open(txn, dbi, &cursor), "mdb_cursor_open")
            defer { mdb_cursor_close(cursor) }
            var key = MDB_val(), value = MDB_val()
            var rows = 0
            var rc = mdb_cursor_get(cursor, &key, &value, MDB_FIRST)
            while rc == 0 {
                body(key, value)
                rows += 1
                rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)
            }
            if rc != MDB_NOTFOUND { try check(rc, "mdb_cursor_get") }
            return rows
        }
        timer.record(MonotonicClock.now() &- started, operations: rows)
    }

    @inline(__always)
    private func put(_ txn: OpaquePointer, _ dbi: MDB_dbi, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer,
                     _ flags: UInt32, _ what: @autoclosure () -> String) throws {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_put(txn, dbi, &k, &v, flags)
        if rc == MDB_MAP_FULL { throw MapFull() }
        if rc != 0 { try check(rc, "mdb_put \(what())") }
    }

    @inline(__always)
    func check(_ rc: Int32, _ what: @autoclosure () -> String) throws {
        if rc != 0 { throw BenchError("lmdb floor: \(String(cString: mdb_strerror(rc))) (code \(rc)) in \(what())") }
    }

    // MARK: Layout (internal)

    /// Runs `body` with the 8-byte key of `id` on the stack: big-endian with the sign bit
    /// flipped, so byte order is numeric order.
    @inline(__always)
    func withKey<T>(_ id: Int64, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let k = Self.orderedBits(id).bigEndian
        return try withUnsafeBytes(of: k) { try body($0) }
    }

    @inline(__always) static func orderedBits(_ v: Int64) -> UInt64 { UInt64(bitPattern: v) ^ (1 << 63) }

    @inline(__always) static func orderedBits(_ d: Double) -> UInt64 {
        let b = d.bitPattern
        return (b >> 63 == 1) ? ~b : b | (1 << 63)
    }

    /// The key of a link end: an integer key, or a tag's name.
    static func encodeKey(_ v: Value, into out: ScratchBuffer) {
        out.reset()
        switch v {
        case .int64(let n): out.append(bigEndian: orderedBits(n))
        case .string(let s): out.append(s)
        default: preconditionFailure("lmdb floor: a link end is an integer or a tag name, not \(v)")
        }
    }

    @inline(__always)
    static func id(_ key: MDB_val) -> Int64 {
        let raw = UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size)
        return Int64(bitPattern: UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)) ^ (1 << 63))
    }

    /// u32 length, then the UTF-8 bytes.
    @inline(__always)
    static func appendString(_ s: String, to out: ScratchBuffer) {
        out.append(littleEndian: UInt32(s.utf8.count))
        out.append(s)
    }

    @inline(__always)
    static func decodePost(_ id: Int64, _ value: MDB_val) -> PostOutput {
        var d = Decoder(UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
        let score = d.int()
        let created = d.double()
        let published = d.byte() != 0
        let rating = d.present() ? d.double() : nil
        return PostOutput(id: id, title: d.string(), body: d.string(), score: score,
                          createdAt: Date(timeIntervalSince1970: created), rating: rating, published: published)
    }

    /// Reads the floor's record layout: little-endian fixed fields, u32-length-prefixed
    /// strings and bytes, a presence byte before optional fields.
    struct Decoder {
        let buffer: UnsafeRawBufferPointer
        var offset = 0
        init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }
        @inline(__always) mutating func byte() -> UInt8 { defer { offset += 1 }; return buffer[offset] }
        @inline(__always) mutating func present() -> Bool { byte() == 1 }
        @inline(__always) mutating func int() -> Int64 {
            defer { offset += 8 }
            return Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Int64.self))
        }
        @inline(__always) mutating func double() -> Double { Double(bitPattern: UInt64(bitPattern: int())) }
        @inline(__always) mutating func raw() -> UnsafeRawBufferPointer {
            let n = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            offset += 4
            defer { offset += n }
            return UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + n)])
        }
        @inline(__always) mutating func string() -> String { String(decoding: raw(), as: UTF8.self) }
    }
}
