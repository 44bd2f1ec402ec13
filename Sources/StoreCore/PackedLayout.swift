/// Where each attribute of an entity lives in a *packed record*, StoreCore's binary row layout
/// with O(1) access to every field:
///
/// ```
/// offset 0   format (1 byte = 3)  flags (1 byte = 0)  attribute count (u16)  schema version (u32)
/// offset 8   null bitmap: one bit per attribute, attribute k at byte k / 8, bit k % 8
///            fixed slots in attribute order: int64, double, date 8 bytes; bool 1; uuid 16
///            offset table: one u32 per string or bytes attribute, the offset where it ends
///            variable bytes, in attribute order (UTF-8 for strings)
/// last 4     checksum (u32) of every byte before it
/// ```
///
/// All integers are little-endian; doubles and dates (seconds since 1970) are IEEE 754 bits.
/// A null attribute has its bit set and zeros in its slot (an empty range for variable ones).
/// Checking a record is a length check against the layout, one comparison per variable
/// attribute and the checksum (`PackedRow.init(validating:entity:schemaVersion:)`); every
/// read after that is a load at a known offset.
///
/// Built once per entity (`Entity.packed`). Backends may store records in this layout
/// (LMDBStore does) and hand out `PackedRow`s over them without copying. A class, so reading
/// it from a row costs no reference counting of its arrays.
public final class PackedLayout: Sendable {
    /// The format byte of a packed record.
    public static let format: UInt8 = 3
    /// Bytes before the null bitmap: format, flags, attribute count, schema version.
    public static let headerSize = 8
    /// Bytes of the checksum at the end.
    public static let checksumSize = 4

    /// One attribute's place (internal to StoreCore's inlinable readers).
    @frozen @usableFromInline
    struct Slot: Sendable {
        /// `AttributeType`'s case as a byte, so the readers compare one byte.
        @usableFromInline let kind: UInt8
        /// The attribute's bit in the null bitmap, and the record offset of the bitmap byte
        /// holding it: a null test is one load and one mask.
        @usableFromInline let nullMask: UInt8
        @usableFromInline let nullByte: UInt16
        /// Fixed attributes: the slot's offset. Variable ones: the offset of the table entry
        /// holding where the bytes end.
        @usableFromInline let offset: Int32
        /// Variable ones: the offset of the previous table entry (where the bytes start), or
        /// -1 for the first variable attribute, whose bytes start at `variableStart`.
        @usableFromInline let startEntry: Int32

        init(kind: UInt8, ordinal: Int, offset: Int, startEntry: Int) {
            self.kind = kind
            nullMask = 1 << UInt8(ordinal & 7)
            nullByte = UInt16(PackedLayout.headerSize + ordinal >> 3)
            self.offset = Int32(offset)
            self.startEntry = Int32(startEntry)
        }
    }

    /// Sets the null bit of slot `s` in the record at `p` (the readers' `PackedRow.isNull`).
    @inlinable @inline(__always)
    static func setNull(_ p: UnsafeMutableRawPointer, _ s: Slot) {
        let byte = Int(s.nullByte)
        p.storeBytes(of: p.load(fromByteOffset: byte, as: UInt8.self) | s.nullMask, toByteOffset: byte, as: UInt8.self)
    }

    @usableFromInline let slots: [Slot]
    /// Where the variable bytes begin (right after the offset table).
    @usableFromInline let variableStart: Int
    /// Offset of the offset table.
    @usableFromInline let tableOffset: Int
    /// How many string and bytes attributes there are.
    @usableFromInline let variableCount: Int
    /// The size of a record whose variable attributes are all empty or null.
    public let minimumSize: Int

    /// The kind byte of each type (the readers' fast comparison).
    @usableFromInline static let int64Kind: UInt8 = 0, doubleKind: UInt8 = 1, boolKind: UInt8 = 2,
                                   stringKind: UInt8 = 3, dateKind: UInt8 = 4, uuidKind: UInt8 = 5, bytesKind: UInt8 = 6,
                                   collectionKind: UInt8 = 7

    static func kind(_ t: AttributeType) -> UInt8 {
        switch t {
        case .int64: int64Kind
        case .double: doubleKind
        case .bool: boolKind
        case .string: stringKind
        case .date: dateKind
        case .uuid: uuidKind
        case .bytes: bytesKind
        }
    }

    /// The width of a fixed-width type's slot, or `nil` for a variable-width one.
    static func width(_ t: AttributeType) -> Int? {
        switch t {
        case .int64, .double, .date: 8
        case .bool: 1
        case .uuid: 16
        case .string, .bytes: nil
        }
    }

    /// A layout for attributes of `types`; the ordinals in `collections` hold a list or map's
    /// JSON text (`CollectionCoding`) in a variable slot of their own kind.
    public init(_ types: [AttributeType], collections: Set<Int> = []) {
        let bitmapSize = (types.count + 7) / 8
        var fixed = Self.headerSize + bitmapSize
        var variables = 0
        for t in types {
            if let w = Self.width(t) { fixed += w } else { variables += 1 }
        }
        tableOffset = fixed
        variableCount = variables
        variableStart = fixed + 4 * variables
        minimumSize = variableStart + Self.checksumSize
        var slots: [Slot] = []
        var nextFixed = Self.headerSize + bitmapSize, nextVariable = 0
        for (k, t) in types.enumerated() {
            if collections.contains(k) {
                let entry = tableOffset + 4 * nextVariable
                slots.append(Slot(kind: Self.collectionKind, ordinal: k, offset: entry, startEntry: nextVariable == 0 ? -1 : entry - 4))
                nextVariable += 1
            } else if let w = Self.width(t) {
                slots.append(Slot(kind: Self.kind(t), ordinal: k, offset: nextFixed, startEntry: -1))
                nextFixed += w
            } else {
                let entry = tableOffset + 4 * nextVariable
                slots.append(Slot(kind: Self.kind(t), ordinal: k, offset: entry, startEntry: nextVariable == 0 ? -1 : entry - 4))
                nextVariable += 1
            }
        }
        self.slots = slots
    }

    /// The attribute count the layout was built for.
    public var attributeCount: Int { slots.count }

    /// The first 8 bytes of a sound record of this layout at `schemaVersion`: format, flags
    /// (0), attribute count, schema version.
    @inlinable @inline(__always)
    func header(_ schemaVersion: Int) -> UInt64 {
        Self.header(format: Self.format, count: slots.count, schemaVersion: schemaVersion)
    }

    /// Whether a stored record's header and offsets are sound (every field's bytes lie within
    /// the record), its checksum not checked: reading it cannot go out of bounds.
    @inlinable @inline(__always)
    func isWellFormed(_ b: UnsafeRawBufferPointer, schemaVersion: Int) -> Bool {
        frame(schemaVersion: schemaVersion).admits(b)
    }

    /// What `isWellFormed` reads of this layout at `schemaVersion`.
    @inlinable
    public func frame(schemaVersion: Int) -> Frame {
        Frame(minimumSize: minimumSize, header: header(schemaVersion), variableStart: variableStart,
              tableOffset: tableOffset, variableCount: variableCount)
    }

    /// Whether a record of at least `checksumSize` bytes matches its checksum.
    @inlinable @inline(__always)
    static func checksumMatches(_ b: UnsafeRawBufferPointer) -> Bool {
        let end = b.count &- checksumSize
        return checksum(UnsafeRawBufferPointer(rebasing: b[..<end])) == UInt32(littleEndian: b.loadUnaligned(fromByteOffset: end, as: UInt32.self))
    }

    /// Whether the offset table rises within the record and ends where the checksum starts.
    @inlinable @inline(__always)
    func offsetsAreSound(_ b: UnsafeRawBufferPointer) -> Bool {
        frame(schemaVersion: 0).offsetsAreSound(b)
    }
}
