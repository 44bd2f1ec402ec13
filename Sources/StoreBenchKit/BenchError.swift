/// An error of the runner itself: a bad fixture file, an unknown workload, a malformed
/// results file, a floor's engine call that failed. The message says what and where.
public struct BenchError: Error, CustomStringConvertible, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
