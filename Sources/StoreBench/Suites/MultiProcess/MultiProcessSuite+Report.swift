import Foundation
import StoreBenchKit

/// The report's multi-process section, from the `multiprocess.*` cells at the main scale.
extension ResultsView {
    static let processCounts = [1, 2, 4]

    func multiProcess() -> String {
        guard results.cells.contains(where: { $0.category == .multiprocess && $0.isOK }) else { return "" }
        var md = "## Several processes on one store\n\n"
        md += "Each process opens the store itself (`storebench peer`), as an app and its extension do, at the \(mainScale) scale, on a "
        md += "machine with \(results.machine.cores) cores. The operations are the concurrency section's: a random post by key, one read "
        md += "transaction each; two attributes of a random post, one write transaction each. Every process times each operation; the "
        md += "percentiles come from all processes' histograms merged, not from averaged percentiles. Backends run it only when they "
        md += "declare `multiProcess`. The workload tables' memory is the cell process's, which holds the store open beside the others; "
        md += "the other processes' allocations are not counted.\n\n"
        return md + processScaling() + processesBesideWriter() + writerProcesses()
    }

    private func processScaling() -> String {
        let name = { MultiProcessWorkloads.name("read", $0) }
        let rows = backends.compactMap { b -> (String, [Double?])? in
            let rates = Self.processCounts.map { okCell(b, name($0))?.operationsPerSecond }
            return rates.contains { $0 != nil } ? (b, rates) : nil
        }
        guard !rows.isEmpty else { return "" }
        var md = "### Reader processes\n\nReads per second of all reader processes together (each reads "
        md += "\(Format.count(parameter(MultiProcessSuite.Parameters.readsPerProcess, Self.processCounts.map(name)) ?? MultiProcessWorkloads.readsPerProcess)) "
        md += "random posts as fast as it can; no writer), and the speed-up over one process.\n\n"
        md += "| backend | " + Self.processCounts.map { "\($0) process\($0 == 1 ? "" : "es")" }.joined(separator: " | ") + " | 4 ÷ 1 |\n"
        md += "|---|" + Self.processCounts.map { _ in "---:|" }.joined() + "---:|\n"
        for (b, rates) in rows {
            let speedup = rates.first.flatMap { one in rates.last.flatMap { last in one.flatMap { o in last.map { $0 / o } } } }
            md += "| \(b) | " + rates.map { Format.rate($0) }.joined(separator: " | ") + " | \(Format.ratio(speedup)) |\n"
        }
        return md + "\n"
    }

    private func writerProcesses() -> String {
        let counts = Self.processCounts
        let names = counts.map { MultiProcessWorkloads.name("write", $0) }
        let rows = processRows(counts, names) { b, w, c in
            [Format.rate(c.operationsPerSecond)] + ["50", "99", "99.9"].map { Format.nanos(figure(LatencyFigures.percentile("writer", $0), b, w)) }
        }
        guard !rows.isEmpty else { return "" }
        var md = "### Writer processes\n\nEach process commits "
        md += "\(parameter(MultiProcessSuite.Parameters.commits, names) ?? MultiProcessWorkloads.commitsPerWriter) "
        md += "small updates as fast as it can; the engine lets one write at a time (SQLite's WAL write lock, LMDB's writer mutex), so more "
        md += "processes queue for it: the table shows what that does to each commit's latency and to the commits per second of all together.\n\n"
        md += "| backend | processes | commits per second, all | commit p50 | commit p99 | commit p99.9 |\n|---|---:|---:|---:|---:|---:|\n"
        return md + rows + "\n"
    }

    /// A row per backend and process count whose cell ran: backend, processes, then `columns`.
    private func processRows(_ counts: [Int], _ names: [String], _ columns: (String, String, CellResult) -> [String]) -> String {
        var md = ""
        for b in backends {
            for (n, w) in zip(counts, names) {
                guard let c = okCell(b, w) else { continue }
                md += "| \(b) | \(n) | " + columns(b, w, c).joined(separator: " | ") + " |\n"
            }
        }
        return md
    }

    private func processesBesideWriter() -> String {
        let counts = [2, 4]
        let names = counts.map { MultiProcessWorkloads.name("read-under-write", $0) }
        let p = LatencyFigures.percentile
        let rows = processRows(counts, names) { b, w, _ in
            [p("read", "50"), p("read", "99"), p("read", "99.9"), p("writer", "50"), p("writer", "99")].map { Format.nanos(figure($0, b, w)) }
                + [Format.rate(figure(MultiProcessSuite.Figures.commitsPerSecond, b, w))]
        }
        guard !rows.isEmpty else { return "" }
        var md = "### Readers beside a writer process\n\nOne writer process commits "
        md += "\(parameter(MultiProcessSuite.Parameters.commits, names) ?? MultiProcessWorkloads.commits) small updates as fast as it can; "
        md += "the other processes read random posts by key until it is done.\n\n"
        md += "| backend | processes | read p50 | read p99 | read p99.9 | commit p50 | commit p99 | commits per second |\n"
        md += "|---|---:|---:|---:|---:|---:|---:|---:|\n"
        return md + rows + "\n"
    }
}
