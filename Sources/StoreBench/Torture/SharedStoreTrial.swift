import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// One trial of several processes on one store: writers and readers run side by side
/// (`SharedStoreChild`); at seeded moments one of them is killed with SIGKILL and started
/// again while the others go on; at the end all are killed. No reader may see a torn state,
/// and the reopened store must hold every writer's acknowledged commits (and at most the one
/// in flight), agree with itself and verify clean.
public struct SharedStoreTrial: Sendable {
    public struct Outcome: Sendable {
        public var seed: UInt64
        public var kills = 0
        /// Per writer: its last acknowledged commit, and its head in the reopened store.
        public var acknowledged: [Int] = [], heads: [Int] = []
        /// Consistent snapshots the readers checked.
        public var readerChecks = 0
        public var failure: String?
    }

    public let backend: BackendDescriptor
    /// The `storebench` executable, run as `shared-store-child`.
    public let executable: URL
    public let durability: Durability
    public let writers: Int, readers: Int
    /// Seconds the processes run before the final kill.
    public let seconds: Double

    public init(backend: BackendDescriptor, executable: URL, durability: Durability, writers: Int, readers: Int, seconds: Double) {
        self.backend = backend
        self.executable = executable
        self.durability = durability
        self.writers = writers
        self.readers = readers
        self.seconds = seconds
    }

    /// Runs the trial of `seed` in `work` (made afresh; left for the caller to keep or remove).
    public func run(seed: UInt64, in work: URL) -> Outcome {
        var outcome = Outcome(seed: seed)
        let store = work.appendingPathComponent("store")
        do {
            try? FileManager.default.removeItem(at: work)
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try backend.open(SocialSchema.make(), store, StoreOptions(durability: durability)).close()
            var children = try (0..<(writers + readers)).map { try start($0, work: work, store: store) }
            defer { for c in children where c.isRunning { kill(c.processIdentifier, SIGKILL); c.waitUntilExit() } }
            var rng = SplitMix64(seed: seed)
            let deadline = Date(timeIntervalSinceNow: seconds)
            while Date() < deadline {
                usleep(useconds_t(20_000 + rng.below(180) * 1_000))
                if let ended = children.indices.first(where: { !children[$0].isRunning }) {
                    throw StoreError(.io, "\(role(ended)) ended by itself: \(tail(work, ended))")
                }
                let victim = rng.below(children.count)
                kill(children[victim].processIdentifier, SIGKILL)
                children[victim].waitUntilExit()
                children[victim] = try start(victim, work: work, store: store)
                outcome.kills += 1
            }
            if let ended = children.indices.first(where: { !children[$0].isRunning }) {
                throw StoreError(.io, "\(role(ended)) ended by itself: \(tail(work, ended))")
            }
            for c in children { kill(c.processIdentifier, SIGKILL); c.waitUntilExit() }
            outcome.readerChecks = readerChecks(work)
            outcome.failure = try reopenAndCheck(store, work: work, &outcome)
            if outcome.failure == nil && outcome.acknowledged.reduce(0, +) == 0 { outcome.failure = "the writers acknowledged no commit: nothing was tested" }
            if outcome.failure == nil && readers > 0 && outcome.readerChecks == 0 { outcome.failure = "the readers checked no snapshot: nothing was tested" }
        } catch {
            outcome.failure = "\(error)"
        }
        return outcome
    }

    /// Child `index`: writers first, then readers.
    private func role(_ index: Int) -> String { index < writers ? "writer \(index)" : "reader \(index - writers)" }

    private func start(_ index: Int, work: URL, store: URL) throws -> Process {
        let log = work.appendingPathComponent("child\(index).log")
        if !FileManager.default.fileExists(atPath: log.path) { FileManager.default.createFile(atPath: log.path, contents: nil) }
        let out = try FileHandle(forWritingTo: log)
        out.seekToEndOfFile()
        let roleArguments = index < writers
            ? ["--writer", String(index), "--acks", work.appendingPathComponent("acks\(index)").path]
            : ["--progress", work.appendingPathComponent("checks\(index)").path]
        let p = Process.child(executable, ["shared-store-child", "--backend", backend.name, "--writers", String(writers),
                                           "--durability", durability.rawValue] + roleArguments + [store.path], output: out)
        try p.run()
        try out.close()
        return p
    }

    private func tail(_ work: URL, _ index: Int) -> String {
        let text = (try? String(contentsOf: work.appendingPathComponent("child\(index).log"), encoding: .utf8)) ?? ""
        return String(text.suffix(400)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func readerChecks(_ work: URL) -> Int {
        (writers..<(writers + readers)).reduce(0) { sum, i in
            let text = (try? String(contentsOf: work.appendingPathComponent("checks\(i)"), encoding: .utf8)) ?? ""
            return sum + text.split(separator: "\n").compactMap { Int($0) }.reduce(0, +)
        }
    }

    /// After the last kill: every acknowledged commit there, the store consistent and clean.
    private func reopenAndCheck(_ store: URL, work: URL, _ outcome: inout Outcome) throws -> String? {
        outcome.acknowledged = (0..<writers).map { TortureWriter.lastAcknowledged(work.appendingPathComponent("acks\($0)")) }
        let repo = try backend.open(SocialSchema.make(), store, StoreOptions(durability: durability))
        let (heads, problem) = try repo.read { try SharedStoreChild.check($0, writers: writers) }
        try repo.close()
        outcome.heads = heads
        if let problem { return "the reopened store is torn: \(problem)" }
        for w in 0..<writers where !(outcome.acknowledged[w]...(outcome.acknowledged[w] + 1)).contains(heads[w]) {
            return "writer \(w) acknowledged \(outcome.acknowledged[w]) commits; the reopened store holds \(heads[w])"
        }
        let report = try backend.verify(SocialSchema.make(), store, StoreOptions(durability: durability))
        return report.isClean ? nil : "verify found \(report.problemCount) problem(s): \(report.problems.prefix(3).map(\.description).joined(separator: "; "))"
    }
}
