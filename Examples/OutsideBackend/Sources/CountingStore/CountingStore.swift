import Foundation
import StoreCore

/// A `Repository` that counts the operations it is asked for and runs them on another store.
///
/// ```swift
/// let store = try CountingStore(over: SQLiteStore(directory: dir, schema: schema))
/// try store.write { try $0.insert(record) }
/// print(store.counts.snapshot())   // ["insert": 1, "write": 1]
/// ```
///
/// Threading: `Sendable`, like the store underneath; the counters are locked.
public final class CountingStore: Repository {
    public let base: any Repository
    public let counts = OperationCounts()

    public init(over base: any Repository) { self.base = base }

    public var schema: Schema { base.schema }
    public var capabilities: Capabilities { base.capabilities }
    public var unsupportedCapabilities: [Capabilities: String] { base.unsupportedCapabilities }

    public func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T {
        counts.add("read")
        return try base.read { try body(CountingTransaction(base: $0, counts: counts)) }
    }

    public func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T {
        counts.add("write")
        return try base.write { try body(CountingTransaction(base: $0, counts: counts)) }
    }

    public func close() throws { try base.close() }
    public func verify() throws -> VerificationReport { try base.verify() }
}

/// How many times each operation ran. Threading: safe from any thread.
public final class OperationCounts: Sendable {
    private let counts = Locked<[String: Int]>([:])
    func add(_ operation: String) { counts.withLock { $0[operation, default: 0] += 1 } }
    /// The counts so far, by operation name.
    public func snapshot() -> [String: Int] { counts.withLock { $0 } }
}
