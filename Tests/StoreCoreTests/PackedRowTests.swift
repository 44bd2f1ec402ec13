import Foundation
import StoreConformance
import StoreCore
import Testing

/// The packed record layout: what `PackedLayout.encode` writes, `PackedRow` reads back through
/// every accessor; `PackedRowBuilder` packs any row into the same bytes (bar the header's
/// version and the checksum, which transient rows do not carry); damage is refused.
@Suite("Packed rows")
struct PackedRowTests {
    static let user = SocialSchema.make()["User"]!

    static func users() throws -> [Record] {
        var rs = try SocialFixture.users(SocialSchema.make())
        rs[0]["avatar"] = .bytes([0, 1, 2, 0xFF])
        rs[0]["externalID"] = .uuid(UUID(uuidString: "12345678-9ABC-DEF0-1234-56789ABCDEF0")!)
        rs[1]["displayName"] = ""
        return rs
    }

    @Test func encodedRecordsReadBackThroughEveryAccessor() throws {
        for r in try Self.users() {
            var bytes: [UInt8] = []
            try PackedLayout.encode(r.values, of: Self.user, schemaVersion: 7, into: &bytes)
            #expect(bytes[0] == PackedLayout.format)
            try bytes.withUnsafeBytes { b in
                let row = try PackedRow(validating: b, entity: Self.user, schemaVersion: 7)
                #expect(Record(row) == r)
                for (i, v) in r.values.enumerated() {
                    #expect(row.isNull(at: i) == (v == .null))
                    switch Self.user.attributeTypes[i] {
                    case .int64: #expect(row.int64(at: i) == v.int64Value && row.string(at: i) == nil)
                    case .double: #expect(row.double(at: i) == v.doubleValue && row.int64(at: i) == nil)
                    case .bool: #expect(row.bool(at: i) == v.boolValue)
                    case .string: #expect(row.string(at: i) == v.stringValue && row.bytes(at: i) == nil)
                    case .date: #expect(row.date(at: i) == v.dateValue)
                    case .uuid: #expect(row.uuid(at: i) == v.uuidValue)
                    case .bytes: #expect(row.bytes(at: i) == v.bytesValue && row.string(at: i) == nil)
                    }
                }
                #expect(throws: StoreError.self) { try PackedRow(validating: b, entity: Self.user, schemaVersion: 8) }
                #expect(throws: StoreError.self) { try PackedRow(validating: UnsafeRawBufferPointer(rebasing: b.dropLast()), entity: Self.user, schemaVersion: 7) }
            }
        }
    }

    @Test func theBuilderPacksAnyRowIntoTheSameLayout() throws {
        let builder = PackedRowBuilder(Self.user)
        for r in try Self.users() {
            var encoded: [UInt8] = []
            try PackedLayout.encode(r.values, of: Self.user, schemaVersion: 0, into: &encoded)
            let packed = builder.pack(r)
            #expect(Record(packed) == r)
            #expect(Array(packed.bytes.dropLast(PackedLayout.checksumSize)) == Array(encoded.dropLast(PackedLayout.checksumSize)))
        }
    }

    @Test func everyDamagedByteIsRefused() throws {
        let r = try Self.users()[0]
        var bytes: [UInt8] = []
        try PackedLayout.encode(r.values, of: Self.user, schemaVersion: 1, into: &bytes)
        for i in bytes.indices {
            for flip: UInt8 in [0x01, 0x80] {
                var damaged = bytes
                damaged[i] ^= flip
                #expect(throws: StoreError.self) {
                    try damaged.withUnsafeBytes { _ = try PackedRow(validating: $0, entity: Self.user, schemaVersion: 1) }
                }
            }
        }
    }

    @Test func valuesOfAnotherTypeAreRefusedWhenEncoding() {
        var values = Self.user.attributes.map { _ in Value.null }
        values[1] = .int64(3)   // username is a string
        var out: [UInt8] = []
        #expect { try PackedLayout.encode(values, of: Self.user, schemaVersion: 1, into: &out) } throws: {
            ($0 as? StoreError)?.category == .invalidValue
        }
    }

    /// The checksum as first written (one word per turn): stored records must keep checking.
    static func checksumOneWordPerTurn(_ b: [UInt8]) -> UInt32 {
        let n = b.count
        var a: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(n), s: UInt64 = 0, i = 0
        while i + 8 <= n {
            a &+= (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[i + $1]) << UInt64(8 * $1) }
            s &+= a
            i += 8
        }
        if i < n {
            a &+= (i..<n).reduce(UInt64(0)) { $0 | UInt64(b[$1]) << UInt64(8 * ($1 - i)) } &+ 1
            s &+= a
        }
        var h = (a ^ ((s << 29) | (s >> 35))) &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 32
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 29
        return UInt32(truncatingIfNeeded: h)
    }

    @Test("checkedSize, encodedSize without type checks, agrees with it on every checked record")
    func checkedSizeIsEncodedSize() throws {
        var g = SplitMix64(seed: 35)
        for base in try Self.users() {
            for _ in 0..<200 {
                var r = base
                for (i, a) in Self.user.attributes.enumerated() where i != Self.user.primaryKeyOrdinal {
                    if a.isOptional && g.chance(0.3) { r.values[i] = .null; continue }
                    switch a.type {
                    case .string: r.values[i] = .string(RandomValues.text(&g))
                    case .bytes: r.values[i] = .bytes((0..<g.below(300)).map { _ in UInt8(truncatingIfNeeded: g.next()) })
                    default: break
                    }
                }
                let checked = try Self.user.checkedRecord(r)
                #expect(try PackedLayout.checkedSize(checked.values, of: Self.user) == PackedLayout.encodedSize(checked.values, of: Self.user))
            }
        }
    }

    @Test("the checksum of every length from 0 to 100 bytes is the one stored records carry")
    func checksumIsUnchanged() {
        var g = SplitMix64(seed: 3)
        for n in 0...100 {
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            let got = bytes.withUnsafeBytes { PackedLayout.checksum($0) }
            #expect(got == Self.checksumOneWordPerTurn(bytes), "\(n) bytes")
        }
    }
}
