import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// One migration crash trial: a child opens a copy of the version-1 store with version 3 and
/// `MigrationTorture.plan`, and is killed with SIGKILL at a seeded moment of the migration.
/// The store must then open at version 1 holding exactly the old data, or at version 3 holding
/// exactly what the migration makes of it (never at version 2, never with part of a stage),
/// and `verify` must find it clean.
///
/// `prepare` builds the version-1 template once per backend, the expected version-3 state (the
/// same migration run in this process), and times a migration child from the moment it starts
/// opening the store (it says so on its standard output) to its exit, the median of three;
/// kill moments spread evenly over that time, counted from the same moment.
public struct MigrationTortureTrial: Sendable {
    public struct Outcome: Sendable, Codable {
        public var seed: UInt64
        public var killAfterMilliseconds: Double
        /// The version the store opened at after the kill (1 or 3), or nil when the trial failed.
        public var version: Int?
        /// The child had finished the migration before the kill.
        public var finishedFirst: Bool
        public var failure: String?
    }

    public let backend: BackendDescriptor
    public let executable: URL
    public let durability: Durability
    let template: URL
    let old: StoreSnapshot
    let new: StoreSnapshot
    /// Seconds a migration child takes from starting to open the store to its exit (median of three).
    public let childSeconds: Double

    /// Builds the template store in `root`, the expected states and the child's timing.
    public static func prepare(backend: BackendDescriptor, executable: URL, durability: Durability,
                               in root: URL) throws -> MigrationTortureTrial {
        let fm = FileManager.default
        let template = root.appendingPathComponent("template")
        try? fm.removeItem(at: root)
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        let repo = try backend.open(MigrationTorture.v1, template, StoreOptions(durability: durability))
        try MigrationTorture.load(into: repo)
        let old = try StoreSnapshot(repo)
        try repo.close()

        let reference = root.appendingPathComponent("reference")
        try fm.copyItem(at: template, to: reference)
        let migrated = try backend.open(MigrationTorture.v3, reference, StoreOptions(durability: durability, migrations: MigrationTorture.plan))
        let new = try StoreSnapshot(migrated)
        try migrated.close()

        var timings: [Double] = []
        for k in 0..<3 {
            let copy = root.appendingPathComponent("timing-\(k)")
            try fm.copyItem(at: template, to: copy)
            let out = Pipe()
            let p = Process.child(executable, childArguments(backend, durability, copy), output: out)
            try p.run()
            let started = try waitForStart(out, p)
            // waitUntilExit() notices an exit only every 50 ms or so: poll finely instead.
            _ = p.waits(until: .distantFuture, polling: 0.0002)
            let took = Date().timeIntervalSince(started)
            p.waitUntilExit()
            guard p.terminationStatus == 0 else { throw StoreError(.io, "the migration child failed on an untouched copy (status \(p.terminationStatus))") }
            timings.append(took)
            try? fm.removeItem(at: copy)
        }
        return MigrationTortureTrial(backend: backend, executable: executable, durability: durability,
                                     template: template, old: old, new: new, childSeconds: timings.sorted()[1])
    }

    static func childArguments(_ backend: BackendDescriptor, _ durability: Durability, _ store: URL) -> [String] {
        ["torture-migrator", "--backend", backend.name, "--durability", durability.rawValue, store.path]
    }

    /// Blocks until the child wrote `MigrationTorture.startMarker`; returns that moment.
    private static func waitForStart(_ out: Pipe, _ p: Process) throws -> Date {
        var seen: [UInt8] = []
        let marker = Array(MigrationTorture.startMarker.utf8)
        while !seen.suffix(marker.count).elementsEqual(marker) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty {
                p.waitUntilExit()
                throw StoreError(.io, "the migration child ended before it started (status \(p.terminationStatus)): \(String(decoding: seen.suffix(500), as: UTF8.self))")
            }
            seen += chunk
        }
        return Date()
    }

    /// Runs the trial of `seed` in `work` (a fresh directory, left for the caller).
    public func run(seed: UInt64, in work: URL) -> Outcome {
        var rng = SplitMix64(seed: seed)
        let delay = Double(rng.below(1_000_000)) / 1_000_000 * childSeconds
        var outcome = Outcome(seed: seed, killAfterMilliseconds: (delay * 1000 * 10).rounded() / 10, version: nil, finishedFirst: false, failure: nil)
        let store = work.appendingPathComponent("store")
        do {
            try? FileManager.default.removeItem(at: work)
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: template, to: store)
            let out = Pipe()
            let p = Process.child(executable, Self.childArguments(backend, durability, store), output: out)
            try p.run()
            let started = try Self.waitForStart(out, p)
            let ranOut = !p.waits(until: started.addingTimeInterval(delay), polling: 0.0005)
            if !ranOut { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
            if ranOut {
                guard p.terminationStatus == 0 else { throw StoreError(.io, "the migration child failed by itself (status \(p.terminationStatus))") }
                outcome.finishedFirst = true
            }
            outcome.version = try check(store)
        } catch {
            outcome.failure = "\(error)"
        }
        return outcome
    }

    /// The version the store is at after the kill; throws when it is at neither end, holds
    /// other data than that version's, or does not verify.
    private func check(_ store: URL) throws -> Int {
        let options = StoreOptions(durability: durability)
        var errors: [String] = []
        for (version, schema, expected) in [(1, MigrationTorture.v1, old), (3, MigrationTorture.v3, new)] {
            let repo: any Repository
            do { repo = try backend.open(schema, store, options) } catch let e as StoreError where e.category == .schemaMismatch {
                errors.append("version \(version): \(e.message)")
                continue
            }
            let actual: StoreSnapshot
            do {
                defer { try? repo.close() }
                actual = try StoreSnapshot(repo)
            }
            if let why = actual.difference(from: expected) {
                throw StoreError(.corrupted, "the store opens at version \(version) but holds other data than that version's: \(why)")
            }
            let report = try backend.verify(schema, store, options)
            guard report.isClean else {
                throw StoreError(.corrupted, "at version \(version), verify found \(report.problemCount) problem(s): \(report.problems.prefix(3).map(\.description).joined(separator: "; "))")
            }
            return version
        }
        if let repo = try? backend.open(MigrationTorture.v2, store, options) {
            try? repo.close()
            throw StoreError(.corrupted, "the store was left between versions: it opens at version 2")
        }
        throw StoreError(.corrupted, "the store opens at neither version: \(errors.joined(separator: "; "))")
    }
}
