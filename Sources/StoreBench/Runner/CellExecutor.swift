import Foundation
import StoreCore

/// Runs one cell inside the child process: opens a copy of the loaded store (or builds it, for
/// a load workload), runs warm-up and measured repetitions, and measures memory and disk.
///
/// Thread safety: runs on the calling thread; one cell per process.
public struct CellExecutor {
    public let spec: CellSpec
    public let backends: [BackendDescriptor]

    public init(spec: CellSpec, backends: [BackendDescriptor]) {
        self.spec = spec
        self.backends = backends
    }

    /// Runs the cell and writes its outcome to `spec.outcome`.
    public func runAndWrite() throws {
        let outcome = try run()
        let data = try JSONEncoder().encode(outcome)
        try data.write(to: URL(fileURLWithPath: spec.outcome), options: .atomic)
    }

    public func run() throws -> CellOutcome {
        guard let workload = WorkloadRegistry.named(spec.workload) else { throw BenchError("unknown workload '\(spec.workload)'") }
        let dataset = try DatasetSpec.load(scale: spec.scale, fixtures: URL(fileURLWithPath: spec.fixtures))
        let generator = SocialGenerator(dataset)
        let residentAtStart = ResidentMemory.current() ?? 0
        let template = URL(fileURLWithPath: spec.template)
        let store = workload.loadsDataset ? template : URL(fileURLWithPath: spec.work).appendingPathComponent("store")
        let target = try Target(spec: spec, backends: backends)
        if workload.loadsDataset {
            try? FileManager.default.removeItem(at: template)
        } else {
            try Self.copy(template, to: store)
        }

        var opened = try target.open(store, durability: spec.durability)
        var samples: [Double] = []
        var operations = 0
        var spans = 0
        var histogram = OperationTimer.emptyHistogram()
        var metrics: [String: Double] = [:]
        var sink = 0
        let total = workload.loadsDataset ? 1 : spec.warmup + spec.repetitions
        do {
            for rep in 0..<total {
                if rep > 0 && workload.mutatesStore {
                    try opened.close()
                    try Self.copy(template, to: store)
                    opened = try target.open(store, durability: spec.durability)
                }
                let ctx = WorkloadContext(generator: generator, workload: workload.name, repetition: rep,
                                          storeDirectory: store, residentAtStart: residentAtStart)
                ctx.metrics = metrics
                let prepared = try workload.prepare(ctx)
                let timer = OperationTimer(minimumSpan: spec.minimumSpan)
                sink &+= try opened.run(prepared, timer)
                prepared.teardown()
                metrics = ctx.metrics
                if rep >= total - (workload.loadsDataset ? 1 : spec.repetitions) {
                    samples.append(Double(timer.elapsed) / 1e9)
                    operations = timer.operations
                    spans = timer.spans
                    histogram.add(timer.histogram)
                }
            }
            try opened.close()
        } catch {
            try? opened.close()
            throw error
        }
        metrics["sink"] = Double(sink & 0xFFFF)
        return CellOutcome(samples: samples, operations: operations, spans: spans, latency: LatencySummary(histogram),
                           peakResidentBytes: ResidentMemory.peak(), diskBytes: Self.allocatedBytes(store), metrics: metrics)
    }

    /// Replaces `destination` with a copy of `source`.
    static func copy(_ source: URL, to destination: URL) throws {
        let fm = FileManager.default
        guard fm.fileExists(atPath: source.path) else { throw BenchError("the loaded store \(source.path) is missing; its load cell failed or did not run") }
        try? fm.removeItem(at: destination)
        try fm.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.copyItem(at: source, to: destination)
    }

    /// Bytes allocated on disk under `directory` (sparse files count what they use).
    public static func allocatedBytes(_ directory: URL) -> UInt64? {
        guard let e = FileManager.default.enumerator(atPath: directory.path) else { return nil }
        var total: UInt64 = 0
        while let name = e.nextObject() as? String {
            var st = stat()
            if lstat(directory.appendingPathComponent(name).path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG {
                total += UInt64(st.st_blocks) * 512
            }
        }
        return total
    }
}

/// A backend or a floor, ready to open over a directory (internal).
enum Target {
    case backend(BackendDescriptor)
    case floor(String)

    init(spec: CellSpec, backends: [BackendDescriptor]) throws {
        if let engine = spec.floorEngine {
            guard Floors.engines.contains(engine) else { throw BenchError("no floor for engine '\(engine)'") }
            self = .floor(engine)
        } else if let d = backends.first(where: { $0.name == spec.target }) {
            self = .backend(d)
        } else {
            throw BenchError("unknown backend '\(spec.target)'; known: \(backends.map(\.name).joined(separator: ", "))")
        }
    }

    func open(_ directory: URL, durability: Durability) throws -> OpenTarget {
        switch self {
        case .backend(let d):
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return .backend(try d.open(BenchSchema.schema, directory, StoreOptions(durability: durability)))
        case .floor(let engine):
            return .floor(try Floors.open(engine: engine, directory: directory, durability: durability))
        }
    }
}

/// An open backend or floor (internal).
enum OpenTarget {
    case backend(any Repository)
    case floor(any Floor)

    func run(_ prepared: PreparedRepetition, _ timer: OperationTimer) throws -> Int {
        switch self {
        case .backend(let repo): return try prepared.backend(repo, timer)
        case .floor(let f):
            guard let body = prepared.floor else { throw BenchError("this workload has no floor") }
            return try body(f, timer)
        }
    }

    func close() throws {
        switch self {
        case .backend(let repo): try repo.close()
        case .floor(let f): f.close()
        }
    }
}
