import Foundation
import StoreCore

/// Random notes and random predicates over `CollectionSchema`'s lists and maps (`ANY`/`NONE`
/// with every operator and option, `@count`, map values by key, `NOT`/`AND`/`OR`), from small
/// pools that overlap, so most predicates select something. Internal.
struct CollectionQueryGenerator {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    static let strings: [Value] = ["", "a", "A", "á", "ab", "Ab", "b", "café", "CAFE", "e\u{301}", "é", "*", "?", "日本"]
    static let ints: [Value] = [-2, -1, 0, 1, 2, 3]
    static let keys = ["x", "y", "z"]

    /// Note `id` with random tags, scores and prices.
    mutating func note(_ id: Int64, of e: Entity) throws -> Record {
        let tags = (0..<rng.below(5)).map { _ in rng.pick(Self.strings) }
        let scores = (0..<rng.below(4)).map { _ in rng.pick(Self.ints) }
        var prices: [String: Value] = [:]
        for k in Self.keys where rng.chance(0.5) { prices[k] = .double(Double(rng.below(5)) - 2) }
        return try e.record(["id": .int64(id), "tags": .list(tags), "scores": .list(scores), "prices": .map(prices)])
    }

    /// A random predicate over notes.
    mutating func predicate(depth: Int = 0) -> StorePredicate {
        if depth < 2, rng.chance(0.3) {
            let parts = (0..<1 + rng.below(2)).map { _ in predicate(depth: depth + 1) }
            switch rng.below(3) {
            case 0: return .and(parts)
            case 1: return .or(parts)
            default: return .not(parts[0])
            }
        }
        return .condition(condition())
    }

    private mutating func condition() -> Condition {
        let quantifier: Quantifier = rng.chance(0.75) ? .any : .none
        switch rng.below(5) {
        case 0, 1:
            let options: StringOptions = rng.pick([[], [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]])
            return Condition("tags", stringComparison(), options: options, quantifier: quantifier)
        case 2:
            return Condition("scores", numberComparison(), quantifier: quantifier)
        case 3:
            return Condition(KeyPathExpression([rng.pick(["tags", "scores", "prices"])], count: true), numberComparison())
        default:
            let c = rng.chance(0.2) ? rng.pick([Comparison.equal(.null), .notEqual(.null)]) : numberComparison()
            return Condition(KeyPathExpression(["prices", rng.pick(Self.keys)]), c)
        }
    }

    private mutating func stringComparison() -> Comparison {
        let s = rng.pick(Self.strings)
        let text = s.stringValue ?? ""
        switch rng.below(8) {
        case 0: return .equal(s)
        case 1: return .notEqual(s)
        case 2: return .less(s)
        case 3: return .in([s, rng.pick(Self.strings)])
        case 4: return .contains(text)
        case 5: return .beginsWith(text)
        case 6: return .endsWith(text)
        default: return .like(rng.pick(["a*", "?", "*b", "*", "caf?"]))
        }
    }

    private mutating func numberComparison() -> Comparison {
        let n = rng.pick(Self.ints)
        switch rng.below(6) {
        case 0: return .equal(n)
        case 1: return .notEqual(n)
        case 2: return .less(n)
        case 3: return .greaterOrEqual(n)
        case 4: return .between(n, rng.pick(Self.ints))
        default: return .in([n, rng.pick(Self.ints)])
        }
    }
}
