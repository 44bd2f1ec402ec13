import StoreCore

/// The choices between equivalent SQL: which side a statement starts from and where its order
/// comes from. Each is what an SQLite user decides from the schema's keys and indexes.
extension SQLQueryCompiler {
    /// The top-level conjuncts of a predicate (`TRUEPREDICATE` has none).
    static func conjuncts(_ p: ResolvedPredicate) -> [ResolvedPredicate] {
        switch p {
        case .constant(true): []
        case .and(let ps): ps.flatMap(conjuncts)
        default: [p]
        }
    }

    /// A conjunct `ANY r.key == v` over a many-to-many relationship, asking for the linked
    /// record's primary key: the join table can drive the statement (at most one of its rows
    /// per root record). The join, the key and the conjunct's position.
    mutating func drivingJoin(_ conjuncts: [ResolvedPredicate]) -> (SQLDrivingJoin, Value, Int)? {
        for (i, p) in conjuncts.enumerated() {
            guard case .condition(let c) = p, c.quantifier == .any, c.options.isEmpty, c.path.steps.count == 1,
                  case .equal(let key) = c.comparison, !key.isNull,
                  case .attribute(let e, let o, _) = c.path.terminal, o == e.primaryKeyOrdinal,
                  case .joinTable(let table, let src, let dst) = mapping.links(c.path.steps[0].source, c.path.steps[0].relationship)
            else { continue }
            return (SQLDrivingJoin(table: table, alias: nextAlias("d"), sourceColumn: src, destinationColumn: dst), key, i)
        }
        return nil
    }

    /// The to-one path prefixes that top-level conditions cross and that are false where a link
    /// is missing (the path's value is then NULL): an inner join keeps exactly their rows.
    static func innerJoins(_ conjuncts: [ResolvedPredicate]) -> Set<String> {
        var keys: Set<String> = []
        for p in conjuncts {
            guard case .condition(let c) = p, !c.path.steps.isEmpty, c.path.toManyStep == nil, !c.path.isCountOnly,
                  !c.path.isElements, !QueryEvaluator.test(.null, c.comparison, c.options) else { continue }
            for k in c.path.steps.indices { keys.insert(SQLJoinScope.key(c.path.steps[...k])) }
        }
        return keys
    }

    /// Whether a conjunct picks root records by key: equality (or a short `IN` list) on the
    /// primary key or on an attribute with a unique index of its own. Then conditions over
    /// to-many relationships are checked on those few rows rather than answered for all.
    func picksByKey(_ p: ResolvedPredicate) -> Bool {
        guard case .condition(let c) = p, c.path.steps.isEmpty, c.quantifier == .single, c.options.isEmpty,
              case .attribute(let e, let o, _) = c.path.terminal else { return false }
        let name = e.attributes[o].name
        guard o == e.primaryKeyOrdinal || e.indexes.contains(where: { $0.isUnique && $0.attributes == [name] }) else { return false }
        switch c.comparison {
        case .equal(let v): return !v.isNull
        case .in(let vs): return vs.count <= 32
        default: return false
        }
    }

    /// Whether a page (a sort with a limit) takes its keys first: when no index of the entity
    /// yields the order (a descending key, whose ties still go by ascending key; a key path; a
    /// folded or unindexed attribute), SQLite sorts, and a narrow row through its sorter
    /// costs less than a whole one.
    func pagesLate(_ query: ResolvedQuery) -> Bool {
        guard query.limit != nil, !query.sort.isEmpty else { return false }
        var names: [String] = []
        for k in query.sort {
            guard k.ascending, k.options.isEmpty, k.path.steps.isEmpty, case .attribute(let e, let o, _) = k.path.terminal else { return true }
            if o == e.primaryKeyOrdinal { break }
            names.append(e.attributes[o].name)
        }
        return !(names.isEmpty || query.entity.indexes.contains { $0.attributes.starts(with: names) })
    }

    /// Whether a path is the root's own primary key.
    func isRootKey(_ path: ResolvedPath) -> Bool {
        guard path.steps.isEmpty, case .attribute(let e, let o, _) = path.terminal else { return false }
        return o == e.primaryKeyOrdinal
    }
}
