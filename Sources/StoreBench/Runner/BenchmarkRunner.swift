import Foundation
import StoreConformance
import StoreCore
import Synchronization
import StoreBenchKit

/// Receives the runner's progress: the CLI draws a bar with ETA on a terminal, lines otherwise.
public protocol RunProgress: AnyObject {
    func begin(cells: Int)
    /// Extra rounds added `cells` to the plan.
    func planGrew(by cells: Int)
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
    public private(set) var plan: RunPlan
    /// How cells run: each in a child process (the default), or in this process.
    public var launch = CellLaunch.childProcess
    let executable: URL
    let workDirectory: URL
    weak var progress: RunProgress?
    private let stopSignal = Atomic<Int32>(0)
    /// What this run's results record when it is one shard of a plan.
    private var shardInfo: ShardInfo?

    /// Stops the run: the current cell's process is ended, no further cell starts, and `run`
    /// returns the cells measured so far with `interrupted` set. `signal` is what asked for it
    /// (the first one counts). Safe from any thread (a signal handler's queue).
    public func interrupt(signal: Int32 = SIGINT) {
        _ = stopSignal.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
    }

    /// The signal that interrupted the run, or `nil` while it runs on.
    public var interruptingSignal: Int32? {
        let s = stopSignal.load(ordering: .relaxed)
        return s == 0 ? nil : s
    }

    var isInterrupted: Bool { interruptingSignal != nil }

    public init(plan: RunPlan, executable: URL, workDirectory: URL, progress: RunProgress?) {
        self.plan = plan
        self.executable = executable
        self.workDirectory = workDirectory
        self.progress = progress
    }

    public func run() throws -> RunResults {
        let started = Date()
        plan.backendCapabilities = Self.capabilities(of: plan.backends, in: workDirectory)
        if let shard = plan.shard { shardInfo = dealShard(shard) }
        let datasets = try plan.scales.map { try Self.datasetInfo(DatasetSpec.load(scale: $0, fixtures: plan.fixtures)) }
        let facts = runnerFacts()
        let executable = plan.measure == .instructions ? try Self.withoutDebugInfo(self.executable, in: workDirectory) : self.executable
        var progressState = RunState(planned: plan.cells().count, executable: executable, minimumSpan: UInt64(facts.minimumSpanNanos))
        progress?.begin(cells: progressState.planned)
        runScales(&progressState)
        if let signo = interruptingSignal { progress?.note("interrupted by \(Self.signalName(signo)); writing the results of the cells that ran") }
        let pooled = ResultDigest.crossChecked(CellResult.pooledRounds(progressState.results, figures: Suites.figuresByName))
        for c in pooled where c.status == .failed && c.reason?.hasPrefix(ResultDigest.failurePrefix) == true {
            progress?.note("\(c.key) failed the cross-check: \(c.reason ?? "")")
        }
        let cells = Self.withFloorRatios(pooled, programs: plan.selectedPrograms)
        try? FileManager.default.removeItem(at: workDirectory.appendingPathComponent("templates"))
        return results(cells, state: progressState, datasets: datasets, facts: facts, started: started)
    }

    /// What the run has done so far (internal).
    struct RunState {
        let planned: Int
        let executable: URL
        let minimumSpan: UInt64
        var results: [CellResult] = []
        /// Loads that failed: the cells that copy them are skipped.
        var failedLoads = Set<CellKey>()
        /// Cells that failed or timed out in a round: their later rounds are not run.
        var broken = Set<CellKey>()
        var index = 0
        var extraSeconds = 0.0
        var extraRounds = 0
        var grown = 0
    }

    /// The dataset a scale's cells use, as the results describe it.
    static func datasetInfo(_ spec: DatasetSpec) -> RunResults.DatasetInfo {
        let g = SocialGenerator(spec)
        return .init(scale: spec.name, seed: spec.seed, checksum: g.checksum().hex, users: g.users, posts: g.posts,
                     comments: g.comments, tags: g.tags, rows: spec.rows.fetch)
    }

    /// The runner's own cost and what it can count, noted in the progress.
    private func runnerFacts() -> RunResults.RunnerFacts {
        var facts = Self.measureRunnerOverhead()
        facts.allocationCounting = plan.countAllocations && plan.measure == .time && AllocationCounter.isAvailable
        facts.hardwareCounters = HardwareCounter.availability
        progress?.note(String(format: "runner overhead %.2f ns per operation; clock reading %.0f ns", facts.overheadNanosPerOperation, facts.clockReadingNanos))
        return facts
    }

    /// Per scale: the loads, then each workload round after round, with extra rounds for noisy ones.
    private func runScales(_ state: inout RunState) {
        for scale in plan.scales {
            guard runAll(plan.loads(scale), &state) else { return }
            for w in plan.measuredWorkloads {
                guard runRounds(of: w, scale, &state) else { return }
            }
        }
    }

    /// A workload's planned rounds, then extra ones while a comparison at the largest scale is
    /// undecided and more rounds could decide it, and the budget lasts; false once interrupted.
    private func runRounds(of w: Workload, _ scale: String, _ state: inout RunState) -> Bool {
        var round = 0
        while true {
            let roundStarted = Date()
            guard runAll(plan.round(round, of: w, scale), &state) else { return false }
            if round >= plan.rounds(of: w).planned { state.extraSeconds += Date().timeIntervalSince(roundStarted) }
            round += 1
            guard round >= plan.rounds(of: w).planned else { continue }
            guard round < plan.rounds(of: w).most, state.extraSeconds < plan.shardExtraRoundsBudget, scale == plan.scales.last,
                  let open = Self.undecided(state.results, w.name, scale, rule: ruleSoFar(state.results, scale), within: plan.rounds(of: w).most)
            else { return true }
            state.extraRounds += 1
            let more = plan.round(round, of: w, scale).count
            state.grown += more
            progress?.planGrew(by: more)
            progress?.note("\(w.name) \(scale): \(open) undecided against the fastest; round \(round + 1)")
        }
    }

    /// Runs cells in order; false once the run is interrupted.
    private func runAll(_ cells: [RunPlan.Cell], _ state: inout RunState) -> Bool {
        for cell in cells where !state.broken.contains(cell.key) {
            if isInterrupted { return false }
            let label = "\(cell.key)" + (plan.rounds > 1 && !cell.workload.loadsDataset ? " round \(cell.round + 1)" : "")
            progress?.cellStarted(index: state.index, label: label)
            let template = CellKey(cell.target, WorkloadRegistry.loader(of: cell.workload.dataset)?.name ?? "", cell.scale)
            let result: CellResult
            let inProfiles = Suites.suite(of: cell.workload.category)?.inProfiles ?? true
            if !cell.workload.loadsDataset && inProfiles && state.failedLoads.contains(template) {
                result = skeleton(cell, status: .skipped, reason: "the load this cell copies failed", wall: 0)
            } else {
                result = runCell(cell, index: state.index, template: template, executable: state.executable, minimumSpan: state.minimumSpan)
                if cell.workload.loadsDataset && !result.isOK { state.failedLoads.insert(template) }
            }
            if result.status == .failed || result.status == .timeout { state.broken.insert(cell.key) }
            state.results.append(result)
            progress?.cellFinished(index: state.index, label: label, result: result)
            state.index += 1
        }
        return true
    }

    /// The results file of the run: the cells, the kit's results, what ran and how.
    private func results(_ cells: [CellResult], state: RunState, datasets: [RunResults.DatasetInfo],
                         facts: RunResults.RunnerFacts, started: Date) -> RunResults {
        var conformance: [ConformanceReport] = []
        if plan.runConformance && !isInterrupted && (plan.shard?.index ?? 1) == 1 {
            progress?.note("running the conformance kit for the feature matrix")
            conformance = plan.backends.map { ConformanceKit.run(DescriptorHarness($0)) }
        }
        let targets = plan.backends.map { RunResults.TargetInfo(id: .backend($0.name), engine: $0.engine, summary: $0.summary) }
            + plan.selectedPrograms.map { RunResults.TargetInfo(id: $0.id, engine: $0.engine, summary: $0.summary, checks: $0.checks) }
        var out = RunResults(generatedAt: started, command: plan.command, profile: plan.profile, durability: plan.durability,
                             repetitions: plan.repetitions, warmup: plan.warmup, machine: .current(), runner: facts,
                             datasets: datasets, targets: targets, workloads: plan.workloads.map(Self.info), cells: cells,
                             conformance: conformance, durationSeconds: Date().timeIntervalSince(started),
                             interrupted: isInterrupted ? true : nil, plannedCells: state.planned + state.grown,
                             rounds: plan.rounds > 1 ? plan.rounds : nil)
        out.interruptedBy = interruptingSignal.map(Self.signalName)
        out.maxRounds = plan.maxRounds > plan.rounds ? plan.maxRounds : nil
        out.distribution = plan.distribution == .uniform ? nil : plan.distribution
        out.measure = plan.measure
        out.extraRounds = state.extraRounds
        out.margin = plan.margin == DecisionRule.defaultMargin ? nil : plan.margin
        out.claims = Suites.claims
        let categories = Set(plan.workloads.map(\.category))
        out.figures = Suites.figures(of: categories)
        out.shard = shardInfo
        return out
    }

    /// Deals the whole plan's workloads to its shards and keeps this shard's; what the
    /// results record for `merge`.
    private func dealShard(_ shard: ShardSpec) -> ShardInfo {
        var whole = plan
        whole.shard = nil
        whole.shardMembers = nil
        let keys = whole.plannedKeys, assignment = whole.shardAssignment(count: shard.count)
        plan.shardMembers = Set(assignment[shard.index - 1])
        progress?.note("shard \(shard): \(assignment[shard.index - 1].count) of \(assignment.joined().count) workloads, balanced by \(plan.balanceSource)")
        return ShardInfo(shard: shard, planFingerprint: whole.fingerprint(keys), build: .current(), balancedBy: plan.balanceSource,
                         assignment: assignment, plannedCells: keys)
    }

    /// What the results say of a workload: its suite's use cases, whether it is compared, charted across scales.
    static func info(_ w: Workload) -> RunResults.WorkloadInfo {
        RunResults.WorkloadInfo(name: w.name, category: w.category, summary: w.summary, hasFloor: w.hasFloor,
                                useCases: Suites.suite(of: w.category)?.useCases(of: w.name) ?? [],
                                compared: w.isCompared, acrossScales: w.chartedAcrossScales)
    }

    /// What each backend supports: each opened once on an empty store in `directory`. A
    /// backend that does not open is left out (its cells then fail with their own reason).
    static func capabilities(of backends: [BackendDescriptor], in directory: URL) -> [String: Capabilities] {
        var out: [String: Capabilities] = [:]
        for d in backends {
            let dir = directory.appendingPathComponent("capabilities/\(d.name)")
            try? FileManager.default.removeItem(at: dir)
            defer { try? FileManager.default.removeItem(at: dir) }
            guard (try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)) != nil,
                  let repo = try? d.open(BenchSchema.schema, dir, StoreOptions(durability: .relaxed)) else { continue }
            out[d.name] = repo.capabilities
            try? repo.close()
        }
        return out
    }

    /// The plan's rule, moderated by the prior of what has run at `scale` so far.
    private func ruleSoFar(_ results: [CellResult], _ scale: String) -> DecisionRule {
        var rule = plan.decisionRule
        let pooled = CellResult.pooledRounds(results.filter { $0.scale == scale && $0.isBackend })
        rule.prior = VariancePrior.fitting(workloads: Dictionary(grouping: pooled, by: \.workload).values.map { $0 })
        return rule
    }

    /// The backend of `workload` at `scale` undecided against the fastest that `rounds` rounds
    /// could decide at its present noise (nil before two rounds, when a cell failed, or when
    /// nothing more rounds could decide is left).
    static func undecided(_ results: [CellResult], _ workload: String, _ scale: String, rule: DecisionRule, within rounds: Int) -> String? {
        let pooled = CellResult.pooledRounds(results.filter { $0.workload == workload && $0.scale == scale })
        guard !pooled.isEmpty, pooled.allSatisfy(\.isOK),
              let v = WorkloadVerdict(workload: workload, cells: pooled, rule: rule) else { return nil }
        return v.undecided.first { b in v.roundsNeeded(b).map { $0 <= rounds } == true }
    }

    /// A copy of `executable` without its DWARF sections, which valgrind 3.19 cannot read from
    /// Swift 6 builds; the symbol table stays, so callgrind still finds `sb_measured_region`.
    static func withoutDebugInfo(_ executable: URL, in directory: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = directory.appendingPathComponent("storebench-for-valgrind")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["objcopy", "--strip-debug", executable.path, copy.path]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw BenchError("objcopy --strip-debug \(executable.path) failed (status \(p.terminationStatus)); --measure instructions needs binutils")
        }
        return copy
    }

    /// The reason of the cell a signal stopped (status `skipped`).
    public static let interruptedReason = "the run was interrupted"

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, else `signal N`.
    public static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }

    private func runCell(_ cell: RunPlan.Cell, index: Int, template: CellKey, executable: URL, minimumSpan: UInt64) -> CellResult {
        let work = workDirectory.appendingPathComponent("cells/\(index)")
        defer { try? FileManager.default.removeItem(at: work) }
        let templatePath = workDirectory.appendingPathComponent("templates/\(template.scale)/\(template.target.kind.rawValue)-\(template.target.name)/\(cell.workload.dataset.rawValue)")
        var spec = CellSpec(
            target: cell.target, workload: cell.workload.name, scale: cell.scale, fixtures: plan.fixtures.path,
            template: templatePath.path, work: work.path,
            repetitions: plan.repetitions, warmup: plan.warmup, durability: plan.durability,
            minimumSpan: minimumSpan, outcome: work.appendingPathComponent("outcome.json").path)
        spec.countAllocations = plan.countAllocations && cell.round == 0
        spec.measure = plan.measure
        spec.distribution = plan.distribution
        spec.runnerPID = getpid()
        spec.executable = FileManager.default.isExecutableFile(atPath: self.executable.path) ? self.executable.path : nil
        spec.workloadFile = cell.workload.definitionFile
        spec.category = cell.workload.category
        let started = Date()
        var process = CellProcess(executable: executable, timeout: plan.cellTimeout * (plan.measure == .instructions ? 20 : 1))
        if let beat = progress as? RunHeartbeat {
            process.heartbeat = { [weak beat] in beat?.cellRunning(index: index, elapsed: $0, phase: $1) }
        }
        let ending = launch.run(spec, process) { [unowned self] in self.isInterrupted }
        let wall = Date().timeIntervalSince(started)
        switch ending {
        case .finished(let outcome, let instructions):
            var r = skeleton(cell, status: .ok, reason: nil, wall: wall)
            r.record(outcome, instructions: instructions)
            return r
        case .failed(let reason, let tail):
            var r = skeleton(cell, status: .failed, reason: reason, wall: wall)
            r.outputTail = tail
            return r
        case .stopped:
            return skeleton(cell, status: .skipped, reason: Self.interruptedReason, wall: wall)
        case .timedOut(let tail):
            var r = skeleton(cell, status: .timeout, reason: "exceeded the cell time limit of \(Int(process.timeout)) s", wall: wall)
            r.outputTail = tail
            return r
        }
    }

    private func skeleton(_ cell: RunPlan.Cell, status: CellResult.Status, reason: String?, wall: Double) -> CellResult {
        let engine = cell.target.isBackend ? plan.backends.first { $0.name == cell.target.name }?.engine ?? cell.target.name
            : plan.selectedPrograms.first { $0.id == cell.target }?.engine ?? cell.target.name
        var r = CellResult(target: cell.target, engine: engine, workload: cell.workload.name, category: cell.workload.category,
                           scale: cell.scale, status: status, reason: reason, wallSeconds: wall)
        let loads = cell.workload.loadsDataset   // a load runs once, without warm-up
        r.parameters = [Parameter.scale.name: cell.scale, Parameter.durability.name: plan.durability.rawValue,
                        Parameter.distribution.name: plan.distribution.rawValue,
                        Parameter.repetitions.name: String(loads ? 1 : plan.repetitions), Parameter.warmup.name: String(loads ? 0 : plan.warmup)]
        return r
    }

    /// Sets each backend cell's ratio to its engine's floor on the same workload and scale, and
    /// each reference cell's ratio of the target it checks to itself: medians of the per-round
    /// ratios with their intervals.
    static func withFloorRatios(_ cells: [CellResult], programs: [FloorProgram]) -> [CellResult] {
        var byKey: [CellKey: CellResult] = [:]
        for c in cells where c.isOK && c.nanosPerOperation != nil { byKey[c.key] = c }
        return cells.map { c in
            var c = c
            guard c.isOK, c.nanosPerOperation != nil,
                  !WorkloadRegistry.isLoader(c.workload)
            else { return c }
            switch c.target.kind {
            case .backend:
                if let floor = byKey[CellKey(.floor(c.engine), c.workload, c.scale)] { c.floorRatio = c.ratio(to: floor) }
            case .reference:
                if let checked = programs.first(where: { $0.id == c.target })?.checks,
                   let other = byKey[CellKey(checked, c.workload, c.scale)] { c.floorRatio = other.ratio(to: c) }
            case .floor:
                break
            }
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
