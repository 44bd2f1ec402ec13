/// A cell's headline (nanoseconds per operation) over consecutive intervals of a measured
/// repetition: what gives a cell that runs only two or three rounds (threads, YCSB, churn) an
/// interval estimate from inside its repetitions. Each value means what the headline means
/// over its interval: time ÷ operations for a throughput or a sum of timed spans (`throughput`,
/// `phased`), the mean latency for paced operations (`SliceSums.means`).
///
/// ```swift
/// timer.record(intervals: Intervals.throughput(threadMarks))   // several threads' ProgressMarks
/// ```
public enum Intervals {
    /// How many intervals a repetition of `n` operations is cut into: 20, fewer when that
    /// would leave fewer than 4 operations in each, but at least 10 (at most `n`).
    public static func count(operations n: Int) -> Int { max(min(10, n), min(20, n / 4)) }

    /// Wall time ÷ operations over `count(operations:)` consecutive spans of about equal
    /// operation counts, from the progress marks of threads that ran at once (or of one): every
    /// thread's marks merged in time order, the spans starting at the earliest start.
    public static func throughput(_ threads: [ProgressMarks]) -> [Double] {
        guard let start = threads.map(\.start).min() else { return [] }
        let steps = threads.flatMap(\.steps).sorted { $0.time < $1.time }
        let total = steps.reduce(0) { $0 + $1.operations }
        guard total > 0 else { return [] }
        let k = count(operations: total)
        var out: [Double] = []
        out.reserveCapacity(k)
        var (done, since, last, cut) = (0, 0, start, 1)
        for step in steps {
            done += step.operations
            since += step.operations
            guard done * k >= cut * total, step.time > last else { continue }
            out.append(Double(step.time &- last) / Double(since))
            (since, last) = (0, step.time)
            while cut * total <= done * k { cut += 1 }
        }
        return out
    }

    /// Time ÷ operations over the shares of phases that ran one after another (churn's deletes,
    /// then updates, then inserts), interval `j` holding the `j`th share of every phase: each has
    /// the whole's mix, so its value is the headline (all the time ÷ all the operations) over a
    /// part of each phase, not the cost of whichever phase it fell in. One phase: its shares.
    public static func phased(_ phases: [ProgressMarks]) -> [Double] {
        let k = phases.map(\.intervals).max() ?? 0
        var nanos = [UInt64](repeating: 0, count: k), operations = [Int](repeating: 0, count: k)
        for phase in phases where phase.expected > 0 {
            var (last, done) = (phase.start, 0)
            for step in phase.steps {
                done += step.operations
                let slot = min(k - 1, max(0, (done * k - 1) / phase.expected))
                nanos[slot] &+= step.time &- last
                operations[slot] += step.operations
                last = step.time
            }
        }
        return zip(nanos, operations).filter { $0.1 > 0 }.map { Double($0.0) / Double($0.1) }
    }
}
