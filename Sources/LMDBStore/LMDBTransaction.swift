import CLMDB
import StoreCore

/// A read or write transaction of an `LMDBStore`, valid only inside the closure that received
/// it. Reads go straight to the map; writes keep the primary database, the secondary indexes
/// and both sides of every relationship in step. Internal.
final class LMDBTransaction: WriteTransaction {
    let schema: Schema
    let layout: LMDBLayout
    let env: OpaquePointer
    // A transaction is used by one thread at a time: its state needs none of the runtime's
    // exclusivity tracking.
    /// The innermost LMDB transaction: a child while `atomically` runs.
    @exclusivity(unchecked) private(set) var txn: LMDBTxn
    let isWritable: Bool
    @exclusivity(unchecked) var isActive = true
    /// Set when a write hit `MDB_MAP_FULL`: the store grows the map and runs the closure again.
    @exclusivity(unchecked) private(set) var needsLargerMap = false
    /// Reused buffer for keys: a primary key that is not an int64 (`withPrimaryKey`), or an
    /// indexed record's primary and index keys one after the other (`insertChecked`). Unchecked
    /// exclusivity keeps the runtime's access tracking off the write path (a transaction is used
    /// by one thread). Records need none: they are encoded into the space LMDB reserves.
    @exclusivity(unchecked) var keyScratch: [UInt8] = []
    /// The embedded records this transaction touched (see `checkEmbeddedOwners`).
    var embedded = EmbeddedOwnership()

    init(schema: Schema, layout: LMDBLayout, env: OpaquePointer, txn: LMDBTxn, writable: Bool) {
        self.schema = schema
        self.layout = layout
        self.env = env
        self.txn = txn
        self.isWritable = writable
    }

    // MARK: Helpers

    @inline(__always)
    func checkActive() throws {
        guard isActive else { throw StoreError(.closed, "transaction used outside its closure") }
        if needsLargerMap {
            throw StoreError(.storageFull, "the map is full; the store grows it and runs the write again", nativeCode: MDB_MAP_FULL)
        }
    }

    @inline(__always)
    func entity(_ name: String, forWrite: Bool = false) throws -> Entity {
        try checkUsable(forWrite: forWrite)
        return try schema.entity(name)
    }

    /// The schema's entity for a record's entity (see `Schema.entity(of:)`), checked as above.
    func entity(_ entity: Entity, forWrite: Bool = false) throws -> Entity {
        try checkUsable(forWrite: forWrite)
        return try schema.entity(of: entity)
    }

    /// Active, and writable when the operation writes.
    @inline(__always)
    private func checkUsable(forWrite: Bool) throws {
        try checkActive()
        if forWrite && !isWritable { throw StoreError(.unsupported, "write operation in a read transaction") }
    }

    /// Runs `body` in a child transaction: all of it or, when it throws, none of it. Notes a
    /// full map so the store can grow it.
    func atomically<T>(_ body: () throws -> T) throws -> T {
        let parent = txn
        let child = try LMDBTxn(env, region: parent.region, readOnly: false, parent: parent)
        txn = child
        defer { txn = parent }
        do {
            let result = try noteMapFull(body)
            try noteMapFull { try child.commit() }
            return result
        } catch {
            child.abort()
            throw error
        }
    }

    /// Runs a write step, remembering a full map (the transaction cannot go on after one).
    @inline(__always)
    func noteMapFull<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as StoreError where e.nativeCode == MDB_MAP_FULL {
            needsLargerMap = true
            throw e
        }
    }

    @inline(__always)
    func primaryKey(_ v: Value) -> [UInt8] { KeyEncoding.encode(v) }

    /// The stored record bytes of a key, borrowed from the map.
    @inline(__always)
    func recordBytes(_ e: Entity, _ key: [UInt8]) throws -> UnsafeRawBufferPointer? {
        try txn.get(layout.primary[e.index], key)
    }

    /// The version stamped in the records of `e` (see `LMDBLayout.recordVersions`).
    @inline(__always)
    func recordVersion(_ e: Entity) -> Int { layout.recordVersions[e.index] }

    @inline(__always)
    func decode(_ e: Entity, _ b: UnsafeRawBufferPointer) throws -> Record {
        try RecordCodec.decode(b, entity: e, schemaVersion: recordVersion(e), acceptsFormat2: layout.acceptsFormat2)
    }

    /// The encoded keys stored under `key` in a relationship database, in key order.
    func linkedKeys(_ dbi: MDB_dbi, _ key: [UInt8]) throws -> [[UInt8]] {
        let c = try LMDBCursor(txn, dbi)
        var out: [[UInt8]] = []
        guard try c.seek(key, exact: true) else { return out }
        repeat { out.append(Array(c.valueBytes)) } while try c.move(MDB_NEXT_DUP)
        return out
    }

    // MARK: Reads

    func fetch(_ entity: String, id: Value) throws -> Record? {
        let e = try self.entity(entity)
        let key = try e.checkedKey(id)
        return try KeyEncoding.withKey(key, scratch: &keyScratch) { try txn.get(layout.primary[e.index], borrowed: $0) }.map { try decode(e, $0) }
    }

    func fetch(_ query: Query) throws -> [Record] {
        try checkActive()
        let plan = try queryPlan(query)
        var out: [Record] = []
        try select(plan) { out.append($0.record()) }
        return out
    }

    func forEach(_ query: Query, _ body: (any RowView) throws -> Void) throws {
        try checkActive()
        let plan = try queryPlan(query)
        // Inside a write the body may change what the cursor walks: hand out owned records.
        if isWritable {
            var rows: [Record] = []
            try select(plan) { rows.append($0.record()) }
            for r in rows { try body(r) }
        } else {
            try select(plan) { try body($0) }
        }
    }

    func forEachPacked(_ query: Query, _ body: (PackedRow) throws -> Void) throws {
        try checkActive()
        let plan = try queryPlan(query)
        if isWritable {
            // forEach hands out owned records inside a write (the body may change what it walks).
            try PackedRowBuilder.packEach({ try forEach(query, $0) }, body)
        } else {
            try select(plan) { try body($0.packedView()) }
        }
    }

    func count(_ query: Query) throws -> Int {
        try checkActive()
        return try count(try queryPlan(query))
    }

    func related(_ entity: String, id: Value, via relationship: String) throws -> [Record] {
        let e = try self.entity(entity)
        let r = try e.requireRelationship(relationship)
        let key = primaryKey(try e.checkedKey(id))
        guard try recordBytes(e, key) != nil else { throw StoreError(.notFound, "\(e.name) \(id) does not exist") }
        let d = schema[r.destination]!
        let position = e.relationships.firstIndex { $0.name == r.name }!
        let keys = try layout.orders[e.index][position].map { try orderedKeys($0, key) }
            ?? linkedKeys(layout.relationships[e.index][position], key)
        return try keys.map { k in
            guard let b = try recordBytes(d, k) else {
                throw StoreError(.corrupted, "\(e.name) \(id) links to a missing \(d.name) through '\(r.name)'",
                                 context: KeyEncoding.describe(k))
            }
            return try decode(d, b)
        }
    }

    /// The plan a query would use (for `explain`).
    func plan(_ query: Query) throws -> LMDBQueryPlan {
        try checkActive()
        return try queryPlan(query).summary
    }
}
