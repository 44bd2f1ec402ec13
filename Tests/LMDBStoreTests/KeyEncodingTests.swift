import Foundation
import LMDBStore
import StoreConformance
import StoreCore
import Testing

/// Property tests of the order-preserving key encoding and the record encoding: random values
/// round-trip, and byte order (memcmp, as LMDB compares) equals `Value.compare` order.
@Suite("LMDB encodings")
struct KeyEncodingTests {
    /// Random values of one type, biased towards edge cases.
    static func randomValue(_ t: AttributeType, _ rng: inout SplitMix64) -> Value {
        let pick = rng.next() % 8
        switch t {
        case .int64:
            let edges: [Int64] = [0, -1, 1, .min, .max, .min + 1, .max - 1, 255, -256]
            return .int64(pick < 3 ? edges[Int(rng.next() % UInt64(edges.count))] : Int64(bitPattern: rng.next()) >> (rng.next() % 63))
        case .double, .date:
            let edges: [Double] = [0, -0.0, 1, -1, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
                                   .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e-300, -1e300, 0.1, -0.1]
            var d = pick < 3 ? edges[Int(rng.next() % UInt64(edges.count))] : Double(bitPattern: rng.next())
            if d.isNaN { d = Double(Int64(bitPattern: rng.next()) >> 20) / 7 }
            return t == .double ? .double(d) : .date(Date(timeIntervalSince1970: d))
        case .bool: return .bool(rng.next() % 2 == 0)
        case .uuid:
            return .uuid(UUID(bytes: (0..<16).map { _ in UInt8(truncatingIfNeeded: rng.next() % (pick < 4 ? 3 : 256)) })!)
        case .string:
            let alphabet: [Unicode.Scalar] = ["\0", "a", "b", "z", "A", "é", "ß", "\u{1F600}", "\u{7F}", "\u{FFFF}", "\u{1}", "e", "\u{301}"]
            var s = String.UnicodeScalarView()
            for _ in 0..<(rng.next() % 6) { s.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            return .string(String(s))
        case .bytes:
            return .bytes((0..<(rng.next() % 6)).map { _ in [0, 1, 0xFF, 0xFE, 7][Int(rng.next() % 5)] })
        }
    }

    static func lexicographic(_ a: [UInt8], _ b: [UInt8]) -> ComparisonResult {
        a.lexicographicallyPrecedes(b) ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }

    static func decode(_ k: [UInt8], _ types: [AttributeType]) -> [Value]? {
        k.withUnsafeBytes { b in KeyEncoding.decode(b, types: types).flatMap { $0.truncated ? nil : $0.values } }
    }

    @Test("single values: round trip and byte order equals value order, for every key type",
          arguments: [AttributeType.int64, .double, .date, .bool, .uuid, .string, .bytes])
    func singleValues(_ t: AttributeType) {
        var rng = SplitMix64(seed: 0x5EED ^ UInt64(t.rawValue.hashValue & 0xFFFF))
        let values = (0..<600).map { _ in rng.next() % 10 == 0 ? Value.null : Self.randomValue(t, &rng) }
        let keys = values.map(KeyEncoding.encode)
        for (v, k) in zip(values, keys) {
            let back = Self.decode(k, [t])
            #expect(back.map { Value.compare($0[0], v) } == .orderedSame, "round trip of \(v): \(String(describing: back))")
        }
        for i in 0..<values.count {
            let j = Int(rng.next() % UInt64(values.count))
            #expect(Self.lexicographic(keys[i], keys[j]) == Value.compare(values[i], values[j]),
                    "\(values[i]) vs \(values[j])")
        }
    }

    @Test("compound keys: component-wise order, so (\"a\", 2) sorts before (\"ab\", 1)")
    func compoundKeys() {
        var rng = SplitMix64(seed: 42)
        let types: [AttributeType] = [.string, .int64, .double]
        let rows = (0..<800).map { _ in types.map { rng.next() % 8 == 0 ? Value.null : Self.randomValue($0, &rng) } }
        func compare(_ a: [Value], _ b: [Value]) -> ComparisonResult {
            for (x, y) in zip(a, b) { let c = Value.compare(x, y); if c != .orderedSame { return c } }
            return .orderedSame
        }
        let keys = rows.map { KeyEncoding.encode($0) }
        for i in 0..<rows.count {
            #expect(Self.decode(keys[i], types).map { compare($0, rows[i]) } == .orderedSame)
            let j = Int(rng.next() % UInt64(rows.count))
            #expect(Self.lexicographic(keys[i], keys[j]) == compare(rows[i], rows[j]), "\(rows[i]) vs \(rows[j])")
        }
        #expect(Self.lexicographic(KeyEncoding.encode(["a", 2]), KeyEncoding.encode(["ab", 1])) == .orderedAscending)
        #expect(Self.lexicographic(KeyEncoding.encode(["a", 2]), KeyEncoding.encode(["a\0", 1])) == .orderedAscending)
    }

    @Test("a string prefix encoding starts exactly the keys of strings with that prefix")
    func stringPrefixes() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            guard case .string(let s) = Self.randomValue(.string, &rng), case .string(let p) = Self.randomValue(.string, &rng) else { continue }
            let starts = KeyEncoding.encode(.string(s)).starts(with: KeyEncoding.stringPrefix(p))
            #expect(starts == s.utf8.starts(with: p.utf8), "\(s.debugDescription) / \(p.debugDescription)")
        }
    }

    @Test("a prefix's successor lies above every key with that prefix and below every greater key")
    func prefixSuccessors() {
        var rng = SplitMix64(seed: 9)
        let types: [AttributeType] = [.int64, .string, .bool]
        let keys = (0..<400).map { _ in KeyEncoding.encode(types.map { Self.randomValue($0, &rng) }) }
        for _ in 0..<200 {
            let prefix = KeyEncoding.encode([Self.randomValue(.int64, &rng)])
            guard let after = KeyEncoding.successor(prefix) else { continue }
            for k in keys {
                let above = Self.lexicographic(k, after) != .orderedAscending
                #expect(above == (!k.starts(with: prefix) && Self.lexicographic(k, prefix) == .orderedDescending))
            }
        }
        #expect(KeyEncoding.successor([]) == nil)
        #expect(KeyEncoding.successor([0xFF, 0xFF]) == nil)
        #expect(KeyEncoding.successor([1, 0xFF]) == [2])
    }

    @Test("records of every type round-trip in both formats; damaged bytes give `corrupted`, never a crash; format 3 never gives wrong data", arguments: [false, true])
    func records(legacy: Bool) throws {
        let schema = SocialSchema.make()
        let user = schema["User"]!
        var rng = SplitMix64(seed: 99)
        var refused = 0
        for _ in 0..<300 {
            let values = user.attributes.map { a in
                a.isOptional && rng.next() % 3 == 0 ? Value.null : Self.randomValue(a.type, &rng)
            }
            let bytes = legacy ? RecordCodec.encodeLegacy(values, schemaVersion: schema.version)
                : try RecordCodec.encode(values, of: user, schemaVersion: schema.version)
            #expect(bytes[0] == (legacy ? 2 : 3))
            let back = try bytes.withUnsafeBytes { try RecordCodec.decode($0, entity: user, schemaVersion: schema.version) }
            #expect(zip(back.values, values).allSatisfy { Value.compare($0, $1) == .orderedSame || $0 == $1 })
            // Flip, cut or extend: either it still decodes to something (format 2 only), or it is `corrupted`.
            var damaged = bytes
            switch rng.next() % 3 {
            case 0: damaged[Int(rng.next() % UInt64(damaged.count))] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
            case 1: damaged.removeLast(Int(rng.next() % UInt64(damaged.count)) + 1)
            default: damaged.append(0)
            }
            do {
                _ = try damaged.withUnsafeBytes { try RecordCodec.decode($0, entity: user, schemaVersion: schema.version) }
            } catch let e as StoreError {
                #expect(e.category == .corrupted)
                refused += 1
            }
        }
        if !legacy { #expect(refused == 300, "format 3 checks its checksum on every read: every damaged record is refused") }
        let other = legacy ? RecordCodec.encodeLegacy(user.attributes.map { _ in .null }, schemaVersion: 2)
            : try RecordCodec.encode(user.attributes.map { _ in .null }, of: user, schemaVersion: 2)
        #expect(throws: StoreError.self) { try other.withUnsafeBytes { try RecordCodec.decode($0, entity: user, schemaVersion: 1) } }
    }
}
