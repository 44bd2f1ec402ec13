import Foundation
import StoreCore
import StoreBenchKit

/// What one `storebench run` measures and how.
public struct RunPlan: Sendable {
    public var backends: [BackendDescriptor]
    /// The floor and reference programs available; the plan runs those whose engine or
    /// checked target it measures (`selectedPrograms`).
    public var programs: [FloorProgram] = Floors.builtin
    public var workloads: [Workload]
    public var scales: [String]
    /// Measured repetitions per cell and round.
    public var repetitions: Int
    public var warmup: Int
    /// How many times the cells of one workload run in turn across the targets; each result
    /// pools its rounds and its ratios are medians of per-round ratios, with intervals.
    public var rounds = 1
    /// A workload with a comparison not yet decided at the largest scale gets more rounds, up to this many.
    public var maxRounds = 1
    /// The equivalence margin decisions use (`DecisionRule`).
    public var margin = DecisionRule.defaultMargin
    /// Seconds the extra rounds may take over the whole run.
    public var extraRoundsBudget: Double = 0
    public var durability: Durability
    /// How the workloads that pick random keys draw them (`--distribution`).
    public var distribution = KeyDistribution.uniform
    /// Seconds a cell may take before it is stopped.
    public var cellTimeout: Double
    public var fixtures: URL
    public var profile: String
    /// Also run the bare C-API floors of the backends' engines and the reference programs.
    public var includeFloors = true
    /// Run the conformance kit for the report's feature matrix.
    public var runConformance = true
    /// Count allocations in one extra repetition of each cell's first round.
    public var countAllocations = true
    public var measure = MeasureMode.time
    /// The command line, as the report prints it.
    public var command = "storebench run"
    /// What each backend supports, by name, when known (the runner opens each once to ask):
    /// a workload that `requires` more is not run on it.
    public var backendCapabilities: [String: Capabilities] = [:]
    /// The part of the plan this run measures, when split across machines (`--shard`).
    public var shard: ShardSpec?
    /// Expected seconds per workload, from an earlier run's cells: what shards balance.
    public var expectedSeconds: [String: Double] = [:]
    /// Where `expectedSeconds` came from, as shard results record it.
    public var balanceSource = "cell counts"
    /// The workloads of this run's shard (set by the runner once capabilities are known).
    var shardMembers: Set<String>?

    public init(backends: [BackendDescriptor], workloads: [Workload], scales: [String], repetitions: Int, warmup: Int,
                durability: Durability, cellTimeout: Double, fixtures: URL, profile: String) {
        self.backends = backends
        self.workloads = workloads
        self.scales = scales
        self.repetitions = repetitions
        self.warmup = warmup
        self.durability = durability
        self.cellTimeout = cellTimeout
        self.fixtures = fixtures
        self.profile = profile
    }

    /// The programs this plan runs: the floors of the selected backends' engines, then the
    /// references whose checked target runs.
    public var selectedPrograms: [FloorProgram] {
        guard includeFloors, workloads.contains(where: { $0.hasFloor && !$0.loadsDataset }) else { return [] }
        let engines = Set(backends.map(\.engine))
        let floors = programs.filter { $0.id.kind == .floor && engines.contains($0.engine) }
        let measured = Set(backends.map { TargetID.backend($0.name) } + floors.map(\.id))
        let names = Set(workloads.map(\.name))
        return floors + programs.filter { p in
            p.id.kind == .reference && p.checks.map(measured.contains) == true && p.workloads.map { !$0.isDisjoint(with: names) } != false
        }
    }

    /// Every target in report order: backends, floors, references.
    public var targets: [TargetID] { backends.map { .backend($0.name) } + selectedPrograms.map(\.id) }

    /// The workloads measured round after round (not the loads that build stores).
    var measuredWorkloads: [Workload] { workloads.filter { w in !w.loadsDataset && shardMembers?.contains(w.name) != false } }

    /// Whether `target` runs `workload`: a backend runs everything, a program what it implements.
    func runs(_ workload: Workload, on target: TargetID) -> Bool {
        guard !target.isBackend else {
            return backendCapabilities[target.name].map { $0.isSuperset(of: workload.requires) } ?? true
        }
        return selectedPrograms.first { $0.id == target }?.runs(workload) ?? false
    }

    /// One cell of the plan: a target measured on a workload at a scale, in one round.
    struct Cell {
        let target: TargetID
        let workload: Workload
        let scale: String
        let round: Int
        var key: CellKey { CellKey(target, workload.name, scale) }
    }

    /// The loads of a scale: per target, one per dataset its workloads copy (and the loads
    /// selected by name).
    func loads(_ scale: String) -> [Cell] {
        targets.flatMap { target -> [Cell] in
            let chosen = measuredWorkloads.filter { runs($0, on: target) && runs($0, at: scale) }
            return [DatasetKind.social, .rows].compactMap { kind in
                let loader = WorkloadRegistry.loader(of: kind)!
                let needed = chosen.contains { $0.dataset == kind }
                    || workloads.contains { $0.loadsDataset && $0.dataset == kind && runs(loader, on: target) && (shard?.index ?? 1) == 1 }
                return needed && runs(loader, on: target) ? Cell(target: target, workload: loader, scale: scale, round: 0) : nil
            }
        }
    }

    /// Whether `workload` runs at `scale` (see `Workload.largestScaleOnly`).
    func runs(_ workload: Workload, at scale: String) -> Bool {
        !workload.largestScaleOnly || scale == scales.last
    }

    /// The rounds `workload` runs before any extra one, and at most.
    func rounds(of workload: Workload) -> (planned: Int, most: Int) {
        let cap = workload.maxRounds ?? Int.max
        let planned = max(1, min(rounds, cap))
        return (planned, max(planned, min(maxRounds, cap)))
    }

    /// One round of a workload: every target that runs it, back to back.
    func round(_ round: Int, of workload: Workload, _ scale: String) -> [Cell] {
        guard round < rounds(of: workload).most, runs(workload, at: scale) else { return [] }
        return targets.filter { runs(workload, on: $0) }.map { Cell(target: $0, workload: workload, scale: scale, round: round) }
    }

    /// The cells in run order, before any extra round. Per scale: first each target's loads
    /// (which build the stores the other cells copy), then workload by workload, every target
    /// back to back, round after round, so that the machine's drift over a long run hits the
    /// backends and floors of one workload alike.
    func cells() -> [Cell] {
        scales.flatMap { scale in
            loads(scale) + measuredWorkloads.flatMap { w in (0..<rounds(of: w).planned).flatMap { round($0, of: w, scale) } }
        }
    }

    /// The rule the runner decides with while it adds rounds: the report's margin, and about
    /// as many comparisons as the report will decide (each backend against the fastest in
    /// every compared workload at the largest scale, and a few more for use cases and claims).
    var decisionRule: DecisionRule {
        let compared = workloads.filter { !$0.loadsDataset && $0.isCompared }.count    // the whole plan's, shard or not
        return DecisionRule(margin: margin, comparisons: max(1, backends.count - 1) * (compared + 10))
    }
}
