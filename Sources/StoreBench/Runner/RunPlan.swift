import Foundation
import StoreCore

/// What one `storebench run` measures and how.
public struct RunPlan: Sendable {
    public var backends: [BackendDescriptor]
    public var workloads: [Workload]
    public var scales: [String]
    /// Measured repetitions per cell and round.
    public var repetitions: Int
    public var warmup: Int
    /// How many times the cells of one workload run in turn across the targets; each backend's
    /// result is then pooled over the rounds and its ratios are medians of per-round ratios.
    public var rounds = 1
    public var durability: Durability
    /// Seconds a cell may take before it is stopped.
    public var cellTimeout: Double
    public var fixtures: URL
    public var profile: String
    /// Also run the bare C-API floors of the backends' engines.
    public var includeFloors = true
    /// Run the conformance kit for the report's feature matrix.
    public var runConformance = true
    /// The command line, as the report prints it.
    public var command = "storebench run"

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

    /// The floor targets this plan runs: one per engine of a selected backend that has a floor.
    var floorTargets: [String] {
        guard includeFloors, workloads.contains(where: { $0.hasFloor && !$0.loadsDataset }) else { return [] }
        let engines = Set(backends.map(\.engine))
        return Floors.engines.filter(engines.contains).map { CellSpec.floorPrefix + $0 }
    }

    /// One cell of the plan: a target measured on a workload at a scale, in one round.
    typealias Cell = (target: String, workload: Workload, scale: String, round: Int)

    /// The cells in run order. Per scale: first each target's loads (which build the stores the
    /// other cells copy), then workload by workload, every target back to back, round after
    /// round, so that the machine's drift over a long run hits the backends and floors of one
    /// workload alike.
    func cells() -> [Cell] {
        var out: [Cell] = []
        let targets = backends.map(\.name) + floorTargets
        func runs(_ w: Workload, on target: String) -> Bool { !target.hasPrefix(CellSpec.floorPrefix) || w.hasFloor }
        for scale in scales {
            for target in targets {
                let chosen = workloads.filter { runs($0, on: target) && !$0.loadsDataset }
                for kind in [DatasetKind.social, .rows] where chosen.contains(where: { $0.dataset == kind })
                    || workloads.contains(where: { $0.loadsDataset && $0.dataset == kind && !target.hasPrefix(CellSpec.floorPrefix) }) {
                    out.append((target, WorkloadRegistry.loader(of: kind), scale, 0))
                }
            }
            for w in workloads where !w.loadsDataset {
                for round in 0..<max(1, rounds) {
                    for target in targets where runs(w, on: target) { out.append((target, w, scale, round)) }
                }
            }
        }
        return out
    }
}
