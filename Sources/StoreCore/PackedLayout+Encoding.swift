import Foundation

extension PackedLayout {
    /// Encodes a record's values (attribute order, types as `Entity.checkedRecord` leaves
    /// them) as a packed record into `out`, reusing its storage: once `out` has grown to the
    /// largest record, encoding allocates nothing. Throws `invalidValue` for a value of
    /// another type than its attribute (an integer is accepted for a double).
    ///
    /// ```swift
    /// var buffer: [UInt8] = []
    /// try PackedLayout.encode(record.values, of: record.entity, schemaVersion: 1, into: &buffer)
    /// ```
    public static func encode(_ values: [Value], of entity: Entity, schemaVersion: Int, into out: inout [UInt8]) throws {
        let values = entity.hasCollections ? entity.encodedCollections(values) : values
        let size = try encodedSize(values, of: entity)
        // Same size as the last record (the steady state of a bulk insert): nothing to resize.
        if out.count < size {
            out.append(contentsOf: repeatElement(0, count: size &- out.count))
        } else if out.count > size {
            out.removeLast(out.count &- size)
        }
        out.withUnsafeMutableBytes { write(values, of: entity, schemaVersion: schemaVersion, into: $0) }
    }

    /// The encoded size of a record's values; `invalidValue` for a value of another type.
    public static func encodedSize(_ values: [Value], of entity: Entity) throws -> Int {
        let layout = entity.packed
        guard values.count == layout.slots.count else {
            throw StoreError(.invalidValue, "\(entity.name) has \(layout.slots.count) attributes, the record \(values.count) values")
        }
        var size = layout.minimumSize
        for k in 0..<values.count {
            switch (entity.attributeTypes[k], values[k]) {
            case (_, .null), (.int64, .int64), (.double, .double), (.double, .int64), (.bool, .bool),
                 (.date, .date), (.uuid, .uuid):
                break
            case (.string, .string(let s)): size += s.utf8.count
            case (.bytes, .bytes(let b)): size += b.count
            case (let t, let v):
                throw StoreError(.invalidValue, "\(entity.name).\(entity.attributes[k].name) is \(t.rawValue); cannot store \(v)")
            }
        }
        guard size <= Int(UInt32.max) else { throw StoreError(.invalidValue, "a \(entity.name) record of \(size) bytes is too large") }
        return size
    }

    /// The encoded size of values `Entity.checkedRecord` has checked (each of its attribute's
    /// type, collections as their JSON): `encodedSize` without its type checks, which a
    /// write path that has just checked the record would pay twice. `invalidValue` for a
    /// record too large. Values must be checked: for an entity without text, bytes or
    /// collections the size is the layout's alone, and debug builds assert it is `encodedSize`.
    package static func checkedSize(_ values: [Value], of entity: Entity) throws -> Int {
        var size = entity.packed.minimumSize
        // Only text, bytes and collections add to the minimum: with none, no value is looked at.
        if entity.packed.variableCount > 0 {
            for v in values {
                switch v {
                case .string(let s): size &+= s.utf8.count
                case .bytes(let b): size &+= b.count
                default: break
                }
            }
        }
        guard size <= Int(UInt32.max) else { throw StoreError(.invalidValue, "a \(entity.name) record of \(size) bytes is too large") }
        assert(size == (try? encodedSize(values, of: entity)), "values not checked by checkedRecord")
        return size
    }

    /// Writes values checked by `encodedSize` into `out`, which is exactly that size (its
    /// previous contents do not matter: every byte is written, zeros for null slots).
    package static func write(_ values: [Value], of entity: Entity, schemaVersion: Int, into out: UnsafeMutableRawBufferPointer) {
        let layout = entity.packed
        let p = out.baseAddress!
        p.storeBytes(of: header(format: format, count: values.count, schemaVersion: schemaVersion).littleEndian, as: UInt64.self)
        clearBitmap(p + headerSize, byteCount: (values.count + 7) / 8)
        var next = layout.variableStart
        do {
            for k in 0..<values.count {
                let s = layout.slots[k]
                let at = Int(s.offset)
                switch values[k] {
                case .null:
                    setNull(p, s)
                    switch s.kind {
                    case stringKind, bytesKind:   // an empty range: it ends where the previous one did
                        p.storeBytes(of: UInt32(truncatingIfNeeded: next).littleEndian, toByteOffset: at, as: UInt32.self)
                    case boolKind: p.storeBytes(of: 0, toByteOffset: at, as: UInt8.self)
                    case uuidKind: (p + at).initializeMemory(as: UInt8.self, repeating: 0, count: 16)
                    default: p.storeBytes(of: 0, toByteOffset: at, as: UInt64.self)
                    }
                case .int64(let n):
                    p.storeBytes(of: (s.kind == doubleKind ? Double(n).bitPattern : UInt64(bitPattern: n)).littleEndian, toByteOffset: at, as: UInt64.self)
                case .double(let d): p.storeBytes(of: d.bitPattern.littleEndian, toByteOffset: at, as: UInt64.self)
                case .date(let d): p.storeBytes(of: d.timeIntervalSince1970.bitPattern.littleEndian, toByteOffset: at, as: UInt64.self)
                case .bool(let b): p.storeBytes(of: b ? 1 : 0, toByteOffset: at, as: UInt8.self)
                case .uuid(let u):
                    withUnsafeBytes(of: u.uuid) { (p + at).copyMemory(from: $0.baseAddress!, byteCount: 16) }
                case .string(let str):
                    var str = str
                    str.withUTF8 { u in
                        if u.count > 0 { (p + next).copyMemory(from: u.baseAddress!, byteCount: u.count) }
                        next &+= u.count
                    }
                    p.storeBytes(of: UInt32(truncatingIfNeeded: next).littleEndian, toByteOffset: at, as: UInt32.self)
                case .bytes(let b):
                    b.withUnsafeBytes { u in
                        if u.count > 0 { (p + next).copyMemory(from: u.baseAddress!, byteCount: u.count) }
                        next &+= u.count
                    }
                    p.storeBytes(of: UInt32(truncatingIfNeeded: next).littleEndian, toByteOffset: at, as: UInt32.self)
                case .list, .map:
                    break   // refused by `encodedSize` (`encode` writes them as their JSON text)
                }
            }
        }
        let end = out.count &- checksumSize
        p.storeBytes(of: checksum(UnsafeRawBufferPointer(start: p, count: end)).littleEndian, toByteOffset: end, as: UInt32.self)
    }

    /// Zeroes a record's null bitmap a word at a time: a few stores where a call to `memset`
    /// costs more than the bitmap of a usual record (one or two bytes).
    @inline(__always)
    private static func clearBitmap(_ p: UnsafeMutableRawPointer, byteCount n: Int) {
        var i = 0
        while i &+ 8 <= n { p.storeBytes(of: 0, toByteOffset: i, as: UInt64.self); i &+= 8 }
        if i &+ 4 <= n { p.storeBytes(of: 0, toByteOffset: i, as: UInt32.self); i &+= 4 }
        if i &+ 2 <= n { p.storeBytes(of: 0, toByteOffset: i, as: UInt16.self); i &+= 2 }
        if i < n { p.storeBytes(of: 0, toByteOffset: i, as: UInt8.self) }
    }

    /// The first 8 bytes of a record: format, flags (0), attribute count, schema version.
    @inlinable @inline(__always)
    static func header(format: UInt8, count: Int, schemaVersion: Int) -> UInt64 {
        UInt64(format) | UInt64(truncatingIfNeeded: count) << 16 | UInt64(UInt32(truncatingIfNeeded: schemaVersion)) << 32
    }

    /// The 32-bit checksum of a packed record (every byte before the checksum).
    ///
    /// Two running sums over 8-byte words (Fletcher's scheme: the sum, and the sum of the
    /// sums, so a change in one word always changes the first and a swap of two words the
    /// second), then a multiply-xorshift mix cut to 32 bits: a damaged record goes unseen
    /// with a chance of about 2^-32. Two additions per word, so checking a 100-byte record
    /// costs a few nanoseconds.
    @inlinable @inline(__always)
    public static func checksum(_ b: UnsafeRawBufferPointer) -> UInt32 {
        let n = b.count
        var a: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: n), s: UInt64 = 0
        var i = 0
        // Two words per turn (the same sums): half the loop's bookkeeping on every record read.
        while i &+ 16 <= n {
            a &+= UInt64(littleEndian: b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            s &+= a
            a &+= UInt64(littleEndian: b.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self))
            s &+= a
            i &+= 16
        }
        if i &+ 8 <= n {
            a &+= UInt64(littleEndian: b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            s &+= a
            i &+= 8
        }
        if i < n {
            var tail: UInt64
            if n >= 8 {
                // The last 8 bytes, with those already summed shifted out.
                tail = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)) >> UInt64(8 &* (8 &- (n &- i)))
            } else {
                tail = 0
                for k in i..<n { tail |= UInt64(b[k]) << UInt64(8 &* (k &- i)) }
            }
            a &+= tail &+ 1
            s &+= a
        }
        var h = (a ^ ((s << 29) | (s >> 35))) &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 32
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 29
        return UInt32(truncatingIfNeeded: h)
    }
}
