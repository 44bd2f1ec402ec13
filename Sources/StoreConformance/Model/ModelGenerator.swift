import Foundation
import StoreCore

/// Seeded random operations on `ModelSchema`: keys from a small range (so operations meet
/// each other's records), a few past 2^31, labels that differ only by case or spelling.
struct ModelGenerator {
    private var rng: SplitMix64
    static let keys: [Int64] = Array(1...24) + [(1 << 31) + 1, (1 << 32) + 3]
    static let labels: [String?] = [nil, nil, "a", "A", "b", "\u{E9}", "e\u{301}", "stra\u{DF}e", "STRASSE", "\u{1F600}", "x\u{0}y", ""]
    static let weights: [Int64?] = [nil, -2, 0, 1, 2, 3, 5, 8, 1 << 31, .max]

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    private mutating func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
    private mutating func node() -> ModelNode { ModelNode(id: pick(Self.keys), label: pick(Self.labels), weight: pick(Self.weights)) }

    /// The next operation; one in 40 is a transaction that throws after several others.
    mutating func next(nesting: Bool = true) -> ModelOperation {
        switch rng.next() % 40 {
        case 0..<9: return .insert(node())
        case 9..<11: return .insertBatch((0..<(1 + Int(rng.next() % 4))).map { _ in node() })
        case 11..<13: return .upsert(node())
        case 13..<18:
            let label: String?? = rng.next() % 2 == 0 ? .some(pick(Self.labels)) : .none
            let weight: Int64?? = rng.next() % 3 != 0 ? .some(pick(Self.weights)) : .none
            return .update(pick(Self.keys), label: label, weight: weight)
        case 18..<22: return .delete(pick(Self.keys))
        case 22: return .deleteWhere(weightBelow: pick([-1, 0, 1, 2]))
        case 23..<25: return .updateWhere(weightAbove: pick([0, 3, 7]), set: pick(Self.weights))
        case 25..<29: return .follow(pick(Self.keys), pick(Self.keys))
        case 29..<31: return .unfollow(pick(Self.keys), pick(Self.keys))
        case 31..<33: return .setParent(pick(Self.keys), pick(Self.keys))
        case 33..<36: return .query(weightAtLeast: pick([-5, 0, 2, 6]), limit: 1 + Int(rng.next() % 6), offset: Int(rng.next() % 4))
        case 36..<38: return .countNullWeights
        default: return nesting ? .rolledBack((0..<(1 + Int(rng.next() % 3))).map { _ in next(nesting: false) }) : .countNullWeights
        }
    }
}
