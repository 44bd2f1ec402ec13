#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds from the monotonic clock, and what one reading costs.
public enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start.
    @inlinable @inline(__always) public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// The median cost of one reading, measured now (tens of nanoseconds through the vDSO).
    public static func readingCost(samples: Int = 2_000) -> UInt64 {
        var costs: [UInt64] = []
        costs.reserveCapacity(samples)
        for _ in 0..<samples {
            let a = now()
            for _ in 0..<16 { _ = now() }
            costs.append((now() - a) / 17)
        }
        costs.sort()
        return max(1, costs[costs.count / 2])
    }
}
