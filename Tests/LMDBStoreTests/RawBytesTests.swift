import Foundation
@testable import LMDBStore
import StoreConformance
import Testing

/// `RawBytes` orders as `memcmp` and `lexicographicallyPrecedes`: walks judge keys and order
/// matches by it, so a wrong word compare would return wrong rows in a wrong order.
@Suite("LMDB raw byte order")
struct RawBytesTests {
    /// Runs of 0-40 bytes from a small alphabet (so equal prefixes are common), each pair
    /// compared both ways.
    @Test("order, equal and precedes agree with memcmp and lexicographic order at every length")
    func agreesWithMemcmp() {
        var rng = SplitMix64(seed: 0xB17E5)
        let alphabet: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF]
        for _ in 0..<4_000 {
            let a = (0..<Int(rng.next() % 41)).map { _ in alphabet[Int(rng.next() % 6)] }
            var b = rng.next() % 3 == 0 ? a : (0..<Int(rng.next() % 41)).map { _ in alphabet[Int(rng.next() % 6)] }
            if rng.next() % 4 == 0, !b.isEmpty { b[Int(rng.next() % UInt64(b.count))] = alphabet[Int(rng.next() % 6)] }
            a.withUnsafeBytes { x in
                b.withUnsafeBytes { y in
                    let n = min(x.count, y.count)
                    if n > 0 {
                        let c = memcmp(x.baseAddress!, y.baseAddress!, n)
                        #expect(RawBytes.order(x.baseAddress!, y.baseAddress!, n) == (c == 0 ? 0 : c < 0 ? -1 : 1), "\(a) vs \(b)")
                    }
                    #expect(RawBytes.equal(x, y) == (a == b), "\(a) vs \(b)")
                    #expect(RawBytes.precedes(x, y) == a.lexicographicallyPrecedes(b), "\(a) vs \(b)")
                }
            }
        }
    }
}
