import Foundation

/// A borrowed row over a packed record (see `PackedLayout`): every typed accessor is a load at
/// a known offset, inlined into the caller, with no protocol dispatch per field.
///
/// Handed out by `ReadTransaction.forEachPacked`; valid only during the call that received it
/// (it points into the engine's or the transaction's memory). Copy with `Record(row)`.
///
/// ```swift
/// try tx.forEachPacked(Query("Row")) { row in total &+= row.int64(at: 3) ?? 0 }
/// ```
///
/// Three words (an entity and a buffer), so it also fits an `any RowView` without boxing.
/// The entity is held unretained: whoever hands out the row keeps it alive (the schema of the
/// transaction), and a scan that makes one row per record pays no reference counting for it.
@frozen
public struct PackedRow: RowView {
    @usableFromInline let owner: Unmanaged<Entity>
    /// Where the record's bytes start (never nil, so reads need no nil check) and how many.
    @usableFromInline let base: UnsafeRawPointer
    @usableFromInline let count: Int

    public var entity: Entity { owner.takeUnretainedValue() }

    /// The record's bytes: checked by `init(validating:entity:schemaVersion:)`, or packed by
    /// `PackedRowBuilder` (whose rows carry a zero checksum: they never leave memory).
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// A view over bytes already checked against `entity`'s layout (package-internal: a
    /// backend that has validated them, or the encoder that wrote them). Empty bytes make a
    /// placeholder that must not be read.
    @inlinable
    package init(unchecked bytes: UnsafeRawBufferPointer, entity: Entity) {
        owner = Unmanaged.passUnretained(entity)
        base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!
        count = bytes.count
    }

    /// The place of the attribute at `ordinal`, read without retaining the entity.
    @inlinable @inline(__always)
    func slot(_ ordinal: Int) -> PackedLayout.Slot {
        owner._withUnsafeGuaranteedRef { $0.packed.slots[ordinal] }
    }

    @inlinable @inline(__always)
    var variableStart: Int { owner._withUnsafeGuaranteedRef { $0.packed.variableStart } }

    /// Checks a stored record against `entity`'s layout and returns a view over it. Throws
    /// `corrupted` for another format, attribute count or schema version, a length or offset
    /// the layout does not allow, or a checksum that does not match.
    @inlinable @inline(__always)
    public init(validating b: UnsafeRawBufferPointer, entity: Entity, schemaVersion: Int) throws {
        try self.init(wellFormed: b, entity: entity, schemaVersion: schemaVersion)
        try confirm()
    }

    /// Checks a stored record's header and offsets, not its checksum, and returns a view over
    /// it: reads stay within the record, but a damaged byte may read as another value. For a
    /// record that is only looked at (a filter's test); `confirm` checks the checksum before
    /// its values are handed out.
    @inlinable @inline(__always)
    public init(wellFormed b: UnsafeRawBufferPointer, entity: Entity, schemaVersion: Int) throws {
        try self.init(wellFormed: b, entity: entity, frame: entity.packed.frame(schemaVersion: schemaVersion), schemaVersion: schemaVersion)
    }

    /// `init(wellFormed:entity:schemaVersion:)` with the layout's `frame` at that version at
    /// hand (a scan keeps it: it reads no array of the layout per record).
    @inlinable @inline(__always)
    public init(wellFormed b: UnsafeRawBufferPointer, entity: Entity, frame: PackedLayout.Frame, schemaVersion: Int) throws {
        guard frame.admits(b), let start = b.baseAddress else { throw Self.diagnose(b, entity, schemaVersion) }
        owner = Unmanaged.passUnretained(entity)
        base = start
        count = b.count
    }

    /// Throws `corrupted` when the record does not match its checksum (after
    /// `init(wellFormed:entity:schemaVersion:)`).
    @inlinable @inline(__always)
    public func confirm() throws {
        let b = UnsafeRawBufferPointer(start: base, count: count)
        guard PackedLayout.checksumMatches(b) else { throw checksumMismatch() }
    }

    @usableFromInline @inline(never)
    func checksumMismatch() -> StoreError { Self.damaged(entity, "checksum mismatch") }

    /// What is wrong with a record `isWellFormed` refused (the slow path, for the message).
    @usableFromInline @inline(never)
    static func diagnose(_ b: UnsafeRawBufferPointer, _ entity: Entity, _ schemaVersion: Int) -> StoreError {
        let layout = entity.packed
        guard b.count >= layout.minimumSize else { return damaged(entity, "record too short") }
        guard b[0] == PackedLayout.format, b[1] == 0 else { return damaged(entity, "unknown record format \(b[0])") }
        guard Int(UInt16(littleEndian: b.loadUnaligned(fromByteOffset: 2, as: UInt16.self))) == layout.attributeCount else {
            return damaged(entity, "the record has another number of fields than the entity")
        }
        guard UInt32(littleEndian: b.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) == UInt32(truncatingIfNeeded: schemaVersion) else {
            return damaged(entity, "the record was not written with schema version \(schemaVersion)")
        }
        guard layout.offsetsAreSound(b) else { return damaged(entity, "a field's offsets do not match the record's length") }
        return damaged(entity, "checksum mismatch")
    }

    static func damaged(_ e: Entity, _ what: String) -> StoreError {
        StoreError(.corrupted, "a stored \(e.name) record is damaged: \(what)")
    }

    // MARK: Reading

    /// Whether the attribute at `ordinal` is null.
    @inlinable @inline(__always)
    public func isNull(at ordinal: Int) -> Bool { isNull(slot(ordinal)) }

    /// Whether the attribute in slot `s` is null.
    @inlinable @inline(__always)
    func isNull(_ s: PackedLayout.Slot) -> Bool {
        base.load(fromByteOffset: Int(s.nullByte), as: UInt8.self) & s.nullMask != 0
    }

    /// The 8 bytes of a fixed slot of `kind`, or `nil` when null or of another kind.
    @inlinable @inline(__always)
    func word(_ ordinal: Int, _ kind: UInt8) -> UInt64? {
        let s = slot(ordinal)
        guard s.kind == kind, !isNull(s) else { return nil }
        return word(s)
    }

    /// The 8 bytes of the fixed slot `s` (not null).
    @inlinable @inline(__always)
    func word(_ s: PackedLayout.Slot) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: Int(s.offset), as: UInt64.self))
    }

    /// The bytes of a variable attribute of `kind`, or `nil` when null or of another kind.
    @inlinable @inline(__always)
    func variable(_ ordinal: Int, _ kind: UInt8) -> UnsafeRawBufferPointer? {
        let s = slot(ordinal)
        guard s.kind == kind, !isNull(s) else { return nil }
        return variable(s)
    }

    /// The bytes of the variable attribute in slot `s` (not null).
    @inlinable @inline(__always)
    func variable(_ s: PackedLayout.Slot) -> UnsafeRawBufferPointer {
        let end = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: Int(s.offset), as: UInt32.self)))
        let start = s.startEntry < 0 ? variableStart
            : Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: Int(s.startEntry), as: UInt32.self)))
        return UnsafeRawBufferPointer(start: base + start, count: end &- start)
    }

    @inlinable
    public func int64(at ordinal: Int) -> Int64? { word(ordinal, PackedLayout.int64Kind).map { Int64(bitPattern: $0) } }

    /// A double, or an integer attribute's value as a double.
    @inlinable
    public func double(at ordinal: Int) -> Double? {
        if let w = word(ordinal, PackedLayout.doubleKind) { return Double(bitPattern: w) }
        return int64(at: ordinal).map(Double.init)
    }

    @inlinable
    public func bool(at ordinal: Int) -> Bool? {
        let s = slot(ordinal)
        guard s.kind == PackedLayout.boolKind, !isNull(s) else { return nil }
        return base.load(fromByteOffset: Int(s.offset), as: UInt8.self) != 0
    }

    @inlinable
    public func date(at ordinal: Int) -> Date? {
        word(ordinal, PackedLayout.dateKind).map { Date(timeIntervalSince1970: Double(bitPattern: $0)) }
    }

    @inlinable
    public func uuid(at ordinal: Int) -> UUID? {
        let s = slot(ordinal)
        guard s.kind == PackedLayout.uuidKind, !isNull(s) else { return nil }
        var u: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &u) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base + Int(s.offset), count: 16)) }
        return UUID(uuid: u)
    }

    @inlinable
    public func string(at ordinal: Int) -> String? {
        variable(ordinal, PackedLayout.stringKind).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The UTF-8 bytes of a string attribute, borrowed (no `String` is made).
    @inlinable @inline(__always)
    public func utf8(at ordinal: Int) -> UnsafeRawBufferPointer? { variable(ordinal, PackedLayout.stringKind) }

    @inlinable
    public func bytes(at ordinal: Int) -> [UInt8]? { variable(ordinal, PackedLayout.bytesKind).map { Array($0) } }

    @inlinable
    public func withRawBytes<R>(at ordinal: Int, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        try body(variable(ordinal, PackedLayout.stringKind) ?? variable(ordinal, PackedLayout.bytesKind)
            ?? variable(ordinal, PackedLayout.collectionKind))
    }

    /// A list or map attribute, decoded from its JSON; `.null` when null or not decodable.
    public func collection(at ordinal: Int) -> Value {
        let a = entity.attributes[ordinal]
        guard let kind = a.collection, let b = variable(ordinal, PackedLayout.collectionKind) else { return .null }
        return CollectionCoding.decode(b, as: kind, of: a.type) ?? .null
    }

    /// The value at `ordinal`, read by its slot's kind: fixed-width kinds, text and bytes are
    /// read from the slot looked up here (the typed accessors would look it up and check the
    /// kind and the null bit again); a uuid and a collection through their accessors.
    @inlinable
    public subscript(_ ordinal: Int) -> Value {
        let s = slot(ordinal)
        if isNull(s) { return .null }
        switch s.kind {
        case PackedLayout.int64Kind: return .int64(Int64(bitPattern: word(s)))
        case PackedLayout.doubleKind: return .double(Double(bitPattern: word(s)))
        case PackedLayout.boolKind: return .bool(base.load(fromByteOffset: Int(s.offset), as: UInt8.self) != 0)
        case PackedLayout.stringKind: return .string(String(decoding: variable(s), as: UTF8.self))
        case PackedLayout.dateKind: return .date(Date(timeIntervalSince1970: Double(bitPattern: word(s))))
        case PackedLayout.uuidKind: return uuid(at: ordinal).map(Value.uuid) ?? .null
        case PackedLayout.collectionKind: return collection(at: ordinal)
        case PackedLayout.bytesKind: return .bytes(Array(variable(s)))
        default: return .null
        }
    }
}
