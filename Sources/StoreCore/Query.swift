/// One sort key: a key path (through to-one relationships), direction, and optional `[c]`/`[d]`.
public struct SortKey: Sendable, Hashable {
    public var keyPath: KeyPathExpression
    public var ascending: Bool
    public var options: StringOptions

    public init(_ keyPath: KeyPathExpression, ascending: Bool = true, options: StringOptions = []) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.options = options
    }

    public static func asc(_ k: KeyPathExpression) -> SortKey { SortKey(k) }
    public static func desc(_ k: KeyPathExpression) -> SortKey { SortKey(k, ascending: false) }
}

/// A query over one entity: predicate, sort keys, limit and offset.
///
/// Results are deterministic on every backend: ties in the sort (and an empty sort) are
/// broken by primary key ascending; nulls sort first ascending and last descending.
///
/// ```swift
/// let q = Query("Post", where: "score" > 10, sort: [.desc("createdAt")], limit: 20, offset: 40)
/// ```
public struct Query: Sendable, Hashable {
    public var entity: String
    public var predicate: StorePredicate
    public var sort: [SortKey]
    public var limit: Int?
    public var offset: Int

    public init(_ entity: String, where predicate: StorePredicate = .all, sort: [SortKey] = [],
                limit: Int? = nil, offset: Int = 0) {
        self.entity = entity
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }

    /// A query whose predicate is parsed from an NSPredicate-style string.
    public init(_ entity: String, format: String, _ arguments: PredicateArgument..., sort: [SortKey] = [],
                limit: Int? = nil, offset: Int = 0) throws {
        self.init(entity, where: try StorePredicate(format: format, arguments: arguments),
                  sort: sort, limit: limit, offset: offset)
    }
}
