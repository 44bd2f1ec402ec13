import StoreCore

/// The fuzz targets: each takes any bytes and checks what must hold for them, throwing
/// `FuzzFailure` when it does not (a crash or trap inside the product code is a failure too).
/// libFuzzer calls them through `storebench-fuzz` (`make fuzz`); the regression tests replay
/// the inputs kept under `Tests/Fuzz/<target>/` through the same functions.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// `StorePredicate(format:arguments:)`, then `Schema.resolve` on every fuzz entity.
    case predicate
    /// `RecordCodec.decode` (format 3 and 2) and `RecordCodec.scan`.
    case record
    /// `LMDBPageWalk.check(bytes:)` on a whole data file.
    case pagewalk

    /// Runs the target on one input.
    package func run(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        switch self {
        case .predicate: try Self.predicate(data)
        case .record: try Self.record(data)
        case .pagewalk: try Self.pagewalk(data)
        }
    }

    /// Runs the target on an input held in an array.
    package func run(_ bytes: [UInt8]) throws(FuzzFailure) {
        let failure = bytes.withUnsafeBytes { b -> FuzzFailure? in
            do throws(FuzzFailure) { try run(b) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }
}

/// A property a fuzz target checks did not hold for an input.
package struct FuzzFailure: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

extension FuzzTarget {
    /// The value `body` returns, or `nil` when it throws a `StoreError`; any other error is a failure.
    static func valueOrStoreError<T>(_ what: String, _ body: () throws -> T) throws(FuzzFailure) -> T? {
        do { return try body() } catch is StoreError { return nil } catch {
            throw FuzzFailure("\(what) threw \(type(of: error)) instead of a StoreError: \(error)")
        }
    }
}
