import Foundation
import StoreBenchKit

/// What a cell measured, written by the child and read by the parent.
public struct CellOutcome: Codable, Sendable, Hashable {
    /// Seconds of timed work in each measured repetition.
    public var samples: [Double]
    /// Operations in one repetition.
    public var operations: Int
    /// Timed spans in one repetition (each costs one clock reading).
    public var spans: Int
    public var latency: LatencySummary
    public var peakResidentBytes: UInt64?
    public var diskBytes: UInt64?
    public var metrics: [String: Double]
    /// The parameters the workload recorded (`WorkloadContext.record`).
    public var parameters: [String: String]?
    /// From the extra counted repetition, when the spec asked for it and the allocator counts.
    public var allocations: AllocationCount?
    /// The CPU's instructions per operation over the measured repetitions, where offered.
    public var cpuInstructionsPerOperation: Double?
    /// Nanoseconds per operation over consecutive intervals of each measured repetition, in
    /// order (`OperationTimer.intervalNanos`), from workloads that record them.
    public var intervalNanos: [Double]? = nil
}
