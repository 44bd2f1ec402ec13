import Foundation
import StoreBenchKit

/// The report's concurrency section, from the `concurrency.*` cells at the main scale: read
/// throughput by thread count (table and chart), latency under writes, the long reader, and
/// observation across threads.
extension ResultsView {
    static let threadCounts = [1, 2, 4, 8]

    func concurrency() -> String {
        guard results.cells.contains(where: { $0.category == .concurrency && $0.isOK }) else { return "" }
        var md = "## Concurrency\n\n"
        md += "Several threads on one store, at the \(mainScale) scale, on a machine with \(results.machine.cores) cores: more threads "
        md += "than cores can only share them. Reads fetch a random post by key, one read transaction each; writes change two "
        md += "attributes of a random post, one write transaction each (durability as in the setup). Paced operations are due on a "
        md += "fixed schedule and their latency counts from the due time, so a stall shows in the operations queued behind it "
        md += "(coordinated omission corrected). Object graphs run through their `Repository` face: a context per transaction, on its thread.\n\n"
        md += readScaling() + latencyUnderWrites() + longReader() + observation()
        return md
    }

    func readScaling() -> String {
        let name = { (n: Int) in "concurrency.read.\(n)-threads" }
        let programs = results.targets.map(\.id).filter { !$0.isBackend }
        let rows = (backends.map { TargetID.backend($0) } + programs).compactMap { t -> (String, [Double?])? in
            let rates = Self.threadCounts.map { n in results.cell(t, name(n), mainScale).flatMap { $0.isOK ? $0.operationsPerSecond : nil } }
            return rates.contains { $0 != nil } ? (t.isBackend ? t.name : "`\(t)`", rates) : nil
        }
        guard !rows.isEmpty else { return "" }
        var md = "### Read scaling\n\n"
        let reads = parameter(ConcurrencySuite.Parameters.readsPerThread, Self.threadCounts.map(name)) ?? ConcurrencyWorkloads.readsPerThread
        md += "Reads per second of all reader threads together (each reads \(Format.count(reads)) random posts as fast as it can; no writer), "
        md += "and the speed-up over one thread. \(results.machine.cores) cores: beyond that the threads share them.\n\n"
        md += readScalingChart(rows.filter { r in backends.contains(r.0) && r.1.allSatisfy { $0 != nil } }.map(\.0))
        md += "| backend | " + Self.threadCounts.map { "\($0) thread\($0 == 1 ? "" : "s")" }.joined(separator: " | ") + " | \(Self.threadCounts.last!) ÷ 1 |\n"
        md += "|---|" + Self.threadCounts.map { _ in "---:|" }.joined() + "---:|\n"
        for (b, rates) in rows {
            let speedup = rates.first.flatMap { one in rates.last.flatMap { last in one.flatMap { o in last.map { $0 / o } } } }
            md += "| \(b) | " + rates.map { Format.rate($0) }.joined(separator: " | ") + " | \(Format.ratio(speedup)) |\n"
        }
        return md + "\n" + grdbReadScalingNote(Dictionary(rows, uniquingKeysWith: { a, _ in a }))
    }

    /// Where grdb's throughput falls from 4 to 8 threads and GRDB used directly (`plain:grdb`)
    /// falls alike, the sentence that says the fall is GRDB's own, and why.
    func grdbReadScalingNote(_ rates: [String: [Double?]]) -> String {
        guard let store = rates["grdb"], let plain = rates["`plain:grdb`"], let i4 = Self.threadCounts.firstIndex(of: 4),
              let i8 = Self.threadCounts.firstIndex(of: 8), let s4 = store[i4], let s8 = store[i8], let p4 = plain[i4], let p8 = plain[i8],
              s8 < s4 * 0.8, p8 < p4 * 0.8 else { return "" }
        return "**grdb at 8 threads**: its reads per second fall from \(Format.rate(s4)) at 4 threads to \(Format.rate(s8)) at 8, and GRDB "
            + "used directly (`plain:grdb`: a `DatabasePool` read per post, no StoreBench code) falls alike, from \(Format.rate(p4)) to "
            + "\(Format.rate(p8)): the fall is GRDB's own. \(Self.grdbCollapseCause)\n\n"
    }

    /// Why, from a profile of the 8-thread cells on the reference machine (perf, GRDB 7.10's source).
    static let grdbCollapseCause = "Each `DatabasePool.read` hands the calling thread through two Dispatch queues (GRDB's reader pool takes "
        + "a connection inside `barrierQueue.sync`, and the connection runs the read inside its serial queue's `sync`); with more threads than "
        + "cores, libdispatch on Linux parks and wakes threads on a futex at these handoffs (on the reference machine, `perf stat` counted about "
        + "9 context switches per read at 8 threads, against 0.1 for SQLite's C API), and a larger reader pool (`maximumReaderCount` 8 instead "
        + "of the default 5) reads no faster."


    /// Reads per second by thread count for `plotted` backends, with the interval each rate
    /// takes from its time per operation (1 ÷ the total throughput).
    func readScalingChart(_ plotted: [String]) -> String {
        guard !plotted.isEmpty else { return "" }
        let name = { (n: Int) in "concurrency.read.\(n)-threads" }
        var chart = SVGChart(kind: .lines, title: "Read throughput by number of reader threads",
                             subtitle: "All reader threads together, \(mainScale) scale, on \(results.machine.cores) cores; "
                                 + "whiskers: the interval of each rate (from its time per operation's).",
                             yTitle: "Reads per second, all threads together (higher is better)", xTitle: "Reader threads",
                             xAxis: .categories(Self.threadCounts.map { ["\($0) thread\($0 == 1 ? "" : "s")"] }),
                             valueAxis: .linear { Format.compactNumber($0) })
        chart.series = plotted.map { b in
            SVGChart.Series(name: b, style: chartStyles[b]!, points: Self.threadCounts.enumerated().compactMap { i, n in
                guard let c = okCell(b, name(n)), let rate = c.operationsPerSecond else { return nil }
                let t = c.time.flatMap { $0.low > 0 ? $0 : nil }
                return .init(x: Double(i), value: rate, low: t.map { 1e9 / $0.high }, high: t.map { 1e9 / $0.low })
            })
        }
        return self.chart(chart, file: "concurrency-read-scaling")
    }

    func latencyUnderWrites() -> String {
        let readers = "concurrency.read-paced.\(ConcurrencyWorkloads.pacedReaders)-threads"
        let mixed = "concurrency.read-under-write.\(ConcurrencyWorkloads.pacedReaders)-threads"
        let writer = "concurrency.write-paced"
        let shown = backends.filter { b in [readers, mixed, writer].contains { results.cell(b, $0, mainScale)?.isOK == true } }
        guard !shown.isEmpty else { return "" }
        typealias P = ConcurrencySuite.Parameters
        let all = [readers, mixed, writer]
        let threads = parameter(P.threads, all) ?? ConcurrencyWorkloads.pacedReaders
        let readInterval = parameter(P.readIntervalNanos, all) ?? Int(ConcurrencyWorkloads.readInterval)
        let commitInterval = parameter(P.commitIntervalNanos, all) ?? Int(ConcurrencyWorkloads.commitInterval)
        let reads = parameter(P.readsPerThread, all) ?? ConcurrencyWorkloads.readsPerReader
        let commits = parameter(P.commits, all) ?? ConcurrencyWorkloads.commits
        var md = "### Latency under writes\n\n"
        md += "\(threads) reader threads, each reading a random post every \(readInterval / 1_000_000) ms, "
        md += "alone and beside one writer committing a small update every \(commitInterval / 1_000_000) ms; and the writer alone. "
        md += "Latency from each operation's due time; p99.9 rests on a few operations per cell (\(Format.count(threads * reads)) reads, "
        md += "\(commits) commits per repetition).\n\n"
        md += "| backend | read p50 | read p99 | read p99.9 | read p50 with writer | read p99 with writer | read p99.9 with writer | commit p50 alone | commit p99 alone | commit p50 with readers | commit p99 with readers |\n"
        md += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for b in shown {
            let p = ConcurrencySuite.Figures.percentile
            let cols = [(readers, p("read", "50")), (readers, p("read", "99")), (readers, p("read", "99.9")),
                        (mixed, p("read", "50")), (mixed, p("read", "99")), (mixed, p("read", "99.9")),
                        (writer, p("writer", "50")), (writer, p("writer", "99")), (mixed, p("writer", "50")), (mixed, p("writer", "99"))]
            md += "| \(b) | " + cols.map { Format.nanos(figure($0.1, b, $0.0)) }.joined(separator: " | ") + " |\n"
        }
        return md + "\n"
    }

    func longReader() -> String {
        let w = "concurrency.long-reader"
        let shown = backends.filter { results.cell($0, w, mainScale)?.isOK == true }
        guard !shown.isEmpty else { return "" }
        let burst = parameter(ConcurrencySuite.Parameters.burstCommits, [w]) ?? ConcurrencyWorkloads.burstCommits
        let after = parameter(ConcurrencySuite.Parameters.afterCommits, [w]) ?? ConcurrencyWorkloads.afterCommits
        var md = "### A long reader during a write burst\n\n"
        md += "One thread holds a read snapshot while the writer commits \(Format.count(burst)) small updates. "
        md += "SQLite cannot checkpoint past the reader's snapshot, so its WAL grows; LMDB cannot reuse pages the reader may still see, "
        md += "so its data file grows. Recovery: from the reader's end to the last of the next \(after) commits "
        md += "slower than twice the steady median (0 when none was).\n\n"
        md += "| backend | commit p50 steady | commit p50 during | commit p99 during | store growth | WAL after burst | first commit after | recovery |\n"
        md += "|---|---:|---:|---:|---:|---:|---:|---:|\n"
        for b in shown {
            let c = results.cell(b, w, mainScale)!
            typealias F = ConcurrencySuite.Figures
            md += "| \(b) | \(Format.nanos(c.figure(F.baselineCommitP50))) | \(Format.nanos(c.latency.map { Double($0.p50) })) | "
            md += "\(Format.nanos(c.latency.map { Double($0.p99) })) | \(Format.bytes(c.figure(F.storeGrowth))) | "
            md += "\(c.figure(F.walBytes).map { $0 > 0 ? Format.bytes($0) : "no WAL" } ?? "–") | "
            md += "\(Format.nanos(c.figure(F.firstCommitAfter))) | \(c.figure(F.recovery).map { Format.nanos($0 * 1e6) } ?? "–") |\n"
        }
        return md + "\n"
    }

    static func observeName(_ size: Int, _ observers: Int) -> String { "concurrency.observe.\(size)-results.\(observers)-observers" }

    /// Push observation's latency on `backend`, from a commit's return to the observer's
    /// handling of its change set: p50 and p99 with one observer watching 100 results while a
    /// writer commits (`concurrency.observe.100-results.1-observers`); nil where it did not run.
    public func pushLatency(_ backend: String) -> (p50: Double?, p99: Double?) {
        let name = Self.observeName(100, 1)
        return (figure(ConcurrencySuite.Figures.notifyP50, backend, name), figure(ConcurrencySuite.Figures.notifyP99, backend, name))
    }

    func observation() -> String {
        var md = "### Observation across threads\n\n"
        var any = false
        md += "Observers on their own threads watch the first N comments while another thread commits a change to one of them every "
        let observed = ConcurrencyWorkloads.observedSizes.flatMap { size in ConcurrencyWorkloads.observerCounts.map { Self.observeName(size, $0) } }
        let interval = parameter(ConcurrencySuite.Parameters.commitIntervalNanos, observed) ?? Int(ConcurrencyWorkloads.observedCommitInterval)
        md += "\(interval / 1_000_000) ms. Notification: from the commit's return to the observer's handling of the change set "
        md += "that holds it (over every observer). Commit: the writer's time per commit with that many observers. Only backends that declare "
        md += "`observation` run it; an object graph pushes each commit to the observer's queue-bound context (no merge call), which re-runs "
        md += "the query there and hands the change set to the observer's thread.\n\n"
        md += "| backend | results | commit, 0 observers | commit, 1 observer | commit, 10 observers | notify p50, 1 | notify p99, 1 | notify p50, 10 | notify p99, 10 |\n"
        md += "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for b in backends {
            for size in ConcurrencyWorkloads.observedSizes {
                let name = { (n: Int) in Self.observeName(size, n) }
                let cells = ConcurrencyWorkloads.observerCounts.map { results.cell(b, name($0), mainScale) }
                guard cells.contains(where: { $0?.isOK == true }) else { continue }
                any = true
                let shownSize = cells.compactMap { $0?.figure(ConcurrencySuite.Figures.results) }.first.map { Format.count($0) } ?? Format.count(size)
                md += "| \(b) | \(shownSize) | " + cells.map { Format.nanos($0?.isOK == true ? $0?.nanosPerOperation : nil) }.joined(separator: " | ") + " | "
                let (p50, p99) = (ConcurrencySuite.Figures.notifyP50, ConcurrencySuite.Figures.notifyP99)
                md += [(1, p50), (1, p99), (10, p50), (10, p99)]
                    .map { Format.nanos(figure($0.1, b, name($0.0))) }.joined(separator: " | ") + " |\n"
            }
        }
        return any ? md + "\n" : ""
    }
}
