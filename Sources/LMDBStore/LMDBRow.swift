import Foundation
import StoreCore

/// A borrowed row view over a record's bytes in the map: fields are decoded only when read.
/// Valid only during the `forEach` call that handed it out; copy with `Record(row)`. Internal.
///
/// `point(at:)` checks the whole layout once per record (a damaged record is `corrupted`,
/// never a crash) and notes where each field starts; the typed accessors then decode one
/// field straight from the map, without building a `Value`.
final class LMDBRow: RowView {
    let entity: Entity
    private let schemaVersion: Int
    // Re-pointed for every record of a scan, read for every field: unchecked exclusivity
    // keeps the runtime's access tracking off this hot path. The row is used by one thread.
    @exclusivity(unchecked) private var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    /// Where each field's tag is, one slot per attribute (owned; freed in deinit).
    private let offsets: UnsafeMutableBufferPointer<Int>

    init(entity: Entity, schemaVersion: Int) {
        self.entity = entity
        self.schemaVersion = schemaVersion
        offsets = .allocate(capacity: entity.attributes.count)
        offsets.initialize(repeating: 0)
    }

    deinit { offsets.deallocate() }

    /// Points the view at another record, checking its layout.
    @inline(__always)
    func point(at b: UnsafeRawBufferPointer) throws {
        try RecordCodec.scan(b, entity: entity, schemaVersion: schemaVersion, offsets: offsets)
        bytes = b
    }

    subscript(_ ordinal: Int) -> Value { RecordCodec.value(bytes, at: offsets[ordinal]) }

    func int64(at i: Int) -> Int64? { RecordCodec.int64(bytes, at: offsets[i]) }

    func double(at i: Int) -> Double? {
        let o = offsets[i]
        return RecordCodec.double(bytes, at: o) ?? RecordCodec.int64(bytes, at: o).map(Double.init)
    }

    /// An owned copy.
    func record() -> Record { Record(entity, values: offsets.map { RecordCodec.value(bytes, at: $0) }) }
}
