import StoreCore

/// A transaction that forwards to a correct one, bending the behaviour its fault names.
final class FaultyTransaction: WriteTransaction {
    let fault: Fault?
    private let reader: (any ReadTransaction)?
    private let writer: (any WriteTransaction)?
    private let autocommit: (any Repository)?

    init(fault: Fault?, read: any ReadTransaction) { self.fault = fault; reader = read; writer = nil; autocommit = nil }
    init(fault: Fault?, write: any WriteTransaction) { self.fault = fault; reader = write; writer = write; autocommit = nil }
    init(fault: Fault?, autocommitRepository: any Repository) {
        self.fault = fault; reader = nil; writer = nil; autocommit = autocommitRepository
    }

    var schema: Schema { reader?.schema ?? autocommit!.schema }

    /// Runs a read on the wrapped transaction, or in a fresh one (for `noSnapshot`).
    private func onReader<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        if let reader { return try body(reader) }
        return try autocommit!.read(body)
    }

    private var w: any WriteTransaction {
        get throws {
            guard let writer else { throw StoreError(.unsupported, "write in a read transaction") }
            return writer
        }
    }

    // MARK: Query bending

    private func bend(_ q: Query) -> Query {
        var q = q
        q.predicate = bend(q.predicate)
        switch fault {
        case .ignoredSort: q.sort = []
        case .offsetOffByOne: q.offset = max(0, q.offset - 1)
        case .limitIgnored: q.limit = nil
        default: break
        }
        return q
    }

    private func bend(_ p: StorePredicate) -> StorePredicate {
        switch p {
        case .constant: return p
        case .and(let ps): return .and(ps.map(bend))
        case .or(let ps): return .or(ps.map(bend))
        case .not(let x): return .not(bend(x))
        case .condition(var c):
            if fault == .caseSensitiveC { c.options.remove(.caseInsensitive) }
            if fault == .diacriticSensitiveD { c.options.remove(.diacriticInsensitive) }
            return .condition(c)
        }
    }

    private func bend(_ changes: [String: Value]) -> [String: Value] {
        guard fault == .droppedFieldOnUpdate, let first = changes.keys.sorted().first else { return changes }
        return [first: changes[first]!]
    }

    // MARK: Reads

    func fetch(_ entity: String, id: Value) throws -> Record? { try onReader { try $0.fetch(entity, id: id) } }
    func fetch(_ query: Query) throws -> [Record] { try onReader { try $0.fetch(bend(query)) } }
    private var iterating = 0
    func forEach(_ query: Query, _ body: (any RowView) throws -> Void) throws {
        if fault == .nestedIterationEmpty && iterating > 0 { return }
        iterating += 1
        defer { iterating -= 1 }
        try onReader { try $0.forEach(bend(query), body) }
    }
    func count(_ query: Query) throws -> Int {
        try onReader { try $0.count(bend(query)) } + (fault == .wrongCount ? 1 : 0)
    }
    func related(_ entity: String, id: Value, via relationship: String) throws -> [Record] {
        let all = try onReader { try $0.related(entity, id: id, via: relationship) }
        if fault == .inverseNotUpdated, let e = schema[entity], let r = e.relationship(relationship),
           (e.name, r.name) > (r.destination, r.inverse) {
            return []
        }
        return all
    }

    // MARK: Writes

    func insert(_ record: Record) throws {
        if fault == .duplicateKeyAccepted { return try w.upsert(record) }
        try w.insert(record)
    }

    func upsert(_ record: Record) throws { try w.upsert(record) }

    func update(_ entity: String, id: Value, set changes: [String: Value]) throws {
        do { try w.update(entity, id: id, set: bend(changes)) } catch let e as StoreError where e.category == .notFound && fault == .updateOfMissingIgnored {}
    }

    func delete(_ entity: String, id: Value) throws {
        try unlinkBeforeDelete(entity, [id])
        try w.delete(entity, id: id)
    }

    func insert(contentsOf records: [Record]) throws {
        guard fault == .nonAtomicBatch else { return try w.insert(contentsOf: records) }
        for r in records { try w.insert(r) }
    }

    func update(_ entity: String, where predicate: StorePredicate, set changes: [String: Value]) throws -> Int {
        try w.update(entity, where: bend(predicate), set: bend(changes))
    }

    func delete(_ entity: String, where predicate: StorePredicate) throws -> Int {
        let ids = try w.fetch(Query(entity, where: predicate)).map(\.id)
        try unlinkBeforeDelete(entity, ids)
        return try w.delete(entity, where: predicate)
    }

    func link(_ entity: String, id: Value, _ relationship: String, to target: Value) throws {
        try w.link(entity, id: id, relationship, to: target)
    }

    func unlink(_ entity: String, id: Value, _ relationship: String, from target: Value) throws {
        try w.unlink(entity, id: id, relationship, from: target)
    }

    /// For `cascadeNotApplied` and `denyIgnored`: removes the links the rule would act on.
    private func unlinkBeforeDelete(_ entity: String, _ ids: [Value]) throws {
        let rule: DeleteRule
        switch fault {
        case .cascadeNotApplied: rule = .cascade
        case .denyIgnored: rule = .deny
        default: return
        }
        guard let e = schema[entity] else { return }
        for id in ids {
            for r in e.relationships where r.deleteRule == rule {
                for d in (try? w.related(entity, id: id, via: r.name)) ?? [] {
                    try w.unlink(entity, id: id, r.name, from: d.id)
                }
            }
        }
    }
}
