import ArgumentParser
import Foundation
import StoreBench
import StoreCore


struct TortureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "torture",
        abstract: "Crash trials: kill a writer with SIGKILL at random moments, then check what survived.",
        discussion: """
            Each trial starts a writer process that creates a store and commits seeded \
            transactions (inserts, upserts, updates, links, unlinks, deletes with their cascades, \
            batches; some values span several pages), acknowledging each commit after it returns. \
            The writer is killed with SIGKILL after 0–300 ms (a third of the kills land while it \
            starts and creates the store). The store is then reopened and must hold exactly the \
            state after the last acknowledged commit, or after the one in flight; `verify` must \
            find it clean. Expected states are rebuilt by replaying the seed on a fresh store.

            A failing trial's directory is kept and printed; the exit status is 1 when any trial \
            failed. Trials are reproducible: the same --seed gives the same transactions and \
            kill times (the moment a kill lands in the writer's work still varies).

            Example:
              storebench torture --backend lmdb --trials 200 --seed 7
            """
    )

    @OptionGroup var backendOptions: BackendOptions

    @Option(help: "Trials per backend.")
    var trials: Int = 20

    @Option(help: "The first trial's seed; trial k uses seed + k.")
    var seed: UInt64 = 1

    @Option(help: "The writer's durability: \(Durability.allCases.map(\.rawValue).joined(separator: ", ")). Either must lose nothing on a process crash.")
    var durability: Durability = .durable

    @Option(help: "Where trials run (default: the temporary directory); each run makes a folder of its own there, removed when every trial passed.")
    var work: String?

    func validate() throws {
        guard trials > 0 else { throw ValidationError("--trials must be at least 1") }
    }

    func run() throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        // A folder of its own, inside --work when given: only it is removed afterwards.
        let root = (work.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent("storebench-torture-\(UUID().uuidString)")
        var rows: [String] = []
        var failed = 0
        for name in backendOptions.selected {
            let trial = TortureTrial(backend: Registry.backend(named: name)!, executable: executable, durability: durability)
            var acknowledged = 0, inFlight = 0, early = 0, failures = 0
            let started = Date()
            for k in 0..<trials {
                let dir = root.appendingPathComponent("\(name)-\(seed &+ UInt64(k))")
                let o = trial.run(seed: seed &+ UInt64(k), in: dir)
                acknowledged += o.acknowledged
                if o.inFlightCommitted { inFlight += 1 }
                if o.acknowledged == 0 { early += 1 }
                if let f = o.failure {
                    failures += 1
                    StandardError.write("\n\(name) trial seed \(o.seed) (kill after \(o.killAfterMilliseconds) ms, \(o.acknowledged) acknowledged) FAILED: \(f)\n  kept in \(dir.path)\n")
                } else {
                    try? FileManager.default.removeItem(at: dir)
                }
                progress("\(name): \(k + 1)/\(trials) trials, \(failures) failed", done: k + 1 == trials)
            }
            failed += failures
            let seconds = Int(Date().timeIntervalSince(started))
            rows.append("| \(name) | \(trials) | \(acknowledged) | \(inFlight) | \(early) | \(failures) | \(seconds) s |")
        }
        if failed == 0 { try? FileManager.default.removeItem(at: root) }
        print("Crash trials (SIGKILL), seeds \(seed)…\(seed &+ UInt64(trials - 1)), \(durability.rawValue) commits:\n")
        print("| backend | trials | acknowledged commits | in-flight commit found | killed before the first commit | failed | time |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        rows.forEach { print($0) }
        if failed > 0 { throw ExitCode(1) }
    }

    private func progress(_ line: String, done: Bool) {
        if StandardError.isInteractive {
            StandardError.write("\r\(line)\(done ? "\n" : "")")
        } else if done {
            StandardError.write(line + "\n")
        }
    }
}

struct TortureWriterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "torture-writer",
        abstract: "The writer of a crash trial; `torture` starts and kills it.",
        shouldDisplay: false
    )

    @Option var backend: BackendName
    @Option var seed: UInt64
    @Option var durability: Durability = .durable
    @Option(help: "The acknowledgement file.") var acks: String
    @Argument var directory: String

    func run() throws {
        try TortureWriter.run(Registry.backend(named: backend.name)!, directory: URL(fileURLWithPath: directory), seed: seed,
                              acknowledgements: URL(fileURLWithPath: acks), durability: durability)
    }
}
