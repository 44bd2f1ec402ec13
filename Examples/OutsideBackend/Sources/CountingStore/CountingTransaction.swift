import StoreCore

/// The transaction `CountingStore` hands out: counts, then forwards to the store's own.
/// A read transaction is wrapped too; the write operations are only reached through `write`.
struct CountingTransaction: WriteTransaction {
    let base: any ReadTransaction
    let counts: OperationCounts

    var schema: Schema { base.schema }

    /// The base as a write transaction: only `CountingStore.write` hands those out.
    private var writer: any WriteTransaction {
        get throws {
            guard let w = base as? any WriteTransaction else {
                throw StoreError(.unsupported, "a write inside a read transaction")
            }
            return w
        }
    }

    func fetch(_ entity: String, id: Value) throws -> Record? { counts.add("fetch"); return try base.fetch(entity, id: id) }
    func fetch(_ query: Query) throws -> [Record] { counts.add("query"); return try base.fetch(query) }
    func forEach(_ query: Query, _ body: (any RowView) throws -> Void) throws { counts.add("forEach"); try base.forEach(query, body) }
    func count(_ query: Query) throws -> Int { counts.add("count"); return try base.count(query) }
    func related(_ entity: String, id: Value, via relationship: String) throws -> [Record] {
        counts.add("related")
        return try base.related(entity, id: id, via: relationship)
    }

    func insert(_ record: Record) throws { counts.add("insert"); try writer.insert(record) }
    func upsert(_ record: Record) throws { counts.add("upsert"); try writer.upsert(record) }
    func update(_ entity: String, id: Value, set changes: [String: Value]) throws {
        counts.add("update")
        try writer.update(entity, id: id, set: changes)
    }
    func delete(_ entity: String, id: Value) throws { counts.add("delete"); try writer.delete(entity, id: id) }
    func insert(contentsOf records: [Record]) throws { counts.add("insertBatch"); try writer.insert(contentsOf: records) }
    func update(_ entity: String, where predicate: StorePredicate, set changes: [String: Value]) throws -> Int {
        counts.add("updateWhere")
        return try writer.update(entity, where: predicate, set: changes)
    }
    func delete(_ entity: String, where predicate: StorePredicate) throws -> Int {
        counts.add("deleteWhere")
        return try writer.delete(entity, where: predicate)
    }
    func link(_ entity: String, id: Value, _ relationship: String, to target: Value) throws {
        counts.add("link")
        try writer.link(entity, id: id, relationship, to: target)
    }
    func unlink(_ entity: String, id: Value, _ relationship: String, from target: Value) throws {
        counts.add("unlink")
        try writer.unlink(entity, id: id, relationship, from: target)
    }
    // Ordered relationships: a wrapper that declares its base's capabilities forwards these too
    // (their default implementations throw `unsupported`).
    func link(_ entity: String, id: Value, _ relationship: String, to target: Value, at index: Int) throws {
        counts.add("link")
        try writer.link(entity, id: id, relationship, to: target, at: index)
    }
    func move(_ entity: String, id: Value, _ relationship: String, from: Int, to: Int) throws {
        counts.add("move")
        try writer.move(entity, id: id, relationship, from: from, to: to)
    }
}
