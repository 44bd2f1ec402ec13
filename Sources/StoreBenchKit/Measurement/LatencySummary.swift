import Histogram

/// Per-operation latency percentiles in nanoseconds, read from an HdrHistogram.
public struct LatencySummary: Codable, Sendable, Hashable {
    public let p50: UInt64
    public let p95: UInt64
    public let p99: UInt64
    public let max: UInt64
    public let samples: UInt64

    public init(p50: UInt64, p95: UInt64, p99: UInt64, max: UInt64, samples: UInt64) {
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.max = max
        self.samples = samples
    }

    public init(_ h: Histogram<UInt64>) {
        p50 = h.valueAtPercentile(50)
        p95 = h.valueAtPercentile(95)
        p99 = h.valueAtPercentile(99)
        max = h.max
        samples = h.totalCount
    }
}
