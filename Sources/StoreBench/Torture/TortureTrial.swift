import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// One crash trial: a writer child is killed with SIGKILL at a seeded moment, then the store
/// is reopened and checked against the states its acknowledgements allow.
///
/// The expected states come from replaying the seed's transactions on a fresh store of the
/// same backend: after the last acknowledged commit `n`, the store must hold exactly the state
/// after `n` transactions, or after `n + 1` (the one in flight may have committed before its
/// acknowledgement was written). Anything else is a lost or torn commit. `verify()` must be
/// clean, and the store must reopen.
public struct TortureTrial: Sendable {
    public struct Outcome: Sendable, Codable {
        public var seed: UInt64
        public var killAfterMilliseconds: Int
        /// The last acknowledged transaction.
        public var acknowledged: Int
        /// Whether the store held the in-flight transaction too.
        public var inFlightCommitted: Bool
        /// Records and links in the store after the kill.
        public var records: Int, links: Int
        /// Why the trial failed, or nil.
        public var failure: String?
    }

    public let backend: BackendDescriptor
    /// The `storebench` executable, run as `torture-writer`.
    public let executable: URL
    public let durability: Durability

    public init(backend: BackendDescriptor, executable: URL, durability: Durability) {
        self.backend = backend
        self.executable = executable
        self.durability = durability
    }

    /// Runs the trial of `seed` in `work` (a fresh directory, left in place for the caller to
    /// keep or remove).
    public func run(seed: UInt64, in work: URL) -> Outcome {
        var rng = SplitMix64(seed: seed)
        // A third of the kills land while the process starts and creates the store.
        let delay = rng.chance(0.3) ? rng.below(60) : 60 + rng.below(240)
        var outcome = Outcome(seed: seed, killAfterMilliseconds: delay, acknowledged: 0, inFlightCommitted: false,
                              records: 0, links: 0, failure: nil)
        let store = work.appendingPathComponent("store"), acks = work.appendingPathComponent("acks")
        do {
            try? FileManager.default.removeItem(at: work)   // a rerun of a kept trial starts afresh
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let status = try killWriter(store: store, acks: acks, seed: seed, after: delay)
            outcome.acknowledged = TortureWriter.lastAcknowledged(acks)
            if let status { throw StoreError(.io, "the writer stopped by itself before the kill (\(status))") }
            let actual = try reopen(store)
            (outcome.records, outcome.links) = actual.size
            let expected = try replay(seed: seed, upTo: outcome.acknowledged + 1, in: work.appendingPathComponent("reference"))
            if actual == expected[0] {
                outcome.inFlightCommitted = false
            } else if expected.count > 1 && actual == expected[1] {
                outcome.inFlightCommitted = true
            } else {
                let why = actual.difference(from: expected[0]) ?? "?"
                outcome.failure = "after \(outcome.acknowledged) acknowledged commits the store matches neither that state nor the next: \(why)"
                return outcome
            }
            let report = try backend.verify(SocialSchema.make(), store, StoreOptions(durability: durability))
            if !report.isClean { outcome.failure = "verify found \(report.problemCount) problem(s): \(report.problems.prefix(3).map(\.description).joined(separator: "; "))" }
        } catch {
            outcome.failure = "\(error)"
        }
        return outcome
    }

    // MARK: Internal helpers

    /// Starts the writer, kills it with SIGKILL after `ms` milliseconds; returns a
    /// description when it ended by itself first.
    private func killWriter(store: URL, acks: URL, seed: UInt64, after ms: Int) throws -> String? {
        let err = Pipe()
        let p = Process.child(executable, ["torture-writer", "--backend", backend.name, "--seed", String(seed),
                                           "--durability", durability.rawValue, "--acks", acks.path, store.path], output: err)
        try p.run()
        let ranOut = !p.waits(until: Date().addingTimeInterval(Double(ms) / 1000), polling: 0.001)
        if !ranOut { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        guard ranOut else { return nil }
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return "status \(p.terminationStatus): \(message.suffix(500))"
    }

    /// Opens the store after the kill and reads all of it.
    private func reopen(_ store: URL) throws -> StoreSnapshot {
        let repo: any Repository
        do { repo = try backend.open(SocialSchema.make(), store, StoreOptions(durability: durability)) } catch {
            throw StoreError(.io, "the store does not reopen after the kill: \(error)")
        }
        defer { try? repo.close() }
        return try StoreSnapshot(repo)
    }

    /// The states after `upTo - 1` and `upTo` transactions, replayed on a fresh store.
    private func replay(seed: UInt64, upTo last: Int, in directory: URL) throws -> [StoreSnapshot] {
        try? FileManager.default.removeItem(at: directory)
        let repo = try backend.open(SocialSchema.make(), directory, StoreOptions(durability: .relaxed))
        defer { try? repo.close() }
        for i in stride(from: 1, to: last, by: 1) {
            try repo.write { tx in try TortureWorkload.run(seed: seed, index: i, in: tx) }
        }
        let before = try StoreSnapshot(repo)
        try repo.write { tx in try TortureWorkload.run(seed: seed, index: last, in: tx) }
        return [before, try StoreSnapshot(repo)]
    }
}
