import Foundation
import StoreBenchKit

extension CellResult {
    /// This cell's time per operation ÷ `other`'s on the log scale, from the evidence both hold:
    /// their per-interval times when either ran fewer than `CellResult.pairedRoundsWanted`
    /// rounds and both recorded intervals (long cells: concurrency, YCSB, lifecycle); else
    /// their rounds, paired when both ran the same number; else the repetitions of their one
    /// round. nil when either has no positive time.
    public func logRatio(to other: CellResult) -> LogRatio? {
        let mine = perRoundNanos ?? [], theirs = other.perRoundNanos ?? []
        if prefersIntervals || other.prefersIntervals, let a = intervalNanos, let b = other.intervalNanos, a.count >= 2, b.count >= 2 {
            return LogRatio(unpaired: a, over: b, numeratorFactor: intervalVarianceFactor, denominatorFactor: other.intervalVarianceFactor)
        }
        if mine.count == theirs.count, roundNanos != nil, other.roundNanos != nil {
            return LogRatio(paired: mine, over: theirs)
        }
        return LogRatio(unpaired: mine, over: theirs)
    }

    /// How much the correlation of consecutive intervals inflates the variance of their mean:
    /// (1 + ρ) ÷ (1 − ρ), ρ the lag-1 autocorrelation of their logarithms within each round
    /// (an AR(1) process; ρ kept within 0…0.9); 1 without intervals.
    var intervalVarianceFactor: Double {
        guard let xs = intervalNanos?.map({ log(max($0, 1e-9)) }), xs.count >= 4 else { return 1 }
        var products = 0.0, squares = 0.0, start = 0
        for n in intervalRounds ?? [xs.count] where n > 1 && start + n <= xs.count {
            let round = Array(xs[start..<start + n])
            let m = round.reduce(0, +) / Double(n)
            for j in 0..<n {
                squares += (round[j] - m) * (round[j] - m)
                if j > 0 { products += (round[j] - m) * (round[j - 1] - m) }
            }
            start += n
        }
        guard squares > 0 else { return 1 }
        let rho = min(0.9, max(0, products / squares))
        return (1 + rho) / (1 - rho)
    }

    /// A typical time per operation as the comparisons see it: the geometric mean of the
    /// samples `logRatio(to:)` uses (its per-interval times for a cell that ran few rounds and
    /// has them, else its rounds or repetitions), so the fastest by it is never slower than another by theirs.
    public var typicalNanos: Double? {
        let positive = comparisonSamples.filter { $0 > 0 }
        guard !positive.isEmpty else { return nil }
        return exp(positive.map(log).reduce(0, +) / Double(positive.count))
    }

    /// Whether this cell's per-interval times say more than its rounds: it ran fewer than
    /// `pairedRoundsWanted` rounds and recorded intervals.
    var prefersIntervals: Bool {
        (perRoundNanos?.count ?? 0) < Self.pairedRoundsWanted && (intervalNanos?.count ?? 0) >= 2
    }

    /// The times a comparison of this cell rests on: its intervals when it prefers them, else
    /// its rounds (or repetitions).
    var comparisonSamples: [Double] { prefersIntervals ? intervalNanos ?? [] : perRoundNanos ?? [] }

    /// Rounds below which a cell's per-interval times, when it has them, say more than its rounds.
    public static let pairedRoundsWanted = 5

    /// Time per operation of each round, or of each repetition when the cell ran in one round
    /// (or the median alone, when a file kept no samples).
    var perRoundNanos: [Double]? {
        if let r = roundNanos, !r.isEmpty { return r }
        guard let ops = operations, ops > 0, let s = samples, !s.isEmpty else { return nanosPerOperation.map { [$0] } }
        return s.map { $0 * 1e9 / Double(ops) }
    }
}
