import CLMDB
import StoreBenchKit
import StoreCore

/// The cursor walks of the floor's queries, and its records read into a `QueryRowSink`.
extension LMDBFloor {
    /// Runs `body` with a cursor on `dbi`, closed after.
    func withCursor<T>(_ txn: OpaquePointer, _ dbi: MDB_dbi, _ body: (OpaquePointer) throws -> T) throws -> T {
        var c: OpaquePointer?
        try check(mdb_cursor_open(txn, dbi, &c), "mdb_cursor_open")
        defer { mdb_cursor_close(c) }
        return try body(c!)
    }

    /// Each value under `key` in the dupsort database `dbi`, in order, at most `limit`.
    func forEachDup(_ txn: OpaquePointer, _ dbi: MDB_dbi, _ key: UnsafeRawBufferPointer, limit: Int = .max,
                    _ body: (MDB_val) throws -> Void) throws {
        try withCursor(txn, dbi) { c in
            var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress)), v = MDB_val()
            var rc = mdb_cursor_get(c, &k, &v, MDB_SET_KEY), n = 0
            while rc == 0 && n < limit {
                try body(v)
                n += 1
                rc = mdb_cursor_get(c, &k, &v, MDB_NEXT_DUP)
            }
            if rc != 0 && rc != MDB_NOTFOUND { try check(rc, "mdb_cursor_get") }
        }
    }

    /// Every user whose record `matches` (given a decoder at its first field), in key order.
    func scanUsers<S: QueryRowSink>(_ txn: OpaquePointer, _ sink: inout S, _ matches: (inout Decoder) -> Bool) throws {
        try withCursor(txn, user) { c in
            var k = MDB_val(), v = MDB_val()
            var rc = mdb_cursor_get(c, &k, &v, MDB_FIRST)
            while rc == 0 {
                var d = Decoder(Self.bytes(v))
                if matches(&d) { emitUser(k, v, &sink) }
                rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)
            }
            if rc != MDB_NOTFOUND { try check(rc, "mdb_cursor_get User") }
        }
    }

    /// Posts created in `[from, through]`: the `createdAt` index's range, its keys sorted.
    func postsCreated<S: QueryRowSink>(_ txn: OpaquePointer, _ from: Double, _ through: Double, _ sink: inout S) throws {
        collectedKeys.removeAll(keepingCapacity: true)
        let last = Self.orderedBits(through)
        try withCursor(txn, postByCreatedAt) { c in
            var low = Self.orderedBits(from).bigEndian
            try withUnsafeMutableBytes(of: &low) { lowKey in
                var k = MDB_val(mv_size: 8, mv_data: lowKey.baseAddress), v = MDB_val()
                var rc = mdb_cursor_get(c, &k, &v, MDB_SET_RANGE)
                while rc == 0 && UInt64(bigEndian: Self.bytes(k).loadUnaligned(as: UInt64.self)) <= last {
                    collectedKeys.append(Self.id(v))
                    rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)
                }
                if rc != 0 && rc != MDB_NOTFOUND { try check(rc, "mdb_cursor_get Post#createdAt") }
            }
        }
        collectedKeys.sort()
        for id in collectedKeys { try withKey(id) { try emitPost(txn, MDB_val(mv_size: 8, mv_data: UnsafeMutableRawPointer(mutating: $0.baseAddress)), &sink) } }
    }

    /// A page of the newest posts: the `createdAt` index from its last key down, each key's
    /// posts in key order; the skipped entries are counted, not read.
    func newestPosts<S: QueryRowSink>(_ txn: OpaquePointer, limit: Int, offset: Int, _ sink: inout S) throws {
        collectedKeys.removeAll(keepingCapacity: true)
        try withCursor(txn, postByCreatedAt) { c in
            var k = MDB_val(), v = MDB_val(), skipped = 0
            var rc = mdb_cursor_get(c, &k, &v, MDB_LAST)
            page: while rc == 0 && limit > 0 {
                rc = mdb_cursor_get(c, &k, &v, MDB_FIRST_DUP)
                while rc == 0 {
                    if skipped < offset { skipped += 1 } else {
                        collectedKeys.append(Self.id(v))
                        if collectedKeys.count == limit { break page }
                    }
                    rc = mdb_cursor_get(c, &k, &v, MDB_NEXT_DUP)
                }
                rc = mdb_cursor_get(c, &k, &v, MDB_PREV_NODUP)
            }
            if rc != 0 && rc != MDB_NOTFOUND { try check(rc, "mdb_cursor_get Post#createdAt") }
        }
        for id in collectedKeys { try withKey(id) { try emitPost(txn, MDB_val(mv_size: 8, mv_data: UnsafeMutableRawPointer(mutating: $0.baseAddress)), &sink) } }
    }

    /// Published posts scoring above `k`: the `(published, score)` index's keys from `(1, k+1)`,
    /// each key's posts counted by `mdb_cursor_count`.
    func countPublished(_ txn: OpaquePointer, above k: Int64) throws -> Int {
        guard k < .max else { return 0 }
        return try withPublishedScoreKey(k + 1) { start in
            try withCursor(txn, postByPublishedScore) { c in
                var key = MDB_val(mv_size: start.count, mv_data: UnsafeMutableRawPointer(mutating: start.baseAddress)), v = MDB_val()
                var rc = mdb_cursor_get(c, &key, &v, MDB_SET_RANGE), total = 0
                while rc == 0 && Self.bytes(key).first == 1 {
                    var n = 0
                    try check(mdb_cursor_count(c, &n), "mdb_cursor_count")
                    total += n
                    rc = mdb_cursor_get(c, &key, &v, MDB_NEXT_NODUP)
                }
                if rc != 0 && rc != MDB_NOTFOUND { try check(rc, "mdb_cursor_get Post#published,score") }
                return total
            }
        }
    }

    /// The posts of the user named `username`: the username index, then `User.posts`.
    func postsByAuthor<S: QueryRowSink>(_ txn: OpaquePointer, _ username: String, _ sink: inout S) throws {
        var name = username
        var owner = MDB_val()
        let rc = name.withUTF8 { n -> Int32 in
            var k = MDB_val(mv_size: n.count, mv_data: UnsafeMutableRawPointer(mutating: n.baseAddress))
            return mdb_get(txn, userByName, &k, &owner)
        }
        if rc == MDB_NOTFOUND { return }
        try check(rc, "mdb_get User#username")
        try forEachDup(txn, dbis["User.posts"]!, Self.bytes(owner)) { try emitPost(txn, $0, &sink) }
    }

    /// Users with more than `k` posts: `User.posts` key by key, each key's posts counted.
    func usersWithMorePosts<S: QueryRowSink>(_ txn: OpaquePointer, than k: Int64, _ sink: inout S) throws {
        try withCursor(txn, dbis["User.posts"]!) { c in
            var key = MDB_val(), v = MDB_val()
            var rc = mdb_cursor_get(c, &key, &v, MDB_FIRST)
            while rc == 0 {
                var n = 0
                try check(mdb_cursor_count(c, &n), "mdb_cursor_count")
                if Int64(n) > k { try emitUser(txn, key, &sink) }
                rc = mdb_cursor_get(c, &key, &v, MDB_NEXT_NODUP)
            }
            if rc != MDB_NOTFOUND { try check(rc, "mdb_cursor_get User.posts") }
        }
    }

    static func bytes(_ v: MDB_val) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size) }
}
