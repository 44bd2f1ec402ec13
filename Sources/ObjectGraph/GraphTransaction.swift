import StoreCore

/// Internal: a context as a `ReadTransaction`. Serves `ObjectGraph.read` (a context bound to
/// a store read transaction) and lets the shared `QueryEvaluator` follow key paths through the
/// objects as a context sees them, unsaved changes included.
struct GraphReadTransaction: ReadTransaction {
    let context: ObjectContext

    var schema: Schema { context.schema }

    func fetch(_ entity: String, id: Value) throws -> Record? {
        let objectID = try context.objectID(entity, id)
        // A loaded object of this context is the answer as it stands: no store access.
        if let o = context.registered(objectID), let values = o.values, o.state != .invalidated {
            return Record(o.entity, values: values)
        }
        return try context.existingObject(objectID).map { try $0.record() }
    }

    func fetch(_ query: Query) throws -> [Record] {
        try context.fetch(query).map { Record($0.entity, values: $0.values!) }
    }

    func forEach(_ query: Query, _ body: (any RowView) throws -> Void) throws {
        try context.forEachRow(query, body)
    }

    func forEachPacked(_ query: Query, _ body: (PackedRow) throws -> Void) throws {
        try context.forEachPackedRow(query, body)
    }

    func count(_ query: Query) throws -> Int { try context.count(query) }

    func related(_ entity: String, id: Value, via relationship: String) throws -> [Record] {
        guard let o = try context.existingObject(try context.objectID(entity, id)) else {
            throw StoreError(.notFound, "no \(entity) with id \(id)", context: "\(entity)(\(id))")
        }
        let objects = try o.related(relationship)
        try context.fireFaults(objects)
        return try objects.map { try $0.record() }
    }
}

/// Internal: `WriteTransaction` through a context bound to a store write transaction. Each
/// operation changes the graph and is saved into the store transaction at once; when it fails,
/// the context rolls back to the previous operation.
struct GraphWriteTransaction: WriteTransaction {
    let context: ObjectContext
    private var read: GraphReadTransaction { GraphReadTransaction(context: context) }

    init(context: ObjectContext) { self.context = context }

    var schema: Schema { context.schema }
    func fetch(_ entity: String, id: Value) throws -> Record? { try read.fetch(entity, id: id) }
    func fetch(_ query: Query) throws -> [Record] { try read.fetch(query) }
    func forEach(_ query: Query, _ body: (any RowView) throws -> Void) throws { try read.forEach(query, body) }
    func forEachPacked(_ query: Query, _ body: (PackedRow) throws -> Void) throws { try read.forEachPacked(query, body) }
    func count(_ query: Query) throws -> Int { try read.count(query) }
    func related(_ entity: String, id: Value, via relationship: String) throws -> [Record] {
        try read.related(entity, id: id, via: relationship)
    }

    func insert(_ record: Record) throws {
        if try context.insertDirectly(record) { return }
        try saving { _ = try context.insert(record) }
    }

    func upsert(_ record: Record) throws {
        try saving {
            let e = try schema.entity(of: record.entity)
            let checked = try e.checkedRecord(record)
            guard let o = try context.object(e.name, id: checked.id) else {
                _ = try context.insert(checked)
                return
            }
            for (i, a) in e.attributes.enumerated() where i != e.primaryKeyOrdinal {
                try o.set(a.name, checked.values[i])
            }
        }
    }

    func update(_ entity: String, id: Value, set changes: [String: Value]) throws {
        try saving {
            let o = try existing(entity, id)
            for (name, v) in changes { try o.set(name, v) }
        }
    }

    func delete(_ entity: String, id: Value) throws {
        try saving { try context.delete(try existing(entity, id)) }
    }

    func insert(contentsOf records: [Record]) throws {
        if try context.insertDirectly(records) { return }
        try saving {
            context.reserveCapacity(records.count)
            for r in records { _ = try context.insert(r) }
        }
    }

    func update(_ entity: String, where predicate: StorePredicate, set changes: [String: Value]) throws -> Int {
        try context.batchUpdate(entity, where: predicate, set: changes)
    }

    func delete(_ entity: String, where predicate: StorePredicate) throws -> Int {
        try context.batchDelete(entity, where: predicate)
    }

    func link(_ entity: String, id: Value, _ relationship: String, to target: Value) throws {
        try saving {
            let a = try existing(entity, id)
            let r = try context.model.info(a.entity, relationship)
            let b = try existing(r.destination.name, target)
            try context.link(a, r, b)
        }
    }

    func unlink(_ entity: String, id: Value, _ relationship: String, from target: Value) throws {
        try saving {
            let a = try existing(entity, id)
            let r = try context.model.info(a.entity, relationship)
            guard let b = try context.object(r.destination.name, id: target) else { return }
            try context.unlink(a, r, b)
        }
    }

    func link(_ entity: String, id: Value, _ relationship: String, to target: Value, at index: Int) throws {
        try saving {
            let a = try existing(entity, id)
            let r = try context.model.info(a.entity, relationship)
            try context.link(a, r, try existing(r.destination.name, target), at: index)
        }
    }

    func move(_ entity: String, id: Value, _ relationship: String, from: Int, to: Int) throws {
        try saving {
            let a = try existing(entity, id)
            try context.moveLink(a, try context.model.info(a.entity, relationship), from: from, to: to)
        }
    }

    private func existing(_ entity: String, _ id: Value) throws -> ManagedObject {
        guard let o = try context.object(entity, id: id) else {
            throw StoreError(.notFound, "no \(entity) with id \(id)", context: "\(entity)(\(id))")
        }
        return o
    }

    /// One operation: graph changes, then a save into the store transaction; on failure the
    /// context goes back to where it was.
    private func saving(_ body: () throws -> Void) throws {
        if let poison = context.poison { throw poison }
        do {
            try body()
            try context.save()
        } catch {
            context.rollback()
            throw error
        }
    }
}

extension ObjectContext {
    /// Internal: streams rows of a query; a registered object's values replace the store's row
    /// (they are the same after a save, and an unsaved edit wins).
    func forEachRow(_ query: Query, _ body: (any RowView) throws -> Void) throws {
        if mayHaveUnsavedWork {
            for o in try fetch(query) { try body(Record(o.entity, values: o.values!)) }
            return
        }
        try withRead { tx in
            try tx.forEach(query) { row in
                if !registry.isEmpty, let o = registry[ObjectID(row.entity, row.id)]?.object, let v = o.values {
                    try body(Record(o.entity, values: v))
                } else {
                    try body(row)
                }
            }
        }
    }

    /// Internal: `forEachRow` as packed rows: the store's own packed rows, except where a
    /// registered object's values replace them (packed into a reused buffer).
    func forEachPackedRow(_ query: Query, _ body: (PackedRow) throws -> Void) throws {
        var builder: PackedRowBuilder?
        func pack(_ r: Record) -> PackedRow {
            if builder == nil { builder = PackedRowBuilder(r.entity) }
            return builder!.pack(r)
        }
        if mayHaveUnsavedWork {
            for o in try fetch(query) { try body(pack(Record(o.entity, values: o.values!))) }
            return
        }
        try withRead { tx in
            try tx.forEachPacked(query) { row in
                if !registry.isEmpty, let o = registry[ObjectID(row.entity, row.id)]?.object, let v = o.values {
                    try body(pack(Record(o.entity, values: v)))
                } else {
                    try body(row)
                }
            }
        }
    }
}
