import StoreBenchKit

/// A growable byte buffer a floor owns and refills for every operation (encoded values, keys,
/// text handed to SQLite): it reaches its working size within the first operations, and from
/// then on a floor allocates nothing per operation for its own bytes, as a C loop would not.
///
/// Internal; used by one thread. The memory is freed in `deinit`.
final class ScratchBuffer {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 1_024) {
        self.capacity = max(16, capacity)
        base = .allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// The bytes written since the last `reset`.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    @inline(__always) func reset() { count = 0 }

    @inline(__always) func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var c = capacity * 2
        while c < needed { c *= 2 }
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: c, alignment: 16)
        fresh.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = fresh
        capacity = c
    }

    @inline(__always) func append(_ b: UInt8) {
        reserve(1)
        base.storeBytes(of: b, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always) func append<T: FixedWidthInteger>(littleEndian v: T) {
        reserve(MemoryLayout<T>.size)
        base.storeBytes(of: v.littleEndian, toByteOffset: count, as: T.self)
        count += MemoryLayout<T>.size
    }

    @inline(__always) func append<T: FixedWidthInteger>(bigEndian v: T) {
        reserve(MemoryLayout<T>.size)
        base.storeBytes(of: v.bigEndian, toByteOffset: count, as: T.self)
        count += MemoryLayout<T>.size
    }

    @inline(__always) func append(_ raw: UnsafeRawBufferPointer) {
        reserve(raw.count)
        if let p = raw.baseAddress, raw.count > 0 { (base + count).copyMemory(from: p, byteCount: raw.count) }
        count += raw.count
    }

    /// The string's UTF-8 bytes (no copy of the string itself: native strings are contiguous).
    @inline(__always) func append(_ s: String) {
        var s = s
        s.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always) func append(_ b: [UInt8]) { b.withUnsafeBytes { append($0) } }
}
