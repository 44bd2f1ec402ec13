import CLMDB
import StoreCore

/// Applies one migration stage to an LMDB store inside the write transaction in which the
/// store is opened, so the store ends at the new version or, on any throw (the transaction
/// aborted), stays at the old one; LMDB's copy-on-write pages make a crash at any moment
/// leave the last committed version.
///
/// An entity whose records change (attributes added, removed, renamed, widened, made
/// required or optional; a transform) has every record rewritten in place under its own key
/// (or into a new database when the entity is renamed), stamped with the new version. An
/// entity whose records stay as they are keeps them byte for byte, with their old version
/// stamp (`LMDBLayout.recordVersions`). Either way, an index over attributes whose values stay
/// is kept as it is; the others are built from the records.
/// Unique indexes are checked as they fill. Relationship databases stay, move with a renamed
/// entity, or go with a removed relationship. Internal helper of LMDBStore.
struct LMDBMigration {
    let stage: MigrationStage
    let txn: LMDBTxn
    let meta: MDB_dbi
    let path: String
    let progress: (@Sendable (MigrationProgress) -> Void)?

    func run() throws {
        let h = try txn.live
        let oldVersions = try LMDBLayout.recordVersions(txn, meta, stage.source)
        let old = try LMDBLayout.handles(txn, schema: stage.source, create: false, path: path, recordVersions: oldVersions)
        let keepsRecords = stage.entities.map { $0.source != nil && !$0.rewritesRecords }
        let newVersions = stage.entities.map { s in keepsRecords[s.entity.index] ? oldVersions[s.source!.index] : stage.destination.version }
        let keptIndexes = keptIndexNames()
        try dropUnused(old, keptIndexes: keptIndexes)
        try dropUnusedOrders(old)
        let moved = try moveAsideReusedNames(old)
        let new = try LMDBLayout.handles(txn, schema: stage.destination, create: true, path: path, recordVersions: newVersions)
        try moveRenamedRelationships(moved.relationships, into: new)
        try moveRenamedOrders(moved.orders, into: new)
        let tx = LMDBTransaction(schema: stage.destination, layout: new, env: mdb_txn_env(h), txn: txn, writable: true)
        defer { tx.isActive = false }
        try migrateRecords(moved.primary, into: new, keepsRecords: keepsRecords, keptIndexes: keptIndexes,
                           oldVersions: oldVersions, tx)
        try tx.fillMissingOrders()
        for step in stage.migration.storeSteps { try step(tx) }
        try tx.checkEmbeddedOwners()   // a step may not leave an orphan behind
        let names = Set(stage.destination.entities.map(\.name))
        try LMDBLayout.writeRecordVersions(txn, meta, stage.destination, newVersions,
                                           dropping: stage.source.entities.map(\.name).filter { !names.contains($0) })
    }

    /// The index databases that stay: their entity keeps its name and its primary keys, the
    /// index is the same, and each of its attributes keeps its values (and whether it may be
    /// null) — also when the records around them are rewritten: an entry holds only those
    /// values and the primary key, so it stays right.
    private func keptIndexNames() -> Set<String> {
        var kept = Set<String>()
        for s in stage.entities {
            guard let source = s.source, source.name == s.entity.name else { continue }
            for i in s.entity.indexes where source.indexes.contains(i) && i.attributes.allSatisfy({ s.keepsValues(of: $0) && keepsOptionality(s, $0) }) {
                kept.insert(LMDBLayout.indexName(s.entity, i))
            }
        }
        return kept
    }

    /// Whether the attribute named `name` is optional in the source exactly when it is in the
    /// destination (a value made required may be filled in by the rewrite).
    private func keepsOptionality(_ s: MigrationStage.EntityStep, _ name: String) -> Bool {
        guard let a = s.entity.attributes.first(where: { $0.name == name }),
              let b = s.source?.attributes.first(where: { $0.name == name }) else { return false }
        return a.isOptional == b.isOptional
    }

    /// Drops the index databases that do not stay, the removed entities' databases and the
    /// removed relationships' databases.
    private func dropUnused(_ old: LMDBLayout, keptIndexes: Set<String>) throws {
        for index in old.indexes.joined() where !keptIndexes.contains(index.name) { try drop(index.dbi) }
        for e in stage.removedEntities {
            try drop(old.primary[e.index])
            for d in old.relationships[e.index] { try drop(d) }
        }
        for s in stage.entities {
            guard let source = s.source else { continue }
            let kept = Set(s.relationships.compactMap { $0?.name })
            for (k, r) in source.relationships.enumerated() where !kept.contains(r.name) { try drop(old.relationships[source.index][k]) }
        }
    }

    /// The old primary and relationship databases, with those of a renamed entity whose old
    /// name the new schema gives to another entity (a new one, or a swap of names) moved aside
    /// first: opening the new schema's databases by name must not open (and later drop) them.
    private func moveAsideReusedNames(_ old: LMDBLayout) throws -> (primary: [MDB_dbi], relationships: [[MDB_dbi]], orders: [[MDB_dbi?]]) {
        var primary = old.primary, relationships = old.relationships, orders = old.orders
        let newNames = Set(stage.destination.entities.map(\.name))
        for s in stage.entities {
            guard let source = s.source, source.name != s.entity.name, newNames.contains(source.name) else { continue }
            primary[source.index] = try moveAside(primary[source.index], as: "sb_migrating:\(source.name)")
            let kept = Set(s.relationships.compactMap { $0?.name })
            for (k, r) in source.relationships.enumerated() where kept.contains(r.name) {
                relationships[source.index][k] = try moveAside(relationships[source.index][k], as: "sb_migrating:\(source.name).\(r.name)")
                // An order database still open here is one `dropUnusedOrders` kept: it moves too.
                if let order = orders[source.index][k], keepsOrder(s, r) {
                    orders[source.index][k] = try moveAside(order, as: "sb_migrating:\(source.name).\(r.name)@order")
                }
            }
        }
        return (primary, relationships, orders)
    }

    /// Moves the kept relationships of each renamed entity into its new databases.
    private func moveRenamedRelationships(_ oldRelationships: [[MDB_dbi]], into new: LMDBLayout) throws {
        for s in stage.entities {
            guard let source = s.source, source.name != s.entity.name else { continue }
            for (k, was) in s.relationships.enumerated() {
                guard let was, let j = source.relationships.firstIndex(where: { $0.name == was.name }) else { continue }
                try copy(oldRelationships[source.index][j], into: new.relationships[s.entity.index][k])
                try drop(oldRelationships[source.index][j])
            }
        }
    }

    /// Each remaining entity's records: kept as they are (copied when the entity is renamed)
    /// with only its new indexes built, or rewritten in their new form.
    private func migrateRecords(_ oldPrimary: [MDB_dbi], into new: LMDBLayout, keepsRecords: [Bool], keptIndexes: Set<String>,
                                oldVersions: [Int], _ tx: LMDBTransaction) throws {
        for s in stage.entities {
            guard let source = s.source else { continue }
            let from = oldPrimary[source.index], to = new.primary[s.entity.index]
            let missing = new.indexes[s.entity.index].filter { !keptIndexes.contains($0.name) }
            if keepsRecords[s.entity.index] {
                if from != to {
                    try copy(from, into: to)
                    try drop(from)
                }
                try index(s.entity, in: to, into: missing, tx)
            } else {
                try rewrite(s, from: from, version: oldVersions[source.index], to: to, missing: missing, tx)
            }
        }
    }

    /// Every record of `s.source` in its new form, with the entries of the indexes in `missing`.
    private func rewrite(_ s: MigrationStage.EntityStep, from: MDB_dbi, version: Int, to: MDB_dbi,
                         missing: [LMDBLayout.Index], _ tx: LMDBTransaction) throws {
        let source = s.source!, e = s.entity
        let total = try txn.entries(from)
        var done = 0, buffer: [UInt8] = []
        let fill = LMDBIndexFill(txn, indexes: missing)
        stage.report(progress, e.name, done: 0, total: total)
        let c = try LMDBCursor(txn, from)
        var more = try c.move(MDB_FIRST)
        while more {
            let key = Array(c.keyBytes)
            let record = try stage.migrate(try RecordCodec.decode(c.valueBytes, entity: source, schemaVersion: version), s)
            try RecordCodec.encode(record.values, of: record.entity, schemaVersion: stage.destination.version, into: &buffer)
            if from == to {
                try c.put(key, buffer, flags: MDB_CURRENT)
            } else {
                try txn.put(to, key, buffer, flags: MDB_APPEND)
            }
            try fill.add(primary: key) { record.values[$0] }
            if !fill.unique.isEmpty { try addIndexEntries(e, record, key, fill.unique, tx) }
            done += 1
            if done % 4096 == 0 { stage.report(progress, e.name, done: done, total: total) }
            more = try c.move(MDB_NEXT)
        }
        try fill.flush()
        if from != to { try drop(from) }
        stage.report(progress, e.name, done: total, total: total)
    }

    /// Fills new index databases of an entity whose records stay as they are.
    private func index(_ e: Entity, in primary: MDB_dbi, into indexes: [LMDBLayout.Index], _ tx: LMDBTransaction) throws {
        let total = try txn.entries(primary)
        if !indexes.isEmpty {
            let fill = LMDBIndexFill(txn, indexes: indexes), row = tx.rowView(e)
            try LMDBCursor(txn, primary).forEachEntry { k, v in
                let key = Array(k)
                try row.point(at: v)
                try fill.add(primary: key) { row[$0] }
                if !fill.unique.isEmpty { try addIndexEntries(e, row.record(), key, fill.unique, tx) }
            }
            try fill.flush()
        }
        stage.report(progress, e.name, done: total, total: total)
    }

    /// Index entries; a unique index that existing records break is `constraintViolation`.
    private func addIndexEntries(_ e: Entity, _ r: Record, _ key: [UInt8], _ indexes: [LMDBLayout.Index]?, _ tx: LMDBTransaction) throws {
        do { try tx.addIndexEntries(e, r, key: key, to: indexes) } catch let error as StoreError where error.category == .conflict {
            throw StoreError(.constraintViolation,
                             "migration \(stage.source.version) → \(stage.destination.version): a unique index does not hold: \(error.message)",
                             nativeCode: error.nativeCode, context: error.context)
        }
    }

    func copy(_ from: MDB_dbi, into to: MDB_dbi) throws {
        try LMDBCursor(txn, from).forEachEntry { k, v in try txn.put(to, Array(k), Array(v)) }
    }

    /// Copies a database into a new one named `name`, with the same flags, and drops it.
    private func moveAside(_ dbi: MDB_dbi, as name: String) throws -> MDB_dbi {
        let h = try txn.live
        var flags: UInt32 = 0
        try LMDBError.check(mdb_dbi_flags(h, dbi, &flags), "cannot read the flags of a database of \(path) while migrating it")
        var aside: MDB_dbi = 0
        try LMDBError.check(mdb_dbi_open(h, name, flags | UInt32(MDB_CREATE), &aside), "cannot create the database '\(name)' of \(path) while migrating it")
        try copy(dbi, into: aside)
        try drop(dbi)
        return aside
    }

    /// Deletes a database and closes its handle.
    func drop(_ dbi: MDB_dbi) throws {
        try LMDBError.check(mdb_drop(try txn.live, dbi, 1), "cannot drop a database of \(path) while migrating it")
    }
}
