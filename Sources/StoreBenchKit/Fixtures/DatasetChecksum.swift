import Foundation
import StoreCore

/// A 64-bit FNV-1a digest over a canonical byte encoding of values, so the same records give
/// the same checksum whichever backend stored them.
///
/// ```swift
/// var sum = DatasetChecksum()
/// sum.add(record)
/// print(sum.hex)   // "9f3c…"
/// ```
public struct DatasetChecksum: Sendable, Hashable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public var hex: String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    public mutating func add(_ record: some RowView) {
        beginRecord(record.entity.name)
        for i in 0..<record.entity.attributes.count { add(record[i]) }
    }

    /// Starts a record of `entity` as `add(_ record:)` does; its values follow, in attribute
    /// order, through `add(_ v:)`.
    public mutating func beginRecord(_ entity: String) {
        addByte(0xEE)
        add(.string(entity))
    }

    /// A link from `source` to `target` through `relationship`.
    public mutating func addLink(_ relationship: String, _ source: Value, _ target: Value) {
        addByte(0xEF)
        add(.string(relationship))
        add(source)
        add(target)
    }

    public mutating func add(_ v: Value) {
        switch v {
        case .null: addByte(0)
        case .int64(let x): addByte(1); addWord(UInt64(bitPattern: x))
        case .double(let x): addByte(2); addWord(x.bitPattern)
        case .bool(let x): addByte(3); addByte(x ? 1 : 0)
        case .string(let s): addByte(4); addWord(UInt64(s.utf8.count)); for b in s.utf8 { addByte(b) }
        case .date(let d): addByte(5); addWord(d.timeIntervalSince1970.bitPattern)
        case .uuid(let u): addByte(6); withUnsafeBytes(of: u.uuid) { for b in $0 { addByte(b) } }
        case .bytes(let bs): addByte(7); addWord(UInt64(bs.count)); for b in bs { addByte(b) }
        case .list, .map: addByte(8); add(.string(CollectionCoding.encode(v) ?? ""))
        }
    }

    @inline(__always) private mutating func addByte(_ b: UInt8) {
        value = (value ^ UInt64(b)) &* 0x0000_0100_0000_01B3
    }

    @inline(__always) private mutating func addWord(_ w: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { addByte(UInt8(truncatingIfNeeded: w >> UInt64(shift))) }
    }
}
