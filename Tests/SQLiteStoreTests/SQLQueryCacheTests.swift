import Foundation
import StoreConformance
import StoreCore
@testable import StoreSQL
import Testing

/// The compiled-shape cache gives every query exactly the SQL and bindings the compiler gives
/// it: random queries, each followed by siblings of the same structure whose operands are
/// drawn again (nulls, zeros, negatives, empty strings and strings that fold to empty
/// among them), go through one cache; each answer is held to a fresh compile.
@Suite struct SQLQueryCacheTests {
    static let ints: [Value] = [.null, -7, -1, 0, 1, 2, 3, 41]
    static let doubles: [Value] = [.null, -2.5, 0.0, 0.5, 3.5]
    static let strings: [String] = ["", "a", "Ann", "café", "e\u{301}", "\u{301}", "*", "a?", "%_", "日本"]

    /// Another operand of `v`'s type (or null), from small pools.
    static func redraw(_ v: Value, _ rng: inout SplitMix64) -> Value {
        switch v {
        case .int64: rng.pick(ints)
        case .double: rng.pick(doubles)
        case .bool: rng.pick([.null, .bool(false), .bool(true)])
        case .string: rng.chance(0.1) ? .null : .string(rng.pick(strings))
        case .date: rng.pick([.null, .date(Date(timeIntervalSinceReferenceDate: -5)), .date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSince1970: 7))])
        case .uuid: rng.chance(0.2) ? .null : .uuid(UUID())
        case .bytes: rng.pick([.null, .bytes([]), .bytes([1]), .bytes([0, 255, 7])])
        default: v
        }
    }

    static func direct(_ kind: SQLQueryShape.Kind, _ mapping: SQLSchemaMapping, _ r: ResolvedQuery) -> (String, [Value]) {
        var c = SQLQueryCompiler(mapping: mapping)
        let sql = kind == .select ? c.select(r) : c.count(r)
        return (sql, c.bindings)
    }

    @Test(arguments: [SQLQueryShape.Kind.select, .count])
    func cachedCompilesEqualFreshOnes(_ kind: SQLQueryShape.Kind) throws {
        let schema = SocialSchema.make()
        let mapping = SQLSchemaMapping(schema: schema)
        let cache = SQLQueryCache()
        var gen = RandomQueryGenerator(schema: schema, seed: 53)
        var rng = SplitMix64(seed: 5_300)
        var hits = 0, compared = 0
        for _ in 0..<400 {
            let first = gen.query()
            for sibling in 0..<8 {
                let q = sibling == 0 ? first : first.replacingOperands { Self.redraw($0, &rng) }
                guard let r = try? schema.resolve(q) else { continue }
                let want = Self.direct(kind, mapping, r)
                var compiles = 0
                let (sql, bindings) = cache.compiled(kind, q, r, schema: schema) { compiles += 1; return Self.direct(kind, mapping, $0) }
                #expect(sql.text == want.0, "\(q)")
                #expect(bindings == want.1, "\(q)")
                compared += 1
                if compiles == 0 { hits += 1 }
            }
        }
        // Most siblings share a shape with one compiled before: the cache is exercised.
        #expect(hits * 5 > compared, "\(hits) of \(compared) answered from the cache")
    }

    /// A prefix test binds values derived from its text, so its shape is compiled every time,
    /// and the answer is still right.
    @Test func derivedBindingsAreNeverReplayed() throws {
        let schema = SocialSchema.make()
        let mapping = SQLSchemaMapping(schema: schema)
        let cache = SQLQueryCache()
        for prefix in ["ab", "abc", "x"] {
            let q = Query("User", where: .condition(Condition("username", .beginsWith(prefix))))
            let r = try schema.resolve(q)
            let (sql, bindings) = cache.compiled(.select, q, r, schema: schema) { Self.direct(.select, mapping, $0) }
            let want = Self.direct(.select, mapping, r)
            #expect(sql.text == want.0 && bindings == want.1)
        }
    }
}
