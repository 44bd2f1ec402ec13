import StoreBenchKit

/// What is wrong with a YCSB workload property file; the message names the file, the line
/// or property, and what would be accepted.
public struct YCSBPropertyError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A line that is not `key=value`, `key: value`, `key value`, a comment or blank.
        case syntax(line: Int)
        /// Properties YCSB's core workload does not have (a typo, most often).
        case unknownProperties([String])
        /// A property YCSB has, with a value StoreBench does not implement.
        case unsupported(property: String, value: String)
        /// A value of the wrong type or out of range.
        case invalidValue(property: String, value: String)
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
