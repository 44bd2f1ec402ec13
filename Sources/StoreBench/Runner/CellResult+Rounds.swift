extension CellResult {
    /// One result per (target, workload, scale) from results that may hold several rounds of
    /// it, in first-seen order. A cell's rounds pool into one: statistics over every
    /// repetition, percentiles as the median of the rounds' (the maximum as the maximum), the
    /// largest peak memory, and `roundNanos` keeping each round's time per operation. A round
    /// that did not finish makes the whole cell report that round's status and reason.
    static func pooledRounds(_ results: [CellResult]) -> [CellResult] {
        var order: [String] = []
        var groups: [String: [CellResult]] = [:]
        for r in results {
            let key = "\(r.target)\u{1}\(r.workload)\u{1}\(r.scale)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(r)
        }
        return order.map { pooled(groups[$0]!) }
    }

    private static func pooled(_ rounds: [CellResult]) -> CellResult {
        guard rounds.count > 1 else { return rounds[0] }
        var r = rounds.last!
        r.wallSeconds = rounds.reduce(0) { $0 + $1.wallSeconds }
        if let bad = rounds.first(where: { !$0.isOK }) {
            r.status = bad.status
            r.reason = bad.reason.map { "round \(rounds.firstIndex(of: bad)! + 1) of \(rounds.count): \($0)" }
            r.outputTail = bad.outputTail
            return r
        }
        let samples = rounds.flatMap { $0.samples ?? [] }
        if !samples.isEmpty { r.setTiming(samples) }
        r.roundNanos = rounds.map { $0.nanosPerOperation ?? 0 }
        let latencies = rounds.compactMap(\.latency)
        if latencies.count == rounds.count, !latencies.isEmpty {
            func mid(_ k: KeyPath<LatencySummary, UInt64>) -> UInt64 {
                latencies.map { $0[keyPath: k] }.sorted()[latencies.count / 2]
            }
            r.latency = LatencySummary(p50: mid(\.p50), p95: mid(\.p95), p99: mid(\.p99),
                                       max: latencies.map(\.max).max()!, samples: latencies.reduce(0) { $0 + $1.samples })
        }
        r.peakResidentBytes = rounds.compactMap(\.peakResidentBytes).max()
        return r
    }

    /// Sets the samples and everything derived from them: median, min, max, CV, throughput
    /// and time per operation (`operations` must be set first).
    mutating func setTiming(_ samples: [Double]) {
        let stats = SampleStatistics(samples.isEmpty ? [0] : samples)
        self.samples = samples
        medianSeconds = stats.median
        minSeconds = stats.min
        maxSeconds = stats.max
        coefficientOfVariation = stats.coefficientOfVariation
        if let ops = operations, ops > 0, stats.median > 0 {
            operationsPerSecond = Double(ops) / stats.median
            nanosPerOperation = stats.median * 1e9 / Double(ops)
        }
    }

    /// This cell's time per operation ÷ another's: the median of the per-round ratios when
    /// both ran the same rounds (drift between rounds then cancels), else the plain ratio.
    public func ratio(to other: CellResult) -> Double? {
        if let mine = roundNanos, let theirs = other.roundNanos, mine.count == theirs.count,
           !mine.isEmpty, !theirs.contains(where: { $0 <= 0 }) {
            return SampleStatistics(zip(mine, theirs).map { $0 / $1 }).median
        }
        guard let a = nanosPerOperation, let b = other.nanosPerOperation, b > 0 else { return nil }
        return a / b
    }
}
