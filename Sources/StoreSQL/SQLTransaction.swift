import StoreCore

/// StoreCore's read and write semantics over any SQLite driver: checks every input,
/// compiles queries, applies delete rules and keeps both sides of every link.
///
/// A driver begins a transaction on its connection, hands a `SQLTransaction` over that
/// connection to the repository closure, calls `end()` when the closure returns,
/// and commits or rolls back:
///
/// ```swift
/// try db.begin()
/// let tx = SQLTransaction(mapping: mapping, executor: db, writable: true)
/// defer { tx.end() }
/// let result = try body(tx)   // roll back on a throw
/// try db.commit()
/// ```
///
/// Threading: used only on the thread running its closure.
public final class SQLTransaction: WriteTransaction {
    public let schema: Schema
    public let mapping: SQLSchemaMapping
    /// The driver's connection, inside the transaction it began.
    public let db: any SQLExecutor
    public let isWritable: Bool
    /// `false` once the driver called `end()`: later calls throw `closed`. Read by every
    /// call, never while another access to it is open, so the runtime's check for
    /// overlapping accesses is off.
    @exclusivity(unchecked) public private(set) var isActive = true
    /// The embedded records this transaction touched (see `checkEmbeddedOwners`).
    var embedded = EmbeddedOwnership()

    /// Marks the transaction over: the driver calls it when the closure returns (a transaction
    /// that escaped its closure then throws `closed` instead of touching the connection).
    public func end() { isActive = false }

    public init(mapping: SQLSchemaMapping, executor: any SQLExecutor, writable: Bool) {
        self.schema = mapping.schema
        self.mapping = mapping
        self.db = executor
        self.isWritable = writable
    }

    // MARK: Helpers

    @inline(__always)
    private func checkActive() throws {
        guard isActive else { throw StoreError(.closed, "transaction used outside its closure") }
    }

    @inline(__always)
    func entity(_ name: String, forWrite: Bool = false) throws -> Entity {
        try checkUsable(forWrite: forWrite)
        return try schema.entity(name)
    }

    /// The schema's entity for a record's entity (see `Schema.entity(of:)`), checked as above.
    private func entity(_ entity: Entity, forWrite: Bool = false) throws -> Entity {
        try checkUsable(forWrite: forWrite)
        return try schema.entity(of: entity)
    }

    /// Active, and writable when the operation writes.
    @inline(__always)
    private func checkUsable(forWrite: Bool) throws {
        try checkActive()
        if forWrite && !isWritable { throw StoreError(.unsupported, "write operation in a read transaction") }
    }

    private func exists(_ e: Entity, _ key: Value) throws -> Bool {
        try db.scalarInt(mapping.sql(e).existsByID, [key]) != nil
    }

    func requireExists(_ e: Entity, _ key: Value) throws {
        guard try exists(e, key) else { throw StoreError(.notFound, "\(e.name) \(key) does not exist") }
    }

    @inline(__always)
    func records(_ sql: SQLStatement, _ bindings: [Value], _ e: Entity) throws -> [Record] {
        var out: [Record] = []
        try db.rows(sql, bindings, of: e) { out.append(Record($0)) }
        return out
    }

    // MARK: Reads

    public func fetch(_ entity: String, id: Value) throws -> Record? {
        let e = try self.entity(entity)
        let key = try e.checkedKey(id)
        var found: Record?
        try db.rows(mapping.sql(e).selectByID, [key], of: e) { found = Record($0) }
        return found
    }

    public func fetch(_ query: Query) throws -> [Record] {
        let (rq, sql, bindings) = try compiled(query, .select)
        return try records(sql, bindings, rq.entity)
    }

    public func forEach(_ query: Query, _ body: (any RowView) throws -> Void) throws {
        let (rq, sql, bindings) = try compiled(query, .select)
        try db.rows(sql, bindings, of: rq.entity, body)
    }

    public func forEachPacked(_ query: Query, _ body: (PackedRow) throws -> Void) throws {
        let (rq, sql, bindings) = try compiled(query, .select)
        try db.packedRows(sql, bindings, of: rq.entity, body)
    }

    public func count(_ query: Query) throws -> Int {
        let (_, sql, bindings) = try compiled(query, .count)
        return Int(try db.scalarInt(sql, bindings) ?? 0)
    }

    /// The query resolved and compiled (`SELECT` of its rows or `COUNT(*)`), through the
    /// mapping's cache of compiled shapes.
    private func compiled(_ query: Query, _ kind: SQLQueryShape.Kind) throws -> (ResolvedQuery, SQLStatement, [Value]) {
        try checkActive()
        let rq = try schema.resolve(query)
        let (sql, bindings) = mapping.queryCache.compiled(kind, query, rq, schema: schema) { r in
            var c = SQLQueryCompiler(mapping: mapping)
            let sql = kind == .select ? c.select(r) : c.count(r)
            return (sql, c.bindings)
        }
        return (rq, sql, bindings)
    }

    /// The records linked to one record, in key order (or the list's order). The existence
    /// check runs only when nothing is linked: a record with links exists.
    public func related(_ entity: String, id: Value, via relationship: String) throws -> [Record] {
        let e = try self.entity(entity)
        let r = try e.requireRelationship(relationship)
        let key = try e.checkedKey(id)
        let d = schema[r.destination]!
        if let list = mapping.orderedList(e, r) {
            try requireExists(e, key)
            return try orderedRelated(list, key, d)
        }
        let found = try records(mapping.related(e, r), [key], d)
        if found.isEmpty { try requireExists(e, key) }
        return found
    }

    /// The keys linked to one record through a relationship.
    func relatedIDs(_ e: Entity, _ key: Value, _ r: Relationship) throws -> [Value] {
        let d = schema[r.destination]!
        switch mapping.links(e, r) {
        case .foreignKey(_, let column, true):
            return try db.column(SQLStatement("SELECT \(q(column)) FROM \(q(e.name)) WHERE \(q(e.primaryKey.name)) = ? AND \(q(column)) IS NOT NULL"), d.primaryKey.type, [key])
        case .foreignKey(_, let column, false):
            return try db.column(SQLStatement("SELECT \(q(d.primaryKey.name)) FROM \(q(d.name)) WHERE \(q(column)) = ?"), d.primaryKey.type, [key])
        case .joinTable(let table, let src, let dst):
            return try db.column(SQLStatement("SELECT \(q(dst)) FROM \(q(table)) WHERE \(q(src)) = ?"), d.primaryKey.type, [key])
        }
    }

    // MARK: Writes

    public func insert(_ record: Record) throws {
        let e = try entity(record.entity, forWrite: true)
        try e.withCheckedRecord(record) { r in
            try db.writeRecord(mapping.sql(e).insert, r.values)
            if e.isEmbedded { embedded.note(e, r.id) }
        }
    }

    public func upsert(_ record: Record) throws {
        let e = try entity(record.entity, forWrite: true)
        let r = try e.checkedRecord(record)
        try db.writeRecord(mapping.sql(e).upsert, r.values)
        if e.isEmbedded { embedded.note(e, r.id) }
    }

    public func insert(contentsOf records: [Record]) throws {
        guard let first = records.first else { return }
        _ = try entity(first.entity, forWrite: true)
        let checked = try schema.checkedRecords(records)
        try db.atomically {
            for r in checked { try db.writeRecord(mapping.sql(r.entity).insert, r.values) }
        }
        for r in checked where r.entity.isEmbedded { embedded.note(r.entity, r.id) }
    }

    public func update(_ entity: String, id: Value, set changes: [String: Value]) throws {
        let e = try self.entity(entity, forWrite: true)
        let key = try e.checkedKey(id)
        let set = try e.checkedChanges(changes)
        if set.isEmpty { return try requireExists(e, key) }
        let sql = mapping.update(e, setting: set.map(\.ordinal)) + " WHERE \(q(e.primaryKey.name)) = ?"
        let n = try db.execute(SQLStatement(sql), set.map(\.value) + [key])
        if n == 0 { throw StoreError(.notFound, "\(e.name) \(key) does not exist") }
    }

    public func update(_ entity: String, where predicate: StorePredicate, set changes: [String: Value]) throws -> Int {
        let e = try self.entity(entity, forWrite: true)
        let set = try e.checkedChanges(changes)
        let rp = try schema.resolve(predicate, on: e)
        var c = SQLQueryCompiler(mapping: mapping)
        let ids = c.ids(e, rp)
        if set.isEmpty { return Int(try db.scalarInt(SQLStatement("SELECT COUNT(*) FROM (\(ids))"), c.bindings) ?? 0) }
        let sql = mapping.update(e, setting: set.map(\.ordinal)) + " WHERE \(q(e.primaryKey.name)) IN (\(ids))"
        return try db.execute(SQLStatement(sql), set.map(\.value) + c.bindings)
    }

    public func delete(_ entity: String, id: Value) throws {
        let e = try self.entity(entity, forWrite: true)
        let key = try e.checkedKey(id)
        if e.relationships.isEmpty {
            let n = try db.execute(mapping.sql(e).deleteByID, [key])
            if n == 0 { throw StoreError(.notFound, "\(e.name) \(key) does not exist") }
            return
        }
        try requireExists(e, key)
        try db.atomically { try deleteApplyingRules([(e, key)]) }
    }

    public func delete(_ entity: String, where predicate: StorePredicate) throws -> Int {
        let e = try self.entity(entity, forWrite: true)
        let rp = try schema.resolve(predicate, on: e)
        var c = SQLQueryCompiler(mapping: mapping)
        let ids = c.ids(e, rp)
        if e.relationships.isEmpty {
            return try db.execute(SQLStatement("DELETE FROM \(q(e.name)) WHERE \(q(e.primaryKey.name)) IN (\(ids))"), c.bindings)
        }
        let keys = try db.column(SQLStatement(ids), e.primaryKey.type, c.bindings)
        try db.atomically { try deleteApplyingRules(keys.map { (e, $0) }) }
        return keys.count
    }

    /// Deletes records and everything their cascade rules reach. Every `deny` rule is checked
    /// before anything is changed.
    private func deleteApplyingRules(_ roots: [(Entity, Value)]) throws {
        struct Key: Hashable { let entity: Int; let id: Value }
        var seen = Set<Key>()
        var order: [(Entity, Value)] = []
        var queue = roots
        while let (e, id) = queue.popLast() {
            guard seen.insert(Key(entity: e.index, id: id)).inserted else { continue }
            order.append((e, id))
            for r in e.relationships where r.deleteRule != .nullify {
                let ids = try relatedIDs(e, id, r)
                if ids.isEmpty { continue }
                if r.deleteRule == .deny {
                    throw StoreError(.constraintViolation,
                                     "cannot delete \(e.name) \(id): its relationship '\(r.name)' has the deny rule and \(ids.count) related \(r.destination) record(s)")
                }
                let d = schema[r.destination]!
                queue += ids.map { (d, $0) }
            }
        }
        let lists = try orderedListsHolding(order)
        for (e, id) in order {
            for r in e.relationships { try removeLinks(e, id, r) }
            try db.execute(mapping.sql(e).deleteByID, [id])
        }
        for (list, owner) in lists { try closeGaps(list, owner) }
    }

    /// Removes every link of one record through one relationship (the other side's foreign
    /// keys or join rows; a foreign key on this record goes with its row).
    private func removeLinks(_ e: Entity, _ key: Value, _ r: Relationship) throws {
        switch mapping.links(e, r) {
        case .foreignKey(_, _, true):
            break
        case .foreignKey(let holder, let column, false):
            try db.execute(SQLStatement("UPDATE \(q(holder.name)) SET \(q(column)) = NULL WHERE \(q(column)) = ?"), [key])
        case .joinTable(let table, let src, _):
            try db.execute(SQLStatement("DELETE FROM \(q(table)) WHERE \(q(src)) = ?"), [key])
        }
    }

    public func link(_ entity: String, id: Value, _ relationship: String, to target: Value) throws {
        let e = try self.entity(entity, forWrite: true)
        let r = try e.requireRelationship(relationship)
        let (d, inv) = schema.inverse(of: r)
        let key = try e.checkedKey(id), tkey = try d.checkedKey(target)
        try requireExists(e, key)
        try requireExists(d, tkey)
        if r.isOrdered || inv.isOrdered { return try linkOrdered(e, r, key, to: tkey, at: nil) }
        try embedded.checkLink(in: self, e, key, r, tkey)
        try db.atomically { try linkRows(e, r, key, tkey) }
    }

    /// Stores one link (`link` after its checks), removing the previous partner of a to-one side.
    func linkRows(_ e: Entity, _ r: Relationship, _ key: Value, _ tkey: Value) throws {
        let (d, inv) = schema.inverse(of: r)
        switch mapping.links(e, r) {
        case .foreignKey(_, let column, true):
            if inv.cardinality == .toOne {
                try db.execute(SQLStatement("UPDATE \(q(e.name)) SET \(q(column)) = NULL WHERE \(q(column)) = ? AND \(q(e.primaryKey.name)) IS NOT ?"), [tkey, key])
            }
            try db.execute(SQLStatement("UPDATE \(q(e.name)) SET \(q(column)) = ? WHERE \(q(e.primaryKey.name)) = ?"), [tkey, key])
        case .foreignKey(_, let column, false):
            if r.cardinality == .toOne {
                try db.execute(SQLStatement("UPDATE \(q(d.name)) SET \(q(column)) = NULL WHERE \(q(column)) = ? AND \(q(d.primaryKey.name)) IS NOT ?"), [key, tkey])
            }
            try db.execute(SQLStatement("UPDATE \(q(d.name)) SET \(q(column)) = ? WHERE \(q(d.primaryKey.name)) = ?"), [key, tkey])
        case .joinTable(let table, let src, let dst):
            try db.execute(SQLStatement("INSERT OR IGNORE INTO \(q(table)) (\(q(src)), \(q(dst))) VALUES (?, ?)"), [key, tkey])
        }
    }

    public func unlink(_ entity: String, id: Value, _ relationship: String, from target: Value) throws {
        let e = try self.entity(entity, forWrite: true)
        let r = try e.requireRelationship(relationship)
        let d = schema[r.destination]!
        let key = try e.checkedKey(id), tkey = try d.checkedKey(target)
        try requireExists(e, key)
        embedded.noteUnlink(schema: schema, e, key, r, tkey)
        if r.isOrdered || schema.inverse(of: r).relationship.isOrdered { return try unlinkOrdered(e, r, key, from: tkey) }
        try unlinkRows(e, r, key, tkey)
    }

    /// Removes one link's rows or foreign key (`unlink` after its checks).
    func unlinkRows(_ e: Entity, _ r: Relationship, _ key: Value, _ tkey: Value) throws {
        let d = schema[r.destination]!
        switch mapping.links(e, r) {
        case .foreignKey(_, let column, true):
            try db.execute(SQLStatement("UPDATE \(q(e.name)) SET \(q(column)) = NULL WHERE \(q(e.primaryKey.name)) = ? AND \(q(column)) = ?"), [key, tkey])
        case .foreignKey(_, let column, false):
            try db.execute(SQLStatement("UPDATE \(q(d.name)) SET \(q(column)) = NULL WHERE \(q(d.primaryKey.name)) = ? AND \(q(column)) = ?"), [tkey, key])
        case .joinTable(let table, let src, let dst):
            try db.execute(SQLStatement("DELETE FROM \(q(table)) WHERE \(q(src)) = ? AND \(q(dst)) = ?"), [key, tkey])
        }
    }
}
