import Foundation
import StoreConformance
import StoreCore

/// Everything one run measured: the JSON file `storebench run` writes beside its report, and
/// what `compare` and `report` read. The README documents the schema; `schemaVersion` changes
/// when a field changes meaning.
public struct RunResults: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion = RunResults.currentSchemaVersion
    public var generatedAt: Date
    public var command: String
    public var profile: String
    public var durability: Durability
    public var repetitions: Int
    /// Rounds each workload ran in (absent in files from before rounds: 1).
    public var rounds: Int?
    public var warmup: Int
    public var machine: MachineInfo
    public var runner: RunnerFacts
    public var datasets: [DatasetInfo]
    public var targets: [TargetInfo]
    public var workloads: [WorkloadInfo]
    public var cells: [CellResult]
    /// The conformance kit's results per backend: the report's feature matrix.
    public var conformance: [ConformanceReport]
    public var durationSeconds: Double
    /// Set when the run was interrupted (Ctrl-C): `cells` holds what ran before.
    public var interrupted: Bool?
    /// Cells the plan had; more than `cells.count` after an interruption.
    public var plannedCells: Int?

    /// The runner's own cost, measured at the start of the run.
    public struct RunnerFacts: Codable, Sendable, Hashable {
        public var clockReadingNanos: Double
        public var minimumSpanNanos: Double
        /// Nanoseconds the runner adds to each operation (an empty operation timed as a workload is).
        public var overheadNanosPerOperation: Double
    }

    public struct DatasetInfo: Codable, Sendable, Hashable {
        public var scale: String
        public var seed: UInt64
        public var checksum: String
        public var users: Int
        public var posts: Int
        public var comments: Int
        public var tags: Int
        public var rows: Int
        public var records: Int { users + posts + comments + tags }
    }

    public struct TargetInfo: Codable, Sendable, Hashable {
        public var name: String
        /// `backend` or `floor`.
        public var kind: String
        public var engine: String
        public var summary: String
    }

    public struct WorkloadInfo: Codable, Sendable, Hashable {
        public var name: String
        public var category: WorkloadCategory
        public var summary: String
        public var hasFloor: Bool
    }

    public init(generatedAt: Date, command: String, profile: String, durability: Durability, repetitions: Int, warmup: Int,
                machine: MachineInfo, runner: RunnerFacts, datasets: [DatasetInfo], targets: [TargetInfo],
                workloads: [WorkloadInfo], cells: [CellResult], conformance: [ConformanceReport], durationSeconds: Double,
                interrupted: Bool? = nil, plannedCells: Int? = nil, rounds: Int? = nil) {
        self.interrupted = interrupted
        self.rounds = rounds
        self.plannedCells = plannedCells
        self.generatedAt = generatedAt
        self.command = command
        self.profile = profile
        self.durability = durability
        self.repetitions = repetitions
        self.warmup = warmup
        self.machine = machine
        self.runner = runner
        self.datasets = datasets
        self.targets = targets
        self.workloads = workloads
        self.cells = cells
        self.conformance = conformance
        self.durationSeconds = durationSeconds
    }

    /// Reads a results file, with a clear error for a missing, foreign or newer file.
    public static func read(_ path: String) throws -> RunResults {
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("cannot read results file \(path)") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        struct Version: Decodable { var schemaVersion: Int? }
        guard let v = try? decoder.decode(Version.self, from: data), let version = v.schemaVersion else {
            throw BenchError("\(path) is not a storebench results file (no schemaVersion)")
        }
        guard version <= currentSchemaVersion else {
            throw BenchError("\(path) has results schema \(version); this storebench reads up to \(currentSchemaVersion)")
        }
        do {
            return try decoder.decode(RunResults.self, from: data)
        } catch {
            throw BenchError("\(path) is not a valid results file: \(error)")
        }
    }

    public func write(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(self).write(to: url, options: .atomic)
    }

    /// The cell of (target, workload, scale), if it ran.
    public func cell(_ target: String, _ workload: String, _ scale: String) -> CellResult? {
        cells.first { $0.target == target && $0.workload == workload && $0.scale == scale }
    }
}

/// One (target, workload, scale) cell of a run.
public struct CellResult: Codable, Sendable, Hashable {
    public enum Status: String, Codable, Sendable { case ok, failed, timeout, skipped }

    public var target: String
    /// `backend` or `floor`.
    public var kind: String
    public var engine: String
    public var workload: String
    public var category: WorkloadCategory
    public var scale: String
    public var status: Status
    /// Why a cell failed, timed out or was skipped.
    public var reason: String?
    /// The last lines the child printed, for a failed cell.
    public var outputTail: String?
    /// Operations per repetition.
    public var operations: Int?
    /// Timed spans per repetition: fewer than `operations` when short operations were timed in groups.
    public var spans: Int?
    /// Seconds of timed work of each measured repetition (of every round).
    public var samples: [Double]?
    /// Nanoseconds per operation of each round, in order, when the cell ran in several rounds.
    public var roundNanos: [Double]?
    public var medianSeconds: Double?
    public var minSeconds: Double?
    public var maxSeconds: Double?
    public var coefficientOfVariation: Double?
    public var operationsPerSecond: Double?
    /// Median seconds (over every repetition of every round) ÷ operations, in nanoseconds.
    public var nanosPerOperation: Double?
    /// Per-operation latency percentiles (nanoseconds) over all measured repetitions.
    public var latency: LatencySummary?
    public var peakResidentBytes: UInt64?
    public var diskBytes: UInt64?
    /// `nanosPerOperation` ÷ the same workload's on this backend's engine floor, same run
    /// (with rounds: the median of the per-round ratios).
    public var floorRatio: Double?
    public var metrics: [String: Double]
    public var wallSeconds: Double

    public var isOK: Bool { status == .ok }

    /// What the runner added to each operation of this cell, as a share of its time: the
    /// measured per-operation overhead plus one clock reading per timed span.
    public func runnerOverheadShare(_ runner: RunResults.RunnerFacts) -> Double? {
        guard let ns = nanosPerOperation, ns > 0, let ops = operations, ops > 0 else { return nil }
        let perOp = runner.overheadNanosPerOperation + runner.clockReadingNanos * Double(spans ?? ops) / Double(ops)
        return perOp / ns
    }
}
