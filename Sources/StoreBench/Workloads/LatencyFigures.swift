import Histogram
import StoreBenchKit

/// Percentiles of one side's latency (`read p99 ns`, `writer p50 ns`), which the workloads
/// with several threads or processes report beside their times.
public enum LatencyFigures {
    public static let percentiles = ["50", "99", "99.9"]

    /// `<side> p<p> ns`.
    public static func percentile(_ side: String, _ p: String) -> Figure { Figure("\(side) p\(p) ns", .nanoseconds) }

    /// Every percentile figure of the sides `read` and `writer`.
    public static var all: [Figure] { ["read", "writer"].flatMap { side in percentiles.map { percentile(side, $0) } } }

    /// Reports each of `percentiles` of `h` as `<side> p… ns`.
    static func report(_ h: Histogram<UInt64>, as side: String, to timer: OperationTimer) {
        for p in percentiles { timer.report(percentile(side, p), Double(h.valueAtPercentile(Double(p)!))) }
    }

    /// The sum of the recorded values (nanoseconds), from the histogram's mean.
    static func sum(_ h: Histogram<UInt64>) -> UInt64 { UInt64((h.mean * Double(h.totalCount)).rounded()) }
}

extension WorkloadContext {
    /// `each` random post keys for each of `threads` threads or processes (a tenth in the warm-up).
    public func postKeysPerThread(_ threads: Int, each: Int) -> [[Int64]] {
        let each = scaledForWarmUp(each)
        let all = randomKeys(threads * each, upTo: generator.posts)
        return (0..<threads).map { Array(all[($0 * each)..<(($0 + 1) * each)]) }
    }
}
