import CLMDB
import StoreCore

/// Owns one `MDB_cursor`, closed in one place (deinit). Must not outlive its transaction;
/// every use is scoped inside a transaction method. Internal.
final class LMDBCursor {
    private let handle: OpaquePointer
    /// The current key and value, borrowed from the map. Passed inout to `mdb_cursor_get` on
    /// every move: unchecked exclusivity keeps the runtime's access tracking (two calls into
    /// the runtime per row of a scan) off that path. A cursor is used by one thread.
    @exclusivity(unchecked) private(set) var key = MDB_val()
    @exclusivity(unchecked) private(set) var value = MDB_val()
    private let bounds: MapBounds
    private unowned(unsafe) let txn: LMDBTxn  // a cursor never outlives its transaction

    init(_ txn: LMDBTxn, _ dbi: MDB_dbi) throws {
        var c: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(try txn.live, dbi, &c), "cannot open a cursor")
        handle = c!
        bounds = txn.bounds
        self.txn = txn
    }

    deinit { mdb_cursor_close(handle) }

    /// The current key and value; both were checked against the map's bounds when the cursor
    /// moved there.
    var keyBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size) }
    var valueBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size) }

    /// Moves the cursor; false when there is no such entry.
    @inline(__always)
    func move(_ op: MDB_cursor_op) throws -> Bool {
        let rc = mdb_cursor_get(handle, &key, &value, op)
        if rc == MDB_NOTFOUND { return false }
        try LMDBError.check(rc, "cannot move a cursor")
        try checkBounds()
        return true
    }

    @inline(__always)
    private func checkBounds() throws {
        guard bounds.allows(key) else { throw MapBounds.outside(key, "a key") }
        guard bounds.allows(value) else { throw MapBounds.outside(value, "a value") }
    }

    /// Positions at the first key >= `seek` (`MDB_SET_RANGE`), or exactly at `seek` (`MDB_SET_KEY`).
    func seek(_ seek: [UInt8], exact: Bool = false) throws -> Bool {
        let rc = seek.withUnsafeBytes { kb -> Int32 in
            key = MDB_val(mv_size: kb.count, mv_data: UnsafeMutableRawPointer(mutating: kb.baseAddress))
            return mdb_cursor_get(handle, &key, &value, exact ? MDB_SET_KEY : MDB_SET_RANGE)
        }
        if rc == MDB_NOTFOUND { return false }
        try LMDBError.check(rc, "cannot position a cursor", key: KeyEncoding.describe(seek))
        try checkBounds()
        return true
    }

    /// Positions exactly at the pair `key`/`value` of a dupsort database (`MDB_GET_BOTH`);
    /// false when the pair is absent.
    func seek(_ seek: [UInt8], value wanted: [UInt8]) throws -> Bool {
        let rc = seek.withUnsafeBytes { kb in
            wanted.withUnsafeBytes { vb -> Int32 in
                key = MDB_val(mv_size: kb.count, mv_data: UnsafeMutableRawPointer(mutating: kb.baseAddress))
                value = MDB_val(mv_size: vb.count, mv_data: UnsafeMutableRawPointer(mutating: vb.baseAddress))
                return mdb_cursor_get(handle, &key, &value, MDB_GET_BOTH)
            }
        }
        if rc == MDB_NOTFOUND { return false }
        try LMDBError.check(rc, "cannot position a cursor", key: KeyEncoding.describe(seek))
        // MDB_GET_BOTH leaves `key` pointing at the caller's buffer: take the stored key.
        try LMDBError.check(mdb_cursor_get(handle, &key, &value, MDB_GET_CURRENT), "cannot read a cursor's entry")
        try checkBounds()
        return true
    }

    /// Writes `key`/`value` through the cursor (`mdb_cursor_put` with `flags`), leaving it there:
    /// with `MDB_CURRENT` (`key` the current key, copied out of the map) it replaces the value
    /// under the cursor, and a walk that rewrites goes on with `MDB_NEXT`.
    func put(_ k: [UInt8], _ v: [UInt8], flags: Int32 = 0) throws {
        let rc = k.withUnsafeBytes { kb in
            v.withUnsafeBytes { vb -> Int32 in
                var kv = MDB_val(mv_size: kb.count, mv_data: UnsafeMutableRawPointer(mutating: kb.baseAddress))
                var vv = MDB_val(mv_size: vb.count, mv_data: UnsafeMutableRawPointer(mutating: vb.baseAddress))
                return mdb_cursor_put(handle, &kv, &vv, UInt32(flags))
            }
        }
        try LMDBError.check(rc, "cannot write", key: KeyEncoding.describe(k))
        txn.changedSomething = true
    }

    /// The number of duplicates at the current key of a dupsort database (`mdb_cursor_count`).
    func duplicates() throws -> Int {
        var n = 0
        try LMDBError.check(mdb_cursor_count(handle, &n), "cannot count a key's duplicates")
        return n
    }

    /// Visits every entry of the database in key order (each duplicate of a dupsort key too),
    /// with its key and value borrowed from the map for the call.
    func forEachEntry(_ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Void) throws {
        var more = try move(MDB_FIRST)
        while more {
            try body(keyBytes, valueBytes)
            more = try move(MDB_NEXT)
        }
    }
}
