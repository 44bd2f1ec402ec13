import StoreCore

extension SQLQueryCompiler {
    /// A predicate over the root row; `negated` pushes a `NOT` down to the conditions.
    mutating func predicate(_ p: ResolvedPredicate, negated: Bool) -> String {
        switch p {
        case .constant(let b):
            return b != negated ? "1" : "0"
        case .not(let inner):
            return predicate(inner, negated: !negated)
        case .and(let ps), .or(let ps):
            let isConjunction = if case .and = p { true } else { false }
            // An empty AND is true and an empty OR false; negation flips both.
            if ps.isEmpty { return isConjunction != negated ? "1" : "0" }
            let isAnd = isConjunction != negated
            let parts = ps.map { predicate($0, negated: negated) }
            return Self.balanced(parts[...], isAnd ? " AND " : " OR ")
        case .condition(let c):
            return condition(c, negated: negated)
        }
    }

    /// Joins terms as a balanced tree, so thousands of terms stay far below SQLite's
    /// expression depth limit (1000) instead of nesting one level per term.
    static func balanced(_ parts: ArraySlice<String>, _ op: String) -> String {
        if parts.count <= 8 { return "(" + parts.joined(separator: op) + ")" }
        let mid = parts.startIndex + parts.count / 2
        return "(" + balanced(parts[..<mid], op) + op + balanced(parts[mid...], op) + ")"
    }

    private mutating func condition(_ c: ResolvedCondition, negated: Bool) -> String {
        if c.path.isCountOnly { return countCondition(c, negated: negated) }
        if c.path.isElements {
            let list = valueExpression(c.path), je = nextAlias("je")
            let (sql, _) = comparison("\(je).value", c)
            var exists = c.quantifier == .any
            if negated { exists.toggle() }
            return "\(exists ? "" : "NOT ")EXISTS (SELECT 1 FROM json_each(\(list)) \(je) WHERE \(sql))"
        }
        if c.path.toManyStep != nil { return quantifiedCondition(c, negated: negated) }
        let expr = valueExpression(c.path)
        let (sql, nullable) = comparison(expr, c)
        guard negated else { return sql }
        return nullable ? "(\(expr) IS NULL OR NOT (\(sql)))" : "NOT (\(sql))"
    }

    /// The comparison's SQL over `expr`, and whether it yields NULL when `expr` is NULL.
    mutating func comparison(_ expr: String, _ c: ResolvedCondition) -> (String, nullable: Bool) {
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
        // count every byte. The length comes first: substr() of an empty BLOB is NULL, not empty.
        case .beginsWith(let s), .endsWith(let s):
            if s.isEmpty { return ("\(expr) IS NOT NULL", false) }
            // Placeholders are bound in the order they appear in the SQL.
            let n = Int64(s.utf8.count), isPrefix = if case .beginsWith = c.comparison { true } else { false }
            let atLeast = raw(.int64(n)), from = raw(.int64(isPrefix ? 1 : -n)), length = isPrefix ? ", \(raw(.int64(n)))" : ""
            let part = raw(.bytes(Array(s.utf8)))
            return ("(length(CAST(\(x) AS BLOB)) >= \(atLeast) AND substr(CAST(\(x) AS BLOB), \(from)\(length)) = \(part))", true)
        case .like(let p):
            return ("\(SQLFunctions.like)(\(expr), \(bind(.string(p))), \(c.options.rawValue))", true)
        }
    }
}
