extension Schema {
    /// Checks a query against the schema: entity, key paths, operand types, options, limit and
    /// offset. Throws `invalidQuery` naming the problem.
    public func resolve(_ q: Query) throws -> ResolvedQuery {
        let e = try entity(q.entity, category: .invalidQuery)
        if let l = q.limit, l < 0 { throw StoreError(.invalidQuery, "limit must be >= 0, got \(l)") }
        guard q.offset >= 0 else { throw StoreError(.invalidQuery, "offset must be >= 0, got \(q.offset)") }
        let sort = try q.sort.map { k -> ResolvedSortKey in
            let p = try resolvePath(k.keyPath, from: e)
            guard p.toManyStep == nil, case .attribute(_, _, let t) = p.terminal else {
                throw StoreError(.invalidQuery, "cannot sort by '\(k.keyPath)': sort keys go through to-one relationships only")
            }
            if !k.options.isEmpty && t != .string {
                throw StoreError(.invalidQuery, "sort option \(k.options.suffix) applies to strings, '\(k.keyPath)' is \(t.rawValue)")
            }
            return ResolvedSortKey(path: p, ascending: k.ascending, options: k.options)
        }
        return ResolvedQuery(entity: e, predicate: try resolve(q.predicate, on: e), sort: sort, limit: q.limit, offset: q.offset)
    }

    /// Checks a predicate against an entity.
    public func resolve(_ p: StorePredicate, on e: Entity) throws -> ResolvedPredicate {
        try resolve(p, on: e, depth: 0)
    }

    private func resolve(_ p: StorePredicate, on e: Entity, depth: Int) throws -> ResolvedPredicate {
        guard depth <= Limits.maxPredicateDepth else {
            throw StoreError(.invalidQuery, "predicate nests deeper than \(Limits.maxPredicateDepth) levels")
        }
        switch p {
        case .constant(let b): return .constant(b)
        case .and(let ps): return .and(try ps.map { try resolve($0, on: e, depth: depth + 1) })
        case .or(let ps): return .or(try ps.map { try resolve($0, on: e, depth: depth + 1) })
        case .not(let p): return .not(try resolve(p, on: e, depth: depth + 1))
        case .condition(let c): return .condition(try resolve(c, on: e))
        }
    }

    /// Resolves a dotted key path from an entity.
    public func resolvePath(_ k: KeyPathExpression, from root: Entity) throws -> ResolvedPath {
        guard !k.components.isEmpty, k.components.allSatisfy({ !$0.isEmpty }) else {
            throw StoreError(.invalidQuery, "malformed key path '\(k)'")
        }
        var steps: [PathStep] = []
        var current = root
        var toMany: Int?
        let relationshipCount = k.isCount ? k.components.count : k.components.count - 1
        for (position, name) in k.components.prefix(relationshipCount).enumerated() {
            if current.relationship(name) == nil, let t = try collectionTerminal(k, position, on: current) {
                guard toMany == nil || !(t.isElementCount) else {
                    throw StoreError(.invalidQuery, "'\(k)': @count of a list or map cannot follow a to-many relationship")
                }
                return ResolvedPath(steps: steps, terminal: t, toManyStep: toMany)
            }
            guard let r = current.relationship(name) else {
                let what = current.ordinal(of: name) != nil ? "is an attribute, not a relationship" : "is not a relationship"
                throw StoreError(.invalidQuery, "in '\(k)': '\(name)' of \(current.name) \(what)")
            }
            let (dest, inv) = inverse(of: r)
            if r.isToMany {
                guard toMany == nil else {
                    throw StoreError(.invalidQuery, "'\(k)' crosses more than one to-many relationship")
                }
                toMany = steps.count
            }
            steps.append(PathStep(source: current, relationship: r, destination: dest, inverse: inv))
            current = dest
        }
        if k.isCount {
            guard let t = toMany, t == steps.count - 1 else {
                throw StoreError(.invalidQuery, "'\(k)': @count needs a to-many relationship as the last step")
            }
            return ResolvedPath(steps: steps, terminal: .count, toManyStep: toMany)
        }
        let last = k.components[k.components.count - 1]
        guard let o = current.ordinal(of: last) else {
            let hint = current.relationship(last) != nil ? " (it is a relationship; compare one of its attributes or use @count)" : ""
            throw StoreError(.invalidQuery, "in '\(k)': \(current.name) has no attribute '\(last)'\(hint)")
        }
        let a = current.attributes[o]
        switch a.collection {
        case nil:
            return ResolvedPath(steps: steps, terminal: .attribute(current, ordinal: o, type: a.type), toManyStep: toMany)
        case .list:
            guard toMany == nil else { throw StoreError(.invalidQuery, "'\(k)' crosses a to-many relationship and a list; quantify one of them") }
            return ResolvedPath(steps: steps, terminal: .elements(current, ordinal: o, type: a.type), toManyStep: nil)
        case .map:
            throw StoreError(.invalidQuery, "in '\(k)': '\(last)' is a map; compare one of its keys ('\(last).key' or \(last)['key']) or use @count")
        }
    }

    /// The terminal of a path whose component at `position` is a list or map attribute:
    /// `map.key`/`map['key']` or `collection.@count`; `nil` when it is neither.
    private func collectionTerminal(_ k: KeyPathExpression, _ position: Int, on e: Entity) throws -> ResolvedPath.Terminal? {
        guard let o = e.ordinal(of: k.components[position]), let kind = e.attributes[o].collection else { return nil }
        if k.isCount, position == k.components.count - 1 { return .elementCount(e, ordinal: o) }
        if kind == .map, !k.isCount, position == k.components.count - 2 {
            return .mapValue(e, ordinal: o, key: k.components[position + 1], type: e.attributes[o].type)
        }
        return nil
    }

    private func resolve(_ c: Condition, on e: Entity) throws -> ResolvedCondition {
        let c = try comparingKeys(c, on: e)
        let path = try resolvePath(c.keyPath, from: e)
        if (path.toManyStep != nil && !path.isCountOnly) || path.isElements {
            guard c.quantifier != .single else {
                let what = path.isElements ? "is a list" : "crosses a to-many relationship"
                throw StoreError(.invalidQuery, "'\(c.keyPath)' \(what); use ANY or NONE")
            }
        } else if c.quantifier != .single {
            throw StoreError(.invalidQuery, "\(c.quantifier == .any ? "ANY" : "NONE") needs a key path through a to-many relationship, '\(c.keyPath)' has none")
        }
        let type = path.valueType
        if !c.options.isEmpty && type != .string {
            throw StoreError(.invalidQuery, "string option \(c.options.suffix) applies to strings, '\(c.keyPath)' is \(type.rawValue)")
        }
        if c.comparison.isTextOperator && type != .string {
            throw StoreError(.invalidQuery, "\(c.comparison.symbol) applies to strings, '\(c.keyPath)' is \(type.rawValue)")
        }
        let ctx = OperandContext(keyPath: c.keyPath, type: type, options: c.options)
        let comparison: Comparison
        switch c.comparison {
        case .equal(let v): comparison = .equal(try ctx.operand(v, nullable: true))
        case .notEqual(let v): comparison = .notEqual(try ctx.operand(v, nullable: true))
        case .less(let v): comparison = .less(try ctx.operand(v))
        case .lessOrEqual(let v): comparison = .lessOrEqual(try ctx.operand(v))
        case .greater(let v): comparison = .greater(try ctx.operand(v))
        case .greaterOrEqual(let v): comparison = .greaterOrEqual(try ctx.operand(v))
        case .between(let a, let b): comparison = .between(try ctx.operand(a), try ctx.operand(b))
        case .in(let vs):
            guard vs.count <= Limits.maxListCount else {
                throw StoreError(.invalidQuery, "'\(c.keyPath)': IN lists hold at most \(Limits.maxListCount) values, got \(vs.count)")
            }
            comparison = .in(try vs.map { try ctx.operand($0, nullable: true) })
        case .contains(let s): comparison = .contains(TextFolding.fold(s, c.options))
        case .beginsWith(let s): comparison = .beginsWith(TextFolding.fold(s, c.options))
        case .endsWith(let s): comparison = .endsWith(TextFolding.fold(s, c.options))
        case .like(let s): comparison = .like(TextFolding.fold(s, c.options))
        }
        return ResolvedCondition(path: path, comparison: comparison, options: c.options, quantifier: c.quantifier)
    }

    /// A condition on a relationship itself (`author == %@` given an object's primary key,
    /// `ANY tags IN %@`) compares the primary keys at its other end.
    private func comparingKeys(_ c: Condition, on root: Entity) throws -> Condition {
        guard !c.keyPath.isCount, let last = c.keyPath.components.last else { return c }
        var current = root
        for name in c.keyPath.components.dropLast() {
            guard let r = current.relationship(name) else { return c }
            current = inverse(of: r).0
        }
        guard current.ordinal(of: last) == nil, let r = current.relationship(last) else { return c }
        switch c.comparison {
        case .equal, .notEqual, .in: break
        default:
            throw StoreError(.invalidQuery, "'\(c.keyPath)' is a relationship: compare it with ==, != or IN to objects "
                + "(their primary keys), compare one of its attributes, or use @count")
        }
        var keyed = c
        keyed.keyPath = KeyPathExpression(c.keyPath.components + [inverse(of: r).0.primaryKey.name])
        return keyed
    }
}

extension ResolvedPath {
    /// True for `x.@count` paths, whose to-many step is aggregated rather than quantified.
    public var isCountOnly: Bool { if case .count = terminal { true } else { false } }
}

extension ResolvedPath.Terminal {
    /// Whether this is `@count` of a list or map attribute.
    public var isElementCount: Bool { if case .elementCount = self { true } else { false } }
}

/// Internal helper: coerces one operand to the type at the end of a key path.
private struct OperandContext {
    let keyPath: KeyPathExpression
    let type: AttributeType
    let options: StringOptions

    func operand(_ v: Value, nullable: Bool = false) throws -> Value {
        switch (type, v) {
        case (_, .null):
            guard nullable else { throw fail("nil can only be compared with == or !=") }
            return v
        case (.int64, .int64), (.bool, .bool), (.date, .date), (.uuid, .uuid), (.bytes, .bytes):
            return v
        case (.int64, .double(let d)), (.double, .double(let d)):
            guard !d.isNaN else { throw fail("NaN cannot be compared") }
            return v
        case (.double, .int64(let n)):
            return .double(Double(n))
        case (.string, .string(let s)):
            return .string(TextFolding.fold(s, options))
        case (.uuid, .string(let s)):
            guard let u = UUIDParsing.parse(s) else { throw fail("'\(s)' is not a UUID") }
            return .uuid(u)
        default:
            throw fail("\(v) cannot be compared with a \(type.rawValue)")
        }
    }

    private func fail(_ m: String) -> StoreError {
        StoreError(.invalidQuery, "'\(keyPath)': \(m)")
    }
}
