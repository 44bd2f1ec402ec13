import Foundation
import StoreBenchKit

extension ResultsView {
    /// "Which backend?", its use-case groups: per group, the backends in tiers that follow the
    /// intervals, computed from this run's numbers.
    func useCaseGroups() -> String {
        var md = "Per use case, at the \(mainScale) scale: each backend's geometric mean, over the use case's workloads, of its time per "
        md += "operation ÷ the fastest backend's (1.00× means fastest on every one). A tier's members are equivalent (≈) or undecided (?) "
        md += "against its leader, with their paired estimate against the leader over the same workloads (and its interval) in brackets; every backend of a later tier is decidedly "
        md += "slower than the leader before it.\n\n"
        for useCase in useCases {
            let ws = comparedWorkloads.filter { $0.useCases?.contains(useCase) == true }.map(\.name)
            md += useCaseLine(useCase, ws)
        }
        return md + "\n"
    }

    /// The use cases the run's workloads count in, in rank order.
    var useCases: [UseCase] {
        Set(comparedWorkloads.flatMap { $0.useCases ?? [] }).sorted { ($0.rank, $0.id) < ($1.rank, $1.id) }
    }

    /// The ranking of `workloads` at the main scale.
    func ranking(_ workloads: [String]) -> GroupRanking {
        var cellsByWorkload: [String: [CellResult]] = [:]
        for w in workloads { cellsByWorkload[w] = cells(w, mainScale) }
        return GroupRanking(cellsByWorkload, backends: backends, rule: decisionRule)
    }

    private func useCaseLine(_ useCase: UseCase, _ ws: [String]) -> String {
        let ranking = ranking(ws)
        guard !ranking.tiers.isEmpty else { return "" }
        func entry(_ e: GroupRanking.Entry, leads: Bool) -> String {
            let sign = leads ? "" : e.versusLeader?.outcome == .equivalent ? "≈ " : "? "
            return sign + "`\(e.backend)` \(Format.ratio(e.score))" + (e.versusLeader.map { " [\(Format.ratio($0.ratio))]" } ?? "")
        }
        let tiers = ranking.tiers.enumerated().map { i, tier in
            "\(i + 1). " + tier.enumerated().map { entry($1, leads: $0 == 0) }.joined(separator: ", ")
        }
        return "- **\(useCase.title)** (\(ranking.workloads) of \(ws.count) workloads, those every backend measured): " + tiers.joined(separator: " · ") + "\n"
    }

    /// "Which backend?", its closing notes: closeness to the engine, conformance failures, what
    /// object graphs add.
    func adviceNotes() -> String {
        var md = ""
        let floorRatios = backends.compactMap { b -> (String, Double)? in
            let rs = results.cells.filter { $0.target == .backend(b) && $0.scale == mainScale }.compactMap { $0.floorRatio?.value }
            return Format.geometricMean(rs).map { (b, $0) }
        }.sorted { $0.1 < $1.1 }
        if !floorRatios.isEmpty {
            md += "- **Closest to its engine:** " + floorRatios.map { "`\($0.0)` \(Format.ratio($0.1)) its floor" }.joined(separator: ", ") + " (geometric mean over the workloads with a floor).\n"
        }
        for r in results.conformance where r.failed > 0 {
            md += "- **Caution:** `\(r.backend)` failed \(r.failed) conformance case(s): \(r.failures.prefix(3).map { "`\($0.id)`" }.joined(separator: ", ")). Its numbers may not be for the same semantics.\n"
        }
        let graphs = backends.filter { $0.hasPrefix("objectgraph") }
        if !graphs.isEmpty {
            md += "- **Object graphs** (\(graphs.map { "`\($0)`" }.joined(separator: ", "))) add an identity map, faults, change tracking and observation: pick one when the app needs those, and read the ratio to its store above as their price.\n"
        }
        return md + "\n"
    }
}
