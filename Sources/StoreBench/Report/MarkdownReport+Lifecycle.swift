import Foundation

/// The report's "Storage over time" section, from the `lifecycle.*` cells: how long opening an
/// existing store takes (cold and warm, with the first query) at each scale, and the store's
/// size after the load, after churn and after compaction, with the compaction's cost.
extension MarkdownReport {
    func lifecycle() -> String {
        guard results.cells.contains(where: { $0.category == .lifecycle && $0.isOK }) else { return "" }
        var md = "## Storage over time\n\n"
        md += "What the per-operation cells do not show: how long opening an existing store blocks a launch, and what happens to the files "
        md += "as data churns. Sizes are of the closed store's files (apparent bytes, as `ls` shows them, all files of the store).\n\n"
        return md + openTimes() + sizeThroughChurn()
    }

    func openTimes() -> String {
        let cold = "lifecycle.open.cold", warm = "lifecycle.open.warm"
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
                md += "| \(b) | \(Format.nanos(metric(b, cold, "open ns", at: scale))) | \(Format.nanos(metric(b, cold, "first result ns", at: scale))) "
                md += "| \(Format.nanos(total(cold))) | \(Format.percent(metric(b, cold, "cached after drop %", at: scale).map { $0 / 100 })) "
                md += "| \(Format.nanos(metric(b, warm, "open ns", at: scale))) | \(Format.nanos(metric(b, warm, "first result ns", at: scale))) | \(Format.nanos(total(warm))) |\n"
            }
            md += "\n"
        }
        return md
    }

    func sizeThroughChurn() -> String {
        let w = "lifecycle.churn"
        let phases = [("after load", "size load bytes"), ("after churn", "size churn bytes"), ("after compaction", "size compact bytes")]
        let shown = backends.filter { results.cell($0, w, mainScale)?.isOK == true }
        guard !shown.isEmpty else { return "" }
        var md = "### File size through churn, and compaction\n\n"
        md += "At the \(mainScale) scale: the loaded store; then every second post deleted (its comments go with it), the body of every other post "
        md += "rewritten at twice its length and as many new posts inserted, \(Format.count(LifecycleWorkloads.churnBatch)) writes per transaction, so the "
        md += "store holds as many posts as before; then the backend's compaction of the closed store (SQLite: `VACUUM` and a truncating "
        md += "checkpoint; LMDB: the compacting copy `mdb_env_copy2(MDB_CP_COMPACT)`, renamed over the data file). Peak disk use is sampled every 2 ms "
        md += "in the store's directory (SQLite's `VACUUM` also writes a temporary copy in the temporary directory, not counted).\n\n"
        let series = shown.compactMap { b -> (String, [Double])? in
            let v = phases.compactMap { metric(b, w, $0.1) }
            return v.count == phases.count ? (b, v.map { $0 / 1_048_576 }) : nil
        }
        if !series.isEmpty {
            let axis = ChartAxis(seriesMaxima: series.map { $0.1.max() ?? 0 })
            var chart = MermaidXYChart(title: "Store size through the phases (\(mainScale) scale)", xLabels: phases.map(\.0),
                                       yTitle: "MiB, apparent size of the files (lower is better)", yTop: axis.top)
            chart.series = series.map { .init(kind: .line, values: $0.1.map { min($0, axis.top) }, color: chartColors[$0.0]!) }
            md += legend(series.map(\.0), kind: "Line colours") + "\n\n" + chart.render() + "\n"
        }
        md += "| backend | after load | after churn | churn ÷ load | after compaction | compaction ÷ load | compaction time | peak disk while compacting | delete | update | insert |\n"
        md += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for b in shown {
            let m = { (name: String) in metric(b, w, name) }
            let load = m("size load bytes")
            let per = { (x: Double?) in x.flatMap { v in load.map { v / $0 } } }
            md += "| \(b) | \(Format.bytes(load)) | \(Format.bytes(m("size churn bytes"))) | \(Format.ratio(per(m("size churn bytes")))) "
            md += "| \(Format.bytes(m("size compact bytes"))) | \(Format.ratio(per(m("size compact bytes")))) | \(Format.nanos(m("compact ns"))) "
            md += "| \(Format.bytes(m("compact peak bytes"))) | \(Format.nanos(m("delete ns/op"))) | \(Format.nanos(m("update ns/op"))) | \(Format.nanos(m("insert ns/op"))) |\n"
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
