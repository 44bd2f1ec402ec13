// Typed conveniences over the record API, for `StoredModel` types.

extension ReadTransaction {
    /// The model with this primary key, or `nil`.
    public func fetch<M: StoredModel>(_: M.Type, id: Value) throws -> M? {
        try fetch(M.entityName, id: id).map { try M(row: $0) }
    }

    /// The models matching a predicate, decoded straight from borrowed rows.
    public func fetch<M: StoredModel>(_: M.Type, where predicate: StorePredicate = .all, sort: [SortKey] = [],
                                      limit: Int? = nil, offset: Int = 0) throws -> [M] {
        var out: [M] = []
        try forEach(Query(M.entityName, where: predicate, sort: sort, limit: limit, offset: offset)) {
            out.append(try M(row: $0))
        }
        return out
    }
}

extension WriteTransaction {
    public func insert<M: StoredModel>(_ model: M) throws { try insert(try model.record(in: schema)) }
    public func upsert<M: StoredModel>(_ model: M) throws { try upsert(try model.record(in: schema)) }
    public func insert<M: StoredModel>(contentsOf models: [M]) throws {
        let e = try schema.entity(M.entityName)
        try insert(contentsOf: models.map { Record(e, values: $0.values(for: e)) })
    }
}
