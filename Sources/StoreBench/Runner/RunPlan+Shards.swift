import Foundation
import StoreBenchKit
import StoreCore

extension RunPlan {
    /// The measured workloads dealt to `count` shards, each shard's in plan order: the longest
    /// expected first, each to the shard with the least expected time so far (ties to the
    /// lower shard), so every machine that runs the same plan deals the same hands.
    public func shardAssignment(count: Int) -> [[String]] {
        let all = workloads.filter { !$0.loadsDataset }
        let order = Dictionary(all.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        let byCost = all.map { ($0.name, expectedSeconds(of: $0)) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        var hands = Array(repeating: [String](), count: count), load = Array(repeating: 0.0, count: count)
        for (name, cost) in byCost {
            let i = load.indices.min { load[$0] != load[$1] ? load[$0] < load[$1] : $0 < $1 }!
            hands[i].append(name)
            load[i] += cost
        }
        return hands.map { $0.sorted { order[$0]! < order[$1]! } }
    }

    /// What a workload is expected to take: its seconds in the balancing results, else two
    /// seconds per planned cell (every scale, target and planned round).
    func expectedSeconds(of w: Workload) -> Double {
        if let s = expectedSeconds[w.name] { return s }
        let cells = scales.filter { runs(w, at: $0) }.count * targets.filter { runs(w, on: $0) }.count
        return Double(cells * rounds(of: w).planned) * 2
    }

    /// Every (target, workload, scale) the plan measures, loads first per scale, in run order.
    var plannedKeys: [CellKey] {
        var seen = Set<CellKey>()
        return cells().map(\.key).filter { seen.insert($0).inserted }
    }

    /// A digest of what the plan measures and how: shards of one plan share it.
    func fingerprint(_ keys: [CellKey]) -> String {
        var sum = DatasetChecksum()
        let settings = [profile, scales.joined(separator: ","), workloads.map(\.name).joined(separator: ","),
                        "\(repetitions) \(warmup) \(rounds) \(maxRounds) \(margin) \(extraRoundsBudget) \(cellTimeout)",
                        "\(durability.rawValue) \(distribution.rawValue) \(measure.rawValue)",
                        "\(countAllocations) \(includeFloors) \(runConformance)"]
        for s in settings + keys.map(\.description) { sum.add(.string(s)) }
        return sum.hex
    }

    /// The extra rounds' budget of this run: the plan's, shared out evenly among shards.
    var shardExtraRoundsBudget: Double { extraRoundsBudget / Double(shard?.count ?? 1) }

    /// Expected seconds per workload from an earlier run's cells at `scales` (each cell's wall
    /// time, every round): what `shardAssignment` balances.
    public static func expectedSeconds(from results: RunResults, scales: [String]) -> [String: Double] {
        var out: [String: Double] = [:]
        for c in results.cells where scales.contains(c.scale) { out[c.workload, default: 0] += c.wallSeconds }
        return out
    }
}
