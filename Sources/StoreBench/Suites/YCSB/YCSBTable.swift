import StoreConformance
import StoreCore
import StoreBenchKit

/// YCSB's `usertable` as a StoreCore schema: a string key (`ycsb_key`) and `fieldcount` string
/// fields named `<fieldnameprefix>0…`, with YCSB's key names and random field values.
///
/// ```swift
/// let table = try YCSBTable(spec)
/// let record = table.record(keyNumber: 7, rng: &rng)   // "user…" with 10 fields of 100 characters
/// ```
public struct YCSBTable: Sendable {
    public let spec: YCSBWorkloadSpec
    public let schema: Schema
    public let entity: Entity
    /// The key attribute's name.
    public static let key = "ycsb_key"

    public init(_ spec: YCSBWorkloadSpec) throws {
        self.spec = spec
        let fields = (0..<spec.fieldCount).map { Attribute("\(spec.fieldNamePrefix)\($0)", .string) }
        let table = EntityDescription(spec.table, primaryKey: Self.key, attributes: [Attribute(Self.key, .string)] + fields)
        schema = try Schema(version: 1, entities: [table])
        entity = schema[spec.table]!
    }

    /// The name of field `i`.
    public func field(_ i: Int) -> String { "\(spec.fieldNamePrefix)\(i)" }

    /// YCSB's key for record number `n`: `user` + the number, hashed (FNV-1a over its 8
    /// bytes, as YCSB's `Utils.fnvhash64`) unless `insertorder=ordered`, padded with zeros to
    /// `zeropadding` digits.
    public func keyName(_ n: Int) -> String {
        let digits = String(spec.insertOrder == .ordered ? UInt64(n) : Self.fnv64(UInt64(n)))
        return "user" + String(repeating: "0", count: max(0, spec.zeroPadding - digits.count)) + digits
    }

    /// FNV-1a, 64 bits, over the 8 bytes of `value` from the lowest; the sign bit cleared.
    static func fnv64(_ value: UInt64) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var v = value
        for _ in 0..<8 {
            hash ^= v & 0xFF
            hash = hash &* 0x0000_0100_0000_01B3
            v >>= 8
        }
        return hash & 0x7FFF_FFFF_FFFF_FFFF
    }

    /// A field value: `fieldlength` random printable ASCII characters.
    public func value(_ rng: inout SplitMix64) -> Value {
        var bytes = [UInt8](repeating: 0, count: spec.fieldLength)
        var word: UInt64 = 0
        for i in 0..<bytes.count {
            if i % 8 == 0 { word = rng.next() }
            bytes[i] = 0x21 + UInt8((word & 0xFF) % 94)
            word >>= 8
        }
        return .string(String(decoding: bytes, as: UTF8.self))
    }

    /// A whole record for key number `n`, every field random.
    public func record(keyNumber n: Int, rng: inout SplitMix64) -> Record {
        Record(entity, values: [.string(keyName(n))] + (0..<spec.fieldCount).map { _ in value(&rng) })
    }
}
