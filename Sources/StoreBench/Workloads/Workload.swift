import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// Which data a workload needs loaded before it starts.
public enum DatasetKind: String, Codable, Sendable {
    /// The social dataset of the scale (users, posts, comments, tags, follows).
    case social
    /// `rows.fetch` rows of the 10-integer shape.
    case rows
    /// Nothing: the workload builds its own store (YCSB's `usertable`) through
    /// `WorkloadContext.openStore`; the cell starts from an empty one.
    case empty
}

/// One registered unit of measurement: a name, a category, what it measures, and how to set up,
/// run and tear down one repetition, on a backend and (where one exists) on its engine's floor.
///
/// ```swift
/// Workload.define("crud.read-pk.single", .crud, "Read a post by primary key, one read transaction each",
///     setup: { ctx in ctx.randomKeys(ctx.spec.operations.single, upTo: ctx.generator.posts) },
///     body: { repo, keys, timer in … },
///     floor: { floor, keys, timer in try floor.readPosts(keys, perTransaction: 1, timer: timer) })
/// ```
/// Order per repetition: (fresh store copy when `mutatesStore`), setup, body (timed), teardown.
/// `results`, where given, runs once per cell after its first measured repetition, untimed and
/// outside the counted region, on backends: its digest is compared across backends;
/// `floorResults` gives the same digest on a floor, compared with the backends'.
public struct Workload: Sendable {
    public let name: String
    public let category: WorkloadCategory
    public let summary: String
    public let dataset: DatasetKind
    /// Each repetition starts from a fresh copy of the loaded store.
    public let mutatesStore: Bool
    /// Runs once, without warm-up: the loads that build the store the other workloads copy.
    public let loadsDataset: Bool
    /// A bare C-API version exists for the floors.
    public let hasFloor: Bool
    /// Backends without these capabilities do not run it (the plan leaves their cells out).
    public let requires: Capabilities
    /// At most this many rounds, whatever the profile asks (latency workloads whose
    /// percentiles pool enough operations in one); nil: the profile's.
    public let maxRounds: Int?
    /// Runs at the plan's largest scale only: its cost hardly depends on the dataset's size
    /// (threads and pace, YCSB's own table), so smaller scales would add time, not knowledge.
    public let largestScaleOnly: Bool
    /// Part of the quick profile's default set (`make bench`); the others run in `standard`.
    public let inQuickProfile: Bool
    /// The file a workload was built from (`--ycsb FILE`): cells build it again from there.
    public let definitionFile: String?
    /// Compared across backends in summaries; false for a load that only builds a store twice over.
    public var isCompared = true
    /// Charted across scales in the report (cost as data grows).
    public var chartedAcrossScales = false
    /// Its allocations are counted in one more repetition; false where the work runs in other
    /// processes (`multiprocess.*`), whose allocations the cell process cannot count.
    public var countsAllocations = true
    /// Its floor body runs only on the programs that name it (`FloorProgram.alsoRuns`), not
    /// on the engines' floors: a body that needs what only some programs offer (`ConcurrentReads`).
    public var namedProgramsOnly = false
    let prepare: @Sendable (WorkloadContext) throws -> PreparedRepetition

    /// Declares a workload whose repetitions share a `State` built by `setup`.
    public static func define<State>(
        _ name: String, _ category: WorkloadCategory, _ summary: String,
        dataset: DatasetKind = .social, mutatesStore: Bool = false, loadsDataset: Bool = false,
        requires: Capabilities = [], maxRounds: Int? = nil, largestScaleOnly: Bool = false, inQuickProfile: Bool = true,
        definitionFile: String? = nil,
        setup: @escaping @Sendable (WorkloadContext) throws -> State,
        body: @escaping @Sendable (any Repository, State, OperationTimer) throws -> Int,
        floor: (@Sendable (any Floor, State, OperationTimer) throws -> Int)? = nil,
        results: (@Sendable (any Repository, State) throws -> String)? = nil,
        floorResults: (@Sendable (any Floor, State) throws -> String)? = nil,
        teardown: @escaping @Sendable (State) -> Void = { _ in }
    ) -> Workload {
        Workload(
            name: name, category: category, summary: summary, dataset: dataset, mutatesStore: mutatesStore,
            loadsDataset: loadsDataset, hasFloor: floor != nil, requires: requires, maxRounds: maxRounds,
            largestScaleOnly: largestScaleOnly, inQuickProfile: inQuickProfile, definitionFile: definitionFile,
            prepare: { ctx in
                let state = try setup(ctx)
                return PreparedRepetition(
                    backend: { repo, timer in try body(repo, state, timer) },
                    floor: floor.map { f in { fl, timer in try f(fl, state, timer) } },
                    results: results.map { r in { repo in try r(repo, state) } },
                    floorResults: floorResults.map { r in { floor in try r(floor, state) } },
                    teardown: { teardown(state) })
            })
    }
}

extension Workload {
    /// A copy with `edit` applied (a suite sets what it declares about its workloads).
    public func with(_ edit: (inout Workload) -> Void) -> Workload {
        var w = self
        edit(&w)
        return w
    }
}

/// One repetition after setup (internal).
struct PreparedRepetition {
    let backend: (any Repository, OperationTimer) throws -> Int
    let floor: ((any Floor, OperationTimer) throws -> Int)?
    /// The digest of what the workload's operations return on a backend (`ResultDigest`),
    /// taken once per cell outside the measured region; nil for a workload that checks none.
    var results: ((any Repository) throws -> String)? = nil
    /// The same digest of what a floor returns for the same operations.
    var floorResults: ((any Floor) throws -> String)? = nil
    let teardown: () -> Void
}

/// What a workload's setup and body may use.
public final class WorkloadContext {
    public let generator: SocialGenerator
    public let workload: String
    /// 0-based, counting warm-up repetitions.
    public let repetition: Int
    /// The directory of the store under test.
    public let storeDirectory: URL
    /// Resident bytes of the cell process before the store was opened.
    public let residentAtStart: UInt64
    /// Opens the store under test again with another schema and a migration plan, for a
    /// migration workload (its body closes the store it was given first); `nil` on a floor.
    public internal(set) var reopen: ((Schema, MigrationPlan) throws -> any Repository)?
    /// How `randomKeys` draws (`--distribution`); uniform by default.
    public internal(set) var keyDistribution = KeyDistribution.uniform
    /// Opens a new store of the target backend in a directory with another schema (YCSB's
    /// `usertable`); `nil` on a floor.
    public internal(set) var openStore: ((Schema, URL) throws -> any Repository)?
    /// Compacts the store under test, which must be closed (`BackendDescriptor.compact`);
    /// `nil` on a floor and for a backend without compaction.
    public internal(set) var compact: (() throws -> Void)?
    /// The fixtures folder of the run.
    public internal(set) var fixtures: URL?
    /// Starts other processes on the store under test (multi-process workloads); `nil` on a
    /// floor and where the run has no executable to start.
    public internal(set) var peers: PeerLauncher?
    /// True in the warm-up repetition, whose results are dropped: workloads that pace or
    /// drive their own loops (paced threads, observers, YCSB) run a tenth of their operations
    /// then; loops timed by `OperationTimer.each` stop at the timer's budget by themselves.
    public internal(set) var isWarmUp = false
    /// Figures a workload reports from its setup or body (memory workloads): name → value.
    public internal(set) var metrics: [String: Double] = [:]
    /// Parameters the workload ran with (`record`): name → value.
    public internal(set) var parameters: [String: String] = [:]

    public var spec: DatasetSpec { generator.spec }

    /// `n` in a measured repetition, a tenth of it (at least 1) in the warm-up (`isWarmUp`).
    public func scaledForWarmUp(_ n: Int) -> Int { isWarmUp ? max(1, n / 10) : n }

    init(generator: SocialGenerator, workload: String, repetition: Int, storeDirectory: URL, residentAtStart: UInt64) {
        self.residentAtStart = residentAtStart
        self.generator = generator
        self.workload = workload
        self.repetition = repetition
        self.storeDirectory = storeDirectory
    }

    /// Reports a figure of this repetition.
    public func report(_ figure: Figure, _ value: Double) { metrics[figure.name] = value }

    /// A figure reported earlier in this cell (a peak kept across repetitions).
    public func reported(_ figure: Figure) -> Double? { metrics[figure.name] }

    /// Records a parameter the workload runs with; a measured repetition's value is the one kept.
    public func record(_ parameter: Parameter, _ value: some CustomStringConvertible) {
        if !isWarmUp { parameters[parameter.name] = value.description }
    }

    /// The same random stream for every backend at this repetition.
    public func random() -> SplitMix64 { generator.workloadStream(workload, repetition: repetition) }
}
