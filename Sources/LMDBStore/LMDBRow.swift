import Foundation
import StoreCore

/// A borrowed row view over a record's bytes in the map: fields are decoded only when read.
/// Valid only during the `forEach` call that handed it out; copy with `Record(row)`. Internal.
///
/// `point(at:)` checks the record once, its checksum included (a damaged record is
/// `corrupted`, never a crash or wrong data). A filter's candidate is only glanced at
/// (`glance(at:)`: header and offsets, reads stay in bounds) and `confirm()`ed once it
/// matches, so every record whose values reach the caller is checked in full while a scan
/// does not sum the bytes of the records it rejects (`verify()` checks those, as a SQL store's
/// does). A format-3 record is then read through a
/// `PackedRow` over the map; a record still in format 2 (in a store created before format 3)
/// through the offsets of its fields that the check noted.
final class LMDBRow: RowView {
    let entity: Entity
    private let schemaVersion: Int
    private let acceptsFormat2: Bool
    /// What `glance(at:)` checks of a format-3 record (no array of the layout read per record).
    private let frame: PackedLayout.Frame
    // Re-pointed for every record of a scan, read for every field: unchecked exclusivity
    // keeps the runtime's access tracking off this hot path. The row is used by one thread.
    @exclusivity(unchecked) private(set) var packed: PackedRow
    @exclusivity(unchecked) private var isLegacy = false
    @exclusivity(unchecked) private var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    /// Where each field's tag is in a format-2 record, one slot per attribute (owned; freed in deinit).
    private let offsets: UnsafeMutableBufferPointer<Int>
    /// Packs a format-2 record for `packedView()` (made at the first such record).
    private var repacker: PackedRowBuilder?

    init(entity: Entity, schemaVersion: Int, acceptsFormat2: Bool) {
        self.entity = entity
        self.schemaVersion = schemaVersion
        self.acceptsFormat2 = acceptsFormat2
        frame = entity.packed.frame(schemaVersion: schemaVersion)
        packed = PackedRow(unchecked: UnsafeRawBufferPointer(start: nil, count: 0), entity: entity)
        offsets = .allocate(capacity: entity.attributes.count)
        offsets.initialize(repeating: 0)
    }

    deinit { offsets.deallocate() }

    /// Points the view at another record, checking it.
    @inline(__always)
    func point(at b: UnsafeRawBufferPointer) throws {
        if b.first == RecordCodec.format {
            packed = try PackedRow(wellFormed: b, entity: entity, frame: frame, schemaVersion: schemaVersion)
            try packed.confirm()
            isLegacy = false
        } else {
            try RecordCodec.checkLegacy(b, entity, acceptsFormat2)
            try RecordCodec.scan(b, entity: entity, schemaVersion: schemaVersion, offsets: offsets)
            bytes = b
            isLegacy = true
        }
    }

    /// Points the view at a candidate, checking its header and offsets but not its checksum
    /// (format 3; a format-2 record is checked in full): `confirm()` it before handing it out.
    @inline(__always)
    func glance(at b: UnsafeRawBufferPointer) throws {
        guard b.first == RecordCodec.format else { return try point(at: b) }
        packed = try PackedRow(wellFormed: b, entity: entity, frame: frame, schemaVersion: schemaVersion)
        isLegacy = false
    }

    /// Checks the checksum of a record `glance(at:)` pointed at.
    @inline(__always)
    func confirm() throws {
        if !isLegacy { try packed.confirm() }
    }

    /// Points the view again at a record checked in full before (this transaction's map).
    @inline(__always)
    func revisit(_ b: UnsafeRawBufferPointer) throws {
        guard b.first == RecordCodec.format else { return try point(at: b) }
        packed = PackedRow(unchecked: b, entity: entity)
        isLegacy = false
    }

    /// The record as a packed row over the map; nil for a record still in format 2.
    @inline(__always)
    var packedRow: PackedRow? { isLegacy ? nil : packed }

    /// The record as a packed row: a view over the map, or for a format-2 record over a copy
    /// packed into the row's own buffer (valid until the next `point(at:)`).
    @inline(__always)
    func packedView() -> PackedRow {
        if !isLegacy { return packed }
        if repacker == nil { repacker = PackedRowBuilder(entity) }
        return repacker!.pack(self)
    }

    subscript(_ ordinal: Int) -> Value {
        isLegacy ? RecordCodec.value(bytes, at: offsets[ordinal]) : packed[ordinal]
    }

    func int64(at i: Int) -> Int64? { isLegacy ? RecordCodec.int64(bytes, at: offsets[i]) : packed.int64(at: i) }

    func double(at i: Int) -> Double? {
        guard isLegacy else { return packed.double(at: i) }
        let o = offsets[i]
        return RecordCodec.double(bytes, at: o) ?? RecordCodec.int64(bytes, at: o).map(Double.init)
    }

    func bool(at i: Int) -> Bool? { isLegacy ? self[i].boolValue : packed.bool(at: i) }
    func string(at i: Int) -> String? { isLegacy ? self[i].stringValue : packed.string(at: i) }
    func date(at i: Int) -> Date? { isLegacy ? self[i].dateValue : packed.date(at: i) }
    func uuid(at i: Int) -> UUID? { isLegacy ? self[i].uuidValue : packed.uuid(at: i) }
    func bytes(at i: Int) -> [UInt8]? { isLegacy ? self[i].bytesValue : packed.bytes(at: i) }

    /// An owned copy.
    func record() -> Record {
        isLegacy ? Record(entity, values: offsets.map { RecordCodec.value(bytes, at: $0) }) : Record(packed)
    }
}
