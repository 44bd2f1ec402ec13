import Foundation
import Histogram

/// Runs operations at a fixed target rate and measures each one's latency from the moment it
/// was due, not from the moment it started, so a stall cannot hide the delay it causes to the
/// operations queued behind it (coordinated omission, as YCSB and HdrHistogram describe it).
///
/// Operation `i` is due at `start + i × interval`. The loop sleeps until an operation is due;
/// when it is behind, it runs the next one at once. `latency` is completion − due time;
/// `service` is completion − actual start, what a naive timer reports.
///
/// ```swift
/// var loop = PacedLoop(interval: 1_000_000)          // 1,000 commits per second
/// try loop.run(operations: 5_000) { try store.write { … } }
/// loop.latency.valueAtPercentile(99.9)               // ns, from each commit's due time
/// loop.latencySlices.means                           // mean latency of each 20th of the commits
/// ```
///
/// `clock` and `sleep` default to the monotonic clock and `nanosleep`; tests pass a virtual
/// clock. Not thread-safe: one loop per thread.
public struct PacedLoop {
    public let interval: UInt64
    /// Latency from each operation's due time (ns).
    public private(set) var latency = OperationTimer.emptyHistogram()
    /// Latency from each operation's actual start (ns).
    public private(set) var service = OperationTimer.emptyHistogram()
    /// Operations that started later than due.
    public private(set) var late = 0
    /// `latency` and `service` summed in consecutive slices of the last `run`'s operations:
    /// the mean of each slice is the headline of a paced cell over that slice.
    public private(set) var latencySlices = SliceSums(operations: 0)
    public private(set) var serviceSlices = SliceSums(operations: 0)

    private let clock: () -> UInt64
    private let sleep: (UInt64) -> Void

    /// - Parameter interval: nanoseconds between due times (1e9 ÷ the target rate); at least 1.
    public init(interval: UInt64, clock: @escaping () -> UInt64 = MonotonicClock.now,
                sleep: @escaping (UInt64) -> Void = PacedLoop.sleepNanoseconds) {
        self.interval = max(interval, 1)
        self.clock = clock
        self.sleep = sleep
    }

    /// Runs `body` `operations` times on the schedule; stops at the first error, which it
    /// rethrows.
    public mutating func run(operations: Int, _ body: () throws -> Void) rethrows {
        latencySlices = SliceSums(operations: operations)
        serviceSlices = SliceSums(operations: operations)
        let start = clock()
        for i in 0..<operations {
            let due = start &+ UInt64(i) &* interval
            var now = clock()
            if now < due {
                sleep(due - now)
                now = clock()
            } else if now > due {
                late += 1
            }
            try body()
            let end = clock()
            let fromDue = end - min(due, end), fromStart = end - min(now, end)
            latency.record(fromDue)
            service.record(fromStart)
            latencySlices.add(fromDue, at: i)
            serviceSlices.add(fromStart, at: i)
        }
    }

    public static func sleepNanoseconds(_ ns: UInt64) {
        var request = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
