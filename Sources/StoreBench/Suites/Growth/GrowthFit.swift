import Foundation
import StoreBenchKit

/// The growth of one figure with the record count N, as the slope of log(figure) against
/// log(N): 0 stays flat, 1 grows in proportion to N; a cost that grows like log N shows a small
/// positive slope. Fitted by least squares in each round; the estimate is the median over the
/// rounds, with its order-statistic interval.
struct GrowthFit {
    let slope: Estimate

    /// The fit of `figure` over `cell`'s points, nil without two points in some round.
    init?(_ cell: CellResult, _ figure: (Int) -> Figure) {
        typealias F = GrowthSuite.Figures
        guard let rounds = cell.roundFigures else { return nil }
        let slopes = (0..<(rounds[F.records(0).name]?.count ?? 0)).compactMap { r -> Double? in
            let pairs = F.points.compactMap { i -> (Double, Double)? in
                guard let n = rounds[F.records(i).name]?[safe: r], let y = rounds[figure(i).name]?[safe: r], n > 0, y > 0 else { return nil }
                return (log(n), log(y))
            }
            return Self.leastSquaresSlope(pairs)
        }
        guard !slopes.isEmpty else { return nil }
        slope = Estimate(medianOf: slopes)
    }

    static func leastSquaresSlope(_ points: [(x: Double, y: Double)]) -> Double? {
        guard points.count >= 2 else { return nil }
        let mx = points.map(\.x).reduce(0, +) / Double(points.count), my = points.map(\.y).reduce(0, +) / Double(points.count)
        let sxx = points.map { ($0.x - mx) * ($0.x - mx) }.reduce(0, +)
        guard sxx > 0 else { return nil }
        return points.map { ($0.x - mx) * ($0.y - my) }.reduce(0, +) / sxx
    }

    /// The least confidence of an interval that decides: 5 rounds give 93.8%, 3 only 75%.
    static let decidingConfidence = 0.9

    /// How the figure grows, in words: flat when the whole interval lies within ±`margin`,
    /// growing when it lies above it, else (or with too few rounds to decide) undecided.
    func verdict(margin: Double = 0.1) -> String {
        guard slope.confidence >= Self.decidingConfidence else { return "undecided" }
        if slope.low >= -margin && slope.high <= margin { return "flat" }
        if slope.low > margin { return slope.value >= 0.8 ? "grows about in proportion to N" : "grows" }
        if slope.high < -margin { return "falls" }
        return "undecided"
    }

    /// `0.12 (0.08–0.15)`.
    var text: String {
        guard slope.high > slope.low else { return String(format: "%.2f", slope.value) }
        return String(format: "%.2f (%.2f–%.2f)", slope.value, slope.low, slope.high)
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
