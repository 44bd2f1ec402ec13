import StoreCore

/// A range walk's conditions on its keys, encoded once, so a key is judged by its bytes with no
/// `Value` made per entry: the encoding orders as `Value.compare` and its components delimit
/// themselves, so an entry matches a component exactly when its bytes start with the
/// component's encoding, and is above or below it as its bytes are. Built only where the
/// bytes decide: every operand of the column's own type (an `int64` column compared with a
/// `double` is judged by value), no `BEGINSWITH`; a key that may be cut at the key limit is
/// left to the values as well. Internal.
struct KeyBounds {
    private let prefix: [UInt8]
    private let exact: [UInt8]?
    private let lower: [UInt8]?, lowerInclusive: Bool
    private let upper: [UInt8]?, upperInclusive: Bool
    private let isRange: Bool
    private let keysMayBeCut: Bool
    /// A key met the lower bound: the walk ascends, so every later key does too.
    private var lowerPassed = false

    init?(_ space: KeySpace, _ fixed: [Value], _ next: KeyConstraint?, exact value: Value?) {
        guard zip(fixed, space.types).allSatisfy(Self.encodesAs) else { return nil }
        prefix = KeyEncoding.encode(fixed)
        keysMayBeCut = !space.isPrimary
        let type = fixed.count < space.types.count ? space.types[fixed.count] : nil
        func encoded(_ v: Value?) -> [UInt8]?? {
            guard let v else { return .some(nil) }
            guard let type, Self.encodesAs(v, type) else { return nil }
            return .some(KeyEncoding.encode(v))
        }
        switch next {
        case nil:
            (exact, lower, upper, isRange) = (nil, nil, nil, false)
            (lowerInclusive, upperInclusive) = (true, true)
        case .oneOf:
            guard let e = encoded(value), let e else { return nil }
            (exact, lower, upper, isRange) = (e, nil, nil, false)
            (lowerInclusive, upperInclusive) = (true, true)
        case .range(let l, let li, let u, let ui):
            guard let lo = encoded(l), let hi = encoded(u) else { return nil }
            (exact, lower, upper, isRange) = (nil, lo, hi, true)
            (lowerInclusive, upperInclusive) = (li, ui)
        case .prefix:
            return nil
        }
    }

    /// `judge`'s verdict from the key's bytes; nil for a key that may be cut short. Keys come
    /// in ascending order: once one is at or above the lower bound, the bound is not read again.
    @inline(__always)
    mutating func verdict(_ key: UnsafeRawBufferPointer) -> LMDBTransaction.Verdict? {
        if keysMayBeCut && key.count >= LMDBLayout.indexKeyLimit { return nil }
        guard Self.compare(key, prefix) == 0 else { return .stop }
        let rest = UnsafeRawBufferPointer(rebasing: key[prefix.count...])
        if let exact { return Self.compare(rest, exact) == 0 ? .match : .stop }
        guard isRange else { return .match }
        if let upper {
            let c = Self.compare(rest, upper)
            if c > 0 || (c == 0 && !upperInclusive) { return .stop }
        }
        if !lowerPassed {
            if rest.first == KeyEncoding.nullTag { return .skip }
            if let lower {
                let c = Self.compare(rest, lower)
                if c < 0 || (c == 0 && !lowerInclusive) { return .skip }
            }
            lowerPassed = true
        }
        return .match
    }

    /// How the component at the start of `bytes` compares with the encoded `component`: 0 when
    /// `bytes` starts with it, else as their bytes order (as LMDB orders keys).
    @inline(__always)
    private static func compare(_ bytes: UnsafeRawBufferPointer, _ component: [UInt8]) -> Int {
        let n = min(bytes.count, component.count)
        let c = n == 0 ? 0 : component.withUnsafeBytes { RawBytes.order(bytes.baseAddress!, $0.baseAddress!, n) }
        if c != 0 { return c }
        return bytes.count >= component.count ? 0 : -1
    }

    /// Whether a value is encoded as a column of `type` encodes its values.
    private static func encodesAs(_ v: Value, _ type: AttributeType) -> Bool {
        switch (v, type) {
        case (.null, _), (.int64, .int64), (.double, .double), (.date, .date), (.bool, .bool), (.uuid, .uuid), (.string, .string), (.bytes, .bytes): true
        default: false
        }
    }
}
