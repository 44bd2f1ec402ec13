/// Clock readings as one thread's operations progress: its start, then one each time the count
/// reaches the next of `intervals` equal shares of the operations expected (`Intervals.count`),
/// into a buffer reserved up front. A measured loop pays a comparison per span and a few stores
/// per mark, with a clock reading it already took: no allocation, no lock.
///
/// ```swift
/// var marks = ProgressMarks(expecting: keys.count)
/// for (i, k) in keys.enumerated() { …; marks.note(i + 1, at: end) }   // `end`: the operation's own clock reading
/// Intervals.throughput([marks])
/// ```
/// Not thread-safe: one per thread.
public struct ProgressMarks: Sendable {
    /// When the operations started (ns, `MonotonicClock`).
    public let start: UInt64
    /// The operations expected, and the shares they are cut into.
    public let expected: Int
    public let intervals: Int
    /// The count the caller's numbers start from (a timer's operations before it marked).
    @usableFromInline let base: Int
    /// The count (from `base`'s caller) at which the next mark is due.
    @usableFromInline private(set) var next: Int
    /// Operations since `base` and the clock at each mark.
    public private(set) var marks: [(operations: Int, time: UInt64)] = []

    /// Marks for `n` operations counted from `base`, starting now (or at `start`).
    public init(expecting n: Int, after base: Int = 0, start: UInt64 = MonotonicClock.now()) {
        self.start = start
        self.base = base
        expected = max(0, n)
        intervals = max(1, Intervals.count(operations: expected))
        next = base + max(1, expected / intervals)
        marks.reserveCapacity(intervals + 2)
    }

    /// True when count `done` reaches the next mark: read the clock and `note` it.
    @inlinable @inline(__always)
    public func isDue(_ done: Int) -> Bool { done >= next }

    /// Notes that `done` operations (counted from `base`) had ended at `time`, when a mark is due.
    @inlinable @inline(__always)
    public mutating func note(_ done: Int, at time: UInt64) {
        if done >= next { add(done, time) }
    }

    /// Keeps a mark; the next is due at the next share's end (share `j` ends at `j × expected ÷
    /// intervals`, and past the expected count every `expected ÷ intervals` operations).
    @usableFromInline mutating func add(_ done: Int, _ time: UInt64) {
        let since = done - base
        marks.append((since, time))
        var j = expected == 0 ? 1 : since * intervals / expected + 1
        while j * expected / intervals <= since && j <= intervals { j += 1 }
        next = base + (j <= intervals ? j * expected / intervals : since + max(1, expected / intervals))
    }

    /// Shares `nanos` that followed the operations `range` (counted as `note` counts them; a
    /// commit after a transaction's writes) among the marks from index `first` taken inside it,
    /// in proportion to the operations before each: as if each operation carried its share.
    @usableFromInline mutating func spread(_ nanos: UInt64, after first: Int, over range: Range<Int>) {
        guard first < marks.count, !range.isEmpty else { return }
        for i in first..<marks.count {
            let done = base + marks[i].operations
            guard done > range.lowerBound, done < range.upperBound else { continue }
            let share = Double(done - range.lowerBound) / Double(range.count)
            marks[i].time &+= UInt64((Double(nanos) * share).rounded())
        }
    }

    /// Each mark's time and the operations since the previous mark (or the start).
    public var steps: [(time: UInt64, operations: Int)] {
        var previous = 0
        return marks.map { m in
            defer { previous = m.operations }
            return (m.time, m.operations - previous)
        }
    }
}
