import Foundation
import StoreCore

/// The order-preserving key encoding: the bytes of encoded values compare (with `memcmp`, as
/// LMDB compares keys) exactly as `Value.compare` orders the values, for every key type and
/// for compound keys.
///
/// Each component is a tag byte (`0x00` null, `0x01` a value, so nulls sort first) and then:
///
/// | type          | bytes                                                              |
/// |---------------|--------------------------------------------------------------------|
/// | int64         | 8 bytes big-endian, sign bit flipped                               |
/// | double, date  | 8 bytes big-endian: sign bit flipped if positive, all bits if negative (dates: seconds since 1970; -0 is stored as +0) |
/// | bool          | 1 byte, 0 or 1                                                     |
/// | uuid          | its 16 bytes                                                       |
/// | string, bytes | the bytes with `00` written as `00 FF`, then the terminator `00 00` |
///
/// The terminator makes components self-delimiting, so `("a", 2)` sorts before `("ab", 1)`.
///
/// ```swift
/// var k: [UInt8] = []
/// KeyEncoding.append(.int64(-5), to: &k)   // sorts before the encoding of 3
/// ```
/// Package-internal (`package`): the on-disk format is not API; tests reach it from inside the package.
package enum KeyEncoding {
    package static let nullTag: UInt8 = 0x00
    package static let valueTag: UInt8 = 0x01

    /// The encoding of one value.
    package static func encode(_ v: Value) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(10)
        append(v, to: &out)
        return out
    }

    /// Runs `body` with the encoding of one key value: an int64 (nearly every store's primary
    /// key) is built on the stack, any other in `scratch`, a buffer the caller reuses, so
    /// neither allocates once the buffer has grown. `body` may use `scratch` again: it reads a
    /// copy of the buffer, which such a use leaves alone.
    @inline(__always)
    package static func withKey<R>(_ v: Value, scratch: inout [UInt8], _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard case .int64(let n) = v else {
            scratch.removeAll(keepingCapacity: true)
            append(v, to: &scratch)
            let key = scratch
            return try key.withUnsafeBytes(body)
        }
        return try withUnsafeTemporaryAllocation(byteCount: 9, alignment: 8) { b in
            b[0] = valueTag
            b.storeBytes(of: (UInt64(bitPattern: n) ^ (1 << 63)).bigEndian, toByteOffset: 1, as: UInt64.self)
            return try body(UnsafeRawBufferPointer(b))
        }
    }

    /// The encoding of several values, one after the other (a compound key).
    package static func encode(_ vs: [Value]) -> [UInt8] {
        var out: [UInt8] = []
        for v in vs { append(v, to: &out) }
        return out
    }

    /// Appends one component.
    package static func append(_ v: Value, to out: inout [UInt8]) {
        switch v {
        case .null: out.append(nullTag)
        case .int64(let n):
            out.append(valueTag)
            appendBigEndian(UInt64(bitPattern: n) ^ (1 << 63), to: &out)
        case .double(let d):
            out.append(valueTag)
            appendDouble(d, to: &out)
        case .date(let d):
            out.append(valueTag)
            appendDouble(d.timeIntervalSince1970, to: &out)
        case .bool(let b):
            out.append(valueTag)
            out.append(b ? 1 : 0)
        case .uuid(let u):
            out.append(valueTag)
            withUnsafeBytes(of: u.uuid) { out.append(contentsOf: $0) }
        case .string(var s):
            out.append(valueTag)
            s.withUTF8 { appendEscaped($0, to: &out) }
        case .bytes(let b):
            out.append(valueTag)
            b.withUnsafeBufferPointer { appendEscaped($0, to: &out) }
        case .list, .map:   // never a key (collections are not indexed); as their stored JSON
            append(.string(CollectionCoding.encode(v) ?? ""), to: &out)
        }
    }

    /// The encoding of the start of every string component beginning with `prefix`:
    /// the tag and the escaped bytes, without the terminator.
    package static func stringPrefix(_ prefix: String) -> [UInt8] {
        var out: [UInt8] = [valueTag]
        var p = prefix
        p.withUTF8 { appendEscaped($0, to: &out) }
        out.removeLast(2)
        return out
    }

    /// The least key above every key that starts with `prefix` (its last byte below 0xFF
    /// incremented, the 0xFF bytes after it dropped); nil for an empty prefix or one of 0xFF
    /// bytes only, which no key lies above.
    package static func successor(_ prefix: [UInt8]) -> [UInt8]? {
        guard let last = prefix.lastIndex(where: { $0 != 0xFF }) else { return nil }
        var out = Array(prefix[...last])
        out[last] += 1
        return out
    }

    // MARK: Decoding

    /// Decodes components of the given types from `bytes`. A key cut short (an index key
    /// truncated to LMDB's key limit) decodes as far as it goes and sets `truncated`.
    /// Returns nil when the bytes are not a valid encoding.
    package static func decode(_ bytes: UnsafeRawBufferPointer, types: some Collection<AttributeType>)
        -> (values: [Value], truncated: Bool)?
    {
        var values: [Value] = []
        values.reserveCapacity(types.count)
        var i = 0
        for t in types {
            guard i < bytes.count else { return (values, true) }
            let tag = bytes[i]
            i += 1
            if tag == nullTag { values.append(.null); continue }
            guard tag == valueTag else { return nil }
            switch t {
            case .int64:
                guard let u = readBigEndian(bytes, &i) else { return (values, true) }
                values.append(.int64(Int64(bitPattern: u ^ (1 << 63))))
            case .double:
                guard let u = readBigEndian(bytes, &i) else { return (values, true) }
                values.append(.double(doubleFromKey(u)))
            case .date:
                guard let u = readBigEndian(bytes, &i) else { return (values, true) }
                values.append(.date(Date(timeIntervalSince1970: doubleFromKey(u))))
            case .bool:
                guard i < bytes.count else { return (values, true) }
                guard bytes[i] <= 1 else { return nil }
                values.append(.bool(bytes[i] == 1))
                i += 1
            case .uuid:
                guard i + 16 <= bytes.count else { return (values, true) }
                values.append(.uuid(UUID(bytes: bytes[i..<i + 16])!))
                i += 16
            case .string, .bytes:
                var raw: [UInt8] = []
                var terminated = false
                while i < bytes.count {
                    let b = bytes[i]
                    if b != 0 { raw.append(b); i += 1; continue }
                    guard i + 1 < bytes.count else { i += 1; break }
                    let next = bytes[i + 1]
                    i += 2
                    if next == 0xFF { raw.append(0); continue }
                    guard next == 0x00 else { return nil }
                    terminated = true
                    break
                }
                values.append(t == .string ? .string(String(decoding: raw, as: UTF8.self)) : .bytes(raw))
                if !terminated { return (values, true) }
            }
        }
        return (values, false)
    }

    /// Decodes a single-component key of a known type (primary keys, relationship values).
    package static func decodeKey(_ bytes: UnsafeRawBufferPointer, type: AttributeType) -> Value? {
        guard let (vs, truncated) = decode(bytes, types: CollectionOfOne(type)), !truncated, vs.count == 1 else { return nil }
        return vs[0]
    }

    /// A readable rendering of a key for error messages.
    static func describe(_ key: [UInt8]) -> String {
        let hex = key.prefix(48).map { String(format: "%02x", $0) }.joined()
        return "key 0x\(hex)\(key.count > 48 ? "…" : "") (\(key.count) bytes)"
    }

    // MARK: Internal helpers

    @inline(__always)
    private static func appendBigEndian(_ u: UInt64, to out: inout [UInt8]) {
        withUnsafeBytes(of: u.bigEndian) { out.append(contentsOf: $0) }
    }

    @inline(__always)
    private static func appendDouble(_ d: Double, to out: inout [UInt8]) {
        let bits = (d == 0 ? 0.0 : d).bitPattern   // -0 and +0 are equal values
        appendBigEndian(bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63), to: &out)
    }

    @inline(__always)
    private static func doubleFromKey(_ u: UInt64) -> Double {
        Double(bitPattern: u & (1 << 63) != 0 ? u & ~(1 << 63) : ~u)
    }

    /// Text without a zero byte (nearly all of it) is copied in one go; a zero byte becomes
    /// `00 FF`. The terminator is `00 00`.
    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if bytes.isEmpty || memchr(bytes.baseAddress!, 0, bytes.count) == nil {   // memchr: word at a time
            out.append(contentsOf: bytes)
        } else {
            for b in bytes {
                out.append(b)
                if b == 0 { out.append(0xFF) }
            }
        }
        out.append(0)
        out.append(0)
    }

    private static func readBigEndian(_ bytes: UnsafeRawBufferPointer, _ i: inout Int) -> UInt64? {
        guard i + 8 <= bytes.count else { return nil }
        var u: UInt64 = 0
        for j in 0..<8 { u = u << 8 | UInt64(bytes[i + j]) }
        i += 8
        return u
    }
}
