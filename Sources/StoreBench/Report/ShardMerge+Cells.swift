import Foundation

extension ShardMerge {
    /// Problems of cells: planned but in no shard, in two shards, or not in the plan. Loads may
    /// repeat (each shard builds the stores its workloads copy).
    static func coverage(_ shards: [(Part, ShardInfo)], _ info: ShardInfo) -> [String] {
        let planned = Set(info.plannedCells)
        var owner: [CellKey: String] = [:], doubled: [String] = [], foreign: [String] = []
        for (p, _) in shards {
            for c in p.results.cells {
                if !planned.contains(c.key) {
                    foreign.append("`\(c.key)` (\(p.path))")
                } else if let other = owner[c.key] {
                    if !WorkloadRegistry.isLoader(c.workload) { doubled.append("`\(c.key)` (\(other) and \(p.path))") }
                } else {
                    owner[c.key] = p.path
                }
            }
        }
        let missing = info.plannedCells.filter { owner[$0] == nil }.map { "`\($0)`" }
        return [("planned cell(s) appear in no shard", missing), ("cell(s) appear in more than one shard", doubled),
                ("cell(s) are not in the plan", foreign)]
            .filter { !$0.1.isEmpty }.map { "\($0.1.count) \($0.0): \(sample($0.1))" }
    }

    /// The merged results: shard 1's settings, every cell once in plan order, each shard's record.
    static func joined(_ shards: [(Part, ShardInfo)], _ info: ShardInfo) -> RunResults {
        let order = Dictionary(info.plannedCells.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var chosen: [CellKey: CellResult] = [:]
        for (p, _) in shards {
            // A load several shards ran: the first, unless a later copy failed (its shard's cells then did not run).
            for c in p.results.cells where chosen[c.key].map({ $0.isOK && !c.isOK }) ?? true { chosen[c.key] = c }
        }
        var cells = Array(chosen.values)
        cells.sort { order[$0.key] ?? .max < order[$1.key] ?? .max }
        var out = shards[0].0.results
        out.cells = cells
        out.shard = nil
        out.shards = shards.map { p, s in
            ShardRecord(index: s.shard.index, machine: p.results.machine, workloads: s.assignment[s.shard.index - 1],
                        cells: p.results.cells.count, durationSeconds: p.results.durationSeconds, generatedAt: p.results.generatedAt)
        }
        let all = shards.map(\.0.results)
        out.generatedAt = all.map(\.generatedAt).min() ?? out.generatedAt
        out.durationSeconds = all.map(\.durationSeconds).max() ?? 0
        out.conformance = all.first { !$0.conformance.isEmpty }?.conformance ?? []
        out.extraRounds = all.compactMap(\.extraRounds).reduce(0, +)
        out.plannedCells = nil
        var targetIDs = Set<TargetID>()
        out.targets = all.flatMap(\.targets).filter { targetIDs.insert($0.id).inserted }
        out.command = out.command.replacingOccurrences(of: #"\s--(shard|out|json)[ =]\S+"#, with: "", options: .regularExpression)
        return out
    }

    private static func sample(_ items: [String]) -> String {
        items.prefix(8).joined(separator: ", ") + (items.count > 8 ? ", and \(items.count - 8) more" : "")
    }
}
