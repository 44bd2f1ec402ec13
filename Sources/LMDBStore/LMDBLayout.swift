import CLMDB
import StoreCore

/// The named databases of a store and their handles:
///
/// | database            | key                         | value                     | flags   |
/// |---------------------|-----------------------------|---------------------------|---------|
/// | `sb_meta`           | `format` ("3", or "2+3" for a store created before format 3), `schema_version`, `schema_fingerprint` | text  |         |
/// | `<Entity>`          | primary key (`KeyEncoding`) | record (`RecordCodec`)    |         |
/// | `<Entity>#<a>,<b>`  | index values (`KeyEncoding`, cut at 480 bytes) | primary key | dupsort |
/// | `<Entity>.<rel>`    | primary key                 | related primary key       | dupsort |
/// | `<Entity>.<rel>@order` | primary key (an ordered to-many's owner) | its members' keys in list order (`LMDBOrder`) |  |
///
/// Every relationship has its own database on each side (to-one, to-many and both directions
/// of many-to-many), so traversal in either direction is one cursor range. Internal.
final class LMDBLayout: Sendable {
    struct Index: Sendable {
        let description: IndexDescription
        let ordinals: [Int]
        let types: [AttributeType]
        let dbi: MDB_dbi
        var name: String
    }

    let primary: [MDB_dbi]                 // by entity index
    /// The schema version stamped in each entity's records (by entity index): the version at
    /// which a migration last rewrote them, kept in `sb_meta` as `record_version:<Entity>` when
    /// it differs from the schema's, so a migration that leaves an entity's records as they are
    /// does not rewrite them.
    let recordVersions: [Int]
    let indexes: [[Index]]                 // by entity index
    let relationships: [[MDB_dbi]]         // by entity index, then relationship position
    let inverses: [[MDB_dbi]]              // the inverse side's database, same positions
    /// The list order of each ordered to-many (`LMDBOrder`), same positions; nil when unordered.
    let orders: [[MDB_dbi?]]
    /// The inverse side's order database, same positions (nil when the inverse is unordered).
    let inverseOrders: [[MDB_dbi?]]
    /// Whether any relationship is ordered (a delete may then rewrite ordered lists), so that
    /// each delete reads a flag instead of walking every relationship.
    let hasOrders: Bool
    /// Whether records may be in format 2 (a store created before format 3, `sb_meta`
    /// format "2+3"); otherwise a record in format 2 is `corrupted`.
    let acceptsFormat2: Bool
    /// `sb_meta`, and its `schema_version` when the store was opened: a write finding another
    /// one refuses (`checkNotMigrated`).
    let meta: MDB_dbi
    let openedVersion: [UInt8]

    /// A class, not a struct: every transaction holds the store's layout, and sharing one
    /// reference costs one retain where copying the arrays cost one each.
    init(primary: [MDB_dbi], recordVersions: [Int], indexes: [[Index]], relationships: [[MDB_dbi]], inverses: [[MDB_dbi]],
         orders: [[MDB_dbi?]], inverseOrders: [[MDB_dbi?]], acceptsFormat2: Bool, meta: MDB_dbi, openedVersion: [UInt8]) {
        self.primary = primary
        self.recordVersions = recordVersions
        self.indexes = indexes
        self.relationships = relationships
        self.inverses = inverses
        self.orders = orders
        self.inverseOrders = inverseOrders
        self.hasOrders = orders.contains { $0.contains { $0 != nil } }
        self.acceptsFormat2 = acceptsFormat2
        self.meta = meta
        self.openedVersion = openedVersion
    }

    static let versionKey = Array("schema_version".utf8)

    /// Inside a write transaction, before its first write: throws `schemaMismatch` when another
    /// process migrated the store since it was opened (its handles and record versions are of
    /// the old layout). The caller aborts the transaction; nothing is written.
    /// A read transaction checks too (`reading`).
    func checkNotMigrated(_ txn: LMDBTxn, schema: Schema, path: String, reading: Bool = false) throws {
        let stored = try txn.get(meta, Self.versionKey)
        if let stored, stored.elementsEqual(openedVersion) { return }
        let now = stored.map(Array.init) ?? []
        throw StoreError(.schemaMismatch, "\(path) was migrated to schema version \(String(decoding: now, as: UTF8.self)) by another process "
                         + "after this store opened it with version \(schema.version): \(reading ? "the read was refused" : "nothing was written"); "
                         + "reopen it with the new schema")
    }

    /// Index keys longer than this are cut (LMDB's keys are at most 511 bytes); a key of this
    /// length may be truncated and its candidates are rechecked against the record.
    static let indexKeyLimit = 480

    static func databaseCount(_ schema: Schema) -> Int {
        1 + schema.entities.reduce(0) { $0 + 1 + $1.indexes.count + $1.relationships.count + $1.relationships.filter(\.isOrdered).count }
    }

    static func indexName(_ e: Entity, _ i: IndexDescription) -> String { "\(e.name)#\(i.attributes.joined(separator: ","))" }
    static func relationshipName(_ e: Entity, _ r: Relationship) -> String { "\(e.name).\(r.name)" }

    /// Opens the layout's databases, creating them in a new environment, and runs the
    /// migration (or the delete-and-recreate) `migrations` gives for a store of an older
    /// version. Throws `corrupted` for an environment that is not a StoreBench store and
    /// `schemaMismatch` for another schema no migration reaches.
    static func open(_ txn: LMDBTxn, schema: Schema, path: String, migrations: MigrationPlan? = nil) throws -> LMDBLayout {
        let h = try txn.live
        var metaDBI: MDB_dbi = 0
        let rc = mdb_dbi_open(h, "sb_meta", 0, &metaDBI)
        if rc == MDB_NOTFOUND {
            // A new store has an empty main database; anything else is someone else's data.
            var main: MDB_dbi = 0
            try LMDBError.check(mdb_dbi_open(h, nil, 0, &main), "cannot open the main database of \(path)")
            guard try txn.entries(main) == 0 else {
                throw StoreError(.corrupted, "\(path) is an LMDB environment but not a StoreBench store (no sb_meta database)")
            }
            return try create(txn, schema: schema, path: path)
        }
        try LMDBError.check(rc, "cannot open the sb_meta database of \(path)")
        let stored = try checkMeta(txn, metaDBI, path: path)
        switch try MigrationPlan.decide(migrations, storedVersion: stored.version, fingerprint: stored.fingerprint, schema: schema, path: path) {
        case .current:
            return try existing(txn, metaDBI, schema: schema, path: path, mixed: stored.mixed)
        case .recreate:
            return try StoreMigrations.run(at: path, to: schema.version) {
                try dropAll(txn, path: path)
                return try create(txn, schema: schema, path: path)
            }
        case .migrate(let stages):
            return try StoreMigrations.run(at: path, to: schema.version) {
                for stage in stages { try LMDBMigration(stage: stage, txn: txn, meta: metaDBI, path: path, progress: migrations?.progress).run() }
                try writeVersion(txn, metaDBI, schema)
                return try existing(txn, metaDBI, schema: schema, path: path, mixed: stored.mixed)
            }
        }
    }

    /// Opens the layout of a store that already holds `schema`, reading only: what a store
    /// opened read-only does instead of `open`. Throws `corrupted` for an environment that is
    /// not a store, `schemaMismatch` for another schema (no migration runs read-only).
    static func read(_ txn: LMDBTxn, schema: Schema, path: String) throws -> LMDBLayout {
        let meta = try metaDatabase(txn, path: path)
        let stored = try checkMeta(txn, meta, path: path)
        guard case .current = try MigrationPlan.decide(nil, storedVersion: stored.version, fingerprint: stored.fingerprint,
                                                        schema: schema, path: path) else {
            throw StoreError(.schemaMismatch, "\(path) holds another schema version; opened read-only, it is not migrated")
        }
        return try existing(txn, meta, schema: schema, path: path, mixed: stored.mixed)
    }

    /// The schema the store records (from its fingerprint), read only: what `verify` checks
    /// a store of unknown schema against.
    static func storedSchema(_ txn: LMDBTxn, path: String) throws -> Schema {
        let stored = try checkMeta(txn, try metaDatabase(txn, path: path), path: path)
        guard let fingerprint = stored.fingerprint else { throw StoreError(.corrupted, "\(path): sb_meta records no schema") }
        return try Schema(fingerprint: fingerprint, path: path)
    }

    private static func metaDatabase(_ txn: LMDBTxn, path: String) throws -> MDB_dbi {
        var meta: MDB_dbi = 0
        let rc = mdb_dbi_open(try txn.live, "sb_meta", 0, &meta)
        if rc == MDB_NOTFOUND {
            throw StoreError(.corrupted, "\(path) is an LMDB environment but not a StoreBench store (no sb_meta database)")
        }
        try LMDBError.check(rc, "cannot open the sb_meta database of \(path)")
        return meta
    }

    private static func existing(_ txn: LMDBTxn, _ meta: MDB_dbi, schema: Schema, path: String, mixed: Bool) throws -> LMDBLayout {
        try handles(txn, schema: schema, create: false, path: path, recordVersions: try recordVersions(txn, meta, schema), acceptsFormat2: mixed)
    }

    /// `sb_meta` and every database of the schema, in an empty environment.
    private static func create(_ txn: LMDBTxn, schema: Schema, path: String) throws -> LMDBLayout {
        var metaDBI: MDB_dbi = 0
        try LMDBError.check(mdb_dbi_open(try txn.live, "sb_meta", UInt32(MDB_CREATE), &metaDBI), "cannot create the sb_meta database of \(path)")
        try txn.put(metaDBI, Array("format".utf8), Array(currentFormat.utf8))
        try writeVersion(txn, metaDBI, schema)
        return try handles(txn, schema: schema, create: true, path: path)
    }

    private static func writeVersion(_ txn: LMDBTxn, _ meta: MDB_dbi, _ schema: Schema) throws {
        try txn.put(meta, Array("schema_version".utf8), Array(String(schema.version).utf8))
        try txn.put(meta, Array("schema_fingerprint".utf8), Array(schema.fingerprint.utf8))
    }

    static func recordVersionKey(_ entity: String) -> [UInt8] { Array("record_version:\(entity)".utf8) }

    /// Each entity's record version from `sb_meta` (the schema's version when not recorded).
    static func recordVersions(_ txn: LMDBTxn, _ meta: MDB_dbi, _ schema: Schema) throws -> [Int] {
        try schema.entities.map { e in
            try txn.get(meta, recordVersionKey(e.name)).flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? schema.version
        }
    }

    /// Records each entity's record version (nothing for those at the schema's version) and
    /// forgets the entities `schema` no longer has.
    static func writeRecordVersions(_ txn: LMDBTxn, _ meta: MDB_dbi, _ schema: Schema, _ versions: [Int], dropping gone: [String]) throws {
        for name in gone { try txn.delete(meta, recordVersionKey(name)) }
        for (e, v) in zip(schema.entities, versions) {
            if v == schema.version { try txn.delete(meta, recordVersionKey(e.name)) } else {
                try txn.put(meta, recordVersionKey(e.name), Array(String(v).utf8))
            }
        }
    }

    /// Deletes every named database (delete-and-recreate).
    private static func dropAll(_ txn: LMDBTxn, path: String) throws {
        let h = try txn.live
        var main: MDB_dbi = 0
        try LMDBError.check(mdb_dbi_open(h, nil, 0, &main), "cannot open the main database of \(path)")
        var names: [String] = []
        try LMDBCursor(txn, main).forEachEntry { k, _ in names.append(String(decoding: k, as: UTF8.self)) }
        for name in names {
            var d: MDB_dbi = 0
            try LMDBError.check(mdb_dbi_open(h, name, 0, &d), "cannot open the database '\(name)' of \(path)")
            try LMDBError.check(mdb_drop(h, d, 1), "cannot drop the database '\(name)' of \(path)")
        }
    }

    /// The handles of the schema's databases, created when `create` (else a missing one is
    /// `corrupted`).
    static func handles(_ txn: LMDBTxn, schema: Schema, create: Bool, path: String, recordVersions: [Int]? = nil,
                        acceptsFormat2: Bool = false) throws -> LMDBLayout {
        let h = try txn.live
        func dbi(_ name: String, _ flags: Int32) throws -> MDB_dbi {
            var d: MDB_dbi = 0
            let rc = mdb_dbi_open(h, name, UInt32(flags | (create ? MDB_CREATE : 0)), &d)
            if rc == MDB_NOTFOUND || rc == MDB_INCOMPATIBLE {
                throw StoreError(.corrupted, "\(path) is a StoreBench LMDB store without the database '\(name)' this schema needs",
                                 nativeCode: rc, nativeMessage: String(cString: mdb_strerror(rc)))
            }
            try LMDBError.check(rc, "cannot open the database '\(name)'")
            return d
        }
        var primary: [MDB_dbi] = [], indexes: [[Index]] = [], relationships: [[MDB_dbi]] = []
        for e in schema.entities {
            primary.append(try dbi(e.name, 0))
            indexes.append(try e.indexes.map { i in
                let ordinals = i.attributes.map { e.ordinal(of: $0)! }
                return Index(description: i, ordinals: ordinals, types: ordinals.map { e.attributes[$0].type },
                             dbi: try dbi(indexName(e, i), MDB_DUPSORT), name: indexName(e, i))
            })
            relationships.append(try e.relationships.map { try dbi(relationshipName(e, $0), MDB_DUPSORT) })
        }
        let inverses = schema.entities.map { e in
            e.relationships.map { r -> MDB_dbi in
                let (d, inv) = schema.inverse(of: r)
                return relationships[d.index][d.relationships.firstIndex { $0.name == inv.name }!]
            }
        }
        let orders = try schema.entities.map { e in try e.relationships.map { r in r.isOrdered ? try dbi(LMDBOrder.databaseName(e, r), 0) : nil } }
        let inverseOrders = schema.entities.map { e in
            e.relationships.map { r -> MDB_dbi? in
                let (d, inv) = schema.inverse(of: r)
                return orders[d.index][d.relationships.firstIndex { $0.name == inv.name }!]
            }
        }
        let meta = try dbi("sb_meta", 0)
        return LMDBLayout(primary: primary, recordVersions: recordVersions ?? schema.entities.map { _ in schema.version },
                          indexes: indexes, relationships: relationships, inverses: inverses,
                          orders: orders, inverseOrders: inverseOrders, acceptsFormat2: acceptsFormat2,
                          meta: meta, openedVersion: try txn.get(meta, versionKey).map(Array.init) ?? [])
    }

    /// The stored version and fingerprint, after checking the store's record format; a store
    /// of format 2 is marked "2+3" here (it is about to hold format-3 records beside its own),
    /// so an earlier StoreBench refuses it as a whole instead of failing record by record.
    /// Returns whether format-2 records may be stored.
    private static func checkMeta(_ txn: LMDBTxn, _ meta: MDB_dbi, path: String) throws -> (version: String?, fingerprint: String?, mixed: Bool) {
        func text(_ key: String) throws -> String? {
            try txn.get(meta, Array(key.utf8)).map { String(decoding: $0, as: UTF8.self) }
        }
        let format = try text("format")
        if format == "1" {
            throw StoreError(.schemaMismatch, "\(path) was written by an earlier StoreBench (record format 1, without checksums); recreate it")
        }
        // "3": every record is in format 3. "2+3": created before format 3, records of either
        // format (each record names its own). "2": as written before format 3.
        let mixed: Bool
        switch format {
        case Self.currentFormat: mixed = false
        case Self.mixedFormat: mixed = true
        case String(RecordCodec.legacyFormat):
            try txn.put(meta, Array("format".utf8), Array(Self.mixedFormat.utf8))
            mixed = true
        default:
            throw StoreError(.corrupted, "\(path): sb_meta has an unknown format \(format.map { "'\($0)'" } ?? "(none)")")
        }
        return (try text("schema_version"), try text("schema_fingerprint"), mixed)
    }

    /// `sb_meta`'s `format` of a store whose records are all format 3, and of one that may hold format-2 records too.
    static let currentFormat = String(RecordCodec.format), mixedFormat = "2+3"

    // MARK: Keys

    /// The index key of a record's values: its components encoded, cut at `indexKeyLimit`.
    static func indexKey(_ index: Index, _ values: [Value]) -> [UInt8] {
        indexKey(index) { values[$0] }
    }

    /// The index key of the record whose value at each ordinal `value` gives.
    @inline(__always)
    static func indexKey(_ index: Index, _ value: (Int) -> Value) -> [UInt8] {
        var k: [UInt8] = []
        appendIndexKey(index, value, to: &k)
        return k
    }

    /// Appends the index key of the record whose value at each ordinal `value` gives.
    @inline(__always)
    static func appendIndexKey(_ index: Index, _ value: (Int) -> Value, to out: inout [UInt8]) {
        let start = out.count
        for o in index.ordinals { KeyEncoding.append(value(o), to: &out) }
        if out.count &- start > indexKeyLimit { out.removeLast(out.count &- start &- indexKeyLimit) }
    }
}
