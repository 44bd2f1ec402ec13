import Foundation
import StoreCore

/// Applies one migration stage to a SQL store, inside the write transaction in which the
/// driver opened it (`SQLStoreMetadata.prepare`), so the store ends at the new version or,
/// on any throw, stays at the old one.
///
/// Per entity table: unchanged columns keep the table; renames, new columns and removed
/// columns are `ALTER TABLE` (then one `UPDATE` of the row checksums when the values per
/// ordinal change); a widened type, an attribute made required or optional, or a transform
/// rebuilds the table: the old one is renamed aside, the new one created and filled with one
/// `INSERT … SELECT` (or record by record through the transform), the old one dropped. Join
/// tables are renamed or turned around as their owner changes. Indexes that changed are
/// dropped first and created last, unique ones checked first so a duplicate names its values.
/// Internal helper of StoreSQL.
struct SQLMigration {
    let stage: MigrationStage
    let db: any SQLExecutor
    let old: SQLSchemaMapping
    let new: SQLSchemaMapping
    let progress: (@Sendable (MigrationProgress) -> Void)?

    init(_ stage: MigrationStage, db: any SQLExecutor, progress: (@Sendable (MigrationProgress) -> Void)?) {
        self.stage = stage
        self.db = db
        self.progress = progress
        old = SQLSchemaMapping(schema: stage.source, slotted: false)
        new = SQLSchemaMapping(schema: stage.destination, slotted: false)
    }

    private enum TablePlan { case create, alter, rebuild }

    func exec(_ sql: String, _ arguments: [Value] = []) throws { try db.execute(SQLStatement(sql), arguments) }

    private static func aside(_ table: String) -> String { "sb_migrating_\(table)" }

    func run() throws {
        let steps = stage.entities
        let plans = steps.map(plan)
        try checkLinksStay()
        let oldObjects = old.objects(), newObjects = new.objects()
        let rebuilt = Set(zip(steps, plans).compactMap { $1 == .rebuild ? $0.source!.name : nil })
        let newIndexes = Set(newObjects.filter { $0.kind == .index }.map(\.sql))
        var kept = Set<String>()
        for o in oldObjects where o.kind == .index {
            if newIndexes.contains(o.sql), keeps(o, steps, plans) { kept.insert(o.sql) } else { try exec("DROP INDEX \(q(o.name))") }
        }
        for t in rebuilt { try exec("ALTER TABLE \(q(t)) RENAME TO \(q(Self.aside(t)))") }
        for e in stage.removedEntities { try exec("DROP TABLE \(q(e.name))") }
        for (s, p) in zip(steps, plans) where p == .alter { try alter(s) }
        for (s, p) in zip(steps, plans) where p == .rebuild {
            try rebuild(s, newObjects)
            try numberNewPositions(s)
        }
        for (s, p) in zip(steps, plans) where p == .create {
            try exec(newObjects.first { $0.kind == .table && $0.name == s.entity.name }!.sql)
        }
        try migrateJoinTables(oldObjects, newObjects)
        for t in rebuilt { try exec("DROP TABLE \(q(Self.aside(t)))") }
        for o in newObjects where o.kind == .index && !kept.contains(o.sql) {
            try checkUnique(o)
            try exec(o.sql)
        }
        if !stage.migration.storeSteps.isEmpty {
            let tx = SQLTransaction(mapping: new, executor: db, writable: true)
            defer { tx.end() }
            for step in stage.migration.storeSteps { try step(tx) }
            try tx.checkEmbeddedOwners()   // a step may not leave an orphan behind
        }
    }

    /// Whether an index whose definition reads the same in both schemas can stay: on a join
    /// table, or on an entity table altered in place under its own name whose indexed columns
    /// keep their values (`ALTER TABLE … RENAME` moves an index along with the names it reads):
    /// attributes that keep theirs, foreign-key columns of relationships kept.
    private func keeps(_ index: SQLSchemaMapping.SchemaObject, _ steps: [MigrationStage.EntityStep], _ plans: [TablePlan]) -> Bool {
        guard let e = new.schema[index.table] else { return keepsJoinTable(index.table) }
        guard let k = steps.firstIndex(where: { $0.entity.name == e.name }), plans[k] == .alter,
              steps[k].source?.name == e.name else { return false }
        if let i = e.indexes.first(where: { $0.name(in: e.name) == index.name }) {
            return i.attributes.allSatisfy(steps[k].keepsValues(of:))
        }
        return new.foreignKeyColumns(e).contains { column, _ in
            SQLSchemaMapping.foreignKeyIndexName(e.name, column) == index.name && steps[k].sourceRelationship(column) != nil
        }
    }

    /// Whether the join table `table` stays as it is: a kept relationship's table of that name
    /// before and after, not turned around. (A renamed entity's join table moves away under a
    /// new name, taking its indexes along, even when a new entity reuses the old name.)
    private func keepsJoinTable(_ table: String) -> Bool {
        stage.entities.contains { s in
            guard let source = s.source else { return false }
            return zip(s.entity.relationships, s.relationships).contains { r, was in
                guard let was, case .joinTable(let now, "src", "dst") = new.links(s.entity, r),
                      case .joinTable(let before, "src", _) = old.links(source, was) else { return false }
                return now == table && before == table
            }
        }
    }

    // MARK: Entity tables

    private func plan(_ s: MigrationStage.EntityStep) -> TablePlan {
        guard let source = s.source else { return .create }
        if s.transform != nil { return .rebuild }
        for (i, a) in s.attributes.enumerated() {
            let attribute = s.entity.attributes[i]
            if let j = a.sourceOrdinal {
                if a.sourceType != nil || source.attributes[j].isOptional != attribute.isOptional { return .rebuild }
            } else if !attribute.isOptional, Self.literal(a.fill) == nil {
                return .rebuild
            }
        }
        return .alter
    }

    /// Renames, new columns and removed columns by `ALTER TABLE`, then the row checksums.
    private func alter(_ s: MigrationStage.EntityStep) throws {
        let source = s.source!, e = s.entity, t = q(e.name)
        if source.name != e.name { try exec("ALTER TABLE \(q(source.name)) RENAME TO \(t)") }
        let oldKeys = Set(old.foreignKeyColumns(source).map(\.column)), newKeys = new.foreignKeyColumns(e)
        let kept = new.keptPositionColumns(e, from: old, source)
        for column in old.positionColumns(source) where !kept.contains(column) { try exec("ALTER TABLE \(t) DROP COLUMN \(q(column))") }
        try dropRemovedColumns(s, t, oldKeys.subtracting(newKeys.map(\.column)))
        try renameColumns(s, t)
        let added = try addColumns(s, t)
        for (column, r) in newKeys where !oldKeys.contains(column) {
            try exec("ALTER TABLE \(t) ADD COLUMN \(q(column)) \(SQLSchemaMapping.columnType(new.schema[r.destination]!.primaryKey.type))")
        }
        for (column, r) in newKeys where new.schema.inverse(of: r).relationship.isOrdered && !kept.contains(SQLOrderedList.positionColumn(for: column)) {
            try exec("ALTER TABLE \(t) ADD COLUMN \(q(SQLOrderedList.positionColumn(for: column))) INTEGER")
        }
        try numberNewPositions(s)
        let total = try count(e.name)
        // A new column with a fill always changes the checksums, so one test covers both.
        if added.rewritesChecksums {
            let sum = "\(q(SQLFunctions.checksumColumn)) = \(SQLSchemaMapping.checksum(added.checksumTerms))"
            try exec("UPDATE \(t) SET \((added.fillAssignments + [sum]).joined(separator: ", "))", added.fills)
        }
        stage.report(progress, e.name, done: total, total: total)
    }

    /// Removed columns (attributes and foreign keys) go first, so that names can pass from a
    /// removed relationship to an attribute.
    private func dropRemovedColumns(_ s: MigrationStage.EntityStep, _ t: String, _ removedKeys: Set<String>) throws {
        let used = Set(s.attributes.compactMap(\.sourceOrdinal))
        for (j, a) in s.source!.attributes.enumerated() where !used.contains(j) { try exec("ALTER TABLE \(t) DROP COLUMN \(q(a.name))") }
        for column in removedKeys { try exec("ALTER TABLE \(t) DROP COLUMN \(q(column))") }
    }

    /// Renamed attributes; a rename onto a name still in use goes through a temporary one, so
    /// that names can pass from one attribute to another (a → b, b → c).
    private func renameColumns(_ s: MigrationStage.EntityStep, _ t: String) throws {
        let source = s.source!, e = s.entity
        let sourceNames = Set(source.attributes.map(\.name))
        var pendingRenames: [(from: String, to: String)] = []
        for (i, a) in s.attributes.enumerated() {
            guard let j = a.sourceOrdinal, source.attributes[j].name != e.attributes[i].name else { continue }
            let was = source.attributes[j].name, name = e.attributes[i].name
            if sourceNames.contains(name) {
                let temporary = "sb_renaming_\(i)"
                try exec("ALTER TABLE \(t) RENAME COLUMN \(q(was)) TO \(q(temporary))")
                pendingRenames.append((temporary, name))
            } else {
                try exec("ALTER TABLE \(t) RENAME COLUMN \(q(was)) TO \(q(name))")
            }
        }
        for r in pendingRenames { try exec("ALTER TABLE \(t) RENAME COLUMN \(q(r.from)) TO \(q(r.to))") }
    }

    /// What adding the new attributes' columns leaves for the checksum update: the fills to
    /// assign, the checksum's terms, and whether the checksums change at all.
    private struct AddedColumns {
        var fills: [Value] = []
        var fillAssignments: [String] = []
        var checksumTerms: [String] = []
        var rewritesChecksums: Bool
    }

    /// Adds the new attributes' columns (a required one with its fill as default).
    private func addColumns(_ s: MigrationStage.EntityStep, _ t: String) throws -> AddedColumns {
        let e = s.entity
        var out = AddedColumns(rewritesChecksums: s.source!.attributes.count != e.attributes.count)
        for (i, a) in s.attributes.enumerated() {
            let attribute = e.attributes[i]
            if let j = a.sourceOrdinal {
                if j != i { out.rewritesChecksums = true }
                out.checksumTerms.append(q(attribute.name))
                continue
            }
            out.rewritesChecksums = true
            let type = SQLSchemaMapping.columnType(attribute.storageType)
            guard attribute.isOptional else {
                try exec("ALTER TABLE \(t) ADD COLUMN \(q(attribute.name)) \(type) NOT NULL DEFAULT \(Self.literal(a.fill)!)")
                out.checksumTerms.append(q(attribute.name))
                continue
            }
            try exec("ALTER TABLE \(t) ADD COLUMN \(q(attribute.name)) \(type)")
            if a.fill.isNull { out.checksumTerms.append(q(attribute.name)) } else {
                out.fills.append(a.fill)
                out.fillAssignments.append("\(q(attribute.name)) = ?\(out.fills.count)")
                out.checksumTerms.append("?\(out.fills.count)")
            }
        }
        return out
    }

    /// The old table renamed aside, the new one created and filled from it.
    private func rebuild(_ s: MigrationStage.EntityStep, _ objects: [SQLSchemaMapping.SchemaObject]) throws {
        let source = s.source!, e = s.entity, from = q(Self.aside(source.name)), t = q(e.name)
        try exec(objects.first { $0.kind == .table && $0.name == e.name }!.sql)
        let total = try count(Self.aside(source.name))
        let oldKeys = Set(old.foreignKeyColumns(source).map(\.column))
        let keys = new.foreignKeyColumns(e).map(\.column).filter { oldKeys.contains($0) }
            + new.keptPositionColumns(e, from: old, source)
        if s.transform == nil {
            var fills: [Value] = []
            var expressions: [String] = []
            for (i, a) in s.attributes.enumerated() {
                var fill = "NULL"
                if !a.fill.isNull {
                    fills.append(a.fill)
                    fill = "?\(fills.count)"
                }
                guard let j = a.sourceOrdinal else { expressions.append(fill); continue }
                var column = q(source.attributes[j].name)
                if a.sourceType == .int64, e.attributes[i].type == .double {
                    try checkExactDoubles(from, column, e, i)
                    column = "CAST(\(column) AS REAL)"
                }
                expressions.append(fill == "NULL" ? column : "COALESCE(\(column), \(fill))")
            }
            let columns = e.attributes.map { q($0.name) } + keys.map(q) + [q(SQLFunctions.checksumColumn)]
            let values = expressions + keys.map(q) + [SQLSchemaMapping.checksum(expressions)]
            try exec("INSERT INTO \(t) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(from)", fills)
            stage.report(progress, e.name, done: total, total: total)
            return
        }
        let select = SQLStatement("SELECT \(source.attributes.map { q($0.name) }.joined(separator: ", ")) FROM \(from)")
        let insert = new.sql(e).insert
        var done = 0
        stage.report(progress, e.name, done: 0, total: total)
        try db.rows(select, [], of: source) { row in
            let record = try stage.migrate(Record(row), s)
            try db.writeRecord(insert, record.values)
            done += 1
            if done % 4096 == 0 { stage.report(progress, e.name, done: done, total: total) }
        }
        let pk = q(e.primaryKey.name), oldPK = q(source.primaryKey.name)
        for k in keys {
            try exec("UPDATE \(t) SET \(q(k)) = (SELECT o.\(q(k)) FROM \(from) AS o WHERE o.\(oldPK) = \(t).\(pk))")
        }
        stage.report(progress, e.name, done: total, total: total)
    }

    /// Every integer of a column that becomes `double` is held exactly by a double.
    private func checkExactDoubles(_ table: String, _ column: String, _ e: Entity, _ i: Int) throws {
        let big = try db.column(SQLStatement("SELECT \(column) FROM \(table) WHERE \(column) > 9007199254740992 OR \(column) < -9007199254740992"), .int64, [])
        for v in big { _ = try MigrationStage.widen(v, e, i) }
    }

    private func count(_ table: String) throws -> Int {
        Int(try db.scalarInt(SQLStatement("SELECT COUNT(*) FROM \(q(table))"), []) ?? 0)
    }

    // MARK: Links

    /// A foreign-key column stays where it was (its holder may be renamed); a one-to-one whose
    /// owning side flips with an entity rename would move its links, which is refused.
    private func checkLinksStay() throws {
        for s in stage.entities {
            guard let source = s.source else { continue }
            for (r, was) in zip(s.entity.relationships, s.relationships) {
                guard let was, case .foreignKey(let holder, let column, _) = new.links(s.entity, r) else { continue }
                guard case .foreignKey(let oldHolder, let oldColumn, _) = old.links(source, was),
                      stage.entities[holder.index].source?.name == oldHolder.name, oldColumn == column else {
                    throw StoreError(.unsupported, "migration \(stage.source.version) → \(stage.destination.version): the links of \(s.entity.name).\(r.name) would move to another table (an entity rename changes which side of a one-to-one holds them)")
                }
            }
        }
    }

    /// Join tables of kept many-to-many relationships are renamed or turned around; new ones
    /// are created; the rest are dropped.
    private func migrateJoinTables(_ oldObjects: [SQLSchemaMapping.SchemaObject], _ newObjects: [SQLSchemaMapping.SchemaObject]) throws {
        var consumed = Set<String>()
        for s in stage.entities {
            for (r, was) in zip(s.entity.relationships, s.relationships) {
                guard case .joinTable(let table, "src", "dst") = new.links(s.entity, r) else { continue }
                let create = newObjects.first { $0.kind == .table && $0.name == table }!.sql
                guard let was, let source = s.source, case .joinTable(let oldTable, let oldSource, _) = old.links(source, was) else {
                    try exec(create)
                    continue
                }
                consumed.insert(oldTable)
                let oldPositions = Self.positionColumns(oldObjects.first { $0.kind == .table && $0.name == oldTable })
                if oldSource == "src" {
                    if oldTable != table { try exec("ALTER TABLE \(q(oldTable)) RENAME TO \(q(table))") }
                    try matchJoinPositions(table, had: oldPositions, needs: new.joinPositionColumns(s.entity, r))
                } else {
                    try exec(create)
                    try copyTurnedAround(oldTable, into: table, had: oldPositions, needs: new.joinPositionColumns(s.entity, r))
                    try exec("DROP TABLE \(q(oldTable))")
                }
            }
        }
        let entityTables = Set(stage.source.entities.map(\.name))
        for o in oldObjects where o.kind == .table && !entityTables.contains(o.name) && !consumed.contains(o.name) {
            try exec("DROP TABLE \(q(o.name))")
        }
    }

    // MARK: Indexes

    /// A unique index's columns hold no duplicate (nulls aside, as SQLite counts them).
    private func checkUnique(_ index: SQLSchemaMapping.SchemaObject) throws {
        guard index.sql.hasPrefix("CREATE UNIQUE"), let e = new.schema[index.table],
              let i = e.indexes.first(where: { $0.name(in: e.name) == index.name }) else { return }
        let columns = i.attributes.map(q)
        let shown = columns.map { "quote(\($0))" }.joined(separator: " || ', ' || ")
        let sql = "SELECT \(shown), COUNT(*) FROM \(q(e.name)) WHERE \(columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")) GROUP BY \(columns.joined(separator: ", ")) HAVING COUNT(*) > 1 LIMIT 1"
        if case .string(let values)? = try db.column(SQLStatement(sql), .string, []).first {
            throw StoreError(.constraintViolation,
                             "migration \(stage.source.version) → \(stage.destination.version): the unique index \(e.name)(\(i.attributes.joined(separator: ", "))) does not hold: (\(values)) appears more than once")
        }
    }

    /// A constant as SQL text for `ADD COLUMN … DEFAULT`, or `nil` when it has none.
    static func literal(_ v: Value) -> String? {
        func hex(_ bytes: [UInt8]) -> String { "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'" }
        switch v {
        case .null: return nil
        case .int64(let n): return String(n)
        case .bool(let b): return b ? "1" : "0"
        case .double(let d): return d.isFinite ? "\(d)" : nil
        case .date(let d): return d.timeIntervalSince1970.isFinite ? "\(d.timeIntervalSince1970)" : nil
        case .string(let s): return s.contains("\0") ? nil : "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .uuid(let u): return hex(withUnsafeBytes(of: u.uuid) { Array($0) })
        case .bytes(let b): return hex(b)
        case .list, .map: return CollectionCoding.encode(v).flatMap { literal(.string($0)) }
        }
    }
}
