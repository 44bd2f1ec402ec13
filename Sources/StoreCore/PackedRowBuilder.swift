import Foundation

/// Packs rows of any `RowView` into one reused buffer and hands out `PackedRow`s over it:
/// how a backend that does not store packed records serves `ReadTransaction.forEachPacked`.
///
/// `pack(_:)` is generic and inlinable: called with a backend's concrete row type it reads
/// every field through that type's own accessors, with no protocol dispatch per field.
///
/// ```swift
/// let builder = PackedRowBuilder(entity)
/// while try statement.step() { try body(builder.pack(row)) }
/// ```
///
/// A packed view is valid until the next `pack`. Its checksum is zero (it never leaves
/// memory). Not thread-safe: one builder per scan.
public final class PackedRowBuilder {
    public let entity: Entity
    // Read and grown on every row: unchecked exclusivity keeps the runtime's access tracking
    // off the scan (a builder is used by one thread).
    @exclusivity(unchecked) @usableFromInline var buffer: UnsafeMutableRawBufferPointer

    public init(_ entity: Entity) {
        self.entity = entity
        buffer = .allocate(byteCount: max(64, entity.packed.minimumSize * 2), alignment: 8)
    }

    deinit { buffer.deallocate() }

    /// Makes room for `size` bytes, keeping the first `keep`; returns where the buffer starts.
    @usableFromInline
    func reserve(_ size: Int, keeping keep: Int) -> UnsafeMutableRawPointer {
        if size > buffer.count {
            let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 2 * buffer.count), alignment: 8)
            bigger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[..<keep]))
            buffer.deallocate()
            buffer = bigger
        }
        return buffer.baseAddress!
    }

    /// Packs every field of `row` (whose entity must be the builder's) and returns a view.
    @inlinable
    public func pack(_ row: some RowView) -> PackedRow {
        let layout = entity.packed
        let fixedEnd = layout.variableStart
        var p = buffer.count >= layout.minimumSize ? buffer.baseAddress! : reserve(layout.minimumSize, keeping: 0)
        p.storeBytes(of: PackedLayout.header(format: PackedLayout.format, count: layout.slots.count, schemaVersion: 0).littleEndian, as: UInt64.self)
        (p + PackedLayout.headerSize).initializeMemory(as: UInt8.self, repeating: 0, count: fixedEnd &- PackedLayout.headerSize)
        var next = fixedEnd
        for i in 0..<layout.slots.count {
            let s = layout.slots[i]
            let at = Int(s.offset)
            var word: UInt64?
            switch s.kind {
            case PackedLayout.int64Kind: word = row.int64(at: i).map { UInt64(bitPattern: $0) }
            case PackedLayout.doubleKind: word = row.double(at: i).map { $0.bitPattern }
            case PackedLayout.dateKind: word = row.date(at: i).map { $0.timeIntervalSince1970.bitPattern }
            case PackedLayout.boolKind:
                if let b = row.bool(at: i) { p.storeBytes(of: b ? 1 : 0, toByteOffset: at, as: UInt8.self); continue }
            case PackedLayout.uuidKind:
                if let u = row.uuid(at: i) {
                    withUnsafeBytes(of: u.uuid) { (p + at).copyMemory(from: $0.baseAddress!, byteCount: 16) }
                    continue
                }
            default:
                // The closure captures no mutable local (a captured `var` would be boxed on the
                // heap for every row where the row type's `withRawBytes` is not inlined).
                let start = next
                let copied: Int? = row.withRawBytes(at: i) { [self] b in
                    guard let b else { return nil }
                    let q = reserve(start &+ b.count &+ PackedLayout.checksumSize, keeping: start)
                    if b.count > 0 { (q + start).copyMemory(from: b.baseAddress!, byteCount: b.count) }
                    return b.count
                }
                if let copied {
                    next = start &+ copied
                    p = buffer.baseAddress!
                }
                p.storeBytes(of: UInt32(truncatingIfNeeded: next).littleEndian, toByteOffset: at, as: UInt32.self)
                if copied != nil { continue }
            }
            if let word {
                p.storeBytes(of: word.littleEndian, toByteOffset: at, as: UInt64.self)
            } else {
                PackedLayout.setNull(p, s)
            }
        }
        p = reserve(next &+ PackedLayout.checksumSize, keeping: next)
        p.storeBytes(of: 0, toByteOffset: next, as: UInt32.self)   // no checksum: the row never leaves memory
        return PackedRow(unchecked: UnsafeRawBufferPointer(start: p, count: next &+ PackedLayout.checksumSize), entity: entity)
    }
}

extension PackedRowBuilder {
    /// Hands `body` every row `rows` produces, packed by one reused builder: how a backend
    /// without packed records serves `ReadTransaction.forEachPacked` from its `forEach`.
    ///
    /// ```swift
    /// try PackedRowBuilder.packEach({ try tx.forEach(query, $0) }, body)
    /// ```
    public static func packEach(_ rows: ((any RowView) throws -> Void) throws -> Void,
                                _ body: (PackedRow) throws -> Void) rethrows {
        var builder: PackedRowBuilder?
        // `rows` calls the closure only while it runs, never after.
        try withoutActuallyEscaping(body) { body in
            try rows { row in
                if builder.map({ $0.entity !== row.entity }) ?? true { builder = PackedRowBuilder(row.entity) }
                try body(builder!.pack(row))
            }
        }
    }
}
