/// A figure a workload reports beside its time (a writer's p99, a store's size after churn),
/// declared once by the suite that owns it. Results keep figures by `name`; the report reads
/// them back through the same declaration, so a misspelt name cannot make a table empty.
///
/// ```swift
/// static let openNanos = Figure("open ns", .nanoseconds)
/// timer.report(Self.openNanos, Double(opened))        // in the workload
/// view.figure(Self.openNanos, of: cell)               // in the suite's report section
/// ```
public struct Figure: Hashable, Codable, Sendable {
    public enum Unit: String, Codable, Sendable { case nanoseconds, milliseconds, bytes, count, percent, perSecond }
    /// Which way is better, for readers and for comparisons.
    public enum Better: String, Codable, Sendable { case lower, higher, neither }
    /// How one cell's rounds pool into one figure.
    public enum Pooling: String, Codable, Sendable { case median, max, sum }

    /// The key in results files (`CellResult.metrics`).
    public let name: String
    public let unit: Unit
    public let better: Better
    public let pooling: Pooling

    public init(_ name: String, _ unit: Unit, better: Better = .lower, pooling: Pooling = .median) {
        self.name = name
        self.unit = unit
        self.better = better
        self.pooling = pooling
    }

    /// The rounds' values pooled into one.
    public func pool(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        switch pooling {
        case .median: return values.sorted()[values.count / 2]
        case .max: return values.max()
        case .sum: return values.reduce(0, +)
        }
    }

    /// The runner's check that a cell's reads did their work (a fold of what they read).
    package static let sink = Figure("sink", .count, better: .neither)
}
