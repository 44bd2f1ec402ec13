import Foundation
import StoreCore

/// Random values of every kind a store binds, with the edges that drivers treat apart (NaN,
/// -0.0, infinities, empty and NUL-holding text, empty blobs, collections), for tests that
/// check two encodings of the same value agree.
public enum RandomValues {
    /// One value of a random kind.
    public static func any(_ g: inout SplitMix64) -> Value {
        switch g.below(10) {
        case 0: return .null
        case 1: return .int64(Int64(bitPattern: g.next()) >> UInt64(g.below(64)))
        case 2: return .double(g.pick([0.0, -0.0, .infinity, -.infinity, .nan, 1e-300, -2.5, Double(bitPattern: g.next())]))
        case 3: return .bool(g.chance(0.5))
        case 4: return .string(text(&g))
        case 5: return .date(Date(timeIntervalSince1970: Double(Int64(bitPattern: g.next()) >> 30) / 7))
        case 6:
            let words = (g.next(), g.next())
            return .uuid(withUnsafeBytes(of: words) { UUID(uuid: $0.load(as: uuid_t.self)) })
        case 7: return .bytes((0..<g.below(40)).map { _ in UInt8(truncatingIfNeeded: g.next()) })
        case 8: return .list([.string(text(&g)), .int64(Int64(g.below(99)))])
        default: return .map(["k": .double(-0.0), text(&g): .bool(true)])
        }
    }

    /// `count` rows of 1 to `width` random values each, the same for the same seed.
    public static func rows(_ count: Int, seed: UInt64, width: Int) -> [[Value]] {
        var g = SplitMix64(seed: seed)
        return (0..<count).map { _ in (0..<(1 + g.below(width))).map { _ in any(&g) } }
    }

    /// Up to 39 characters mixing ASCII, accents, CJK, emoji, NUL and tab.
    public static func text(_ g: inout SplitMix64) -> String {
        String((0..<g.below(40)).map { _ in g.pick(Array("aZ0 'é日🎉\u{0}\t")) })
    }
}
