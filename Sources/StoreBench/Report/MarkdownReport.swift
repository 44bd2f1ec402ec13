import Foundation
import StoreConformance
import StoreBenchKit

/// Renders run results as the Markdown report: setup, winners, "Which backend?", charts, each
/// suite's sections, a table per workload, failures, the feature matrix and the method. Charts
/// are SVG files in the folder of the detail pages, linked from those pages as images.
///
/// ```swift
/// let md = MarkdownReport(try RunResults.read("Reports/latest.json")).render()
/// ```
public struct MarkdownReport {
    public let results: RunResults
    let view: ResultsView
    /// The suites of the run's categories, in the order their first workload ran.
    let suites: [any WorkloadSuite]
    /// The folder beside the first page that holds the detail pages (`latest` for `latest.md`).
    public let folder: String

    /// What goes before a chart's file name in the Markdown's links. Every chart is drawn on a
    /// detail page, in the same folder as the SVG files, so nothing (a page outside that folder
    /// would need `"\(folder)/"`).
    static let chartLinkPrefix = ""

    /// `results` as read; what an older file did not record is taken from this build's suites.
    public init(_ results: RunResults, folder: String = "latest") {
        let completed = Suites.completing(results)
        self.results = completed
        self.folder = folder
        view = ResultsView(completed, folder: folder, charts: ChartFiles(linkPrefix: Self.chartLinkPrefix))
        suites = view.categories.compactMap(Suites.suite(of:))
    }

    /// The SVG files of the charts rendered so far, in order: every chart of the report once
    /// `pages()` has run (`write(to:)` writes them beside the pages).
    public var chartFiles: ChartFiles { view.charts }

    /// The first page's section titles in order; tests check a report has them all.
    public static let sections = ["## Machine and build", "## The answer", "## The seeds' claims", "## Details"]

    /// The first page: what a reader chooses from, under 25 KB.
    public func render() -> String {
        var md = "# StoreBench report\n\n"
        md += "Generated \(ISO8601DateFormatter().string(from: results.generatedAt)) by `\(results.command)` "
        md += "in \(Int(results.durationSeconds.rounded())) s: \(results.cells.count) cells, "
        md += "\(results.cells.filter(\.isOK).count) measured, \(view.failedCells.count) failed.\n\n"
        if results.interrupted == true {
            md += "> **Interrupted**\(results.interruptedBy.map { " (\($0))" } ?? "") after \(results.cells.count) of \(results.plannedCells ?? results.cells.count) cells: the tables hold only what ran.\n\n"
        }
        if results.schemaVersion < RunResults.currentSchemaVersion {
            md += "> Rendered from a results file of schema \(results.schemaVersion) (this build writes \(RunResults.currentSchemaVersion)): "
            md += "it did not record each cell's parameters, the workloads' use cases or the figures' declarations, so those come "
            md += "from this build's suites, and sections state the settings this build runs with.\n\n"
        }
        md += view.machineAndBuild()
        md += "## The answer\n\n" + view.useCaseGroups() + view.familyTable() + parts(.advice) + view.adviceNotes()
        md += view.claimsSection() + detailLinks() + view.failureList()
        return md
    }

    /// Every suite's part at `placement`, in order.
    func parts(_ placement: ReportPlacement) -> String {
        suites.map { $0.report(placement, view) }.joined()
    }

    func charts() -> String {
        let charted = Set(view.categories.filter { Suites.suite(of: $0)?.chartedByCategory ?? true })
        return view.chartsIntro() + view.categoryCharts(charted) + parts(.charts) + view.scaleCharts()
    }
}

extension ResultsView {

    func setup() -> String {
        let m = results.machine
        var md = "## Setup\n\n| | |\n|---|---|\n"
        md += "| Machine | \(m.cpu), \(m.cores) cores, \(Format.bytes(Double(m.memoryBytes))) memory |\n"
        md += "| OS | \(m.os) |\n| Swift | \(m.swift) |\n| SQLite | \(m.sqlite) |\n| LMDB | \(m.lmdb) |\n"
        md += "| Build | \(m.build)\(m.build == "release" ? "" : " — numbers from a debug build are not meaningful") |\n"
        md += "| Durability | \(results.durability.rawValue) (\(results.durability == .durable ? "fsync at every commit" : "no fsync at commit: SQLite synchronous=NORMAL, LMDB MDB_NOSYNC")), the same for every backend and floor |\n"
        md += "| Key distribution | \((results.distribution ?? .uniform).rawValue)\(results.distribution == nil ? " (every key equally likely)" : " (`--distribution`; workloads that pick random keys draw them skewed)") |\n"
        md += "| Profile | \(results.profile): \(results.rounds.map { "\($0) rounds × " } ?? "")\(results.warmup) warm-up + \(results.repetitions) measured repetitions per cell |\n"
        md += String(format: "| Runner overhead | %.2f ns per operation, measured (an empty operation timed as workloads are, minus a bare loop); each timed span costs one clock reading, %.0f ns, and spans under %.0f ns are grown into groups |\n",
                     results.runner.overheadNanosPerOperation, results.runner.clockReadingNanos, results.runner.minimumSpanNanos)
        let shares = results.cells.filter { $0.isOK && $0.isBackend }.compactMap { c in c.runnerOverheadShare(results.runner).map { (c, $0) } }
        if let worst = shares.max(by: { $0.1 < $1.1 }) {
            md += "| Runner overhead ÷ operation | at most \(Format.percent(worst.1)) (`\(worst.0.target)` `\(worst.0.workload)`, \(Format.nanos(worst.0.nanosPerOperation)) per operation); median \(Format.percent(SampleStatistics(shares.map(\.1)).median)) over all cells |\n"
        }
        let allocations: String = results.runner.allocationCounting == true ? "counted in one extra repetition of each cell's first round" : "not counted"
        let callgrind: String = results.measure == .instructions ? "this run" : "`storebench run --measure instructions`"
        md += "| Deterministic counts | allocations: \(allocations) · CPU instruction counter: \(results.runner.hardwareCounters ?? "not probed") · callgrind: \(callgrind) |\n"
        md += "\n**Datasets** (same seed, same bytes on every backend):\n\n"
        md += "| scale | seed | users | posts | comments | tags | rows (10 integers) | checksum |\n|---|---:|---:|---:|---:|---:|---:|---|\n"
        for d in results.datasets {
            md += "| \(d.scale) | \(d.seed) | \(Format.count(d.users)) | \(Format.count(d.posts)) | \(Format.count(d.comments)) | \(Format.count(d.tags)) | \(Format.count(d.rows)) | `\(d.checksum)` |\n"
        }
        md += "\n" + shardsTable()
        md += "**Targets:**\n\n" + results.targets.map { t in
            "- `\(t.id)` (\(t.id.kind.rawValue), engine \(t.engine)): \(t.summary)" + (t.checks.map { "; checks `\($0)`" } ?? "")
        }.joined(separator: "\n") + "\n\n"
        return md
    }

    /// The per-workload tables of one family, every scale, every target.
    func workloadTables(_ category: WorkloadCategory) -> String {
        var md = "## Workload tables\n\n"
        md += "Per cell: throughput and median time per operation over the rounds (± the half-width of its interval, relative), "
        md += "per-operation latency percentiles from an HdrHistogram of every measured repetition, the coefficient of variation (CV) "
        md += "of the repetitions, the time relative to the fastest backend (its interval at the report's confidence) and to the "
        md += "backend's engine floor (the bare C API, same run; the median of per-round ratios and its interval), allocation calls and "
        md += "requested bytes per operation (deterministic for a build), and the cell process's peak resident memory (the whole process, "
        md += "dataset generator and runner included; not comparable with the memory suite's figures, which are above a baseline). "
        md += "For a reference program (_c:…_, _plain:…_), × floor is the time of the target it checks ÷ its own.\n\n"
        do {
            let ws = results.workloads.filter { $0.category == category }
            for w in ws {
                md += "### `\(w.name)`\n\n\(w.summary).\n\n" + machineOfWorkload(w.name)
                for scale in scales {
                    let all = results.cells.filter { $0.workload == w.name && $0.scale == scale }
                    guard !all.isEmpty else { continue }
                    let rel = relativeToFastest(w.name, scale)
                    md += "\(scale) scale, \(Format.count(all.first { $0.operations != nil }?.operations ?? 0)) operations per repetition:\n\n"
                    let instructions = all.contains { $0.instructionsPerOperation != nil }
                    let cpu = all.contains { $0.cpuInstructionsPerOperation != nil }
                    md += "| target | ops/s | time/op | p50 | p95 | p99 | CV | × fastest | × floor | allocs/op | bytes/op |"
                    md += (instructions ? " instr/op |" : "") + (cpu ? " CPU instr/op |" : "") + " process peak RSS |\n"
                    md += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + (instructions ? "---:|" : "") + (cpu ? "---:|" : "") + "---:|\n"
                    for c in all {
                        let name = c.target.isBackend ? c.target.name : "_\(c.target)_"
                        guard c.isOK else {
                            md += "| \(name) | \(c.status.rawValue) |\n"
                            continue
                        }
                        md += "| \(name) | \(Format.rate(c.operationsPerSecond)) | \(Format.nanos(c.time)) | "
                        md += "\(Format.nanos(c.latency.map { Double($0.p50) })) | \(Format.nanos(c.latency.map { Double($0.p95) })) | "
                        md += "\(Format.nanos(c.latency.map { Double($0.p99) })) | \(Format.percent(c.coefficientOfVariation)) | "
                        md += "\(c.isBackend ? Format.ratio(rel[c.target.name]) : "") | \(Format.ratio(c.floorRatio)) | "
                        md += "\(Format.perOperation(c.allocations?.callsPerOperation)) | \(Format.bytes(c.allocations?.bytesPerOperation)) |"
                        if instructions { md += " \(Format.perOperation(c.instructionsPerOperation)) |" }
                        if cpu { md += " \(Format.perOperation(c.cpuInstructionsPerOperation)) |" }
                        md += " \(Format.bytes(c.peakResidentBytes)) |\n"
                    }
                    md += "\n"
                }
            }
        }
        return md
    }

    func failures() -> String {
        let bad = results.cells.filter { $0.status != .ok }
        guard !bad.isEmpty else { return "" }
        var md = "## Failed and skipped cells\n\n"
        for c in bad {
            md += "- `\(c.target)` `\(c.workload)` \(c.scale): **\(c.status.rawValue)**: \(c.reason ?? "")\n"
            if let tail = c.outputTail, !tail.isEmpty {
                md += "\n  ```\n" + tail.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n") + "\n  ```\n"
            }
        }
        return md + "\n"
    }

    func featureMatrix() -> String {
        var md = "## Feature matrix\n\n"
        guard !results.conformance.isEmpty else { return md + "The conformance kit was not run (`--no-conformance`).\n\n" }
        // The count of the run's kit, which may be older than this build's.
        let count = results.conformance.map(\.cases.count).max() ?? 0
        md += "The conformance kit's \(count) cases per backend, by group. A skip names the capability the backend does not declare.\n\n"
        return md + ConformanceKit.markdown(results.conformance) + "\n"
    }

    func method() -> String {
        let rounds = results.rounds ?? 1
        let extra = results.maxRounds.map { m in
            " A workload with a comparison still undecided ran more rounds, up to \(m) (\(results.extraRounds ?? 0) extra in this run)."
        } ?? ""
        return """
        ## Method

        - **Data.** A seeded generator builds the social domain (users, posts, comments with reply trees, tags on posts, \
        follows) from `Fixtures/<scale>.json`; every record comes from its own random stream, so each backend gets the same \
        bytes (the checksum above) and a workload can rebuild any key without holding the dataset. The rows workloads use the \
        10-integer row shape of GRDB's performance suite.
        - **Cells.** Each (target, workload, scale) cell runs in its own child process (`storebench cell`), so peak resident \
        memory belongs to it and a crash or hang ends only that cell (time limit per cell, reported with the tail of its output). \
        A load cell per target and scale builds the store; every other cell works on a fresh copy of it, and workloads that \
        change data get a fresh copy for each repetition.
        - **Rounds.** The cells of one workload run back to back across targets, \(rounds) time(s) in turn.\(extra) A time per \
        operation is the median of the rounds' (of the repetitions, with one round). Ratios between backends are geometric means of \
        the per-round ratios (rounds are paired, so drift between rounds cancels); cells that run only two or three rounds \
        (concurrency, YCSB, lifecycle) are compared through their per-interval times instead (about 20 consecutive slices of each \
        measured repetition, Welch's t on their logarithms). × floor stays the median of the per-round ratios.
        - **Decisions.** Every comparison is a t interval on a log ratio, drawn at the confidence that keeps all of the report's \
        comparisons together right with 95% probability (Bonferroni), and is decided against an equivalence margin \
        (default ±5%, `--margin`): slower when the whole interval lies beyond it, equivalent when the whole interval lies within \
        it, undecided otherwise, with the rounds that would decide it at its present noise. Extra rounds go to workloads with a \
        comparison undecided at the largest scale that they could decide, while a per-profile time budget lasts. "Which \
        backend?" tiers use the mean of the per-workload log ratios, errors added in quadrature (Welch–Satterthwaite degrees of \
        freedom). The seeds' claims are decided the same way. Each time per operation also carries an order-statistic interval \
        for its median (the sign test: the k-th smallest and k-th largest of n values; five values give 93.8%).
        - **Timing.** \(results.warmup) warm-up repetition(s), then \(results.repetitions) measured one(s) per round; the CV is \
        the repetitions' standard deviation ÷ mean. Each operation is timed with the monotonic clock; when one is shorter than \
        \(Format.nanos(results.runner.minimumSpanNanos)), groups of operations are timed and each gets the group's mean. A \
        transaction of many operations is timed as one span and shared among them. Latency percentiles come from an \
        HdrHistogram (3 significant digits) of all measured repetitions.
        - **Deterministic counts.** Allocation calls and requested bytes per operation are counted in one more repetition of \
        each cell's first round, by a counting replacement of glibc's `malloc` family linked into the runner (off, it costs \
        one relaxed load per call); they are the same for the same build on any machine, so CI gates on them. \
        `--measure instructions` counts instructions per operation under callgrind instead.
        - **Reads touch every field** of every record they fetch, folded into a position-sensitive checksum that a floor and \
        its backend compute alike, so a lazily decoding backend pays for what it defers and a floor cannot skip a column.
        \(floorsAndReferences())
        - **Durability** is applied equally: durable means SQLite `synchronous=FULL` in WAL mode and LMDB's default sync; \
        relaxed means `synchronous=NORMAL` and `MDB_NOSYNC`.
        - **Caveats.** Machines are shared and noisy: compare ratios within one run rather than absolute times across runs, \
        and read the intervals; `storebench compare` gates on allocation counts, which do not drift.

        """
    }

    /// The method's bullet on floors, reference programs and what GRDBStore adds to plain GRDB.
    private func floorsAndReferences() -> String {
        """
        - **Floors and references.** `floor:sqlite` and `floor:lmdb` are loops written straight against the C APIs doing \
        exactly the workload's work (the same transactions, columns and text decoding, reused buffers); "× floor" is a \
        backend's time ÷ its engine's floor, from the same run, which stays comparable across machines. Reference programs \
        check them: `c:sqlite` and `c:lmdb` run the rows workloads as plain C, and their × floor is the Swift floor ÷ the C \
        loop; `journal:sqlite` is the SQLite floor over the rollback journal instead of WAL (a bulk insert, reads by key), and its \
        × floor is WAL ÷ rollback journal; `plain:grdb` uses GRDB directly as its documentation advises, and its × floor is GRDBStore ÷ plain GRDB. \
        Costs that belong to GRDB itself, not to this project (a `DatabasePool` read takes a reader connection from the pool \
        and opens a deferred transaction; statements are cached per connection; `sb_fold`/`sb_like` run as Swift \
        `DatabaseFunction`s), appear in both and cancel in that ratio. What the ratio keeps above 1 is this project's \
        repository layer, which every backend pays over its floor, in named parts: **validation** (each written value's \
        type, optionality and size checked), the **row checksum** every SQL store keeps beside a record (`sb_sum`, computed \
        in Swift and bound as one more argument, so `verify()` can find a value changed behind the store), **conversion** \
        (`Value`s to GRDB's `DatabaseValueConvertible` on write, columns to an owned `Record` on read) and one `RowView` \
        call per column read; `--measure instructions` with `STOREBENCH_CALLGRIND_DIR` set keeps the profiles that \
        split them.
        """
    }
}
