import Histogram

/// Times the operations of one repetition and records per-operation latencies.
///
/// Workload bodies call `each` for operations they issue one by one and `unit` for a block
/// that counts as several operations (a transaction of many inserts, a bulk insert). When one
/// operation is shorter than `minimumSpan`, `each` times groups of operations and records
/// the group's mean for each of them, so the clock's own cost stays below about 1%.
///
/// ```swift
/// try timer.each(keys.count) { i in _ = try tx.fetch("Post", id: .int64(keys[i])) }
/// ```
/// A workload whose cells run only a few rounds also gives its time per operation over
/// consecutive intervals of the repetition (`intervalNanos`): from the marks the timer notes
/// at span ends once `markProgress` is called, or as it computed them (`record(intervals:)`).
///
/// Thread safety: one timer per repetition, used by one thread.
public final class OperationTimer {
    /// Operations timed so far.
    public private(set) var operations = 0
    /// Timed spans (a group or unit counts once).
    public private(set) var spans = 0
    /// Nanoseconds spent inside timed spans.
    public private(set) var elapsed: UInt64 = 0
    /// Per-operation latencies in nanoseconds.
    public private(set) var histogram = OperationTimer.emptyHistogram()
    /// Figures a workload reports beside the time (commit latency of a writer thread, bytes a
    /// store grew by): name → value, of the last measured repetition.
    public private(set) var metrics: [String: Double] = [:]
    /// Clock readings as the operations progress, once `markProgress` asked for them: `each`
    /// and `unit` note the end of their spans, `progress` marks inside a unit.
    @usableFromInline package var marks: ProgressMarks?
    /// The marks of earlier phases (each `markProgress` starts one).
    private var earlierMarks: [ProgressMarks] = []
    /// Intervals the workload computed itself (`record(intervals:)`).
    private var recordedIntervals: [Double]?
    /// Spans shorter than this are grown into groups.
    public let minimumSpan: UInt64
    /// The largest group `each` forms.
    @usableFromInline package static let maximumGroup = 4_096
    /// A warm-up repetition's budget in nanoseconds: once the timed spans add up to it, `each`
    /// stops issuing operations and `isSpent` turns true, so a cell whose repetition takes
    /// seconds warms up on its first operations instead of repeating them all. Nil (measured
    /// repetitions): every operation runs.
    public let budget: UInt64?

    /// True once a warm-up repetition has used its `budget`.
    @usableFromInline package var isSpent: Bool { budget.map { elapsed >= $0 } ?? false }

    public init(minimumSpan: UInt64, budget: UInt64? = nil) {
        self.minimumSpan = minimumSpan
        self.budget = budget
    }

    public static func emptyHistogram() -> Histogram<UInt64> {
        Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000_000, numberOfSignificantValueDigits: .three)
    }

    /// Runs `body(0..<count)`, timing single operations or groups of them (in a warm-up, until
    /// its `budget` is spent).
    @inlinable
    public func each(_ count: Int, _ body: (Int) throws -> Void) rethrows {
        var i = 0
        var group = 1
        while i < count && !isSpent {
            let n = min(group, count - i)
            let start = MonotonicClock.now()
            for k in i..<(i + n) { try body(k) }
            let end = MonotonicClock.now()
            let span = end &- start
            record(span, operations: n)
            marks?.note(operations, at: end)
            if span < minimumSpan && group < Self.maximumGroup {
                group = min(Self.maximumGroup, group * 2)
            }
            i += n
        }
    }

    /// Runs `body` once and counts it as `operations` operations of equal length.
    @discardableResult
    @inlinable
    public func unit<T>(operations n: Int, _ body: () throws -> T) rethrows -> T {
        let start = MonotonicClock.now()
        let result = try body()
        let end = MonotonicClock.now()
        record(end &- start, operations: n)
        marks?.note(operations, at: end)
        return result
    }

    /// Runs `body` on each part, timed as one span of `part.count` operations (a transaction of
    /// many); in a warm-up, until its `budget` is spent.
    ///
    /// ```swift
    /// try timer.units(chunks) { part in try repo.write { tx in try tx.insert(contentsOf: part) } }
    /// ```
    @inlinable
    public func units<Part: Collection>(_ parts: [Part], _ body: (Part) throws -> Void) rethrows {
        for part in parts where !isSpent {
            try unit(operations: part.count) { try body(part) }
        }
    }

    /// `units` over `0..<count` in consecutive ranges of `size` (the last may be shorter),
    /// allocating nothing: the floors' batched loops run on it.
    @inlinable
    public func batches(_ count: Int, of size: Int, _ body: (Range<Int>) throws -> Void) rethrows {
        var start = 0
        while start < count && !isSpent {
            let range = start..<min(count, start + size)
            try unit(operations: range.count) { try body(range) }
            start = range.upperBound
        }
    }

    /// Counts `n` operations that ran on other threads, with their per-operation latencies.
    /// `total` is the nanoseconds the report divides by `n`: the wall time of a throughput
    /// measurement (time per operation = 1 ÷ throughput), or the sum of the latencies of paced
    /// operations (time per operation = their mean latency).
    public func record(total: UInt64, operations n: Int, latencies: Histogram<UInt64>) {
        guard n > 0 else { return }
        elapsed &+= total
        operations += n
        spans += 1
        histogram.add(latencies)
    }

    /// Starts noting progress for `intervalNanos` over the next `n` operations timed by `each`
    /// and `unit` (a mark every 20th of them, into a buffer allocated now: then a comparison
    /// per span). Called again, it starts another phase (`Intervals.phased`).
    public func markProgress(expecting n: Int) {
        if let marks { earlierMarks.append(marks) }
        marks = ProgressMarks(expecting: n, after: operations)
    }

    /// A `unit` of `n` operations that reports its progress: `body` calls `step(done)` after each
    /// of them, so marks fall inside it (a transaction of a thousand writes still gets its
    /// intervals), and the time after the last (the commit) is shared by its marks in proportion
    /// to their operations, as the histogram shares a unit's span. Costs a comparison per
    /// operation and a clock reading per mark, and one more at the last step.
    ///
    /// ```swift
    /// try timer.unit(operations: part.count) { step in try repo.write { tx in for (k, r) in part.enumerated() { try tx.insert(r); step(k + 1) } } }
    /// ```
    @discardableResult
    @inlinable
    public func unit<T>(operations n: Int, steps body: ((Int) -> Void) throws -> T) rethrows -> T {
        let first = marks?.marks.count ?? 0
        var last: UInt64 = 0
        let start = MonotonicClock.now()
        let result = try body { done in
            guard marks != nil else { return }
            if done >= n {
                last = MonotonicClock.now()
            } else if marks!.isDue(operations + done) {
                marks!.note(operations + done, at: MonotonicClock.now())
            }
        }
        let end = MonotonicClock.now()
        record(end &- start, operations: n)
        if last > 0 { marks?.spread(end &- min(last, end), after: first, over: (operations - n)..<operations) }
        marks?.note(operations, at: end)
        return result
    }

    /// Records the intervals a workload computed itself (several threads' marks merged, a
    /// paced loop's slices), in place of the timer's own marks.
    public func record(intervals: [Double]) { recordedIntervals = intervals }

    /// The headline over consecutive intervals of this repetition (`Intervals`): recorded, or
    /// from this timer's marks; nil when the workload asked for neither.
    public var intervalNanos: [Double]? { recordedIntervals ?? marks.map { Intervals.phased(earlierMarks + [$0]) } }

    /// Reports a figure beside the time (see `metrics`).
    public func report(_ figure: Figure, _ value: Double) { metrics[figure.name] = value }

    /// Adds a span the caller measured with `MonotonicClock.now()`, shared by `n` operations
    /// (a statement whose row count is known only afterwards, a floor's own loop).
    public func record(_ span: UInt64, operations n: Int) {
        guard n > 0 else { return }
        elapsed &+= span
        operations += n
        spans += 1
        _ = histogram.record(max(1, span / UInt64(n)), count: UInt64(n))
    }
}
