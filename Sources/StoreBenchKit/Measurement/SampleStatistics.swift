import Foundation

/// Median, extremes and spread of repeated measurements.
///
/// ```swift
/// let s = SampleStatistics([1.02, 0.98, 1.00])
/// s.median                   // 1.00
/// s.coefficientOfVariation   // 0.02
/// ```
public struct SampleStatistics: Codable, Sendable, Hashable {
    public let count: Int
    public let median: Double
    public let min: Double
    public let max: Double
    public let mean: Double
    /// Sample standard deviation ÷ mean; 0 for fewer than two samples.
    public let coefficientOfVariation: Double

    public init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "statistics need at least one sample")
        let sorted = samples.sorted()
        count = sorted.count
        let mid = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
        min = sorted.first!
        max = sorted.last!
        let m = sorted.reduce(0, +) / Double(sorted.count)
        mean = m
        if sorted.count > 1 && m != 0 {
            let variance = sorted.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(sorted.count - 1)
            coefficientOfVariation = variance.squareRoot() / abs(m)
        } else {
            coefficientOfVariation = 0
        }
    }
}
