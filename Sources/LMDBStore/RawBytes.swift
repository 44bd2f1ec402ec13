import Foundation

/// Byte comparisons on the hot paths of walks and filters: a key component or a field is a few
/// bytes, where a call to `memcmp` costs more than the comparison, so short runs compare eight
/// bytes at a time in place. Internal.
enum RawBytes {
    /// How `a`'s first `n` bytes order against `b`'s, as `memcmp` (-1, 0 or 1).
    @inline(__always)
    static func order(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Int {
        if n > 32 {
            let c = memcmp(a, b, n)
            return c == 0 ? 0 : (c < 0 ? -1 : 1)
        }
        var i = 0
        while i &+ 8 <= n {
            let x = UInt64(bigEndian: a.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let y = UInt64(bigEndian: b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            if x != y { return x < y ? -1 : 1 }
            i &+= 8
        }
        while i < n {
            let x = a.load(fromByteOffset: i, as: UInt8.self), y = b.load(fromByteOffset: i, as: UInt8.self)
            if x != y { return x < y ? -1 : 1 }
            i &+= 1
        }
        return 0
    }

    /// Whether two byte runs are equal.
    @inline(__always)
    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0 else { return true }
        return order(a.baseAddress!, b.baseAddress!, a.count) == 0
    }

    /// Whether `a` comes before `b` in byte order (a run before any longer run it starts).
    @inline(__always)
    static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let n = min(a.count, b.count)
        let c = n == 0 ? 0 : order(a.baseAddress!, b.baseAddress!, n)
        return c != 0 ? c < 0 : a.count < b.count
    }
}
