import LMDBStore
import StoreCore

extension FuzzTarget {
    /// The first byte picks the entity (and, with its high bit, a store that refuses format 2);
    /// the rest decodes as a record of it or throws `StoreError`: as it is, and with a format-3
    /// checksum written over its last 4 bytes, so that the fuzzer gets past the checksum into the
    /// layout. A format-2 layout is scanned and its fields read, as `decode` does after its
    /// checksum. A decoded record encodes, and that encoding decodes and encodes to itself.
    static func record(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        guard let selector = data.first else { return }
        let entities = FuzzSchema.schema.entities
        let entity = entities[Int(selector & 0x7F) % entities.count], format2 = selector & 0x80 == 0
        // An allocation of exactly the record's size, so AddressSanitizer sees any read past it.
        let b = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count - 1, alignment: 1)
        defer { b.deallocate() }
        b.copyMemory(from: UnsafeRawBufferPointer(rebasing: data.dropFirst()))
        try decode(UnsafeRawBufferPointer(b), entity, format2)
        try scanLegacy(UnsafeRawBufferPointer(b), entity)
        guard b.count >= PackedLayout.checksumSize else { return }
        let end = b.count - PackedLayout.checksumSize
        b.storeBytes(of: PackedLayout.checksum(UnsafeRawBufferPointer(rebasing: b[..<end])).littleEndian, toByteOffset: end, as: UInt32.self)
        try decode(UnsafeRawBufferPointer(b), entity, format2)
    }

    private static func decode(_ b: UnsafeRawBufferPointer, _ e: Entity, _ format2: Bool) throws(FuzzFailure) {
        let decoded = try valueOrStoreError("decoding") { try RecordCodec.decode(b, entity: e, schemaVersion: 1, acceptsFormat2: format2) }
        guard let decoded else { return }
        do {
            let once = try RecordCodec.encode(decoded.values, of: e, schemaVersion: 1)
            let again = try once.withUnsafeBytes { try RecordCodec.decode($0, entity: e, schemaVersion: 1) }
            let twice = try RecordCodec.encode(again.values, of: e, schemaVersion: 1)
            guard once == twice else { throw FuzzFailure("\(decoded) encodes to \(once), which decodes to \(again) and encodes to \(twice)") }
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("\(decoded) decodes but does not encode and decode again: \(error)")
        }
    }

    /// `RecordCodec.scan` over the bytes as a format-2 record (its checksum not checked), then
    /// every field it found read.
    private static func scanLegacy(_ b: UnsafeRawBufferPointer, _ e: Entity) throws(FuzzFailure) {
        let offsets = UnsafeMutableBufferPointer<Int>.allocate(capacity: e.attributes.count)
        defer { offsets.deallocate() }
        guard try valueOrStoreError("scanning", { try RecordCodec.scan(b, entity: e, schemaVersion: 1, offsets: offsets) }) != nil else { return }
        for o in offsets { _ = RecordCodec.value(b, at: o) }
    }
}
