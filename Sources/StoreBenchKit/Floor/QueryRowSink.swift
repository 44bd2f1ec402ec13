import Foundation
import StoreCore

/// Where a floor's query puts what it reads, field by field in attribute order: `TouchRows`
/// folds it as the workloads fold a backend's rows (the timed path), `DigestRows` digests it
/// as `ResultDigest` digests a backend's results (the untimed check that a floor returns the same
/// rows in the same order). A floor's query code is generic over it, so both paths run the same
/// walk, and the timed one is specialized to plain folds.
public protocol QueryRowSink {
    /// A record of `entity` starts; its fields follow, then `endRecord`.
    mutating func beginRecord(_ entity: Entity)
    mutating func int(_ x: Int64)
    mutating func double(_ x: Double)
    mutating func bool(_ x: Bool)
    /// A date, as seconds since 1970.
    mutating func date(_ seconds: Double)
    /// UTF-8 text, decoded to a `String` as a backend decodes it.
    mutating func text(_ utf8: UnsafeRawBufferPointer)
    /// Text a program decoded itself (GRDB's `row[i]`).
    mutating func string(_ s: String)
    mutating func bytes(_ b: UnsafeRawBufferPointer)
    /// A UUID's 16 bytes.
    mutating func uuid(_ b: UnsafeRawBufferPointer)
    mutating func null()
    mutating func endRecord()
    /// A count a query returns instead of records.
    mutating func count(_ n: Int)
}

/// The timed sink: each record's fields folded by `Touch` (text decoded to a `String`), the
/// records' values added, counts added: the sum a workload's backend body returns.
public struct TouchRows: QueryRowSink {
    /// The sum so far.
    public var sum: Int { total }
    @usableFromInline var total = 0
    @usableFromInline var row = 0

    public init() {}

    @inlinable public mutating func beginRecord(_ entity: Entity) { row = 0 }
    @inlinable public mutating func int(_ x: Int64) { row = Touch.fold(row, Touch.int(x)) }
    @inlinable public mutating func double(_ x: Double) { row = Touch.fold(row, Touch.double(x)) }
    @inlinable public mutating func bool(_ x: Bool) { row = Touch.fold(row, Touch.bool(x)) }
    @inlinable public mutating func date(_ seconds: Double) { row = Touch.fold(row, Touch.double(seconds)) }
    @inlinable public mutating func text(_ utf8: UnsafeRawBufferPointer) {
        row = Touch.fold(row, Touch.string(String(decoding: utf8, as: UTF8.self)))
    }
    @inlinable public mutating func string(_ s: String) { row = Touch.fold(row, Touch.string(s)) }
    @inlinable public mutating func bytes(_ b: UnsafeRawBufferPointer) { row = Touch.fold(row, b.count) }
    @inlinable public mutating func uuid(_ b: UnsafeRawBufferPointer) {
        row = Touch.fold(row, Int(truncatingIfNeeded: b.loadUnaligned(as: Int64.self)))
    }
    @inlinable public mutating func null() { row = Touch.fold(row, Touch.null) }
    @inlinable public mutating func endRecord() { total &+= row }
    @inlinable public mutating func count(_ n: Int) { total &+= n }
}

/// The checking sink: every field as the `Value` a backend returns, each record digested as
/// `DatasetChecksum.add(_:)` digests a backend's record, a count as an integer value, and
/// `endQuery` between queries, as `ResultDigest.digest` ends each query's results.
public struct DigestRows: QueryRowSink {
    public private(set) var digest = DatasetChecksum()

    public init() {}

    public mutating func beginRecord(_ entity: Entity) { digest.beginRecord(entity.name) }
    public mutating func int(_ x: Int64) { digest.add(.int64(x)) }
    public mutating func double(_ x: Double) { digest.add(.double(x)) }
    public mutating func bool(_ x: Bool) { digest.add(.bool(x)) }
    public mutating func date(_ seconds: Double) { digest.add(.date(Date(timeIntervalSince1970: seconds))) }
    public mutating func text(_ utf8: UnsafeRawBufferPointer) { digest.add(.string(String(decoding: utf8, as: UTF8.self))) }
    public mutating func string(_ s: String) { digest.add(.string(s)) }
    public mutating func bytes(_ b: UnsafeRawBufferPointer) { digest.add(.bytes(Array(b))) }
    public mutating func uuid(_ b: UnsafeRawBufferPointer) {
        digest.add(.uuid(UUID(uuid: b.loadUnaligned(as: uuid_t.self))))
    }
    public mutating func null() { digest.add(.null) }
    public mutating func endRecord() {}
    public mutating func count(_ n: Int) { digest.add(.int64(Int64(n))) }
    /// Ends one query's results.
    public mutating func endQuery() { digest.add(.null) }
}

extension QueryRowSink {
    /// An optional field: its value, or `null()`.
    @inlinable public mutating func optional<T>(_ x: T?, _ field: (inout Self, T) -> Void) {
        if let x { field(&self, x) } else { null() }
    }
}
