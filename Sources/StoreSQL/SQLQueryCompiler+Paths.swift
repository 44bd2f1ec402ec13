import StoreCore

/// A key path's relationships as SQL: the joins of to-one paths on the root, and the FROM
/// clause of the subquery that walks a to-many path.
extension SQLQueryCompiler {
    /// A scalar expression for a path through to-one relationships, on the root (NULL when a
    /// link is missing): a column of the root or of a `LEFT JOIN`ed record.
    mutating func valueExpression(_ path: ResolvedPath) -> String {
        let steps = path.steps[...]
        // The destination's key, held by the last step's own foreign-key column: read it there.
        if let last = steps.last, case .attribute(let e, let o, _) = path.terminal, o == e.primaryKeyOrdinal,
           case .foreignKey(_, let column, true) = mapping.links(last.source, last.relationship) {
            return "\(joinToOnes(steps.dropLast())).\(q(column))"
        }
        return terminalColumn(path, alias: joinToOnes(steps))
    }

    /// The alias of the record at the end of to-one `steps` from the root, joining what the
    /// scope does not hold yet.
    private mutating func joinToOnes(_ steps: ArraySlice<PathStep>) -> String {
        var previous = scope.alias
        for k in steps.indices {
            let step = steps[k], key = SQLJoinScope.key(steps[...k])
            if let a = scope.alias(of: key) { previous = a; continue }
            let a = nextAlias("p"), dest = step.destination
            let on: String
            switch mapping.links(step.source, step.relationship) {
            case .foreignKey(_, let column, true): on = "\(a).\(q(dest.primaryKey.name)) = \(previous).\(q(column))"
            case .foreignKey(_, let column, false): on = "\(a).\(q(column)) = \(previous).\(q(step.source.primaryKey.name))"
            case .joinTable: preconditionFailure("a to-one step has no join table")
            }
            scope.add(key, alias: a, sql: "\(scope.innerJoins.contains(key) ? "" : "LEFT ")JOIN \(q(dest.name)) \(a) ON \(on)")
            previous = a
        }
        return previous
    }

    /// The expression at the end of a path on the row aliased `alias`: a column, a list's
    /// JSON (quantified by the caller), a collection's count or a map's value under a key.
    func terminalColumn(_ path: ResolvedPath, alias: String) -> String {
        switch path.terminal {
        case .attribute(let e, let o, _), .elements(let e, let o, _):
            return alias + "." + mapping.quoted(e, o)
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

    /// The subquery walking every step of `path` from the root: inner joins from the first
    /// step's table.
    mutating func chain(_ path: ResolvedPath) -> SQLPathChain {
        var from = "FROM ", previous = scope.alias
        var first: ChainLink?, terminal: String?
        for (k, step) in path.steps.enumerated() {
            let l = link(step, from: previous, ending: k == path.steps.count - 1 ? path.terminal : nil)
            if k == 0 {
                from += l.table
                first = l
            } else {
                from += " JOIN \(l.table)" + (l.table.contains(" ON ") ? " AND " : " ON ") + "\(l.inner) = \(l.outer)"
            }
            previous = l.alias
            terminal = l.terminal
        }
        let f = first!
        return SQLPathChain(from: from, outerKey: f.outer, outerKeyIsNullable: f.outerIsForeignKey, innerKey: f.inner,
                            terminal: terminal ?? terminalColumn(path, alias: previous))
    }

    /// One step of a chain from the row aliased `previous`. The last step (`ending` the path)
    /// leaves out its destination when the path needs nothing of it but its key, which a join
    /// table already holds (`tags.name`, `tags.@count`).
    private mutating func link(_ step: PathStep, from previous: String, ending: ResolvedPath.Terminal?) -> ChainLink {
        let a = nextAlias("t"), dest = step.destination, destKey = "\(a).\(q(dest.primaryKey.name))"
        let sourceKey = "\(previous).\(q(step.source.primaryKey.name))", table = "\(q(dest.name)) \(a)"
        switch mapping.links(step.source, step.relationship) {
        case .foreignKey(_, let column, true):
            return ChainLink(table: table, inner: destKey, outer: "\(previous).\(q(column))", outerIsForeignKey: true, alias: a)
        case .foreignKey(_, let column, false):
            return ChainLink(table: table, inner: "\(a).\(q(column))", outer: sourceKey, alias: a)
        case .joinTable(let joinTable, let src, let dst):
            let j = nextAlias("j")
            var l = ChainLink(table: "\(q(joinTable)) \(j)", inner: "\(j).\(q(src))", outer: sourceKey, alias: j)
            switch ending {
            case .count?: break   // a count needs no column of the destination
            case .attribute(let e, let o, _)? where e == dest && o == e.primaryKeyOrdinal: l.terminal = "\(j).\(q(dst))"
            default:
                l.table += " JOIN \(table) ON \(destKey) = \(j).\(q(dst))"
                l.alias = a
            }
            return l
        }
    }
}

/// One step of a `SQLPathChain`: its table (with the join table's destination where needed),
/// the column that meets the previous row (`inner = outer`), and the alias later steps start from.
private struct ChainLink {
    var table: String
    var inner: String
    var outer: String
    var outerIsForeignKey = false
    var alias: String
    /// The path's terminal expression when the step answers it from the join table.
    var terminal: String?
}

/// The FROM clause of a subquery walking a path from the root, and how it meets the root:
/// `innerKey = outerKey` correlates it with one root row; `outerKey IN (SELECT innerKey …)`
/// is the same condition answered for every root row at once.
struct SQLPathChain {
    let from: String
    /// The root's column the path leaves from (its primary key, or a foreign key it holds).
    let outerKey: String
    /// Whether `outerKey` is a foreign key of the root, NULL where the link is missing.
    let outerKeyIsNullable: Bool
    /// The first table's column that equals `outerKey` on the rows the path reaches.
    let innerKey: String
    /// The expression the path's condition compares.
    let terminal: String

    var correlation: String { "\(innerKey) = \(outerKey)" }
}

private extension String {
    /// The string with leading zeros up to `width` characters.
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
