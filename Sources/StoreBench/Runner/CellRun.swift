import Foundation
import StoreCore
import StoreBenchKit

/// One cell's repetitions and what they measured (internal): warm-up, measured, and the extra
/// repetition that counts allocations.
struct CellRun {
    let spec: CellSpec
    let workload: Workload
    let generator: SocialGenerator
    let target: Target
    let store: URL
    let template: URL
    let residentAtStart: UInt64
    private let cpu: HardwareCounter?
    private let measured: Int
    private let counted: Bool
    let repetitions: Int

    private var samples: [Double] = []
    private var operations = 0
    private var spans = 0
    private var histogram = OperationTimer.emptyHistogram()
    private var metrics: [String: Double] = [:]
    private var parameters: [String: String] = [:]
    private var sink = 0
    private var allocations: AllocationCount?
    private var cpuInstructions: Int64? = 0
    private var intervals: [Double]?

    init(spec: CellSpec, workload: Workload, generator: SocialGenerator, target: Target, store: URL, template: URL, residentAtStart: UInt64) {
        (self.spec, self.workload, self.generator, self.target) = (spec, workload, generator, target)
        (self.store, self.template, self.residentAtStart) = (store, template, residentAtStart)
        cpu = spec.measure == .time ? try? HardwareCounter.open().get() : nil
        measured = workload.loadsDataset ? 1 : spec.repetitions
        counted = spec.countAllocations && workload.countsAllocations && !workload.loadsDataset && spec.measure == .time && AllocationCounter.isAvailable
        repetitions = (workload.loadsDataset ? 1 : spec.warmup + spec.repetitions) + (counted ? 1 : 0)
    }

    /// Runs repetition `rep` (0-based, warm-up first) on `opened`, reopening a fresh copy first
    /// for a workload that changes its store.
    mutating func repetition(_ rep: Int, _ opened: inout OpenTarget) throws {
        if rep > 0 && workload.mutatesStore && workload.dataset != .empty {
            try opened.close()
            try StoreCopy.replace(store, with: template)
            opened = try target.open(store, durability: spec.durability)
        }
        let isCounted = counted && rep == repetitions - 1
        let isMeasured = !isCounted && rep >= repetitions - (counted ? 1 : 0) - measured
        CellPhase.write(CellPhase.of(loads: workload.loadsDataset, counting: isCounted, measured: isMeasured, rep: rep,
                                     warmups: repetitions - (counted ? 1 : 0) - measured, repetitions: measured), work: spec.work)
        let ctx = context(rep, warmUp: !isCounted && !isMeasured)
        let prepared = try workload.prepare(ctx)
        let timer = OperationTimer(minimumSpan: spec.minimumSpan, budget: ctx.isWarmUp ? CellExecutor.warmUpBudget : nil)
        let open = opened
        if isCounted {
            // A store kept open across repetitions (nothing written) has met some of this
            // batch's operations in warm-ups cut by their budget, a time-dependent share: run
            // the batch once first, so what is counted is the steady state (a query shape's
            // first compile, a statement's first prepare, are not in it) and repeats exactly.
            if !workload.mutatesStore { sink &+= try open.run(prepared, OperationTimer(minimumSpan: spec.minimumSpan)) }
            let c = try AllocationCounter.counting(allThreads: false) { try open.run(prepared, timer) }
            sink &+= c.result
            let ops = Double(max(1, timer.operations))
            allocations = AllocationCount(callsPerOperation: Double(c.tally.calls) / ops, bytesPerOperation: Double(c.tally.bytes) / ops)
        } else if isMeasured {
            try measure { try open.run(prepared, timer) }
            keep(timer)
            if parameters[ResultDigest.parameter.name] == nil, let digest = try Self.digest(prepared, open) {
                parameters[ResultDigest.parameter.name] = digest
            }
        } else {
            sink &+= try open.run(prepared, timer)
        }
        prepared.teardown()
        metrics.merge(ctx.metrics) { _, new in new }
        parameters.merge(ctx.parameters) { _, new in new }
    }

    /// The digest of what the workload's operations return on the target (`ResultDigest`).
    private static func digest(_ prepared: PreparedRepetition, _ open: OpenTarget) throws -> String? {
        switch open {
        case .backend(let repo): try prepared.results?(repo)
        case .floor(let floor): try prepared.floorResults?(floor)
        }
    }

    /// The context of repetition `rep`: the store under test and, on a backend, how to reopen it.
    private func context(_ rep: Int, warmUp: Bool) -> WorkloadContext {
        let ctx = WorkloadContext(generator: generator, workload: workload.name, repetition: rep,
                                  storeDirectory: store, residentAtStart: residentAtStart)
        ctx.isWarmUp = warmUp
        ctx.metrics = metrics
        ctx.keyDistribution = spec.distribution
        ctx.fixtures = URL(fileURLWithPath: spec.fixtures)
        if case .backend(let d) = target {
            let (durability, store) = (spec.durability, store)
            ctx.reopen = { schema, plan in try d.open(schema, store, StoreOptions(durability: durability, migrations: plan)) }
            ctx.openStore = { schema, directory in try d.open(schema, directory, StoreOptions(durability: durability)) }
            ctx.compact = d.compact.map { compact in { try compact(BenchSchema.schema, store, StoreOptions(durability: durability)) } }
            ctx.peers = spec.executable.map {
                PeerLauncher(executable: URL(fileURLWithPath: $0), backend: d.name, durability: durability, store: store,
                             work: URL(fileURLWithPath: spec.work).appendingPathComponent("peers"))
            }
        }
        return ctx
    }

    /// Runs a measured repetition inside the measured region, with the CPU's counter where offered.
    private mutating func measure(_ body: () throws -> Int) throws {
        guard let cpu else {
            sink &+= try CellExecutor.measuredRegion(body)
            return
        }
        let c = try cpu.counting { try CellExecutor.measuredRegion(body) }
        sink &+= c.result
        cpuInstructions = c.instructions.flatMap { n in cpuInstructions.map { $0 + n } }
    }

    /// Keeps what a measured repetition's timer recorded.
    private mutating func keep(_ timer: OperationTimer) {
        samples.append(Double(timer.elapsed) / 1e9)
        operations = timer.operations
        spans = timer.spans
        histogram.add(timer.histogram)
        metrics.merge(timer.metrics) { _, new in new }
        if let more = timer.intervalNanos { intervals = (intervals ?? []) + more }
    }

    /// What the cell measured, for the runner.
    func outcome() -> CellOutcome {
        var metrics = metrics
        metrics[Figure.sink.name] = Double(sink & 0xFFFF)
        let cpuPerOp = cpu == nil ? nil : cpuInstructions.map { Double($0) / Double(max(1, operations * samples.count)) }
        return CellOutcome(samples: samples, operations: operations, spans: spans, latency: LatencySummary(histogram),
                           peakResidentBytes: ResidentMemory.peak(), diskBytes: CellExecutor.allocatedBytes(store), metrics: metrics,
                           parameters: parameters.isEmpty ? nil : parameters, allocations: allocations, cpuInstructionsPerOperation: cpuPerOp,
                           intervalNanos: intervals)
    }
}
