import Foundation

/// What a shard's results record so that `storebench merge` can check its parts belong together.
public struct ShardInfo: Codable, Sendable, Hashable {
    public var shard: ShardSpec
    /// A digest of the whole plan: settings and every planned cell (`RunPlan.fingerprint`).
    public var planFingerprint: String
    public var build: BuildIdentity
    /// The results file whose times balanced the shards, or `cell counts`.
    public var balancedBy: String
    /// Every shard's workloads, as this shard dealt them.
    public var assignment: [[String]]
    /// Every (target, workload, scale) of the whole plan, loads included.
    public var plannedCells: [CellKey]

    public init(shard: ShardSpec, planFingerprint: String, build: BuildIdentity, balancedBy: String,
                assignment: [[String]], plannedCells: [CellKey]) {
        self.shard = shard
        self.planFingerprint = planFingerprint
        self.build = build
        self.balancedBy = balancedBy
        self.assignment = assignment
        self.plannedCells = plannedCells
    }
}

/// One shard of merged results: where and how long it ran, and what.
public struct ShardRecord: Codable, Sendable, Hashable {
    public var index: Int
    public var machine: MachineInfo
    public var workloads: [String]
    public var cells: Int
    public var durationSeconds: Double
    public var generatedAt: Date
}
