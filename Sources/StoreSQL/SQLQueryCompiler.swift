import StoreCore

/// Translates resolved queries into SQLite SQL with bound parameters (never string-built
/// values), written as an SQLite user writes them, so that SQLite's planner answers from the
/// indexes the store keeps (`EXPLAIN QUERY PLAN` checks it in the tests):
///
/// - a key path through to-one relationships: a `LEFT JOIN` per step (`SQLJoinScope`), which
///   SQLite drives from the selective side (`author.username == ?` from the username index);
/// - `ANY` over a to-many relationship: a semi-join, `id IN (SELECT author FROM Post WHERE …)`,
///   or `EXISTS` correlated with the root row when another condition picks that row by key;
///   `ANY tags.name == ?` starts from the join table's index (`SQLDrivingJoin`); `NONE`: `NOT EXISTS`;
/// - `@count`: one `GROUP BY … HAVING` over the link column (`IN`, or `NOT IN` where a count of
///   zero matches), or a correlated count when the root row is picked by key;
/// - a sort with a limit that no index order serves: the page's keys first, from narrow rows,
///   then the page's rows (a late row lookup); a count ignores the order.
///
/// ```swift
/// var c = SQLQueryCompiler(mapping: mapping)
/// let sql = c.select(try schema.resolve(query))   // then bind c.bindings, in order
/// ```
///
/// Null semantics (shared by every backend): a comparison with a null operand value is
/// false, except `== nil` and `!= value` (true for null). `NOT` is pushed down to the
/// conditions (De Morgan), and a negated comparison is written null-safe, so SQL's
/// three-valued logic never leaks.
public struct SQLQueryCompiler {
    public let mapping: SQLSchemaMapping
    /// The values for the `?` placeholders of the SQL compiled so far, in order.
    public internal(set) var bindings: [Value] = []
    var aliasCounter = 0
    /// The FROM clause of the statement being compiled.
    var scope: SQLJoinScope!
    /// Whether to-many conditions correlate with the root row (it is picked by key) instead of
    /// being answered once for all rows.
    var correlates = false

    public init(mapping: SQLSchemaMapping) { self.mapping = mapping }

    // MARK: Statements

    /// `SELECT <attributes> FROM T t0 … WHERE … ORDER BY … LIMIT … OFFSET …`
    public mutating func select(_ query: ResolvedQuery) -> String {
        if pagesLate(query) { return latePage(query) }
        return statement(query, alias: "t0", select: columns(query.entity, alias: "t0"), ordered: true)
    }

    /// `SELECT COUNT(*) …`, limit and offset applied (without an order: it does not change how
    /// many rows a page holds).
    public mutating func count(_ query: ResolvedQuery) -> String {
        if query.limit == nil && query.offset == 0 { return statement(query, alias: "t0", select: "COUNT(*)", ordered: false) }
        return "SELECT COUNT(*) FROM (" + statement(query, alias: "t0", select: "1", ordered: false, limited: true) + ")"
    }

    /// `SELECT pk FROM T t0 … WHERE …` in primary-key order.
    public mutating func ids(_ e: Entity, _ p: ResolvedPredicate) -> String {
        statement(ResolvedQuery(e, matching: p), alias: "t0", select: "t0.\(q(e.primaryKey.name))", ordered: true)
    }

    /// One SELECT over the query's entity aliased `alias`: the driving join and the conditions,
    /// then (when `ordered`) the sort keys and the primary key, then (when `limited`, by default
    /// with the order) the limit and offset.
    mutating func statement(_ query: ResolvedQuery, alias: String, select: String, ordered: Bool, limited: Bool? = nil) -> String {
        scope = SQLJoinScope(query.entity, alias: alias)
        var conjuncts = Self.conjuncts(query.predicate)
        var terms: [String] = []
        if let (drive, key, at) = drivingJoin(conjuncts) {
            scope.drive = drive
            bindings.append(key)
            terms.append("\(drive.linkedKey) = ?")
            conjuncts.remove(at: at)
        }
        correlates = scope.drive != nil || conjuncts.contains(where: picksByKey)
        scope.innerJoins = Self.innerJoins(conjuncts)
        if !conjuncts.isEmpty { terms.append(predicate(.and(conjuncts), negated: false)) }
        let filter = terms.isEmpty ? "" : " WHERE " + terms.joined(separator: " AND ")
        let order = ordered ? orderBy(query) : ""
        let limit = (limited ?? ordered) ? limitClause(query) : ""
        return "SELECT \(select) \(scope.from)" + filter + order + limit
    }

    /// The page's keys in a subquery (its sort through narrow rows), then its rows by key, sorted again.
    private mutating func latePage(_ query: ResolvedQuery) -> String {
        let pk = q(query.entity.primaryKey.name)
        let keys = statement(query, alias: "s0", select: "s0.\(pk)", ordered: true)
        scope = SQLJoinScope(query.entity, alias: "t0")
        correlates = false
        let order = orderBy(query)
        return "SELECT \(columns(query.entity, alias: "t0")) \(scope.from) WHERE t0.\(pk) IN (\(keys))" + order
    }

    private func columns(_ e: Entity, alias: String) -> String {
        mapping.selectList(e, alias: alias) ?? e.attributes.indices.map { "\(alias).\(mapping.quoted(e, $0))" }.joined(separator: ", ")
    }

    /// `ORDER BY` the sort keys, then the primary key ascending unless a key already is it.
    private mutating func orderBy(_ query: ResolvedQuery) -> String {
        var keys: [String] = []
        for k in query.sort {
            var expr = isRootKey(k.path) ? scope.primaryKey : valueExpression(k.path)
            if !k.options.isEmpty { expr = "\(SQLFunctions.fold)(\(expr), \(k.options.rawValue))" }
            keys.append(expr + (k.ascending ? " ASC" : " DESC"))
        }
        if !query.sort.contains(where: { $0.options.isEmpty && isRootKey($0.path) }) { keys.append("\(scope.primaryKey) ASC") }
        return " ORDER BY " + keys.joined(separator: ", ")
    }

    private mutating func limitClause(_ query: ResolvedQuery) -> String {
        guard query.limit != nil || query.offset > 0 else { return "" }
        bindings.append(.int64(Int64(query.limit ?? -1)))
        bindings.append(.int64(Int64(query.offset)))
        return " LIMIT ? OFFSET ?"
    }

    mutating func nextAlias(_ prefix: String) -> String {
        aliasCounter += 1
        return "\(prefix)\(aliasCounter)"
    }
}
