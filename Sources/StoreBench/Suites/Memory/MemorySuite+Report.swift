import Foundation
import StoreBenchKit

/// The memory suite's parts of the report: the smallest store and the least memory in "Which
/// backend?", the resident-memory chart, and the memory and disk tables.
extension ResultsView {
    func memoryAdvice() -> String {
        var md = ""
        let loads = backends.compactMap { b in results.cell(b, MemoryWorkloads.loadName, mainScale).flatMap { c in c.diskBytes.map { (b, Double($0)) } } }
        if let small = loads.min(by: { $0.1 < $1.1 }), let big = loads.max(by: { $0.1 < $1.1 }), loads.count > 1 {
            md += "- **Smallest on disk:** `\(small.0)` (\(Format.bytes(small.1)); the largest, `\(big.0)`, takes \(Format.ratio(big.1 / small.1)) as much).\n"
        }
        let walks = backends.compactMap { b in figure(MemorySuite.walkPeak, b, MemoryWorkloads.walkName).map { (b, $0) } }
        if let low = walks.min(by: { $0.1 < $1.1 }), walks.count > 1 {
            md += "- **Least memory while walking everything:** `\(low.0)` (\(MemorySuite.walkPeakMeaning): \(Format.bytes(low.1)); "
            md += walks.filter { $0.0 != low.0 }.map { "`\($0.0)` \(Format.bytes($0.1))" }.joined(separator: ", ") + ").\n"
        }
        return md
    }

    /// Resident memory after `memory.load`, bytes per record, at the main scale.
    func memoryChart() -> String {
        guard let d = results.datasets.first(where: { $0.scale == mainScale }), d.records > 0 else { return "" }
        let rows: [(backend: String, perRecord: Double, load: CellResult, walk: CellResult?)] = backends.compactMap { b in
            guard let load = results.cell(b, MemoryWorkloads.loadName, mainScale), load.isOK,
                  let resident = load.figure(MemorySuite.residentAfterLoad) else { return nil }
            return (b, resident / Double(d.records), load, results.cell(b, MemoryWorkloads.walkName, mainScale))
        }
        guard !rows.isEmpty else { return "" }
        var md = "### Memory\n\n"
        md += "Bars: the cell process's resident memory after `memory.load` loaded the \(mainScale) dataset "
        md += "(\(Format.count(d.records)) records), minus before the store opened, per record (lower is better). "
        md += "One measurement per backend, so no interval. LMDB's figure includes mapped file pages the kernel can drop "
        md += "(see Memory and disk).\n\n"
        let kib = (rows.map(\.perRecord).max() ?? 0) >= 10 * 1_024
        let unit = kib ? "KiB" : "bytes"
        md += barChart(title: "Resident memory after loading the \(mainScale) dataset, per record",
                       subtitle: "Workload memory.load: the cell process's resident memory after the load minus before the store "
                           + "opened, ÷ \(Format.count(d.records)) records. One measurement per backend: no interval.",
                       yTitle: "Resident memory per record (\(unit); lower is better)", file: "memory-per-record",
                       values: rows.map { ($0.backend, Estimate(value: max(0, $0.perRecord) / (kib ? 1_024 : 1), low: 0, high: 0, confidence: 0)) },
                       ratio: false, format: { v in kib ? Format.bytes(v * 1_024) : Format.bytes(v) })
        md += "| key | backend | resident after load per record | resident after load | walk peak | disk per record |\n"
        md += "|---|---|---:|---:|---:|---:|\n"
        for r in rows {
            let disk = r.load.diskBytes.map { Double($0) / Double(d.records) }
            md += "| \(chartKey(r.backend)) | \(r.backend) | \(Format.bytes(r.perRecord)) | "
            md += "\(Format.bytes(r.load.figure(MemorySuite.residentAfterLoad))) | "
            md += "\(Format.bytes(r.walk?.figure(MemorySuite.walkPeak))) | \(Format.bytes(disk)) |\n"
        }
        return md + "\n"
    }

    func memoryTables() -> String {
        var md = "## Memory and disk\n\n"
        md += "From `memory.load` (load the whole social dataset, then close) and `memory.walk` (read every record of every entity). "
        md += "Resident after load is the cell process's resident memory after the load minus before the store opened; the walk peak is "
        md += "\(MemorySuite.walkPeakMeaning) (the same figure \"Least memory\" and the seeds' claims use), walking lazily (`memory.walk`) or with each entity's results in an array first (`memory.walk-array`); disk is what the store's files "
        md += "occupy after closing. Both memory figures include the engine's cache: SQLite's page cache at its default size "
        md += "(2,000 KiB per connection), and for LMDB the mapped file pages the kernel can drop under pressure. The per-workload tables' "
        md += "\"process peak RSS\" is another quantity: the whole cell process's peak, generator and runner included.\n\n"
        for scale in scales {
            guard let d = results.datasets.first(where: { $0.scale == scale }) else { continue }
            md += "\(scale) scale (\(Format.count(d.records)) records):\n\n"
            md += "| backend | load | resident after load | per record in memory | walk peak | walk peak, array | disk | per record on disk |\n"
            md += "|---|---:|---:|---:|---:|---:|---:|---:|\n"
            for b in backends {
                let load = results.cell(b, MemoryWorkloads.loadName, scale)
                let walk = results.cell(b, MemoryWorkloads.walkName, scale)
                guard load != nil || walk != nil else { continue }
                let resident = load?.figure(MemorySuite.residentAfterLoad)
                md += "| \(b) | \(Format.rate(load?.operationsPerSecond)) | \(Format.bytes(resident)) | "
                let array = results.cell(b, MemoryWorkloads.walkArrayName, scale)
                md += "\(Format.bytes(resident.map { $0 / Double(d.records) })) | \(Format.bytes(walk?.figure(MemorySuite.walkPeak))) | "
                md += "\(Format.bytes(array?.figure(MemorySuite.walkPeak))) | "
                md += "\(Format.bytes(load?.diskBytes)) | \(Format.bytes(load?.diskBytes.map { Double($0) / Double(d.records) })) |\n"
            }
            md += "\n"
        }
        return md
    }
}
