import Foundation
import StoreCore

/// Generates random, valid queries over a schema: every operator and option, key paths through
/// to-one relationships, `ANY`/`NONE`, `@count`, `NOT`/`AND`/`OR`, sorts, limits and offsets.
/// Operands come from small pools that overlap the data `SocialFixture.addRandomRecords` writes,
/// so most predicates select something.
public struct RandomQueryGenerator {
    public var rng: SplitMix64
    public let schema: Schema

    public init(schema: Schema, seed: UInt64) {
        self.schema = schema
        rng = SplitMix64(seed: seed)
    }

    static let strings: [Value] = ["", "a", "A", "ann", "Ann", "bob", "Café", "café", "CAFE", "ÉCOLE", "école", "é", "e\u{301}",
                                   "swift", "Swift", "SWIFT", "straße", "STRASSE", "Zoë", "zoe", "naïve", "*", "?", "%", "_",
                                   "S*y", "*swift*", "an?", "日本", "🎉", "a b", "z"]
    static let ints: [Value] = [-1, 0, 1, 2, 3, 5, 8, 25, 30, 41, 100]
    static let doubles: [Value] = [0.0, 1.0, 2.0, 2.5, 3.5, 4.5, -1.5]
    static let dates: [Value] = [0.0, 2.5, 5, 11, 13, 50].map { .date(SocialFixture.epoch.addingTimeInterval($0)) }
    static let uuids: [Value] = [.uuid(SocialFixture.profile1), .uuid(SocialFixture.profile2), .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!)]
    static let bytes: [Value] = [.bytes([]), .bytes([1]), .bytes([1, 2, 3]), .bytes([255])]

    /// A random query over a random entity.
    public mutating func query() -> Query {
        let e = rng.pick(schema.entities)
        return query(on: e)
    }

    public mutating func query(on e: Entity) -> Query {
        var sort: [SortKey] = []
        for _ in 0..<rng.below(3) {
            let (path, type) = scalarPath(from: e, allowToOne: true)
            let options: StringOptions = type == .string && rng.chance(0.3) ? rng.pick([.caseInsensitive, [.caseInsensitive, .diacriticInsensitive]]) : []
            sort.append(SortKey(path, ascending: rng.chance(0.5), options: options))
        }
        let limit: Int? = rng.chance(0.4) ? rng.below(8) : nil
        let offset = rng.chance(0.3) ? rng.below(6) : 0
        var p = predicate(on: e, depth: 0)
        // Now and then the records are picked by key first, as an app opening one record does.
        if rng.chance(0.15) { p = .and([keyCondition(on: e), p]) }
        return Query(e.name, where: p, sort: sort, limit: limit, offset: offset)
    }

    /// Keys the fixture and `SocialFixture.addRandomRecords` store, by key type.
    static func keys(of e: Entity) -> [Value] {
        switch e.primaryKey.type {
        case .string: ["t1", "t3", "swift", "Unicode", "b1", "nobody"]
        case .uuid: uuids
        default: [1, 2, 5, 10, 12, 15, 100, 102, 1003, 1011, 2004, 2010, 3001, 3009, 7].map { .int64(Int64($0)) }
        }
    }

    /// `key == k` or `key IN {…}` on the entity's primary key.
    mutating func keyCondition(on e: Entity) -> StorePredicate {
        let keys = Self.keys(of: e), path = KeyPathExpression(e.primaryKey.name)
        if rng.chance(0.5) { return .condition(Condition(path, .equal(rng.pick(keys)))) }
        return .condition(Condition(path, .in((0..<(1 + rng.below(3))).map { _ in rng.pick(keys) })))
    }

    public mutating func predicate(on e: Entity, depth: Int) -> StorePredicate {
        if depth < 3 && rng.chance(0.35) {
            let parts = (0..<(2 + rng.below(2))).map { _ in predicate(on: e, depth: depth + 1) }
            return rng.chance(0.5) ? .and(parts) : .or(parts)
        }
        if depth < 3 && rng.chance(0.15) { return .not(predicate(on: e, depth: depth + 1)) }
        if rng.chance(0.02) { return .constant(rng.chance(0.5)) }
        return .condition(condition(on: e))
    }

    /// A key path to a scalar attribute, directly or through one or two to-one relationships.
    mutating func scalarPath(from e: Entity, allowToOne: Bool) -> (KeyPathExpression, AttributeType) {
        var components: [String] = []
        var current = e
        while allowToOne && components.count < 2 && rng.chance(0.3) {
            let toOnes = current.relationships.filter { !$0.isToMany }
            guard !toOnes.isEmpty else { break }
            let r = rng.pick(toOnes)
            components.append(r.name)
            current = schema[r.destination]!
        }
        let a = rng.pick(current.attributes)
        return (KeyPathExpression(components + [a.name]), a.type)
    }

    mutating func condition(on e: Entity) -> Condition {
        let toManys = e.relationships.filter(\.isToMany)
        if !toManys.isEmpty && rng.chance(0.05) {
            // A related record by key (`ANY tags.name == 't1'`): what apps filter by most.
            let r = rng.pick(toManys), d = schema[r.destination]!
            return Condition(KeyPathExpression([r.name, d.primaryKey.name]), .equal(rng.pick(Self.keys(of: d))), quantifier: rng.chance(0.8) ? .any : .none)
        }
        if !toManys.isEmpty && rng.chance(0.2) {
            let r = rng.pick(toManys)
            let (rest, type) = scalarPath(from: schema[r.destination]!, allowToOne: true)
            let (cmp, options) = comparison(for: type)
            return Condition(KeyPathExpression([r.name] + rest.components), cmp, options: options, quantifier: rng.chance(0.5) ? .any : .none)
        }
        if !toManys.isEmpty && rng.chance(0.1) {
            let r = rng.pick(toManys)
            let (cmp, _) = comparison(for: .int64, pool: [0, 1, 2, 3])
            return Condition(KeyPathExpression([r.name], count: true), cmp)
        }
        let (path, type) = scalarPath(from: e, allowToOne: true)
        let (cmp, options) = comparison(for: type)
        return Condition(path, cmp, options: options)
    }

    mutating func comparison(for type: AttributeType, pool: [Value]? = nil) -> (Comparison, StringOptions) {
        var values: [Value]
        switch type {
        case .string: values = Self.strings
        case .int64: values = Self.ints + (rng.chance(0.2) ? [2.5] : [])
        case .double: values = Self.doubles + Self.ints.prefix(3)
        case .bool: values = [true, false]
        case .date: values = Self.dates
        case .uuid: values = Self.uuids
        case .bytes: values = Self.bytes
        }
        if let pool { values = pool }
        let v = rng.pick(values)
        let options: StringOptions = type == .string && rng.chance(0.5)
            ? rng.pick([.caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]]) : []
        if type == .string, rng.chance(0.45), case .string(let s) = v {
            return (rng.pick([.contains(s), .beginsWith(s), .endsWith(s), .like(s)]), options)
        }
        switch rng.below(10) {
        case 0: return (.equal(.null), [])
        case 1: return (.notEqual(.null), [])
        case 2: return (.between(v, rng.pick(values)), options)
        case 3: return (.in((0..<rng.below(4)).map { _ in rng.chance(0.15) ? .null : rng.pick(values) }), options)
        case 4: return (.notEqual(v), options)
        case 5: return (.less(v), options)
        case 6: return (.lessOrEqual(v), options)
        case 7: return (.greater(v), options)
        case 8: return (.greaterOrEqual(v), options)
        default: return (.equal(v), options)
        }
    }
}

extension SocialFixture {
    /// Adds `count` deterministic random users, posts, comments and tags with random links, and
    /// four badges (held by the fixture's profiles when the fixture is loaded),
    /// drawing strings from the generator's pools (Unicode, wildcards, empty strings) and
    /// leaving optional attributes nil now and then.
    public static func addRandomRecords(into repo: any Repository, seed: UInt64, count: Int) throws {
        var rng = SplitMix64(seed: seed)
        let s = repo.schema
        let (u, p, c, t) = (try s.entity("User"), try s.entity("Post"), try s.entity("Comment"), try s.entity("Tag"))
        func str() -> Value { rng.pick(RandomQueryGenerator.strings) }
        func maybe(_ v: Value) -> Value { rng.chance(0.25) ? .null : v }
        try repo.write { tx in
            for k in 0..<6 { try tx.insert(try t.record(["name": .string("t\(k)"), "color": maybe(str())])) }
            for i in 0..<count {
                let uid = Value.int64(Int64(1000 + i)), pid = Value.int64(Int64(2000 + i)), cid = Value.int64(Int64(3000 + i))
                let name = Value.string("\(str().stringValue!)\(i)")
                try tx.insert(try u.record(["id": uid, "username": name, "displayName": str(), "email": maybe(str()),
                                            "age": maybe(rng.pick(RandomQueryGenerator.ints)), "score": rng.pick(RandomQueryGenerator.doubles),
                                            "active": .bool(rng.chance(0.5)), "joinedAt": rng.pick(RandomQueryGenerator.dates),
                                            "avatar": maybe(rng.pick(RandomQueryGenerator.bytes))]))
                try tx.insert(try p.record(["id": pid, "title": str(), "body": str(), "score": rng.pick(RandomQueryGenerator.ints),
                                            "createdAt": rng.pick(RandomQueryGenerator.dates), "rating": maybe(rng.pick(RandomQueryGenerator.doubles)),
                                            "published": .bool(rng.chance(0.5))]))
                try tx.insert(try c.record(["id": cid, "text": str(), "createdAt": rng.pick(RandomQueryGenerator.dates)]))
                let users = (1...5).map { Value.int64(Int64($0)) } + (0...i).map { .int64(Int64(1000 + $0)) }
                if rng.chance(0.8) { try tx.link("Post", id: pid, "author", to: rng.pick(users)) }
                for _ in 0..<rng.below(3) { try tx.link("Post", id: pid, "tags", to: .string("t\(rng.below(6))")) }
                if rng.chance(0.7) { try tx.link("Comment", id: cid, "post", to: .int64(Int64(2000 + rng.below(i + 1)))) }
                if rng.chance(0.7) { try tx.link("Comment", id: cid, "author", to: rng.pick(users)) }
                if i > 0 && rng.chance(0.4) { try tx.link("Comment", id: cid, "parent", to: .int64(Int64(3000 + rng.below(i)))) }
                for _ in 0..<rng.below(3) { try tx.link("User", id: uid, "following", to: rng.pick(users)) }
            }
            // A few badges (in the kit's schema), some held by the fixture's profiles when they
            // exist. A generator of their own leaves every record above as it was before badges.
            guard let b = s["Badge"] else { return }
            var brng = SplitMix64(seed: seed ^ 0xBAD6E)
            let holders = try [SocialFixture.profile1, SocialFixture.profile2].map(Value.uuid).filter { try tx.fetch("Profile", id: $0) != nil }
            for k in 0..<4 {
                let code = Value.string("b\(k)")
                try tx.insert(try b.record(["code": code, "label": brng.pick(RandomQueryGenerator.strings)]))
                if !holders.isEmpty && brng.chance(0.6) { try tx.link("Badge", id: code, "holder", to: brng.pick(holders)) }
            }
        }
    }
}
