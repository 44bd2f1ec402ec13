import StoreBenchKit

extension CellResult {
    /// One result per (target, workload, scale) from results that may hold several rounds of
    /// it, in first-seen order. A cell's rounds pool into one: `roundNanos` keeps each round's
    /// time per operation and the time estimate is their median with its interval; `intervalNanos`
    /// are concatenated in round order (`intervalRounds` counts each round's); percentiles
    /// are the median of the rounds' (the maximum the maximum), as are the figures a workload reports; peak memory the largest, the
    /// counts those of the round that counted. A round that did not finish makes the whole cell
    /// report that round's status and reason.
    /// `figures` says how each figure pools (by name; the median where not declared).
    static func pooledRounds(_ results: [CellResult], figures: [String: Figure] = [:]) -> [CellResult] {
        var order: [CellKey] = []
        var groups: [CellKey: [CellResult]] = [:]
        for r in results {
            if groups[r.key] == nil { order.append(r.key) }
            groups[r.key, default: []].append(r)
        }
        return order.map { pooled(groups[$0]!, figures: figures) }
    }

    private static func pooled(_ rounds: [CellResult], figures: [String: Figure]) -> CellResult {
        var r = rounds.last!
        if r.parameters != nil { r.parameters?[Parameter.rounds.name] = String(rounds.count) }
        guard rounds.count > 1 else { return r }
        r.wallSeconds = rounds.reduce(0) { $0 + $1.wallSeconds }
        if let bad = rounds.first(where: { !$0.isOK }) {
            r.status = bad.status
            r.reason = bad.reason.map { "round \(rounds.firstIndex(of: bad)! + 1) of \(rounds.count): \($0)" }
            r.outputTail = bad.outputTail
            return r
        }
        r.setTiming(rounds.flatMap { $0.samples ?? [] }, rounds: rounds.map { $0.nanosPerOperation ?? 0 })
        if rounds.contains(where: { $0.intervalNanos != nil }) {
            r.intervalNanos = rounds.flatMap { $0.intervalNanos ?? [] }
            r.intervalRounds = rounds.map { $0.intervalNanos?.count ?? 0 }
        }
        let latencies = rounds.compactMap(\.latency)
        if latencies.count == rounds.count, !latencies.isEmpty {
            func mid(_ k: KeyPath<LatencySummary, UInt64>) -> UInt64 {
                latencies.map { $0[keyPath: k] }.sorted()[latencies.count / 2]
            }
            r.latency = LatencySummary(p50: mid(\.p50), p95: mid(\.p95), p99: mid(\.p99),
                                       max: latencies.map(\.max).max()!, samples: latencies.reduce(0) { $0 + $1.samples })
        }
        // Each figure a workload reported (percentiles of a writer thread, a load's rate), pooled as declared.
        var pooledFigures: [String: Double] = [:]
        for key in Set(rounds.flatMap(\.metrics.keys)) {
            let figure = figures[key] ?? Figure(key, .count)
            pooledFigures[key] = figure.pool(rounds.compactMap { $0.metrics[key] })
        }
        r.metrics = pooledFigures
        r.roundFigures = Dictionary(uniqueKeysWithValues: pooledFigures.keys.map { k in (k, rounds.compactMap { $0.metrics[k] }) })
        r.peakResidentBytes = rounds.compactMap(\.peakResidentBytes).max()
        r.allocations = rounds.lazy.compactMap(\.allocations).first
        r.instructionsPerOperation = rounds.lazy.compactMap(\.instructionsPerOperation).first
        let cpu = rounds.compactMap(\.cpuInstructionsPerOperation)
        r.cpuInstructionsPerOperation = cpu.isEmpty ? nil : Estimate(medianOf: cpu).value
        return r
    }

    /// Takes what a finished cell process measured (and, under callgrind, the instructions it
    /// counted in the measured repetitions).
    public mutating func record(_ outcome: CellOutcome, instructions: Int64? = nil) {
        operations = outcome.operations
        spans = outcome.spans
        setTiming(outcome.samples)
        latency = outcome.latency
        peakResidentBytes = outcome.peakResidentBytes
        diskBytes = outcome.diskBytes
        metrics = outcome.metrics.filter { $0.key != Figure.sink.name }
        if let recorded = outcome.parameters { parameters = (parameters ?? [:]).merging(recorded) { _, workload in workload } }
        allocations = outcome.allocations
        cpuInstructionsPerOperation = outcome.cpuInstructionsPerOperation
        intervalNanos = outcome.intervalNanos
        if let instructions, outcome.operations > 0 {
            instructionsPerOperation = Double(instructions) / Double(outcome.operations * max(1, outcome.samples.count))
        }
    }

    /// Sets the samples (seconds per repetition) and everything derived from them: median,
    /// min, max, CV, throughput, and the time per operation with its interval — over
    /// `rounds` (nanoseconds per operation of each round) when there are several, else over
    /// the repetitions. `operations` must be set first.
    mutating func setTiming(_ samples: [Double], rounds: [Double]? = nil) {
        let stats = SampleStatistics(samples.isEmpty ? [0] : samples)
        self.samples = samples
        medianSeconds = stats.median
        minSeconds = stats.min
        maxSeconds = stats.max
        coefficientOfVariation = stats.coefficientOfVariation
        guard let ops = operations, ops > 0, stats.median > 0 else { return }
        if let rounds, rounds.count > 1 {
            roundNanos = rounds
            time = Estimate(medianOf: rounds)
        } else {
            time = Estimate(medianOf: samples.map { $0 * 1e9 / Double(ops) })
        }
        nanosPerOperation = time!.value
        operationsPerSecond = 1e9 / time!.value
    }

    /// This cell's time per operation ÷ another's, with an interval. When both ran the same
    /// rounds, the median of the per-round ratios (drift between rounds cancels) and its
    /// order-statistic interval; otherwise the ratio of the medians, bounded by the ratios of
    /// the two intervals' ends.
    public func ratio(to other: CellResult) -> Estimate? {
        if let mine = roundNanos, let theirs = other.roundNanos, mine.count == theirs.count,
           !mine.isEmpty, !theirs.contains(where: { $0 <= 0 }) {
            return Estimate(medianOf: zip(mine, theirs).map { $0 / $1 })
        }
        guard let a = time, let b = other.time, b.value > 0, b.low > 0 else { return nil }
        return Estimate(value: a.value / b.value, low: a.low / b.high, high: a.high / b.low,
                        confidence: min(a.confidence, b.confidence))
    }
}
