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
            random bytes overwritten at a random offset, one 4 KiB block zeroed, or one structural \
            field changed (a page header, node, cell pointer, meta or header field of a page in use). \
            The copy is then read (every record, link and index lookup), with --verify-on-open also \
            opened with StoreOptions.verifyOnOpen and read, and verified, each in a child process, \
            so a crash is counted rather than ending the run.

            Reads are "fine" when they return exactly what was written, "error" when one throws, \
            "wrong" when they return something else. A trial fails when reads are wrong and \
            `verify` says clean, when `verify` crashes, hangs or changes a byte of the store's \
            files, when a read with verifyOnOpen crashes, or when a read crashes anywhere but \
            inside the engine library (liblmdb aborts on some bad pages; see \
            Documentation/Integrity.md); the exit status is then 1.

            Example:
              storebench damage --backend lmdb --trials 300 --seed 1 --verify-on-open
            """
    )

    @Option(name: [.customLong("backend"), .customShort("b")],
            help: "A backend; repeat for several. Default: sqlite and lmdb (one per engine).")
    var backends: [BackendName] = []

    @Option(help: "Trials per backend and kind of damage (four kinds).")
    var trials: Int = 30

    @Option(help: "The first trial's seed; trial k uses seed + k.")
    var seed: UInt64 = 1

    @Flag(help: "Also read each damaged copy opened with StoreOptions.verifyOnOpen.")
    var verifyOnOpen = false

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
        var rows: [String] = [], summaries: [String] = [], failures: [String] = []
        for name in names {
            let trial = DamageTrial(backend: Registry.backend(named: name)!, executable: executable,
                                    dataFile: Self.dataFile(name), timeout: timeout)
            let original = root.appendingPathComponent("\(name)-original")
            // The same original whatever --seed is, so one trial reruns alone with --trials 1.
            let digest = try trial.makeOriginal(in: original, seed: 1, transactions: 300)
            var total = DamageTally()
            for kind in DamageTrial.Kind.allCases {
                let tally = runKind(kind, of: trial, original: original, digest: digest, root: root, failures: &failures)
                rows.append(tally.row(name, kind.rawValue))
                total = total + tally
            }
            summaries.append(total.summary(name))
        }
        print("Damaged-file trials, seeds \(seed)…\(seed &+ UInt64(trials - 1))\(verifyOnOpen ? ", reads also with verifyOnOpen" : ""):\n")
        print(DamageTally.header)
        print("|---|---|" + String(repeating: "---:|", count: 10))
        rows.forEach { print($0) }
        print("")
        summaries.forEach { print($0) }
        if !failures.isEmpty {
            print("\nFailed trials:")
            failures.prefix(30).forEach { print("- \($0)") }
            throw ExitCode(1)
        }
    }

    /// The trials of one kind of damage on one backend, with progress on standard error.
    private func runKind(_ kind: DamageTrial.Kind, of trial: DamageTrial, original: URL, digest: String, root: URL,
                         failures: inout [String]) -> DamageTally {
        let name = trial.backend.name, started = Date()
        var tally = DamageTally(), lastLine = started
        for k in 0..<trials {
            let s = seed &+ UInt64(k)
            let work = root.appendingPathComponent("\(name)-trial")
            let o = trial.run(kind: kind, seed: s, original: original, digest: digest, work: work, checkedReads: verifyOnOpen)
            if let why = tally.add(o) {
                keepCopy(work.appendingPathComponent("store"), "\(name)-\(kind.rawValue)-\(s)")
                failures.append("\(name) \(kind.rawValue) seed \(s): \(o.damage); \(why): \(o.detail)")
            }
            if verbose {
                let checked = o.checkedRead.map { "; with verifyOnOpen \($0.rawValue)\(o.checkedCrashSite.map { " in \($0)" } ?? "")" } ?? ""
                print("\(name) \(kind.rawValue) seed \(s): \(o.damage); read \(o.read.rawValue)\(o.crashSite.map { " in \($0)" } ?? "")\(checked); verify \(o.verify.rawValue)\(o.read == .wrong || o.checkedRead == .wrong ? ": " + o.detail : "")")
            }
            if StandardError.isInteractive {
                StandardError.write("\r\(name) \(kind.rawValue): \(k + 1)/\(trials)")
            } else if Date().timeIntervalSince(lastLine) >= 30 || k + 1 == trials {
                // A CI log or a file: a line every 30 s and one per kind of damage.
                StandardError.write("\(name) \(kind.rawValue): \(k + 1)/\(trials) trials, \(Int(Date().timeIntervalSince(started))) s\n")
                lastLine = Date()
            }
        }
        if StandardError.isInteractive { StandardError.write("\n") }
        return tally
    }

    /// Moves a failed trial's damaged copy into --keep, when given.
    private func keepCopy(_ store: URL, _ label: String) {
        guard let keep else { return }
        try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
        try? FileManager.default.moveItem(at: store, to: URL(fileURLWithPath: keep).appendingPathComponent(label))
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
    @Flag(help: "Open the store with StoreOptions.verifyOnOpen.") var verifyOnOpen = false
    @Argument var directory: String

    func run() throws {
        let descriptor = Registry.backend(named: backend.name)!
        let dir = URL(fileURLWithPath: directory)
        do {
            switch mode {
            case .read:
                var options = StoreOptions()
                options.verifyOnOpen = verifyOnOpen
                let repo = try descriptor.open(SocialSchema.make(), dir, options)
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
