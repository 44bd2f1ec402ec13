import Foundation

extension Value {
    /// The one ordering every backend honours.
    ///
    /// - `null` sorts before every other value;
    /// - numbers compare numerically across `int64` and `double`;
    /// - strings compare by Unicode scalar order (the byte order of their UTF-8), not by
    ///   Swift's canonical-equivalence ordering, so results match SQLite's `BINARY` collation;
    /// - bytes compare lexicographically, UUIDs by their 16 bytes, `false < true`;
    /// - values of unrelated types order by type (never happens in a validated query).
    public static func compare(_ lhs: Value, _ rhs: Value) -> ComparisonResult {
        switch (lhs, rhs) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.int64(let a), .int64(let b)): return order(a, b)
        case (.double(let a), .double(let b)): return order(a, b)
        case (.int64(let a), .double(let b)): return compareMixed(a, b)
        case (.double(let a), .int64(let b)): return compareMixed(b, a).reversed
        case (.bool(let a), .bool(let b)): return order(a ? 1 : 0, b ? 1 : 0)
        case (.string(let a), .string(let b)): return compareScalars(a, b)
        case (.date(let a), .date(let b)): return order(a.timeIntervalSince1970, b.timeIntervalSince1970)
        case (.uuid(let a), .uuid(let b)): return compareBytes(a.bytes, b.bytes)
        case (.bytes(let a), .bytes(let b)): return compareBytes(a, b)
        case (.list(let a), .list(let b)): return compareLists(a, b)
        case (.map(let a), .map(let b)): return compareLists(Self.sortedEntries(a), Self.sortedEntries(b))
        default: return order(lhs.typeRank, rhs.typeRank)
        }
    }

    /// Strings by Unicode scalar value (UTF-8 byte order).
    public static func compareScalars(_ a: String, _ b: String) -> ComparisonResult {
        var a = a, b = b
        return a.withUTF8 { ua in b.withUTF8 { ub in compareBytes(ua, ub) } }
    }

    /// Lists element by element, a shorter prefix first (collections are never sort keys;
    /// this keeps the order total).
    private static func compareLists(_ a: [Value], _ b: [Value]) -> ComparisonResult {
        for (x, y) in zip(a, b) {
            let c = compare(x, y)
            if c != .orderedSame { return c }
        }
        return order(a.count, b.count)
    }

    /// A map's entries as a flat list, keys in scalar order: key, value, key, value...
    static func sortedEntries(_ m: [String: Value]) -> [Value] {
        m.sorted { compareScalars($0.key, $1.key) == .orderedAscending }.flatMap { [Value.string($0.key), $0.value] }
    }

    private var typeRank: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .int64, .double: 2
        case .date: 3
        case .string: 4
        case .uuid: 5
        case .bytes: 6
        case .list: 7
        case .map: 8
        }
    }
}

// MARK: - Internal helpers

@inline(__always)
func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
    a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
}

func compareMixed(_ a: Int64, _ b: Double) -> ComparisonResult {
    // Exact when the double is integral and in range; otherwise compare as doubles.
    if b.rounded() == b, let bi = Int64(exactly: b) { return order(a, bi) }
    return order(Double(a), b)
}

func compareBytes<C1: Collection<UInt8>, C2: Collection<UInt8>>(_ a: C1, _ b: C2) -> ComparisonResult {
    var ia = a.makeIterator(), ib = b.makeIterator()
    while true {
        switch (ia.next(), ib.next()) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        case (let x?, let y?): if x != y { return x < y ? .orderedAscending : .orderedDescending }
        }
    }
}

extension ComparisonResult {
    var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}

extension UUID {
    /// The 16 bytes of the UUID, in RFC 4122 order.
    public var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }

    /// Makes a UUID from 16 bytes; `nil` when the count differs.
    ///
    /// Inlinable, and one copy from contiguous bytes (a record in the map, `Data`, an array):
    /// every backend decodes a stored UUID through it, and the generic element-by-element
    /// loop it replaced cost about 30,000 instructions per UUID in type-metadata look-ups.
    @inlinable
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        var t: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &t) { dst in
            let copied = bytes.withContiguousStorageIfAvailable { src in dst.copyMemory(from: UnsafeRawBufferPointer(src)) }
            if copied == nil {
                var i = 0
                for b in bytes {
                    dst[i] = b
                    i += 1
                }
            }
        }
        self.init(uuid: t)
    }
}
