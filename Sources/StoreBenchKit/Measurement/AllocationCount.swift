import CBenchSupport

/// Allocation calls and requested bytes per operation of one repetition.
public struct AllocationCount: Codable, Sendable, Hashable {
    public var callsPerOperation: Double
    public var bytesPerOperation: Double

    public init(callsPerOperation: Double, bytesPerOperation: Double) {
        self.callsPerOperation = callsPerOperation
        self.bytesPerOperation = bytesPerOperation
    }
}

/// Allocations counted while a body ran.
public struct AllocationTally: Sendable, Hashable, CustomStringConvertible {
    public var calls: Int64
    public var bytes: Int64
    /// Calls made straight from libsqlite3 or liblmdb: what a C loop over the engine gets too.
    public var engineCalls: Int64
    /// Calls made by everything else (Swift, Foundation, this binary).
    public var otherCalls: Int64 { calls - engineCalls }

    public init(calls: Int64, bytes: Int64, engineCalls: Int64) {
        self.calls = calls
        self.bytes = bytes
        self.engineCalls = engineCalls
    }

    public static func - (a: AllocationTally, b: AllocationTally) -> AllocationTally {
        AllocationTally(calls: a.calls - b.calls, bytes: a.bytes - b.bytes, engineCalls: a.engineCalls - b.engineCalls)
    }

    public var description: String { "\(otherCalls) allocations (+\(engineCalls) by the engine), \(bytes) bytes" }
}

/// Counts allocation calls (malloc, calloc, realloc, the aligned allocators), their requested
/// bytes and which of them the engine libraries made, while a body runs, through the counting
/// allocator of `CBenchSupport`.
///
/// ```swift
/// let (_, tally) = AllocationCounter.counting(allThreads: false) { _ = [1, 2, 3].map { $0 * 2 } }
/// ```
/// Thread safety: `allThreads: false` counts the calling thread alone, so tests in parallel do
/// not see each other's; `true` counts every thread, one measurement at a time per process.
public enum AllocationCounter {
    /// False under a sanitizer, which brings its own allocator: counts are then unavailable.
    public static let isAvailable: Bool = sb_alloc_is_counting_allocator() != 0

    /// Runs `body` with counting on; returns its result and what it allocated.
    public static func counting<T>(allThreads: Bool = true, _ body: () throws -> T) rethrows -> (result: T, tally: AllocationTally) {
        sb_alloc_start(allThreads ? 1 : 0)
        let result: T
        do {
            result = try body()
        } catch {
            _ = sb_alloc_stop()
            throw error
        }
        let c = sb_alloc_stop()
        return (result, AllocationTally(calls: c.calls, bytes: c.bytes, engineCalls: c.engine_calls))
    }
}
