import ArgumentParser
import Foundation
import GRDBStore
import LMDBStore
import SQLiteStore
import StoreBench
import StoreConformance
import StoreCore

struct DamageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "damage",
        abstract: "Damaged-file trials: damage copies of a store, then read and verify each.",
        discussion: """
            A store is written once per backend (the crash-trial workload, seed 1, 300 commits). Each \
            trial damages a copy of its data file in one way: truncated at a random length, 1–64 \
            random bytes overwritten at a random offset, or one 4 KiB block zeroed. The copy is \
            then read (every record, link and index lookup) and verified, each in a child \
            process, so a crash is counted rather than ending the run.

            Reads are "fine" when they return exactly what was written, "error" when one throws, \
            "wrong" when they return something else. A trial fails when reads are wrong and \
            `verify` says clean, when `verify` crashes or hangs, or when a read crashes anywhere \
            but inside the engine library (liblmdb aborts on some bad pages; see Documentation/Integrity.md); \
            the exit status is then 1.

            Example:
              storebench damage --backend lmdb --trials 300 --seed 1
            """
    )

    @Option(name: [.customLong("backend"), .customShort("b")],
            help: "A backend; repeat for several. Default: sqlite and lmdb (one per engine).")
    var backends: [BackendName] = []

    @Option(help: "Trials per backend and kind of damage (three kinds).")
    var trials: Int = 30

    @Option(help: "The first trial's seed; trial k uses seed + k.")
    var seed: UInt64 = 1

    @Option(help: "Seconds a read or a verify may take before it counts as a hang.")
    var timeout: Double = 60

    @Option(help: "Keep the damaged copy of every failed trial in this directory.")
    var keep: String?

    @Flag(help: "Print every trial.")
    var verbose = false

    func validate() throws {
        guard trials > 0 else { throw ValidationError("--trials must be at least 1") }
    }

    /// The file each built-in backend keeps its data in.
    static func dataFile(_ backend: String) -> String {
        switch backend {
        case "lmdb", "objectgraph+lmdb": "data.mdb"
        case "grdb": GRDBStore.fileName
        default: SQLiteStore.fileName
        }
    }

    func run() throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-damage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let names = backends.isEmpty ? ["sqlite", "lmdb"] : backends.map(\.name)
        var rows: [String] = []
        var failures: [String] = []
        for name in names {
            let trial = DamageTrial(backend: Registry.backend(named: name)!, executable: executable,
                                    dataFile: Self.dataFile(name), timeout: timeout)
            let original = root.appendingPathComponent("\(name)-original")
            // The same original whatever --seed is, so one trial reruns alone with --trials 1.
            let digest = try trial.makeOriginal(in: original, seed: 1, transactions: 300)
            for kind in DamageTrial.Kind.allCases {
                var counts: [String: Int] = [:]
                for k in 0..<trials {
                    let s = seed &+ UInt64(k)
                    let o = trial.run(kind: kind, seed: s, original: original, digest: digest,
                                      work: root.appendingPathComponent("\(name)-trial"))
                    counts["read.\(o.read.rawValue)", default: 0] += 1
                    counts["verify.\(o.verify.rawValue)", default: 0] += 1
                    let missed = o.read == .wrong && o.verify == .clean
                    if missed { counts["missed", default: 0] += 1 }
                    let ownCrash = o.read == .crash && !(o.crashSite ?? "").hasPrefix("liblmdb")
                    if ownCrash { counts["ownCrash", default: 0] += 1 }
                    if missed || ownCrash || [.crash, .hang, .error].contains(o.verify) {
                        if let keep {
                            let kept = URL(fileURLWithPath: keep).appendingPathComponent("\(name)-\(kind.rawValue)-\(s)")
                            try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
                            try? FileManager.default.moveItem(at: root.appendingPathComponent("\(name)-trial/store"), to: kept)
                        }
                        failures.append("\(name) \(kind.rawValue) seed \(s): \(o.damage); read \(o.read.rawValue), verify \(o.verify.rawValue): \(o.detail)")
                    }
                    if verbose {
                        print("\(name) \(kind.rawValue) seed \(s): \(o.damage); read \(o.read.rawValue)\(o.crashSite.map { " in \($0)" } ?? ""); verify \(o.verify.rawValue)")
                    }
                    if StandardError.isInteractive { StandardError.write("\r\(name) \(kind.rawValue): \(k + 1)/\(trials)") }
                }
                if StandardError.isInteractive { StandardError.write("\n") }
                func c(_ key: String) -> Int { counts[key, default: 0] }
                rows.append("| \(name) | \(kind.rawValue) | \(trials) | \(c("read.fine")) | \(c("read.error")) | \(c("read.wrong")) | \(c("read.crash") + c("read.hang")) (\(c("ownCrash")) outside the engine) | \(c("verify.damaged")) | \(c("missed")) | \(c("verify.crash") + c("verify.hang") + c("verify.error")) |")
            }
        }
        print("Damaged-file trials, seeds \(seed)…\(seed &+ UInt64(trials - 1)):\n")
        print("| backend | damage | trials | reads fine | read error | reads wrong | read crash/hang | verify: damaged | wrong reads verify missed | verify crash/hang/error |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        rows.forEach { print($0) }
        if !failures.isEmpty {
            print("\nFailed trials:")
            failures.prefix(30).forEach { print("- \($0)") }
            throw ExitCode(1)
        }
    }
}

struct DamageProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "damage-probe",
        abstract: "Reads or verifies one damaged store; `damage` runs it in a child process.",
        shouldDisplay: false
    )

    enum Mode: String, ExpressibleByArgument { case read, verify }

    @Option var backend: BackendName
    @Option var mode: Mode
    @Option(help: "The digest of the undamaged store's reads.") var expected: String?
    @Argument var directory: String

    func run() throws {
        let descriptor = Registry.backend(named: backend.name)!
        let dir = URL(fileURLWithPath: directory)
        do {
            switch mode {
            case .read:
                let repo = try descriptor.open(SocialSchema.make(), dir, StoreOptions())
                defer { try? repo.close() }
                let digest = try DamageTrial.readDigest(repo)
                print(digest == expected ? "fine" : "wrong")
                if digest != expected { throw ExitCode(1) }
            case .verify:
                let report = try descriptor.verify(SocialSchema.make(), dir, StoreOptions())
                print(report.isClean ? "clean" : report.problems.prefix(3).map(\.description).joined(separator: "; "))
                if !report.isClean { throw ExitCode(1) }
            }
        } catch let e as ExitCode {
            throw e
        } catch {
            print("error: \(error)")   // any error, so 1 always means wrong data or damage found
            throw ExitCode(3)
        }
    }
}
