import CLMDB
import StoreCore

/// Owns one `MDB_txn` handle. `commit` and `abort` free it; `mdb_txn_commit` frees the handle
/// even when it fails, so a failed commit is never followed by an abort. A read handle may be
/// `reset` and `renew`ed instead of freed. Internal; not thread-safe.
final class LMDBTxn {
    private(set) var handle: OpaquePointer?
    let isReadOnly: Bool
    /// Where this transaction's keys and values may lie (taken at begin and renew).
    private(set) var bounds: MapBounds
    private(set) var region: MapRegion
    /// A put or a delete took effect: committing advances the store's transaction id (LMDB
    /// commits a write transaction that changed nothing without one).
    var changedSomething = false
    /// The transaction a nested one commits into (its changes become the parent's).
    private weak var parent: LMDBTxn?
    /// The transaction's id: the snapshot a read sees (`mdb_txn_id`).
    var id: Int { mdb_txn_id(handle) }

    /// Begins a transaction (a child of `parent` when given: a nested write transaction) in
    /// the environment whose data file is mapped at `region`.
    init(_ env: OpaquePointer, region: MapRegion, readOnly: Bool, parent: LMDBTxn? = nil) throws {
        var t: OpaquePointer?
        let rc = mdb_txn_begin(env, parent?.handle, readOnly ? UInt32(MDB_RDONLY) : 0, &t)
        try LMDBError.check(rc, readOnly ? "cannot begin a read transaction" : "cannot begin a write transaction")
        handle = t
        isReadOnly = readOnly
        self.parent = parent
        self.region = region
        bounds = MapBounds(env: env, region: region, readOnly: readOnly)
    }

    deinit { abort() }

    /// The live handle; `closed` after commit or abort.
    @inline(__always)
    var live: OpaquePointer {
        get throws {
            guard let h = handle else { throw StoreError(.closed, "the transaction has ended") }
            return h
        }
    }

    /// Commits. The handle is gone afterwards whatever the outcome.
    func commit() throws {
        guard let h = handle else { throw StoreError(.closed, "the transaction has ended") }
        handle = nil
        try LMDBError.check(mdb_txn_commit(h), "cannot commit")
        if changedSomething { parent?.changedSomething = true }
    }

    /// Aborts; a no-op when the handle is already gone.
    func abort() {
        if let h = handle { mdb_txn_abort(h) }
        handle = nil
    }

    /// Forgets the handle without freeing it, for a reset read handle whose environment has
    /// closed: `mdb_txn_abort` would read the freed environment. A few bytes leak instead.
    func abandon() { handle = nil }

    /// Read handles only: releases the snapshot but keeps the handle for `renew`.
    func reset() {
        if let h = handle { mdb_txn_reset(h) }
    }

    /// Read handles only: takes a fresh snapshot on a reset handle, in the map as it is now
    /// (`region`: the map may have moved since the handle began).
    func renew(region: MapRegion) throws {
        let h = try live
        try LMDBError.check(mdb_txn_renew(h), "cannot renew a read transaction")
        self.region = region
        bounds = MapBounds(env: mdb_txn_env(h), region: region, readOnly: true)
    }

    // MARK: Point operations

    /// The value at `key`, borrowed from the map (valid until the transaction ends or writes),
    /// or nil.
    @inline(__always)
    func get(_ dbi: MDB_dbi, _ key: [UInt8]) throws -> UnsafeRawBufferPointer? {
        try key.withUnsafeBytes { try get(dbi, borrowed: $0) }
    }

    /// `get` with a borrowed key: from the map (a primary key read from an index), the stack
    /// or a reused buffer (`KeyEncoding.withKey`).
    @inline(__always)
    func get(_ dbi: MDB_dbi, borrowed key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val()
        let rc = mdb_get(try live, dbi, &k, &v)
        if rc == MDB_NOTFOUND { return nil }
        try LMDBError.check(rc, "cannot read", key: KeyEncoding.describe(Array(key)))
        return try bounds.bytes(v, "the value at \(KeyEncoding.describe(Array(key)))")
    }

    /// Stores `value` at `key`. Returns false when `flags` hold `MDB_NOOVERWRITE` or
    /// `MDB_NODUPDATA` and the key (or pair) exists.
    @discardableResult
    func put(_ dbi: MDB_dbi, _ key: [UInt8], _ value: [UInt8], flags: Int32 = 0) throws -> Bool {
        try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try put(dbi, borrowed: k, v, flags: flags) } }
    }

    /// `put` of borrowed bytes (e.g. keys encoded one after the other in a reused buffer).
    @discardableResult
    func put(_ dbi: MDB_dbi, borrowed key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, flags: Int32 = 0) throws -> Bool {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_put(try live, dbi, &k, &v, UInt32(flags))
        if rc == MDB_KEYEXIST { return false }
        try LMDBError.check(rc, "cannot write", key: KeyEncoding.describe(Array(key)))
        changedSomething = true
        return true
    }

    /// Reserves `size` bytes for the value at `key` in a database that is not dupsort
    /// (`MDB_RESERVE`) and returns them for the caller to fill at once, before any other
    /// operation of the transaction: the record is encoded straight into its page, with no
    /// buffer in between. Nil when `flags` hold `MDB_NOOVERWRITE` and the key exists.
    /// The key is borrowed (see `KeyEncoding.withKey`).
    func reserve(_ dbi: MDB_dbi, _ key: UnsafeRawBufferPointer, size: Int, flags: Int32 = 0) throws -> UnsafeMutableRawBufferPointer? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: size, mv_data: nil)
        let rc = mdb_put(try live, dbi, &k, &v, UInt32(flags) | UInt32(MDB_RESERVE))
        if rc == MDB_KEYEXIST { return nil }
        try LMDBError.check(rc, "cannot write", key: KeyEncoding.describe(Array(key)))
        changedSomething = true
        return UnsafeMutableRawBufferPointer(start: v.mv_data, count: size)
    }

    /// Deletes `key` (only the pair `key`/`value` of a dupsort database when `value` is given).
    /// Returns false when absent.
    @discardableResult
    func delete(_ dbi: MDB_dbi, _ key: [UInt8], _ value: [UInt8]? = nil) throws -> Bool {
        try key.withUnsafeBytes { k in
            guard let value else { return try delete(dbi, borrowed: k, nil) }
            return try value.withUnsafeBytes { v in try delete(dbi, borrowed: k, v) }
        }
    }

    /// `delete` of borrowed bytes.
    @discardableResult
    func delete(_ dbi: MDB_dbi, borrowed key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) throws -> Bool {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        let rc: Int32
        if let value {
            var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
            rc = mdb_del(try live, dbi, &k, &v)
        } else {
            rc = mdb_del(try live, dbi, &k, nil)
        }
        if rc == MDB_NOTFOUND { return false }
        try LMDBError.check(rc, "cannot delete", key: KeyEncoding.describe(Array(key)))
        changedSomething = true
        return true
    }

    /// Number of entries in a database, as its record says. For a database without duplicates
    /// (`unique`), `corrupted` when that is more than its leaf pages hold: an entry takes 10
    /// bytes of one at least (node header and pointer). A dupsort database's duplicates may
    /// live in sub-databases, whose pages its record does not count.
    func entries(_ dbi: MDB_dbi, unique: Bool = false) throws -> Int {
        var s = MDB_stat()
        try LMDBError.check(mdb_stat(try live, dbi, &s), "cannot read database statistics")
        let room = s.ms_leaf_pages.multipliedReportingOverflow(by: max(Int(s.ms_psize) - 16, 0) / 10)
        guard !unique || s.ms_entries >= 0 && (room.overflow || s.ms_entries <= room.partialValue) else {
            throw StoreError(.corrupted, "the LMDB file is damaged: a database claims \(s.ms_entries) entries in \(s.ms_leaf_pages) leaf pages")
        }
        return s.ms_entries
    }
}
