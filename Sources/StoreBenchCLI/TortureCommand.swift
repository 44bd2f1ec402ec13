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

            With --mode migration, each trial copies a version-1 store (about 2,000 records and \
            5,000 links) and starts a child that opens it with version 3 and a two-stage migration \
            (a transform of every user; an entity rename, a new attribute and a new index), \
            killing it at a seeded moment spread over the migration's measured duration. The \
            store must then open at version 1 with exactly the old data or at version 3 with \
            exactly the migrated data, never at version 2 or with part of a stage, and `verify` \
            must find it clean.

            With --mode shared, each trial runs --processes processes on one store, half writers \
            (rounded up) and half readers, for --seconds: every 20–200 ms one of them is killed with \
            SIGKILL and started again while the others go on, and at the end all are killed. Each \
            writer owns its keys and commits transactions that move its head record and add a user \
            and a linked post, acknowledging each; readers check in one read transaction after \
            another that every writer's records agree with its head. No reader may see a torn \
            state; the reopened store must hold each writer's acknowledged commits (or one more), \
            agree with itself and verify clean.

            A failing trial's directory is kept and printed; the exit status is 1 when any trial \
            failed. Trials are reproducible: the same --seed gives the same transactions and \
            kill times (the moment a kill lands in the writer's work still varies).

            Examples:
              storebench torture --backend lmdb --trials 200 --seed 7
              storebench torture --mode migration --trials 300
              storebench torture --mode shared --processes 4 --trials 10 --backend sqlite
            """
    )

    /// What the killed child does.
    enum Mode: String, ExpressibleByArgument, CaseIterable {
        /// Commits seeded transactions.
        case writes
        /// Migrates a store from version 1 to version 3.
        case migration
        /// Several writer and reader processes on one store, killed and restarted at random.
        case shared
    }

    @Option(help: "What the killed child does: \(Mode.allCases.map(\.rawValue).joined(separator: ", ")) (commits seeded transactions, or migrates a store v1 → v3).")
    var mode: Mode = .writes

    @OptionGroup var backendOptions: BackendOptions

    @Option(help: "With --mode shared: processes on one store, half writers (rounded up), half readers.")
    var processes: Int = 4

    @Option(help: "With --mode shared: seconds the processes run in each trial before the final kill.")
    var seconds: Double = 2

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
        guard (2...32).contains(processes) else { throw ValidationError("--processes must be 2…32, got \(processes)") }
        guard seconds > 0 && seconds <= 3_600 else { throw ValidationError("--seconds must be more than 0 and at most 3600, got \(seconds)") }
    }

    func run() throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        // A folder of its own, inside --work when given: only it is removed afterwards.
        let root = (work.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent("storebench-torture-\(UUID().uuidString)")
        if mode == .migration { return try runMigrationTrials(executable: executable, root: root) }
        if mode == .shared { return try runSharedTrials(executable: executable, root: root) }
        var rows: [String] = []
        var failed = 0
        for name in backendOptions.selected {
            let trial = TortureTrial(backend: Registry.backend(named: name)!, executable: executable, durability: durability)
            var acknowledged = 0, inFlight = 0, early = 0
            let started = Date()
            let failures = eachTrial(name, root: root, kind: "trial") { seed, dir in
                let o = trial.run(seed: seed, in: dir)
                acknowledged += o.acknowledged
                if o.inFlightCommitted { inFlight += 1 }
                if o.acknowledged == 0 { early += 1 }
                return (o.failure, "kill after \(o.killAfterMilliseconds) ms, \(o.acknowledged) acknowledged")
            }
            failed += failures
            rows.append("| \(name) | \(trials) | \(acknowledged) | \(inFlight) | \(early) | \(failures) | \(Int(Date().timeIntervalSince(started))) s |")
        }
        try finish("Crash trials (SIGKILL)", failed: failed, root: root, rows: rows,
                   header: "| backend | trials | acknowledged commits | in-flight commit found | killed before the first commit | failed | time |")
    }

    private func runMigrationTrials(executable: URL, root: URL) throws {
        var rows: [String] = []
        var failed = 0
        for name in backendOptions.selected {
            let started = Date()
            let setup = root.appendingPathComponent("\(name)-setup")
            let trial = try MigrationTortureTrial.prepare(backend: Registry.backend(named: name)!, executable: executable,
                                                          durability: durability, in: setup)
            var atOld = 0, atNew = 0, finished = 0
            let failures = eachTrial(name, root: root, kind: "migration trial") { seed, dir in
                let o = trial.run(seed: seed, in: dir)
                if o.version == 1 { atOld += 1 } else if o.version == 3 { atNew += 1 }
                if o.finishedFirst { finished += 1 }
                return (o.failure, "kill after \(o.killAfterMilliseconds) ms")
            }
            failed += failures
            if failures == 0 { try? FileManager.default.removeItem(at: setup) }
            rows.append("| \(name) | \(trials) | \(Int((trial.childSeconds * 1000).rounded())) ms | \(atOld) | \(atNew) | \(finished) | \(failures) | \(Int(Date().timeIntervalSince(started))) s |")
        }
        try finish("Migration crash trials (SIGKILL during v1 → v3)", failed: failed, root: root, rows: rows,
                   header: "| backend | trials | migration child, start to exit | opened at v1 (old data) | opened at v3 (migrated data) | child finished before the kill | failed (between versions, other data, verify) | time |")
    }

    private func runSharedTrials(executable: URL, root: URL) throws {
        var rows: [String] = []
        var failed = 0
        let writers = (processes + 1) / 2
        for name in backendOptions.selected {
            let started = Date()
            let trial = SharedStoreTrial(backend: Registry.backend(named: name)!, executable: executable, durability: durability,
                                         writers: writers, readers: processes - writers, seconds: seconds)
            var kills = 0, acknowledged = 0, checks = 0, inFlight = 0
            let failures = eachTrial(name, root: root, kind: "shared-store trial") { seed, dir in
                let o = trial.run(seed: seed, in: dir)
                kills += o.kills
                acknowledged += o.acknowledged.reduce(0, +)
                checks += o.readerChecks
                inFlight += zip(o.heads, o.acknowledged).filter { $0 > $1 }.count
                return (o.failure, "\(o.kills) kills, \(o.acknowledged.reduce(0, +)) acknowledged")
            }
            failed += failures
            rows.append("| \(name) | \(trials) | \(writers) + \(processes - writers) | \(kills) | \(acknowledged) | \(inFlight) | \(checks) | \(failures) | \(Int(Date().timeIntervalSince(started))) s |")
        }
        try finish("Shared-store trials (\(processes) processes on one store, SIGKILL at random)", failed: failed, root: root, rows: rows,
                   header: "| backend | trials | writers + readers | kills | acknowledged commits | in-flight commit found | snapshots readers checked | failed (torn, lost, verify) | time |")
    }

    /// Runs the seeded trials of one backend, each in its own folder under `root` (removed when
    /// it passed, kept and printed when it failed), with progress. `trial` returns its failure,
    /// if any, and a description for the failure's line. Returns how many failed.
    private func eachTrial(_ name: String, root: URL, kind: String, _ trial: (_ seed: UInt64, _ dir: URL) -> (failure: String?, described: String)) -> Int {
        var failures = 0
        for k in 0..<trials {
            let s = seed &+ UInt64(k)
            let dir = root.appendingPathComponent("\(name)-\(s)")
            let (failure, described) = trial(s, dir)
            if let failure {
                failures += 1
                StandardError.write("\n\(name) \(kind) seed \(s) (\(described)) FAILED: \(failure)\n  kept in \(dir.path)\n")
            } else {
                try? FileManager.default.removeItem(at: dir)
            }
            progress("\(name): \(k + 1)/\(trials) \(kind)s, \(failures) failed", done: k + 1 == trials)
        }
        return failures
    }

    /// Prints the table; exit status 1 when a trial failed (its folder is kept).
    private func finish(_ title: String, failed: Int, root: URL, rows: [String], header: String) throws {
        if failed == 0 { try? FileManager.default.removeItem(at: root) }
        print("\(title), seeds \(seed)…\(seed &+ UInt64(trials - 1)), \(durability.rawValue) commits:\n")
        print(header)
        print("|---|" + String(repeating: "---:|", count: header.components(separatedBy: " | ").count - 1))
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

struct TortureMigratorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "torture-migrator",
        abstract: "The child of a migration crash trial; `torture --mode migration` starts and kills it.",
        shouldDisplay: false
    )

    @Option var backend: BackendName
    @Option var durability: Durability = .durable
    @Argument var directory: String

    func run() throws {
        try MigrationTorture.migrate(Registry.backend(named: backend.name)!, directory: URL(fileURLWithPath: directory), durability: durability)
    }
}

struct SharedStoreChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shared-store-child",
        abstract: "A writer or reader of a shared-store trial; `torture --mode shared` starts and kills it.",
        shouldDisplay: false
    )

    @Option var backend: BackendName
    @Option var writers: Int
    @Option var durability: Durability = .durable
    @Option(help: "Be writer N (with --acks); otherwise a reader (with --progress).") var writer: Int?
    @Option var acks: String?
    @Option var progress: String?
    @Option(help: "A writer stops after its commit N (by default it runs until killed).") var limit: Int = 1_000_000
    @Flag(help: "Delete the writer's head record and end (a change another process observes).") var deleteHead = false
    @Argument var directory: String

    func run() throws {
        let d = Registry.backend(named: backend.name)!, dir = URL(fileURLWithPath: directory)
        if let writer, deleteHead {
            try SharedStoreChild.deleteHead(d, directory: dir, writer: writer, durability: durability)
        } else if let writer, let acks {
            try SharedStoreChild.write(d, directory: dir, writer: writer, acknowledgements: URL(fileURLWithPath: acks),
                                       durability: durability, limit: limit)
        } else if let progress {
            try SharedStoreChild.read(d, directory: dir, writers: writers, progress: URL(fileURLWithPath: progress), durability: durability)
        } else {
            throw ValidationError("give --writer N --acks FILE, or --progress FILE for a reader")
        }
    }
}
