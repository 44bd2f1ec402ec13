import Foundation
import StoreBenchKit

extension ResultsView {
    /// "Which backend?", its use-case groups: per group, the backends in tiers, computed from
    /// this run's numbers with their evidence.
    func useCaseGroups() -> String {
        var md = "## Which backend?\n\n"
        md += "Computed from this run at the \(mainScale) scale: per backend, the geometric mean of its time per operation ÷ the fastest "
        md += "backend's over the group's workloads (1.00× means fastest on every one). Backends in one tier are statistical ties: "
        md += "a paired bootstrap over rounds (1,000 resamples) puts their score ÷ the tier leader's within 95% reach of 1, shown in brackets.\n\n"
        for useCase in useCases {
            let ws = comparedWorkloads.filter { $0.useCases?.contains(useCase) == true }.map(\.name)
            md += useCaseLine(useCase, ws)
        }
        return md
    }

    /// The use cases the run's workloads count in, in rank order.
    var useCases: [UseCase] {
        Set(comparedWorkloads.flatMap { $0.useCases ?? [] }).sorted { ($0.rank, $0.id) < ($1.rank, $1.id) }
    }

    private func useCaseLine(_ useCase: UseCase, _ ws: [String]) -> String {
        var cellsByWorkload: [String: [CellResult]] = [:]
        for w in ws { cellsByWorkload[w] = cells(w, mainScale) }
        let ranking = GroupRanking(cellsByWorkload, backends: backends)
        guard let first = ranking.tiers.first else { return "" }
        func entry(_ e: GroupRanking.Entry) -> String {
            "`\(e.backend)` \(Format.ratio(e.score))" + (e.versusLeader.map { " [\(Format.ratio($0))]" } ?? "")
        }
        var md = "- **\(useCase.title)** (\(ws.count) workloads): "
        md += first.count == 1 ? "`\(first[0].backend)` (\(Format.ratio(first[0].score)))" : "tie: " + first.map(entry).joined(separator: ", ")
        let later = ranking.tiers.dropFirst()
        if !later.isEmpty { md += "; then " + later.map { $0.map(entry).joined(separator: " ≈ ") }.joined(separator: "; ") }
        return md + ".\n"
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
