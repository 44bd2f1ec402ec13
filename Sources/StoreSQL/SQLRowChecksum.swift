import StoreCore

/// The row checksum of `sb_row_sum(0, v…)` (Sources/CRowChecksum), computed in Swift from the
/// values a write binds, so an insert binds its checksum instead of calling the SQL function
/// (a function call per row, its arguments copied into registers, was a third of the extra
/// cost of a SQL store's insert over its floor). `verify()` still recomputes it in SQL from
/// the stored columns: the two must agree bit for bit, and `SQLRowChecksumTests` checks they do.
///
/// Each value is hashed as the driver binds it: `bool` as the integer 0 or 1, `date` as its
/// seconds since 1970 (a real), `uuid` as 16 bytes of blob, a list or map as its JSON text.
public enum SQLRowChecksum {
    /// SQLite's fundamental type codes, which enter each value's hash.
    private static let integer: UInt64 = 1, real: UInt64 = 2, text: UInt64 = 3, blob: UInt64 = 4, null: UInt64 = 5

    /// The checksum of a row's values in attribute order, as `sb_row_sum` gives it.
    public static func sum(_ values: [Value]) -> Int64 {
        var sum: UInt64 = 0
        // Indexing (no enumerated() copy) and the inlined switch read each value in place.
        for i in values.indices { sum &+= hash(UInt64(i), values[i]) }
        return Int64(bitPattern: sum)
    }

    @inline(__always)
    private static func hash(_ ordinal: UInt64, _ v: Value) -> UInt64 {
        switch v {
        case .null: return finish(start(ordinal, null))
        case .int64(let n): return word(ordinal, integer, UInt64(bitPattern: n))
        case .bool(let b): return word(ordinal, integer, b ? 1 : 0)
        case .double(let d): return real(ordinal, d)
        case .date(let d): return real(ordinal, d.timeIntervalSince1970)
        case .string(let s):
            var s = s
            return s.withUTF8 { bytes(ordinal, text, UnsafeRawBufferPointer($0)) }
        case .uuid(let u): return withUnsafeBytes(of: u.uuid) { bytes(ordinal, blob, $0) }
        case .bytes(let b): return b.withUnsafeBytes { bytes(ordinal, blob, $0) }
        case .list, .map:
            var s = CollectionCoding.encode(v) ?? "null"
            return s.withUTF8 { bytes(ordinal, text, UnsafeRawBufferPointer($0)) }
        }
    }

    @inline(__always) private static func step(_ h: UInt64, _ w: UInt64) -> UInt64 { (h ^ w) &* 0xFF51_AFD7_ED55_8CCD }

    @inline(__always) private static func start(_ ordinal: UInt64, _ type: UInt64) -> UInt64 {
        step(0x9E37_79B9_7F4A_7C15 ^ ordinal, type)
    }

    @inline(__always) private static func finish(_ h: UInt64) -> UInt64 {
        var h = h ^ (h >> 33)
        h &*= 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 29)
    }

    @inline(__always) private static func word(_ ordinal: UInt64, _ type: UInt64, _ w: UInt64) -> UInt64 {
        finish(step(start(ordinal, type), w))
    }

    /// SQLite stores a NaN as NULL, and a real -0.0 reads back as +0.0: both hashed as stored.
    private static func real(_ ordinal: UInt64, _ d: Double) -> UInt64 {
        if d.isNaN { return finish(start(ordinal, null)) }
        return word(ordinal, real, (d == 0 ? 0.0 : d).bitPattern)
    }

    private static func bytes(_ ordinal: UInt64, _ type: UInt64, _ b: UnsafeRawBufferPointer) -> UInt64 {
        let n = b.count
        var h = step(start(ordinal, type), UInt64(n)), i = 0
        while i &+ 8 <= n {
            h = step(h, b.loadUnaligned(fromByteOffset: i, as: UInt64.self))   // native order, as the C memcpy
            i &+= 8
        }
        var tail: UInt64 = 0, shift: UInt64 = 0
        while i < n {
            tail |= UInt64(b[i]) << shift
            i &+= 1
            shift &+= 8
        }
        return finish(step(h, tail))
    }
}
