/// Per-operation times summed in consecutive slices of a run of known length (operation `i` of
/// `n` falls in slice `i × k ÷ n`, `k = Intervals.count(operations: n)`), in arrays allocated
/// up front: the mean latency of each slice of a paced loop, whose headline is the mean.
///
/// ```swift
/// var slices = SliceSums(operations: n)
/// for i in 0..<n { …; slices.add(latency, at: i) }
/// slices.means   // ns per operation of each slice
/// ```
public struct SliceSums: Sendable, Hashable {
    /// Nanoseconds summed in each slice.
    public private(set) var nanos: [UInt64]
    /// Operations counted in each slice.
    public private(set) var operations: [Int]
    /// The run's length the slices divide.
    public let total: Int

    public init(operations n: Int) {
        total = max(0, n)
        let k = total == 0 ? 0 : Intervals.count(operations: total)
        nanos = Array(repeating: 0, count: k)
        operations = Array(repeating: 0, count: k)
    }

    /// Adds operation `i`'s time.
    public mutating func add(_ ns: UInt64, at i: Int) {
        guard total > 0 else { return }
        let slot = min(nanos.count - 1, max(0, i) * nanos.count / total)
        nanos[slot] &+= ns
        operations[slot] += 1
    }

    /// Adds another run's slices of the same length slice by slice (threads on one schedule).
    public mutating func merge(_ other: SliceSums) {
        precondition(other.total == total, "slices of runs of \(other.total) and \(total) operations do not line up")
        for s in nanos.indices {
            nanos[s] &+= other.nanos[s]
            operations[s] += other.operations[s]
        }
    }

    /// The mean time per operation of each slice that holds operations.
    public var means: [Double] {
        zip(nanos, operations).filter { $0.1 > 0 }.map { Double($0.0) / Double($0.1) }
    }
}
