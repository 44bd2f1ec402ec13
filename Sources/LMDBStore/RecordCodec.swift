import Foundation
import StoreCore

/// The record encodings of LMDBStore's primary databases.
///
/// **Format 3** (written since issue 18) is StoreCore's packed record (`PackedLayout`): a
/// header, a null bitmap, fixed slots, an offset table and a checksum, so a read is a length
/// check, a checksum and loads at known offsets. Every record read for the caller checks the
/// checksum: a damaged record is `corrupted`, never wrong data. A candidate a query's filter
/// rejects is checked for bounds only (`LMDBRow.glance(at:)`); `verify()` checks every record.
///
/// **Format 2** (written before) is read, never written: a store of format 2 opens, its
/// records are read as they are and each record written again is written in format 3. Each
/// record says its format in its first byte, so both live side by side in one database.
///
/// ```
/// record := format(1 byte = 2) schemaVersion(varint) count(varint) field* checksum(4 bytes)
/// field  := 0x00                         null
///         | 0x01 zigzag-varint           int64
///         | 0x02 8 bytes little-endian   double (IEEE 754 bits)
///         | 0x03 | 0x04                  false | true
///         | 0x05 varint-length bytes     string (UTF-8)
///         | 0x06 8 bytes little-endian   date (seconds since 1970, IEEE 754 bits)
///         | 0x07 16 bytes                uuid
///         | 0x08 varint-length bytes     bytes
/// ```
///
/// Format 2's fields are in attribute order. Its decoding checks the format, the schema
/// version, the count and every tag against the entity; its checksum is checked by `verify()`.
/// Format 1 (format 2 without the checksum) is refused when the store opens.
/// Package-internal (`package`): the on-disk format is not API; tests reach it from inside the package.
package enum RecordCodec {
    /// The format new records are written in.
    package static let format: UInt8 = PackedLayout.format
    /// The earlier format, still read.
    package static let legacyFormat: UInt8 = 2
    /// Bytes of the checksum at the end of a record.
    static let checksumSize = 4

    enum Tag: UInt8 {
        case null = 0, int64, double, boolFalse, boolTrue, string, date, uuid, bytes
    }

    /// Encodes a checked record's values in the current format into `out` (reused).
    package static func encode(_ values: [Value], of entity: Entity, schemaVersion: Int, into out: inout [UInt8]) throws {
        try PackedLayout.encode(values, of: entity, schemaVersion: schemaVersion, into: &out)
    }

    package static func encode(_ values: [Value], of entity: Entity, schemaVersion: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        try encode(values, of: entity, schemaVersion: schemaVersion, into: &out)
        return out
    }

    /// Encodes values in format 2 (for tests of the stores written before format 3).
    package static func encodeLegacy(_ values: [Value], schemaVersion: Int, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        out.append(legacyFormat)
        appendVarint(UInt64(schemaVersion), to: &out)
        appendVarint(UInt64(values.count), to: &out)
        for v in values {
            switch v {
            case .null: out.append(Tag.null.rawValue)
            case .int64(let n):
                out.append(Tag.int64.rawValue)
                appendVarint(UInt64(bitPattern: (n << 1) ^ (n >> 63)), to: &out)
            case .double(let d):
                out.append(Tag.double.rawValue)
                appendLittleEndian(d.bitPattern, to: &out)
            case .bool(let b): out.append(b ? Tag.boolTrue.rawValue : Tag.boolFalse.rawValue)
            case .string(var s):
                out.append(Tag.string.rawValue)
                s.withUTF8 { u in
                    appendVarint(UInt64(u.count), to: &out)
                    out.append(contentsOf: u)
                }
            case .date(let d):
                out.append(Tag.date.rawValue)
                appendLittleEndian(d.timeIntervalSince1970.bitPattern, to: &out)
            case .uuid(let u):
                out.append(Tag.uuid.rawValue)
                withUnsafeBytes(of: u.uuid) { out.append(contentsOf: $0) }
            case .bytes(let b):
                out.append(Tag.bytes.rawValue)
                appendVarint(UInt64(b.count), to: &out)
                out.append(contentsOf: b)
            case .list, .map:   // format 2 predates collections: their JSON as a string
                var s = CollectionCoding.encode(v) ?? ""
                out.append(Tag.string.rawValue)
                s.withUTF8 { u in
                    appendVarint(UInt64(u.count), to: &out)
                    out.append(contentsOf: u)
                }
            }
        }
        let sum = out.withUnsafeBytes { checksum($0) }
        withUnsafeBytes(of: sum.littleEndian) { out.append(contentsOf: $0) }
    }

    /// A 32-bit checksum of `b`, eight bytes at a time: every step is a bijection of the 64-bit
    /// state, so a change confined to one 8-byte word always changes that state; cut to 32
    /// bits, a change goes unseen with a chance of about 2^-32.
    @inline(__always)
    static func checksum(_ b: UnsafeRawBufferPointer) -> UInt32 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(b.count)
        var i = 0
        while i + 8 <= b.count {
            h = (h ^ b.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0, shift: UInt64 = 0
        while i < b.count {
            tail |= UInt64(b[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 32
        return UInt32(truncatingIfNeeded: h)
    }

    /// Whether a stored record's checksum matches its bytes (either format).
    static func checksumMatches(_ b: UnsafeRawBufferPointer) -> Bool {
        guard b.count > checksumSize else { return false }
        let body = UnsafeRawBufferPointer(rebasing: b[..<(b.count - checksumSize)])
        let stored = UInt32(littleEndian: b.loadUnaligned(fromByteOffset: body.count, as: UInt32.self))
        return (b[0] == format ? PackedLayout.checksum(body) : checksum(body)) == stored
    }

    package static func encodeLegacy(_ values: [Value], schemaVersion: Int) -> [UInt8] {
        var out: [UInt8] = []
        encodeLegacy(values, schemaVersion: schemaVersion, into: &out)
        return out
    }

    /// Finds where each field of a format-2 record starts (the offset of its tag), checking the whole layout:
    /// format, schema version, field count, every tag against its attribute's type, every
    /// length within the record, no bytes between the fields and the checksum. `offsets` has one slot per attribute.
    package static func scan(_ stored: UnsafeRawBufferPointer, entity: Entity, schemaVersion: Int,
                            offsets: UnsafeMutableBufferPointer<Int>) throws {
        var i = 0
        guard stored.count >= 3 + checksumSize, stored[0] == legacyFormat else { throw damaged(entity, "unknown record format") }
        // Fields end where the checksum starts.
        let b = UnsafeRawBufferPointer(rebasing: stored[..<(stored.count - checksumSize)])
        i = 1
        guard let version = readVarint(b, &i), version == UInt64(schemaVersion) else {
            throw damaged(entity, "the record was not written with schema version \(schemaVersion)")
        }
        let attributes = entity.attributes
        guard let count = readVarint(b, &i), count == UInt64(attributes.count), offsets.count == attributes.count else {
            throw damaged(entity, "the record has another number of fields than the entity")
        }
        for k in 0..<attributes.count {
            guard i < b.count else { throw damaged(entity, "truncated record") }
            let tag = b[i]
            offsets[k] = i
            i += 1
            let size: Int
            switch (tag, attributes[k].type) {
            case (Tag.null.rawValue, _): size = 0
            case (Tag.int64.rawValue, .int64):
                guard readVarint(b, &i) != nil else { throw damaged(entity, "truncated integer") }
                size = 0
            case (Tag.double.rawValue, .double), (Tag.date.rawValue, .date): size = 8
            case (Tag.boolFalse.rawValue, .bool), (Tag.boolTrue.rawValue, .bool): size = 0
            case (Tag.uuid.rawValue, .uuid): size = 16
            case (Tag.string.rawValue, .string), (Tag.bytes.rawValue, .bytes):
                guard let n = readVarint(b, &i), n <= UInt64(b.count) else { throw damaged(entity, "bad length") }
                size = Int(n)
            default:
                throw damaged(entity, "field '\(attributes[k].name)' holds a value of another type")
            }
            guard i + size <= b.count else { throw damaged(entity, "truncated field '\(attributes[k].name)'") }
            i += size
        }
        guard i == b.count else { throw damaged(entity, "trailing bytes") }
    }

    /// The integer of the field whose tag is at `offset`, or `nil` for null or another type.
    @inline(__always)
    static func int64(_ b: UnsafeRawBufferPointer, at offset: Int) -> Int64? {
        guard b[offset] == Tag.int64.rawValue else { return nil }
        var i = offset + 1
        let z = readVarint(b, &i) ?? 0
        return Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1)
    }

    /// The double of the field whose tag is at `offset`, or `nil` for null or another type.
    @inline(__always)
    static func double(_ b: UnsafeRawBufferPointer, at offset: Int) -> Double? {
        guard b[offset] == Tag.double.rawValue else { return nil }
        return Double(bitPattern: readLittleEndian(b, offset + 1))
    }

    /// The value of the field whose tag is at `offset` (as found by `scan`).
    @inline(__always)
    package static func value(_ b: UnsafeRawBufferPointer, at offset: Int) -> Value {
        var i = offset + 1
        switch Tag(rawValue: b[offset]) {
        case .null, nil: return .null
        case .int64:
            let z = readVarint(b, &i) ?? 0
            return .int64(Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1))
        case .double: return .double(Double(bitPattern: readLittleEndian(b, i)))
        case .date: return .date(Date(timeIntervalSince1970: Double(bitPattern: readLittleEndian(b, i))))
        case .boolFalse: return .bool(false)
        case .boolTrue: return .bool(true)
        case .uuid: return .uuid(UUID(bytes: b[i..<i + 16])!)
        case .string:
            let n = Int(readVarint(b, &i) ?? 0)
            return .string(String(decoding: UnsafeRawBufferPointer(rebasing: b[i..<i + n]), as: UTF8.self))
        case .bytes:
            let n = Int(readVarint(b, &i) ?? 0)
            return .bytes(Array(b[i..<i + n]))
        }
    }

    /// Decodes a whole record of format 3, or of format 2 where the store may hold them (its
    /// checksum checked too).
    package static func decode(_ b: UnsafeRawBufferPointer, entity: Entity, schemaVersion: Int, acceptsFormat2: Bool = true) throws -> Record {
        if b.first == format { return Record(try PackedRow(validating: b, entity: entity, schemaVersion: schemaVersion)) }
        try checkLegacy(b, entity, acceptsFormat2)
        return try withUnsafeTemporaryAllocation(of: Int.self, capacity: entity.attributes.count) { offsets in
            try scan(b, entity: entity, schemaVersion: schemaVersion, offsets: offsets)
            return Record(entity, values: offsets.map { value(b, at: $0) })
        }
    }

    /// Refuses a format-2 record where the store holds only format 3, and one whose checksum
    /// does not match (format 2 keeps its checksum at the end like format 3).
    static func checkLegacy(_ b: UnsafeRawBufferPointer, _ entity: Entity, _ accepted: Bool) throws {
        guard accepted || b.first != legacyFormat else {
            throw damaged(entity, "a record in format 2 in a store whose records are all in format 3")
        }
        guard b.first != legacyFormat || checksumMatches(b) else { throw damaged(entity, "checksum mismatch") }
    }

    // MARK: Internal helpers

    private static func damaged(_ e: Entity, _ what: String) -> StoreError {
        StoreError(.corrupted, "a stored \(e.name) record is damaged: \(what)")
    }

    @inline(__always)
    static func appendVarint(_ v: UInt64, to out: inout [UInt8]) {
        var v = v
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    @inline(__always)
    static func readVarint(_ b: UnsafeRawBufferPointer, _ i: inout Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while i < b.count, shift < 64 {
            let byte = b[i]
            i += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
        return nil
    }

    @inline(__always)
    private static func appendLittleEndian(_ u: UInt64, to out: inout [UInt8]) {
        withUnsafeBytes(of: u.littleEndian) { out.append(contentsOf: $0) }
    }

    @inline(__always)
    static func readLittleEndian(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt64 {
        UInt64(littleEndian: b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
    }
}
