import StoreCore

/// Translates resolved queries into SQLite SQL with bound parameters (never string-built
/// values). Uses the functions of `SQLFunctions`, which the driver registers.
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
    public private(set) var bindings: [Value] = []
    private var aliasCounter = 0

    public init(mapping: SQLSchemaMapping) { self.mapping = mapping }

    // MARK: Statements

    /// `SELECT <attributes> FROM T t0 WHERE … ORDER BY … LIMIT … OFFSET …`
    public mutating func select(_ query: ResolvedQuery) -> String {
        let cols = query.entity.attributes.map { "t0.\(q($0.name))" }.joined(separator: ", ")
        return "SELECT \(cols) FROM \(q(query.entity.name)) t0" + whereClause(query.predicate)
            + orderBy(query) + limitClause(query)
    }

    /// `SELECT COUNT(*) …`, limit and offset applied.
    public mutating func count(_ query: ResolvedQuery) -> String {
        let base = "FROM \(q(query.entity.name)) t0" + whereClause(query.predicate)
        if query.limit == nil && query.offset == 0 { return "SELECT COUNT(*) " + base }
        return "SELECT COUNT(*) FROM (SELECT 1 " + base + orderBy(query) + limitClause(query) + ")"
    }

    /// `SELECT pk FROM T t0 WHERE …` in primary-key order.
    public mutating func ids(_ e: Entity, _ p: ResolvedPredicate) -> String {
        "SELECT t0.\(q(e.primaryKey.name)) FROM \(q(e.name)) t0" + whereClause(p) + " ORDER BY t0.\(q(e.primaryKey.name))"
    }


    private mutating func whereClause(_ p: ResolvedPredicate) -> String {
        if case .constant(true) = p { return "" }
        return " WHERE " + predicate(p, outer: "t0", negated: false)
    }

    private mutating func orderBy(_ query: ResolvedQuery) -> String {
        var keys: [String] = []
        for k in query.sort {
            var expr = valueExpression(k.path, outer: "t0")
            if !k.options.isEmpty { expr = "\(SQLFunctions.fold)(\(expr), \(k.options.rawValue))" }
            keys.append(expr + (k.ascending ? " ASC" : " DESC"))
        }
        keys.append("t0.\(q(query.entity.primaryKey.name)) ASC")
        return " ORDER BY " + keys.joined(separator: ", ")
    }

    private mutating func limitClause(_ query: ResolvedQuery) -> String {
        guard query.limit != nil || query.offset > 0 else { return "" }
        bindings.append(.int64(Int64(query.limit ?? -1)))
        bindings.append(.int64(Int64(query.offset)))
        return " LIMIT ? OFFSET ?"
    }

    // MARK: Predicates

    private mutating func predicate(_ p: ResolvedPredicate, outer: String, negated: Bool) -> String {
        switch p {
        case .constant(let b):
            return b != negated ? "1" : "0"
        case .not(let inner):
            return predicate(inner, outer: outer, negated: !negated)
        case .and(let ps), .or(let ps):
            let isConjunction = if case .and = p { true } else { false }
            // An empty AND is true and an empty OR false; negation flips both.
            if ps.isEmpty { return isConjunction != negated ? "1" : "0" }
            let isAnd = isConjunction != negated
            let parts = ps.map { predicate($0, outer: outer, negated: negated) }
            return balanced(parts[...], isAnd ? " AND " : " OR ")
        case .condition(let c):
            return condition(c, outer: outer, negated: negated)
        }
    }

    /// Joins terms as a balanced tree, so thousands of terms stay far below SQLite's
    /// expression depth limit (1000) instead of nesting one level per term.
    private func balanced(_ parts: ArraySlice<String>, _ op: String) -> String {
        if parts.count <= 8 { return "(" + parts.joined(separator: op) + ")" }
        let mid = parts.startIndex + parts.count / 2
        return "(" + balanced(parts[..<mid], op) + op + balanced(parts[mid...], op) + ")"
    }

    private mutating func condition(_ c: ResolvedCondition, outer: String, negated: Bool) -> String {
        if c.path.isCountOnly {
            let (from, correlation, _) = chain(c.path.steps[...], outer: outer)
            let expr = "(SELECT COUNT(*) \(from) WHERE \(correlation))"
            let (sql, _) = comparison(expr, c)
            return negated ? "NOT (\(sql))" : sql
        }
        if c.path.isElements {
            let list = valueExpression(c.path, outer: outer), je = nextAlias("je")
            let (sql, _) = comparison("\(je).value", c)
            var exists = c.quantifier == .any
            if negated { exists.toggle() }
            return "\(exists ? "" : "NOT ")EXISTS (SELECT 1 FROM json_each(\(list)) \(je) WHERE \(sql))"
        }
        if c.path.toManyStep != nil {
            let (from, correlation, last) = chain(c.path.steps[...], outer: outer)
            let (sql, _) = comparison(terminalColumn(c.path, alias: last), c)
            var exists = c.quantifier == .any
            if negated { exists.toggle() }
            return "\(exists ? "" : "NOT ")EXISTS (SELECT 1 \(from) WHERE \(correlation) AND \(sql))"
        }
        let expr = valueExpression(c.path, outer: outer)
        let (sql, nullable) = comparison(expr, c)
        guard negated else { return sql }
        return nullable ? "(\(expr) IS NULL OR NOT (\(sql)))" : "NOT (\(sql))"
    }

    /// The comparison's SQL over `expr`, and whether it yields NULL when `expr` is NULL.
    private mutating func comparison(_ expr: String, _ c: ResolvedCondition) -> (String, nullable: Bool) {
        let x = c.options.isEmpty ? expr : "\(SQLFunctions.fold)(\(expr), \(c.options.rawValue))"
        // A collection's elements are JSON: UUIDs and bytes there are hex strings.
        let json = c.path.isCollection
        func bind(_ v: Value) -> String { bindings.append(json ? CollectionCoding.jsonScalar(v) : v); return "?" }
        func raw(_ v: Value) -> String { bindings.append(v); return "?" }   // the compiler's own operands
        switch c.comparison {
        case .equal(.null): return ("\(expr) IS NULL", false)
        case .notEqual(.null): return ("\(expr) IS NOT NULL", false)
        case .equal(let v): return ("\(x) = \(bind(v))", true)
        case .notEqual(let v): return ("\(x) IS NOT \(bind(v))", false)
        case .less(let v): return ("\(x) < \(bind(v))", true)
        case .lessOrEqual(let v): return ("\(x) <= \(bind(v))", true)
        case .greater(let v): return ("\(x) > \(bind(v))", true)
        case .greaterOrEqual(let v): return ("\(x) >= \(bind(v))", true)
        case .between(let a, let b): return ("\(x) BETWEEN \(bind(a)) AND \(bind(b))", true)
        case .in(let vs):
            let nonNull = vs.filter { !$0.isNull }
            let hasNull = nonNull.count != vs.count
            if nonNull.isEmpty { return hasNull ? ("\(expr) IS NULL", false) : ("0", false) }
            let list = "\(x) IN (" + nonNull.map(bind).joined(separator: ", ") + ")"
            return hasNull ? ("(\(list) OR \(expr) IS NULL)", false) : (list, true)
        case .contains(let s):
            if s.isEmpty { return ("\(expr) IS NOT NULL", false) }
            return ("instr(\(x), \(bind(.string(s)))) > 0", true)
        // Prefixes and suffixes compare bytes (a UTF-8 prefix of whole scalars is a scalar
        // prefix): SQLite's substr() and length() on text stop at the first NUL, on a BLOB they
        // count every byte.
        case .beginsWith(let s):
            if s.isEmpty { return ("\(expr) IS NOT NULL", false) }
            let n = raw(.int64(Int64(s.utf8.count))), prefix = raw(.bytes(Array(s.utf8)))
            return ("substr(CAST(\(x) AS BLOB), 1, \(n)) = \(prefix)", true)
        case .endsWith(let s):
            if s.isEmpty { return ("\(expr) IS NOT NULL", false) }
            // Placeholders are bound in the order they appear in the SQL.
            let n = Int64(s.utf8.count)
            let atLeast = raw(.int64(n)), from = raw(.int64(-n)), suffix = raw(.bytes(Array(s.utf8)))
            return ("(length(CAST(\(x) AS BLOB)) >= \(atLeast) AND substr(CAST(\(x) AS BLOB), \(from)) = \(suffix))", true)
        case .like(let p):
            return ("\(SQLFunctions.like)(\(expr), \(bind(.string(p))), \(c.options.rawValue))", true)
        }
    }

    // MARK: Key paths

    /// A scalar expression for a path through to-one relationships (NULL when a link is missing).
    private mutating func valueExpression(_ path: ResolvedPath, outer: String) -> String {
        if path.steps.isEmpty { return terminalColumn(path, alias: outer) }
        // One step whose foreign key sits on this side, asking for the destination's key:
        // the column itself.
        if path.steps.count == 1, case .attribute(let e, let o, _) = path.terminal, o == e.primaryKeyOrdinal,
           case .foreignKey(_, let column, true) = mapping.links(path.steps[0].source, path.steps[0].relationship) {
            return "\(outer).\(q(column))"
        }
        let (from, correlation, last) = chain(path.steps[...], outer: outer)
        return "(SELECT \(terminalColumn(path, alias: last)) \(from) WHERE \(correlation))"
    }

    /// The expression at the end of a path on the row aliased `alias`: a column, a list's
    /// JSON (quantified by the caller), a collection's count or a map's value under a key.
    private func terminalColumn(_ path: ResolvedPath, alias: String) -> String {
        switch path.terminal {
        case .attribute(let e, let o, _), .elements(let e, let o, _):
            return "\(alias).\(q(e.attributes[o].name))"
        case .elementCount(let e, let o):
            return "(SELECT COUNT(*) FROM json_each(\(alias).\(q(e.attributes[o].name))))"
        case .mapValue(let e, let o, let key, _):
            // The key as a hex literal: no quoting to get wrong, and the expression binds nothing
            // (a comparison may repeat it).
            let hex = Array(key.utf8).map { String($0, radix: 16).leftPadded(2) }.joined()
            return "(SELECT value FROM json_each(\(alias).\(q(e.attributes[o].name))) WHERE key = CAST(X'\(hex)' AS TEXT))"
        case .count:
            return "NULL"
        }
    }

    private mutating func nextAlias(_ prefix: String) -> String {
        aliasCounter += 1
        return "\(prefix)\(aliasCounter)"
    }

    /// A FROM clause walking `steps` from the row aliased `outer`: the clause, the condition
    /// correlating its first table to `outer`, and the alias of the last table.
    private mutating func chain(_ steps: ArraySlice<PathStep>, outer: String) -> (String, String, String) {
        var from = "FROM "
        var correlation = ""
        var previous = outer
        for (k, step) in steps.enumerated() {
            let a = nextAlias("t")
            let destTable = q(step.destination.name)
            let destPK = "\(a).\(q(step.destination.primaryKey.name))"
            let sourcePK = "\(previous).\(q(step.source.primaryKey.name))"
            let tableSQL: String
            let condition: String
            switch mapping.links(step.source, step.relationship) {
            case .foreignKey(_, let column, true):
                tableSQL = "\(destTable) \(a)"
                condition = "\(destPK) = \(previous).\(q(column))"
            case .foreignKey(_, let column, false):
                tableSQL = "\(destTable) \(a)"
                condition = "\(a).\(q(column)) = \(sourcePK)"
            case .joinTable(let table, let src, let dst):
                let j = nextAlias("j")
                tableSQL = "\(q(table)) \(j) JOIN \(destTable) \(a) ON \(destPK) = \(j).\(q(dst))"
                condition = "\(j).\(q(src)) = \(sourcePK)"
            }
            if k == 0 {
                from += tableSQL
                correlation = condition
            } else {
                from += " JOIN \(tableSQL)" + (tableSQL.contains(" ON ") ? " AND " : " ON ") + condition
            }
            previous = a
        }
        return (from, correlation, previous)
    }
}

private extension String {
    /// The string with leading zeros up to `width` characters.
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
