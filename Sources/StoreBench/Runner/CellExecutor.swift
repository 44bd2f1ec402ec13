import CBenchSupport
import Foundation
import StoreCore
import StoreBenchKit

/// Runs one cell inside the child process: opens a copy of the loaded store (or builds it, for
/// a load workload), runs warm-up and measured repetitions, counts allocations in one more
/// repetition, and measures memory and disk.
///
/// Thread safety: runs on the calling thread; one cell per process.
public struct CellExecutor {
    public let spec: CellSpec
    public let backends: [BackendDescriptor]
    public let programs: [FloorProgram]

    public init(spec: CellSpec, backends: [BackendDescriptor], programs: [FloorProgram] = Floors.builtin) {
        self.spec = spec
        self.backends = backends
        self.programs = programs
    }

    /// Runs the cell and writes its outcome to `spec.outcome`.
    public func runAndWrite() throws {
        // A cell never outlives its runner: the kernel kills it when the runner dies, however.
        if let runner = spec.runnerPID, sb_die_with_parent(runner) == 0 {
            throw BenchError("the runner (pid \(runner)) is gone; the cell does not run alone")
        }
        let outcome = try run()
        let data = try JSONEncoder().encode(outcome)
        try data.write(to: URL(fileURLWithPath: spec.outcome), options: .atomic)
    }

    public func run() throws -> CellOutcome {
        guard let workload = try spec.workloadFile.map({ try WorkloadRegistry.defined(by: $0, in: spec.category ?? WorkloadCategory("")) })
            ?? WorkloadRegistry.named(spec.workload) else {
            throw BenchError("unknown workload '\(spec.workload)'")
        }
        let dataset = try DatasetSpec.load(scale: spec.scale, fixtures: URL(fileURLWithPath: spec.fixtures))
        let residentAtStart = ResidentMemory.current() ?? 0
        let template = URL(fileURLWithPath: spec.template)
        let store = workload.loadsDataset ? template : URL(fileURLWithPath: spec.work).appendingPathComponent("store")
        let target = try Target(spec: spec, backends: backends, programs: programs)
        if workload.loadsDataset {
            try? FileManager.default.removeItem(at: template)
        } else if workload.dataset == .empty {
            try? FileManager.default.removeItem(at: store)
        } else {
            CellPhase.write("copying the loaded store", work: spec.work)
            try StoreCopy.replace(store, with: template)
        }
        var cell = CellRun(spec: spec, workload: workload, generator: SocialGenerator(dataset), target: target,
                           store: store, template: template, residentAtStart: residentAtStart)
        var opened = try target.open(store, durability: spec.durability)
        do {
            for rep in 0..<cell.repetitions { try cell.repetition(rep, &opened) }
            try opened.close()
        } catch {
            try? opened.close()
            throw error
        }
        return cell.outcome()
    }

    /// How long a warm-up repetition's timed operations run (see `OperationTimer.budget`): a
    /// repetition shorter than this warms up in full, as every cell did before.
    static let warmUpBudget: UInt64 = 250_000_000

    /// Runs `body` inside `sb_measured_region`, the one function callgrind counts in
    /// `--measure instructions` runs.
    static func measuredRegion<T>(_ body: () throws -> T) throws -> T {
        var result: T?
        try withoutActuallyEscaping({ result = try body() }) { run in
            let box = RegionBox(run)
            sb_measured_region({ context in
                let box = Unmanaged<RegionBox>.fromOpaque(context!).takeUnretainedValue()
                do { try box.body() } catch { box.error = error }
            }, Unmanaged.passUnretained(box).toOpaque())
            if let error = box.error { throw error }
        }
        return result!
    }

    /// Bytes allocated on disk under `directory` (sparse files count what they use).
    public static func allocatedBytes(_ directory: URL) -> UInt64? {
        FileManager.default.fileExists(atPath: directory.path) ? StoreFiles(directory).allocated : nil
    }
}

/// A body and its outcome, passed through the C measured region (internal).
private final class RegionBox {
    let body: () throws -> Void
    var error: (any Error)?
    init(_ body: @escaping () throws -> Void) { self.body = body }
}

/// A backend or a floor program, ready to open over a directory (internal).
enum Target {
    case backend(BackendDescriptor)
    case program(FloorProgram)

    init(spec: CellSpec, backends: [BackendDescriptor], programs: [FloorProgram]) throws {
        let id = spec.target
        if id.isBackend {
            guard let d = backends.first(where: { $0.name == id.name }) else {
                throw BenchError("unknown backend '\(id.name)'; known: \(backends.map(\.name).joined(separator: ", "))")
            }
            self = .backend(d)
        } else {
            guard let p = programs.first(where: { $0.id == id }) else {
                throw BenchError("unknown program '\(id)'; known: \(programs.map(\.id.description).joined(separator: ", "))")
            }
            self = .program(p)
        }
    }

    func open(_ directory: URL, durability: Durability) throws -> OpenTarget {
        switch self {
        case .backend(let d):
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return .backend(try d.open(BenchSchema.schema, directory, StoreOptions(durability: durability)))
        case .program(let p):
            return .floor(try p.open(directory, durability: durability))
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
