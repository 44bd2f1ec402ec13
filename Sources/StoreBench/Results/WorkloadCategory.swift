import StoreBenchKit

/// A workload family (`crud`, `query`, …): the category of a suite's workloads, the name
/// `--workloads` matches, and the heading of its report tables. Each suite declares its own
/// (`WorkloadCategory.crud` lives in the crud suite's folder).
public struct WorkloadCategory: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { rawValue = name }
    public var description: String { rawValue }

    public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
