import CLMDB
import StoreCore

/// Applies one migration stage to an LMDB store inside the write transaction in which the
/// store is opened, so the store ends at the new version or, on any throw (the transaction
/// aborted), stays at the old one; LMDB's copy-on-write pages make a crash at any moment
/// leave the last committed version.
///
/// Every record is rewritten (a record carries its schema version), in place through the
/// same database for an entity that keeps its name and into a new database for a renamed one. Index
/// databases are dropped and rebuilt from the rewritten records, unique ones checked as they
/// fill. Relationship databases stay, move with a renamed entity, or go with a removed
/// relationship. Internal helper of LMDBStore.
struct LMDBMigration {
    let stage: MigrationStage
    let txn: LMDBTxn
    let path: String
    let progress: (@Sendable (MigrationProgress) -> Void)?

    func run() throws {
        let h = try txn.live
        let old = try LMDBLayout.handles(txn, schema: stage.source, create: false, path: path)
        for index in old.indexes.joined() { try drop(index.dbi) }
        for e in stage.removedEntities {
            try drop(old.primary[e.index])
            for d in old.relationships[e.index] { try drop(d) }
        }
        for s in stage.entities {
            guard let source = s.source else { continue }
            let kept = Set(s.relationships.compactMap { $0?.name })
            for (k, r) in source.relationships.enumerated() where !kept.contains(r.name) { try drop(old.relationships[source.index][k]) }
        }
        let new = try LMDBLayout.handles(txn, schema: stage.destination, create: true, path: path)
        for s in stage.entities {
            guard let source = s.source, source.name != s.entity.name else { continue }
            for (k, was) in s.relationships.enumerated() {
                guard let was, let j = source.relationships.firstIndex(where: { $0.name == was.name }) else { continue }
                try copy(old.relationships[source.index][j], into: new.relationships[s.entity.index][k])
                try drop(old.relationships[source.index][j])
            }
        }
        let tx = LMDBTransaction(schema: stage.destination, layout: new, env: mdb_txn_env(h), txn: txn, writable: true)
        defer { tx.isActive = false }
        for s in stage.entities {
            guard let source = s.source else { continue }
            try rewrite(s, from: old.primary[source.index], to: new.primary[s.entity.index], tx)
        }
        for step in stage.migration.storeSteps { try step(tx) }
    }

    /// Every record of `s.source` in its new form, with its index entries.
    private func rewrite(_ s: MigrationStage.EntityStep, from: MDB_dbi, to: MDB_dbi, _ tx: LMDBTransaction) throws {
        let source = s.source!, e = s.entity
        let total = try txn.entries(from)
        var done = 0, buffer: [UInt8] = []
        stage.report(progress, e.name, done: 0, total: total)
        let c = try LMDBCursor(txn, from)
        var more = try c.move(MDB_FIRST)
        while more {
            let key = Array(c.keyBytes)
            let record = try stage.migrate(try RecordCodec.decode(c.valueBytes, entity: source, schemaVersion: stage.source.version), s)
            RecordCodec.encode(record.values, schemaVersion: stage.destination.version, into: &buffer)
            if from == to {
                // A put under the cursor may move pages: the cursor is placed on the key again.
                try txn.put(to, key, buffer)
                guard try c.seek(key, exact: true) else { throw StoreError(.corrupted, "\(path): record \(KeyEncoding.describe(key)) vanished while migrating") }
            } else {
                try txn.put(to, key, buffer, flags: MDB_APPEND)
            }
            do { try tx.addIndexEntries(e, record, key: key) } catch let error as StoreError where error.category == .conflict {
                throw StoreError(.constraintViolation,
                                 "migration \(stage.source.version) → \(stage.destination.version): a unique index does not hold: \(error.message)",
                                 nativeCode: error.nativeCode, context: error.context)
            }
            done += 1
            if done % 4096 == 0 { stage.report(progress, e.name, done: done, total: total) }
            more = try c.move(MDB_NEXT)
        }
        if from != to { try drop(from) }
        stage.report(progress, e.name, done: total, total: total)
    }

    private func copy(_ from: MDB_dbi, into to: MDB_dbi) throws {
        try LMDBCursor(txn, from).forEachEntry { k, v in try txn.put(to, Array(k), Array(v)) }
    }

    /// Deletes a database and closes its handle.
    private func drop(_ dbi: MDB_dbi) throws {
        try LMDBError.check(mdb_drop(try txn.live, dbi, 1), "cannot drop a database of \(path) while migrating it")
    }
}
