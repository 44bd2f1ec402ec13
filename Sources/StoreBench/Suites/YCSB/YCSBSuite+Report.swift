import Foundation
import StoreBenchKit

/// The report's YCSB section: per workload, each backend's run-phase throughput and its
/// operation kinds' average, p95 and p99 latency in microseconds, as YCSB prints them
/// (`[OVERALL] Throughput(ops/sec)`, `[READ] AverageLatency(us)`, …), beside the load phase's rate.
extension ResultsView {
    func ycsb() -> String {
        let workloads = results.workloads.filter { $0.category == .ycsb }
        guard workloads.contains(where: { w in results.cells.contains { $0.workload == w.name && $0.isOK } }) else { return "" }
        var md = "## YCSB\n\n"
        md += "YCSB's core workloads over the `Repository` protocol, in YCSB's terms so they can sit beside published YCSB numbers: "
        md += "a `usertable` of string keys and 10 fields of 100 bytes, loaded in transactions of 1,000 records, then the run phase, "
        md += "each operation its own transaction (read-modify-write: one write transaction that reads, then updates), durability as in "
        md += "the setup. Throughput is operations per second over the run phase; latencies are microseconds per operation "
        md += "(median of the rounds' percentiles).\n\n"
        let kinds = YCSBRun.Operation.allCases
        for w in workloads {
            let shown = backends.compactMap { b in results.cell(b, w.name, mainScale).flatMap { $0.isOK ? ($0, b) : nil } }
            guard let first = shown.first else { continue }
            typealias F = YCSBSuite.Figures
            let present = kinds.filter { k in shown.contains { $0.0.figure(F.count(k)) != nil } }
            md += "### `\(w.name)`\n\n\(w.summary). \(first.0.figure(F.records).map { "\(Format.count($0)) records, " } ?? "")"
            let threads = first.0.figure(F.threads).map { Int($0) } ?? 1
            md += "\(Format.count(first.0.operations ?? 0)) operations, \(threads) thread\(threads == 1 ? "" : "s").\n\n"
            md += Self.withoutEffect(first.0.parameter(YCSBSuite.Parameters.withoutEffect))
            md += "| backend | [OVERALL] ops/s | load ops/s |" + present.map { " [\($0.rawValue)] avg µs | p95 µs | p99 µs |" }.joined() + "\n"
            md += "|---|---:|---:|" + present.map { _ in "---:|---:|---:|" }.joined() + "\n"
            for (c, b) in shown {
                md += "| \(b) | \(Self.plain(c.operationsPerSecond)) | \(Self.plain(c.figure(F.loadRate))) |"
                for k in present {
                    md += F.statistics.map { " \(Self.micros(c.figure(F.latency(k, $0)))) |" }.joined()
                }
                md += "\n"
            }
            md += "\n"
        }
        return md
    }

    /// The file's settings that changed nothing here, each with why, as a paragraph; empty when none.
    static func withoutEffect(_ recorded: String?) -> String {
        guard let recorded, !recorded.isEmpty else { return "" }
        let settings = recorded.components(separatedBy: "; ").map { setting in
            let key = String(setting.prefix { $0 != "=" })
            return "`\(setting)`" + (YCSBClientSettings.withoutEffect(key).map { " (\($0))" } ?? "")
        }
        return "Settings of the file with no effect here: \(settings.joined(separator: ", ")).\n\n"
    }

    private static func plain(_ x: Double?) -> String {
        guard let x else { return "–" }
        return Format.count(x)
    }

    private static func micros(_ ns: Double?) -> String {
        guard let ns, ns.isFinite else { return "–" }
        return String(format: ns >= 100_000 ? "%.0f" : "%.1f", ns / 1_000)
    }
}
