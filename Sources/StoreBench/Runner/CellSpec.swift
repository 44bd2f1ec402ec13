import Foundation
import StoreCore
import StoreBenchKit

/// One (target, workload, scale) cell as the parent hands it to a child process.
public struct CellSpec: Codable, Sendable, Hashable {
    public var target: TargetID
    public var workload: String
    /// The file the workload is built from, for one defined by a file (`--ycsb FILE`).
    public var workloadFile: String?
    /// The workload's family: its suite builds a workload defined by a file.
    public var category: WorkloadCategory?
    public var scale: String
    public var fixtures: String
    /// The loaded store this cell copies; a load cell writes it.
    public var template: String
    /// A scratch directory that belongs to this cell.
    public var work: String
    public var repetitions: Int
    public var warmup: Int
    public var durability: Durability
    /// How the workloads that pick random keys draw them.
    public var distribution = KeyDistribution.uniform
    /// Spans shorter than this many nanoseconds are timed in groups.
    public var minimumSpan: UInt64
    /// Where the child writes its `CellOutcome` as JSON.
    public var outcome: String
    /// Run one more repetition after the measured ones with allocations counted.
    public var countAllocations = false
    /// Time (the default), or instructions under callgrind: only the measured repetitions run
    /// inside `sb_measured_region`, which callgrind is told to count.
    public var measure = MeasureMode.time
    /// The runner's process id: the cell asks the kernel to kill it when that process dies.
    public var runnerPID: Int32?
    /// The runner's executable, which multi-process workloads start as `storebench peer`.
    public var executable: String?
}
