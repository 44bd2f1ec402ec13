import Foundation
import StoreCore

/// A borrowed row view over a record's bytes in the map: fields are decoded only when read.
/// Valid only during the `forEach` call that handed it out; copy with `Record(row)`. Internal.
final class LMDBRow: RowView {
    let entity: Entity
    private let schemaVersion: Int
    private var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    private var offsets: [Int] = []

    init(entity: Entity, schemaVersion: Int) {
        self.entity = entity
        self.schemaVersion = schemaVersion
        offsets.reserveCapacity(entity.attributes.count)
    }

    /// Points the view at another record, checking its layout.
    @inline(__always)
    func point(at b: UnsafeRawBufferPointer) throws {
        try RecordCodec.scan(b, entity: entity, schemaVersion: schemaVersion, offsets: &offsets)
        bytes = b
    }

    subscript(_ ordinal: Int) -> Value { RecordCodec.value(bytes, at: offsets[ordinal]) }

    /// An owned copy.
    func record() -> Record { Record(entity, values: offsets.map { RecordCodec.value(bytes, at: $0) }) }
}
