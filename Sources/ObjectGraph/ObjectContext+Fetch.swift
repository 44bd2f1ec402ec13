import StoreCore

extension ObjectContext {
    /// The objects matching a query, in its order, loaded. Unsaved changes of this context
    /// count: inserted objects that match are included, deleted ones left out, edited ones
    /// judged by their current values.
    ///
    /// ```swift
    /// let recent = try context.fetch(Query("Post", where: "score" > 10, sort: [.desc("createdAt")], limit: 20))
    /// ```
    public func fetch(_ query: Query) throws -> [ManagedObject] {
        try mergeIfAutomatic()
        if !mayHaveUnsavedWork {
            return try withRead { tx in
                var out: [ManagedObject] = []
                try tx.forEach(query) { row in out.append(object(for: Record(row))) }
                return out
            }
        }
        return try fetchIncludingChanges(query)
    }

    /// How many objects match (unsaved changes count, as in `fetch`).
    public func count(_ query: Query) throws -> Int {
        try mergeIfAutomatic()
        if !mayHaveUnsavedWork {
            return try withRead { try $0.count(query) }
        }
        return try fetchIncludingChanges(query).count
    }

    /// Loads many faults with one query per entity instead of one read each (Core Data's
    /// batch faulting), e.g. before walking a to-many relationship.
    public func fireFaults(_ objects: [ManagedObject]) throws {
        var byEntity: [Int: [ManagedObject]] = [:]
        for o in objects where o.isFault && o.context === self && o.state != .invalidated {
            byEntity[o.entity.index, default: []].append(o)
        }
        try withRead { tx in
            for (_, group) in byEntity {
                let e = group[0].entity
                for chunk in stride(from: 0, to: group.count, by: 500).map({ group[$0..<min($0 + 500, group.count)] }) {
                    let keys = chunk.map(\.id)
                    try tx.forEach(Query(e.name, where: .condition(Condition(KeyPathExpression(e.primaryKey.name), .in(keys))))) { row in
                        _ = object(for: Record(row))
                    }
                }
            }
        }
    }

    /// Store results, then this context's unsaved changes applied and the query re-judged in
    /// memory with the shared evaluator. Key-path queries are judged in memory for every
    /// record, since an edit of a related object can change them.
    private func fetchIncludingChanges(_ query: Query) throws -> [ManagedObject] {
        let rq = try schema.resolve(query)
        let keyPaths = rq.predicate.followsRelationships || rq.sort.contains { !$0.path.steps.isEmpty }
        return try withRead { tx in
            let view = GraphReadTransaction(context: self)
            let evaluator = QueryEvaluator()
            var candidates: [ObjectID: ManagedObject] = [:]
            let storeQuery = keyPaths ? Query(query.entity) : Query(query.entity, where: query.predicate)
            try tx.forEach(storeQuery) { row in
                let o = object(for: Record(row))
                if o.state == .saved, !o.hasChanges { candidates[o.objectID] = o }
            }
            for o in changed.values where o.entity.index == rq.entity.index && o.state != .deleted && o.state != .invalidated {
                try fire(o)
                candidates[o.objectID] = o
            }
            var records: [Record] = []
            for o in candidates.values {
                let r = Record(o.entity, values: o.values!)
                if keyPaths || o.hasChanges {
                    guard try evaluator.matches(rq.predicate, r, in: view) else { continue }
                }
                records.append(r)
            }
            try evaluator.sort(&records, by: rq.sort, in: view)
            return evaluator.slice(records, limit: rq.limit, offset: rq.offset).map {
                candidates[ObjectID($0.entity, $0.values[$0.entity.primaryKeyOrdinal])]!
            }
        }
    }
}

extension ResolvedPredicate {
    /// Internal: whether any condition follows a relationship.
    var followsRelationships: Bool {
        switch self {
        case .constant: false
        case .condition(let c): !c.path.steps.isEmpty
        case .and(let ps), .or(let ps): ps.contains { $0.followsRelationships }
        case .not(let p): p.followsRelationships
        }
    }
}

