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

/// Counts the process's allocation calls (malloc, calloc, realloc, the aligned allocators) and
/// their requested bytes while a body runs, through the counting allocator of `CBenchSupport`.
///
/// ```swift
/// let (calls, bytes) = AllocationCounter.counting { _ = [1, 2, 3].map { $0 * 2 } }
/// ```
/// Thread safety: counts every thread's allocations; one measurement at a time per process.
public enum AllocationCounter {
    /// False when another allocator replaced malloc first (under valgrind, say): counts are then unavailable.
    public static let isAvailable: Bool = sb_alloc_is_counting_allocator() != 0

    /// Runs `body` with counting on; returns its result with the calls and bytes it allocated.
    public static func counting<T>(_ body: () throws -> T) rethrows -> (result: T, calls: Int64, bytes: Int64) {
        sb_alloc_reset()
        sb_alloc_counting(1)
        defer { sb_alloc_counting(0) }
        let result = try body()
        sb_alloc_counting(0)
        var calls: Int64 = 0, bytes: Int64 = 0
        sb_alloc_read(&calls, &bytes)
        return (result, calls, bytes)
    }
}
