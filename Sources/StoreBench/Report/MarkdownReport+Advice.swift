import Foundation

extension MarkdownReport {
    /// "Which backend?": recommendations computed from this run's numbers, each with its evidence.
    func advice() -> String {
        var md = "## Which backend?\n\n"
        md += "Computed from this run at the \(mainScale) scale: per backend, the geometric mean of its time per operation ÷ the fastest "
        md += "backend's over the group's workloads (1.00× means fastest on every one). Backends in one tier are statistical ties: "
        md += "a paired bootstrap over rounds (1,000 resamples) puts their score ÷ the tier leader's within 95% reach of 1, shown in brackets.\n\n"
        let groups: [(String, (RunResults.WorkloadInfo) -> Bool)] = [
            ("Overall (one thread)", { $0.category != .concurrency && $0.category != .ycsb }),
            ("Mostly reads (reads by key, queries, scans)", { $0.category == .query || $0.name.hasPrefix("crud.read") || $0.name == "rows.fetch" }),
            ("Mostly writes (inserts, updates, deletes, upserts, batches)", { ($0.category == .crud && !$0.name.hasPrefix("crud.read")) || $0.category == .batch || $0.name == "rows.insert" }),
            ("Many small transactions (one operation each)", { $0.name.hasSuffix(".single") }),
            ("Schema upgrades (migrate.*: time per migrated user)", { $0.category == .migrate }),
            ("Concurrent reads and writes (reader threads, paced readers beside a writer, a long reader)",
             { $0.category == .concurrency && !$0.name.hasPrefix("concurrency.observe") }),
            ("YCSB core workloads (run-phase throughput)", { $0.category == .ycsb }),
        ]
        for (title, include) in groups {
            let ws = comparedWorkloads.filter(include).map(\.name)
            var cellsByWorkload: [String: [CellResult]] = [:]
            for w in ws { cellsByWorkload[w] = cells(w, mainScale) }
            let ranking = GroupRanking(cellsByWorkload, backends: backends)
            guard let first = ranking.tiers.first else { continue }
            func entry(_ e: GroupRanking.Entry) -> String {
                "`\(e.backend)` \(Format.ratio(e.score))" + (e.versusLeader.map { " [\(Format.ratio($0))]" } ?? "")
            }
            md += "- **\(title)** (\(ws.count) workloads): "
            md += first.count == 1 ? "`\(first[0].backend)` (\(Format.ratio(first[0].score)))" : "tie: " + first.map(entry).joined(separator: ", ")
            let later = ranking.tiers.dropFirst()
            if !later.isEmpty { md += "; then " + later.map { $0.map(entry).joined(separator: " ≈ ") }.joined(separator: "; ") }
            md += ".\n"
        }
        md += launchBlocking()
        let loads = backends.compactMap { b in results.cell(b, "memory.load", mainScale).flatMap { c in c.diskBytes.map { (b, Double($0)) } } }
        if let small = loads.min(by: { $0.1 < $1.1 }), let big = loads.max(by: { $0.1 < $1.1 }), loads.count > 1 {
            md += "- **Smallest on disk:** `\(small.0)` (\(Format.bytes(small.1)); the largest, `\(big.0)`, takes \(Format.ratio(big.1 / small.1)) as much).\n"
        }
        let walks = backends.compactMap { b in results.cell(b, "memory.walk", mainScale)?.peakResidentBytes.map { (b, Double($0)) } }
        if let low = walks.min(by: { $0.1 < $1.1 }), walks.count > 1 {
            md += "- **Least memory while walking everything:** `\(low.0)` (peak resident \(Format.bytes(low.1)) for the whole cell process).\n"
        }
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

    /// How long opening the store with a new version blocks (a launch, in an app), per
    /// backend: the time of `migrate.transform`, the seeds' full-name example, at each scale.
    func launchBlocking() -> String {
        let scaled = results.datasets.filter { scales.contains($0.scale) }.sorted { $0.users < $1.users }
        var parts: [String] = []
        for b in backends {
            let times = scaled.compactMap { d -> String? in
                guard let c = results.cell(b, "migrate.transform", d.scale), c.isOK, let perUser = c.nanosPerOperation else { return nil }
                return "\(Format.nanos(perUser * Double(d.users))) at \(d.scale) (\(d.users.formatted()) users)"
            }
            if !times.isEmpty { parts.append("`\(b)` " + times.joined(separator: ", ")) }
        }
        guard !parts.isEmpty else { return "" }
        return "- **A launch that upgrades the store** (`migrate.transform`: opening it with version 2 runs a transform of every user) blocks for: "
            + parts.joined(separator: "; ") + ".\n"
    }
}
