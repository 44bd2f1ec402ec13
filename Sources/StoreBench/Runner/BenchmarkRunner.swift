import Foundation
import StoreConformance
import StoreCore
import Synchronization

/// Receives the runner's progress: the CLI draws a bar with ETA on a terminal, lines otherwise.
public protocol RunProgress: AnyObject {
    func begin(cells: Int)
    func cellStarted(index: Int, label: String)
    func cellFinished(index: Int, label: String, result: CellResult)
    func note(_ message: String)
}

/// Runs a plan: each (target, workload, scale) cell in its own child process, floors beside the
/// backends, the conformance kit for the feature matrix; returns the results for reports.
///
/// ```swift
/// let runner = BenchmarkRunner(plan: plan, executable: URL(fileURLWithPath: CommandLine.arguments[0]),
///                              workDirectory: tmp, progress: nil)
/// let results = try runner.run()
/// ```
/// Thread safety: `run` blocks the calling thread until every cell has ended.
public final class BenchmarkRunner {
    public let plan: RunPlan
    let executable: URL
    let workDirectory: URL
    weak var progress: RunProgress?
    private let interrupted = Atomic<Bool>(false)

    /// Stops the run: the current cell's process is ended, no further cell starts, and `run`
    /// returns the cells measured so far with `interrupted` set. Safe from any thread (a signal handler's queue).
    public func interrupt() { interrupted.store(true, ordering: .relaxed) }

    var isInterrupted: Bool { interrupted.load(ordering: .relaxed) }

    public init(plan: RunPlan, executable: URL, workDirectory: URL, progress: RunProgress?) {
        self.plan = plan
        self.executable = executable
        self.workDirectory = workDirectory
        self.progress = progress
    }

    public func run() throws -> RunResults {
        let started = Date()
        let specs = try plan.scales.map { try DatasetSpec.load(scale: $0, fixtures: plan.fixtures) }
        let facts = Self.measureRunnerOverhead()
        progress?.note(String(format: "runner overhead %.2f ns per operation; clock reading %.0f ns", facts.overheadNanosPerOperation, facts.clockReadingNanos))
        let datasets = specs.map { spec -> RunResults.DatasetInfo in
            let g = SocialGenerator(spec)
            return .init(scale: spec.name, seed: spec.seed, checksum: g.checksum().hex, users: g.users, posts: g.posts,
                         comments: g.comments, tags: g.tags, rows: spec.rows.fetch)
        }

        let cells = plan.cells()
        progress?.begin(cells: cells.count)
        var results: [CellResult] = []
        var failedLoads = Set<String>()
        for (index, cell) in cells.enumerated() {
            if isInterrupted {
                progress?.note("interrupted: \(index) of \(cells.count) cells ran; writing what they measured")
                break
            }
            let label = "\(cell.target) \(cell.workload.name) \(cell.scale)" + (plan.rounds > 1 && !cell.workload.loadsDataset ? " round \(cell.round + 1)/\(plan.rounds)" : "")
            progress?.cellStarted(index: index, label: label)
            let templateKey = "\(cell.scale)/\(cell.target)/\(cell.workload.dataset.rawValue)"
            let result: CellResult
            if !cell.workload.loadsDataset && cell.workload.category != .selftest && failedLoads.contains(templateKey) {
                result = skeleton(cell, status: .skipped, reason: "the load this cell copies failed", wall: 0)
            } else {
                result = runCell(cell, index: index, template: templateKey, minimumSpan: UInt64(facts.minimumSpanNanos))
                if cell.workload.loadsDataset && !result.isOK { failedLoads.insert(templateKey) }
            }
            results.append(result)
            progress?.cellFinished(index: index, label: label, result: result)
        }
        results = Self.withFloorRatios(CellResult.pooledRounds(results))
        try? FileManager.default.removeItem(at: workDirectory.appendingPathComponent("templates"))

        var conformance: [ConformanceReport] = []
        if plan.runConformance && !isInterrupted {
            progress?.note("running the conformance kit for the feature matrix")
            conformance = plan.backends.map { ConformanceKit.run(DescriptorHarness($0)) }
        }
        let targets = plan.backends.map { RunResults.TargetInfo(name: $0.name, kind: "backend", engine: $0.engine, summary: $0.summary) }
            + plan.floorTargets.map { t in
                let engine = String(t.dropFirst(CellSpec.floorPrefix.count))
                return RunResults.TargetInfo(name: t, kind: "floor", engine: engine, summary: "Bare \(engine) C API loops, no abstraction")
            }
        let workloads = plan.workloads.map { RunResults.WorkloadInfo(name: $0.name, category: $0.category, summary: $0.summary, hasFloor: $0.hasFloor) }
        return RunResults(generatedAt: started, command: plan.command, profile: plan.profile, durability: plan.durability,
                          repetitions: plan.repetitions, warmup: plan.warmup, machine: .current(), runner: facts,
                          datasets: datasets, targets: targets, workloads: workloads, cells: results,
                          conformance: conformance, durationSeconds: Date().timeIntervalSince(started),
                          interrupted: isInterrupted ? true : nil, plannedCells: cells.count,
                          rounds: plan.rounds > 1 ? plan.rounds : nil)
    }

    private func runCell(_ cell: RunPlan.Cell, index: Int, template: String,
                         minimumSpan: UInt64) -> CellResult {
        let work = workDirectory.appendingPathComponent("cells/\(index)")
        defer { try? FileManager.default.removeItem(at: work) }
        let spec = CellSpec(
            target: cell.target, workload: cell.workload.name, scale: cell.scale, fixtures: plan.fixtures.path,
            template: workDirectory.appendingPathComponent("templates/\(template)").path, work: work.path,
            repetitions: plan.repetitions, warmup: plan.warmup, durability: plan.durability,
            minimumSpan: minimumSpan, outcome: work.appendingPathComponent("outcome.json").path)
        let started = Date()
        let ending = CellProcess(executable: executable, timeout: plan.cellTimeout).run(spec) { [unowned self] in self.isInterrupted }
        let wall = Date().timeIntervalSince(started)
        switch ending {
        case .finished(let outcome):
            var r = skeleton(cell, status: .ok, reason: nil, wall: wall)
            r.operations = outcome.operations
            r.spans = outcome.spans
            r.setTiming(outcome.samples)
            r.latency = outcome.latency
            r.peakResidentBytes = outcome.peakResidentBytes
            r.diskBytes = outcome.diskBytes
            r.metrics = outcome.metrics.filter { $0.key != "sink" }
            return r
        case .failed(let reason, let tail):
            var r = skeleton(cell, status: .failed, reason: reason, wall: wall)
            r.outputTail = tail
            return r
        case .stopped:
            return skeleton(cell, status: .skipped, reason: "the run was interrupted", wall: wall)
        case .timedOut(let tail):
            var r = skeleton(cell, status: .timeout, reason: "exceeded the cell time limit of \(Int(plan.cellTimeout)) s", wall: wall)
            r.outputTail = tail
            return r
        }
    }

    private func skeleton(_ cell: RunPlan.Cell, status: CellResult.Status,
                          reason: String?, wall: Double) -> CellResult {
        let isFloor = cell.target.hasPrefix(CellSpec.floorPrefix)
        let engine = isFloor ? String(cell.target.dropFirst(CellSpec.floorPrefix.count))
            : plan.backends.first { $0.name == cell.target }?.engine ?? cell.target
        return CellResult(target: cell.target, kind: isFloor ? "floor" : "backend", engine: engine, workload: cell.workload.name,
                          category: cell.workload.category, scale: cell.scale, status: status, reason: reason, metrics: [:],
                          wallSeconds: wall)
    }

    /// Sets each backend cell's ratio to its engine's floor on the same workload and scale:
    /// the median of the per-round ratios when both ran in rounds.
    static func withFloorRatios(_ cells: [CellResult]) -> [CellResult] {
        cells.map { c in
            var c = c
            guard c.kind == "backend", c.isOK, c.nanosPerOperation != nil,
                  WorkloadRegistry.named(c.workload).map({ $0.hasFloor && !$0.loadsDataset }) == true,
                  let floor = cells.first(where: { $0.target == CellSpec.floorPrefix + c.engine && $0.workload == c.workload && $0.scale == c.scale && $0.isOK })
            else { return c }
            c.floorRatio = c.ratio(to: floor)
            return c
        }
    }

    // MARK: The runner's own cost

    /// What the runner adds per operation: an operation that does nothing but call a function,
    /// timed through `OperationTimer.each`, minus the same calls in a bare loop (best of 5).
    /// Spans shorter than 100 clock readings (and 1 µs) are timed in groups.
    static func measureRunnerOverhead() -> RunResults.RunnerFacts {
        let reading = Double(MonotonicClock.readingCost())
        let minimumSpan = max(1_000, 100 * reading)
        let n = 1_000_000
        var timed = Double.infinity, bare = Double.infinity
        for _ in 0..<5 {
            let timer = OperationTimer(minimumSpan: UInt64(minimumSpan))
            var start = MonotonicClock.now()
            timer.each(n) { i in blackHole(i) }
            timed = min(timed, Double(MonotonicClock.now() - start) / Double(n))
            start = MonotonicClock.now()
            for i in 0..<n { blackHole(i) }
            bare = min(bare, Double(MonotonicClock.now() - start) / Double(n))
        }
        return .init(clockReadingNanos: reading, minimumSpanNanos: minimumSpan, overheadNanosPerOperation: max(0, timed - bare))
    }
}

@inline(never) func blackHole<T>(_ x: T) { withExtendedLifetime(x) {} }
