import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// Everything one run measured: the JSON file `storebench run` writes beside its report, and
/// what `compare` and `report` read. Documentation/Workloads.md documents the schema; `schemaVersion` changes
/// when a field changes meaning.
public struct RunResults: Codable, Sendable {
    /// 3: each cell's parameters, each workload's use cases, the figures' declarations; later,
    /// optional and so still 3: `intervalNanos` and `intervalRounds` of cells that record them.
    /// 2: typed targets (`{"kind", "name"}`), estimates with intervals, allocation and
    /// instruction counts. Files of schemas 1 and 2 are still read (`Suites.completing` fills
    /// in what they did not record).
    public static let currentSchemaVersion = 3

    public var schemaVersion = RunResults.currentSchemaVersion
    public var generatedAt: Date
    public var command: String
    public var profile: String
    public var durability: Durability
    public var repetitions: Int
    /// Rounds each workload ran in (absent in files from before rounds: 1); a workload whose
    /// cells stayed noisy may have run more, up to `maxRounds`.
    public var rounds: Int?
    public var maxRounds: Int?
    /// What the cells measured: `time` (the default) or `instructions` (under callgrind).
    public var measure: MeasureMode?
    /// How random keys were drawn, when not uniform (`--distribution`).
    public var distribution: KeyDistribution?
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
    /// Set when the run was interrupted (Ctrl-C, SIGTERM, SIGHUP): `cells` holds what ran before.
    public var interrupted: Bool?
    /// The signal that interrupted the run (`SIGINT`, `SIGTERM`, `SIGHUP`).
    public var interruptedBy: String?
    /// Cells the plan had; more than `cells.count` after an interruption.
    public var plannedCells: Int?
    /// Rounds added to noisy workloads beyond `rounds`, over the whole run.
    public var extraRounds: Int?
    /// The equivalence margin the run decided with (`--margin`; nil: `DecisionRule.defaultMargin`).
    public var margin: Double?
    /// The seeds' claims the run's suites test (`SeedClaim`); nil in files from before them.
    public var claims: [SeedClaim]?
    /// The declarations of the figures the cells report (schema 3).
    public var figures: [Figure]?
    /// Set in one shard's results (`run --shard`): what `merge` checks.
    public var shard: ShardInfo?
    /// Set in merged results (`storebench merge`): each shard's machine, workloads and time.
    public var shards: [ShardRecord]?

    /// The runner's own cost, measured at the start of the run.
    public struct RunnerFacts: Codable, Sendable, Hashable {
        public var clockReadingNanos: Double
        public var minimumSpanNanos: Double
        /// Nanoseconds the runner adds to each operation (an empty operation timed as a workload is).
        public var overheadNanosPerOperation: Double
        /// Whether cells counted allocations, and whether the CPU's instruction counter is offered (or why not).
        public var allocationCounting: Bool?
        public var hardwareCounters: String?

        public init(clockReadingNanos: Double, minimumSpanNanos: Double, overheadNanosPerOperation: Double,
                    allocationCounting: Bool? = nil, hardwareCounters: String? = nil) {
            self.clockReadingNanos = clockReadingNanos
            self.minimumSpanNanos = minimumSpanNanos
            self.overheadNanosPerOperation = overheadNanosPerOperation
            self.allocationCounting = allocationCounting
            self.hardwareCounters = hardwareCounters
        }
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
        public var id: TargetID
        public var engine: String
        public var summary: String
        /// For a reference program: the target whose cost it checks (that target's time ÷ this one's).
        public var checks: TargetID?

        public init(id: TargetID, engine: String, summary: String, checks: TargetID? = nil) {
            self.id = id
            self.engine = engine
            self.summary = summary
            self.checks = checks
        }

        private enum Keys: String, CodingKey { case id, engine, summary, checks, name }

        /// Reads schema 2, or schema 1's `name` (+ `kind`) spelling.
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            if c.contains(.id) {
                id = try c.decode(TargetID.self, forKey: .id)
            } else {
                id = TargetID.legacy(try c.decode(String.self, forKey: .name))
            }
            engine = try c.decode(String.self, forKey: .engine)
            summary = try c.decode(String.self, forKey: .summary)
            checks = try c.decodeIfPresent(TargetID.self, forKey: .checks)
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(id, forKey: .id)
            try c.encode(engine, forKey: .engine)
            try c.encode(summary, forKey: .summary)
            try c.encodeIfPresent(checks, forKey: .checks)
        }
    }

    public struct WorkloadInfo: Codable, Sendable, Hashable {
        public var name: String
        public var category: WorkloadCategory
        public var summary: String
        public var hasFloor: Bool
        /// The "Which backend?" groups it counts in (schema 3).
        public var useCases: [UseCase]?
        /// Compared across backends in summaries (schema 3; false for a load that only builds a store).
        public var compared: Bool?
        /// Charted across scales (schema 3).
        public var acrossScales: Bool?

        public init(name: String, category: WorkloadCategory, summary: String, hasFloor: Bool,
                    useCases: [UseCase]? = nil, compared: Bool? = nil, acrossScales: Bool? = nil) {
            self.name = name
            self.category = category
            self.summary = summary
            self.hasFloor = hasFloor
            self.useCases = useCases
            self.compared = compared
            self.acrossScales = acrossScales
        }
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
        let data = try FileAccess.read(path)
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
        try FileAccess.write(try encoder.encode(self), to: path)
    }

    /// The cell of (target, workload, scale), if it ran.
    public func cell(_ key: CellKey) -> CellResult? { cells.first { $0.key == key } }

    public func cell(_ target: TargetID, _ workload: String, _ scale: String) -> CellResult? {
        cell(CellKey(target, workload, scale))
    }

    /// A backend's cell.
    public func cell(_ backend: String, _ workload: String, _ scale: String) -> CellResult? {
        cell(CellKey(.backend(backend), workload, scale))
    }

    public func workload(_ name: String) -> WorkloadInfo? { workloads.first { $0.name == name } }
}

/// One (target, workload, scale) cell of a run.
public struct CellResult: Codable, Sendable, Hashable {
    public enum Status: String, Codable, Sendable { case ok, failed, timeout, skipped }

    public var target: TargetID
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
    /// Nanoseconds per operation over consecutive intervals of each measured repetition, every
    /// round's in order (workloads that run few rounds: concurrency, YCSB, lifecycle), each on
    /// the scale of `nanosPerOperation`: an interval estimate from within the repetitions.
    public var intervalNanos: [Double]?
    /// How many of `intervalNanos` each round gave, when the cell ran in several rounds.
    public var intervalRounds: [Int]?
    /// Each figure's value in each round, when the cell ran several (`metrics` holds them pooled).
    public var roundFigures: [String: [Double]]?
    public var medianSeconds: Double?
    public var minSeconds: Double?
    public var maxSeconds: Double?
    public var coefficientOfVariation: Double?
    public var operationsPerSecond: Double?
    /// Nanoseconds per operation: the median over rounds (over repetitions when the cell
    /// ran in one round), the number every table prints.
    public var nanosPerOperation: Double?
    /// `nanosPerOperation` with its confidence interval.
    public var time: Estimate?
    /// Per-operation latency percentiles (nanoseconds) over all measured repetitions.
    public var latency: LatencySummary?
    public var peakResidentBytes: UInt64?
    public var diskBytes: UInt64?
    /// This backend's time ÷ its engine floor's on the same workload and scale, same run: the
    /// median of the per-round ratios, with its interval. For a reference program: the time of
    /// the target it checks ÷ its own.
    public var floorRatio: Estimate?
    /// Allocation calls and requested bytes per operation, from one extra repetition counted
    /// in the cell's first round (deterministic for a build; nil when not counted).
    public var allocations: AllocationCount?
    /// Instructions per operation, counted by callgrind (`run --measure instructions`).
    public var instructionsPerOperation: Double?
    /// Instructions per operation from the CPU's counter (perf_event_open), where the kernel offers it.
    public var cpuInstructionsPerOperation: Double?
    /// The figures the workload reported, by `Figure.name`.
    public var metrics: [String: Double]
    /// The settings the cell ran with, by `Parameter.name` (schema 3).
    public var parameters: [String: String]?
    public var wallSeconds: Double

    public init(target: TargetID, engine: String, workload: String, category: WorkloadCategory, scale: String,
                status: Status, reason: String? = nil, metrics: [String: Double] = [:], wallSeconds: Double = 0) {
        self.target = target
        self.engine = engine
        self.workload = workload
        self.category = category
        self.scale = scale
        self.status = status
        self.reason = reason
        self.metrics = metrics
        self.wallSeconds = wallSeconds
    }

    public var isOK: Bool { status == .ok }

    /// A figure the workload reported.
    public func figure(_ figure: Figure) -> Double? { metrics[figure.name] }

    /// A parameter the cell ran with.
    public func parameter(_ parameter: Parameter) -> String? { parameters?[parameter.name] }
    public var key: CellKey { CellKey(target, workload, scale) }
    public var isBackend: Bool { target.isBackend }

    /// What the runner added to each operation of this cell, as a share of its time: the
    /// measured per-operation overhead plus one clock reading per timed span.
    public func runnerOverheadShare(_ runner: RunResults.RunnerFacts) -> Double? {
        guard let ns = nanosPerOperation, ns > 0, let ops = operations, ops > 0 else { return nil }
        let perOp = runner.overheadNanosPerOperation + runner.clockReadingNanos * Double(spans ?? ops) / Double(ops)
        return perOp / ns
    }
}
