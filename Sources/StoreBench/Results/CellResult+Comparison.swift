import StoreBenchKit

extension CellResult {
    /// This cell's time per operation ÷ `other`'s on the log scale, from the evidence both hold:
    /// their per-interval times when either ran fewer than `CellResult.pairedRoundsWanted`
    /// rounds and both recorded intervals (long cells: concurrency, YCSB, lifecycle); else
    /// their rounds, paired when both ran the same number; else the repetitions of their one
    /// round. nil when either has no positive time.
    public func logRatio(to other: CellResult) -> LogRatio? {
        let mine = perRoundNanos ?? [], theirs = other.perRoundNanos ?? []
        if min(mine.count, theirs.count) < Self.pairedRoundsWanted,
           let a = intervalNanos, let b = other.intervalNanos, a.count >= 2, b.count >= 2 {
            return LogRatio(unpaired: a, over: b)
        }
        if mine.count == theirs.count, roundNanos != nil, other.roundNanos != nil {
            return LogRatio(paired: mine, over: theirs)
        }
        return LogRatio(unpaired: mine, over: theirs)
    }

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
