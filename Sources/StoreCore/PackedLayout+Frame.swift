/// The scalars a layout's well-formedness check reads (`PackedLayout.isWellFormed`), for one
/// schema version: a value with no references, so a reader that checks every record of a scan
/// keeps one and copies it for free (the layout holds its slots in an array).
extension PackedLayout {
    @frozen
    public struct Frame: Sendable {
        @usableFromInline let minimumSize: Int
        @usableFromInline let header: UInt64
        @usableFromInline let variableStart: Int
        @usableFromInline let tableOffset: Int
        @usableFromInline let variableCount: Int

        @inlinable
        init(minimumSize: Int, header: UInt64, variableStart: Int, tableOffset: Int, variableCount: Int) {
            (self.minimumSize, self.header, self.variableStart) = (minimumSize, header, variableStart)
            (self.tableOffset, self.variableCount) = (tableOffset, variableCount)
        }

        /// Whether `b`'s header and offsets are sound for this frame (its checksum not checked).
        @inlinable @inline(__always)
        public func admits(_ b: UnsafeRawBufferPointer) -> Bool {
            b.count >= minimumSize && UInt64(littleEndian: b.loadUnaligned(as: UInt64.self)) == header && offsetsAreSound(b)
        }

        /// Whether the offset table rises within the record and ends where the checksum starts.
        @inlinable @inline(__always)
        func offsetsAreSound(_ b: UnsafeRawBufferPointer) -> Bool {
            let end = b.count &- PackedLayout.checksumSize
            var previous = variableStart, entry = tableOffset
            for _ in 0..<variableCount {
                let e = Int(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: entry, as: UInt32.self)))
                guard e >= previous, e <= end else { return false }
                previous = e
                entry &+= 4
            }
            return previous == end
        }
    }
}
