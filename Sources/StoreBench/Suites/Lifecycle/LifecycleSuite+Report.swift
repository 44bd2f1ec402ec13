import Foundation
import StoreBenchKit

/// The report's "Storage over time" section, from the `lifecycle.*` cells: how long opening an
/// existing store takes (cold and warm, with the first query) at each scale, and the store's
/// size after the load, after churn and after compaction, with the compaction's cost.
extension ResultsView {
    func lifecycle() -> String {
        guard results.cells.contains(where: { $0.category == .lifecycle && $0.isOK }) else { return "" }
        var md = "## Storage over time\n\n"
        md += "What the per-operation cells do not show: how long opening an existing store blocks a launch, and what happens to the files "
        md += "as data churns. Sizes are of the closed store's files (apparent bytes, as `ls` shows them, all files of the store).\n\n"
        return md + openTimes() + sizeThroughChurn()
    }

    func openTimes() -> String {
        let cold = "lifecycle.open.cold", warm = "lifecycle.open.warm"
        typealias F = LifecycleSuite.Figures
        var md = ""
        for scale in scales {
            let shown = backends.filter { b in [cold, warm].contains { results.cell(b, $0, scale)?.isOK == true } }
            guard !shown.isEmpty else { continue }
            if md.isEmpty {
                md += "### Opening an existing store\n\n"
                md += "Each repetition closes a store that was just written, then opens it and fetches the 20 newest posts (what an app shows first). "
                md += "**Cold**: the store's pages are first evicted from the kernel's page cache (`posix_fadvise(DONTNEED)` after `fdatasync`; "
                md += "no root needed), and the share still cached afterwards is shown, so a cold figure that was not cold says so. "
                md += "**Warm**: every page of the store was read just before. Medians over the rounds.\n\n"
            }
            md += "\(scale) scale (\(datasetDescription(scale))):\n\n"
            md += "| backend | cold: open | cold: first result | cold: total | cached after drop | warm: open | warm: first result | warm: total |\n"
            md += "|---|---:|---:|---:|---:|---:|---:|---:|\n"
            for b in shown {
                let total = { (w: String) in results.cell(b, w, scale).flatMap { $0.isOK ? $0.nanosPerOperation : nil } }
                md += "| \(b) | \(Format.nanos(figure(F.open, b, cold, at: scale))) | \(Format.nanos(figure(F.firstResult, b, cold, at: scale))) "
                md += "| \(Format.nanos(total(cold))) | \(Format.percent(figure(F.cachedAfterDrop, b, cold, at: scale).map { $0 / 100 })) "
                md += "| \(Format.nanos(figure(F.open, b, warm, at: scale))) | \(Format.nanos(figure(F.firstResult, b, warm, at: scale))) | \(Format.nanos(total(warm))) |\n"
            }
            md += "\n"
        }
        return md.isEmpty ? "" : md + Self.whatOpenIncludes + "\n\n"
    }

    /// What "open" does on each engine, beside the open-time table.
    static let whatOpenIncludes = "What **open** includes: on SQLite (`sqlite`, `grdb` and `objectgraph+sqlite`), opening the file "
        + "(`sqlite3_open_v2`), switching to WAL and setting `synchronous`, and checking the stored schema against the declared one "
        + "in one transaction (GRDB also sets up its pool of writer and reader connections); on LMDB (`lmdb`, `objectgraph+lmdb`), "
        + "mapping the file and its lock file (`mdb_env_open`), then reading the stored schema from `sb_meta` and opening the named "
        + "databases in one transaction. The map is opened with `MDB_NORDAHEAD`: a page fault reads its page, not the kernel's 128 KiB "
        + "around it, so the cold first result reads only the pages it needs. **First result** is the query "
        + "`Post` sorted by `createdAt` descending, limit 20 (`storebench explain Post --sort createdAt:desc --limit 20`): SQLite walks "
        + "the `createdAt` index, ordering ties by `id` in a temporary B-tree; LMDB walks the index from its end, each key's posts by `id`."

    func sizeThroughChurn() -> String {
        let w = "lifecycle.churn"
        typealias F = LifecycleSuite.Figures
        let phases = [("after load", F.sizeLoad), ("after churn", F.sizeChurn), ("after compaction", F.sizeCompact)]
        let shown = backends.filter { results.cell($0, w, mainScale)?.isOK == true }
        guard !shown.isEmpty else { return "" }
        var md = "### File size through churn, and compaction\n\n"
        md += "At the \(mainScale) scale: the loaded store; then every second post deleted (its comments go with it), the body of every other post "
        md += "rewritten at twice its length and as many new posts inserted, \(Format.count(parameter(LifecycleSuite.Parameters.churnBatch, [w]) ?? LifecycleWorkloads.churnBatch)) writes per transaction, so the "
        md += "store holds as many posts as before; then the backend's compaction of the closed store (SQLite: `VACUUM` and a truncating "
        md += "checkpoint; LMDB: the compacting copy `mdb_env_copy2(MDB_CP_COMPACT)`, renamed over the data file). Peak disk use is sampled every 2 ms "
        md += "in the store's directory (SQLite's `VACUUM` also writes a temporary copy in the temporary directory, not counted).\n\n"
        let series = shown.compactMap { b -> (String, [Double])? in
            let v = phases.compactMap { figure($0.1, b, w) }
            return v.count == phases.count ? (b, v.map { $0 / 1_048_576 }) : nil
        }
        if !series.isEmpty {
            var chart = SVGChart(kind: .lines, title: "Store size after the load, after churn and after compaction",
                                 subtitle: "Workload lifecycle.churn at the \(mainScale) scale: apparent size of all the store's files, "
                                     + "closed. One measurement per backend: no interval.",
                                 yTitle: "Size of the store's files (MiB; lower is better)", xTitle: "Phase",
                                 xAxis: .categories(phases.map { [$0.0] }), valueAxis: .linear { Format.compactNumber($0) })
            chart.series = series.map { b, sizes in
                SVGChart.Series(name: b, style: chartStyles[b]!, points: sizes.enumerated().map { .init(x: Double($0.offset), value: $0.element) })
            }
            md += self.chart(chart, file: "lifecycle-size-through-churn")
        }
        md += "| backend | after load | after churn | churn ÷ load | after compaction | compaction ÷ load | compaction time | peak disk while compacting | delete | update | insert |\n"
        md += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for b in shown {
            let m = { (f: Figure) in figure(f, b, w) }
            let load = m(F.sizeLoad)
            let per = { (x: Double?) in x.flatMap { v in load.map { v / $0 } } }
            md += "| \(b) | \(Format.bytes(load)) | \(Format.bytes(m(F.sizeChurn))) | \(Format.ratio(per(m(F.sizeChurn)))) "
            md += "| \(Format.bytes(m(F.sizeCompact))) | \(Format.ratio(per(m(F.sizeCompact)))) | \(Format.nanos(m(F.compact))) "
            md += "| \(Format.bytes(m(F.compactPeak))) | " + F.phases.map { Format.nanos(m(F.phase($0))) }.joined(separator: " | ") + " |\n"
        }
        md += "\nDelete, update and insert are the time per write of each phase (a delete includes its cascade). A backend without compaction "
        md += "shows – after churn.\n\n"
        return md
    }

    /// "N posts" for the report's scale lines.
    private func datasetDescription(_ scale: String) -> String {
        guard let d = results.datasets.first(where: { $0.scale == scale }) else { return scale }
        return "\(Format.count(d.records)) records"
    }
}
