import Foundation
import StoreConformance
import StoreCore
import StoreBenchKit

/// Damaged-file trials: a store written by the crash-trial workload is copied, its data file
/// damaged in one of four ways, then read (with `StoreOptions.verifyOnOpen` off, and on when
/// asked) and verified, each in a child process so that a crash (liblmdb aborts on some bad
/// pages) is counted instead of ending the run. `verify` must change no byte of the files.
///
/// A trial's reads are every record by a scan, every link, and an equality query on every
/// index for every record's values, folded into one digest; they are "fine" when the digest
/// equals the undamaged store's, "wrong" when it differs, "error" when a read throws.
public struct DamageTrial: Sendable {
    /// How a copy is damaged.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Cut at a random length.
        case truncate
        /// 1–64 random bytes at a random offset overwritten with random bytes.
        case overwrite
        /// One 4 KiB-aligned 4 KiB block zeroed.
        case zeroPage = "zero-page"
        /// One field of the engine's structure changed (`StructuralDamage`).
        case structural

        /// Whether the damage lands at random, blind to the file's structure.
        public var isRandom: Bool { self != .structural }
    }

    /// What reading the damaged store gave.
    public enum ReadResult: String, Sendable, Codable { case fine, error, wrong, crash, hang }
    /// What `verify` said.
    public enum VerifyResult: String, Sendable, Codable { case clean, damaged, error, crash, hang }

    public struct Outcome: Sendable, Codable {
        public var kind: Kind
        public var seed: UInt64
        public var damage: String
        public var read: ReadResult
        /// The reads of the store opened with `verifyOnOpen`, when the trial ran them.
        public var checkedRead: ReadResult?
        public var verify: VerifyResult
        /// The files `verify` changed (it must change none).
        public var changedByVerify: [String] = []
        public var detail: String
        /// For a crash: the innermost frame in a library or module we can name.
        public var crashSite: String?
        /// The same, for a crash of the reads with `verifyOnOpen`.
        public var checkedCrashSite: String?
    }

    public let backend: BackendDescriptor
    public let executable: URL
    /// The file the engine keeps its data in, inside the store directory.
    public let dataFile: String
    public let timeout: Double

    public init(backend: BackendDescriptor, executable: URL, dataFile: String, timeout: Double = 30) {
        self.backend = backend
        self.executable = executable
        self.dataFile = dataFile
        self.timeout = timeout
    }

    /// Writes the undamaged store into `directory` (the crash-trial workload of `seed`,
    /// `transactions` commits) and returns the digest of its reads.
    public func makeOriginal(in directory: URL, seed: UInt64, transactions: Int) throws -> String {
        let repo = try backend.open(SocialSchema.make(), directory, StoreOptions(durability: .relaxed))
        defer { try? repo.close() }
        for i in 1...transactions { try repo.write { tx in try TortureWorkload.run(seed: seed, index: i, in: tx) } }
        let digest = try Self.readDigest(repo)
        try repo.close()
        return digest
    }

    /// Damages a copy of `original` in `work` and classifies what reading it (also with
    /// `verifyOnOpen` when `checkedReads`) and verifying it give.
    public func run(kind: Kind, seed: UInt64, original: URL, digest: String, work: URL, checkedReads: Bool = false) -> Outcome {
        var outcome = Outcome(kind: kind, seed: seed, damage: "", read: .error, verify: .error, detail: "", crashSite: nil)
        let copy = work.appendingPathComponent("store")
        do {
            try? FileManager.default.removeItem(at: work)
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: original, to: copy)
            outcome.damage = try damage(copy.appendingPathComponent(dataFile), kind: kind, seed: seed)
        } catch {
            outcome.detail = "cannot prepare the trial: \(error)"
            return outcome
        }
        let read = readBack(copy, digest, checked: false)
        (outcome.read, outcome.crashSite) = (read.result, read.crashSite)
        var detail = "read: \(read.output)"
        if checkedReads {
            let checked = readBack(copy, digest, checked: true)
            (outcome.checkedRead, outcome.checkedCrashSite) = (checked.result, checked.crashSite)
            detail += " | read with verifyOnOpen: \(checked.output)"
        }
        let before = Self.fileDigests(copy)
        let (verifyStatus, verifyOut) = probe(["--mode", "verify", copy.path])
        outcome.changedByVerify = Self.changedFiles(before, Self.fileDigests(copy))
        switch verifyStatus {
        case .exited(0): outcome.verify = .clean
        case .exited(1): outcome.verify = .damaged
        case .exited: outcome.verify = .error
        case .signal: outcome.verify = .crash
        case .timedOut: outcome.verify = .hang
        }
        outcome.detail = "\(detail) | verify: \(verifyOut.suffix(300))"
        return outcome
    }

    /// Reads a copy of the damaged store (each read run gets its own: a read may change
    /// nothing, but verify's input stays exactly the damaged file).
    private func readBack(_ store: URL, _ digest: String, checked: Bool) -> (result: ReadResult, crashSite: String?, output: String) {
        let copy = store.deletingLastPathComponent().appendingPathComponent(checked ? "read-checked" : "read")
        try? FileManager.default.copyItem(at: store, to: copy)
        let (status, out) = probe(["--mode", "read", "--expected", digest] + (checked ? ["--verify-on-open"] : []) + [copy.path])
        switch status {
        case .exited(0): return (.fine, nil, String(out.suffix(300)))
        case .exited(1): return (.wrong, nil, String(out.suffix(300)))
        case .exited: return (.error, nil, String(out.suffix(300)))
        case .signal: return (.crash, Self.crashSite(out), String(out.suffix(300)))
        case .timedOut: return (.hang, nil, String(out.suffix(300)))
        }
    }

    /// The digest of everything a user reads back (see the type's summary).
    public static func readDigest(_ repo: any Repository) throws -> String {
        var text = ""
        let snapshot = try StoreSnapshot(repo)
        for (name, rs) in snapshot.records.sorted(by: { $0.key < $1.key }) { text += "\(name)\(rs)\n" }
        for (name, ps) in snapshot.links.sorted(by: { $0.key < $1.key }) { text += "\(name)\(ps)\n" }
        try repo.read { tx in
            for e in tx.schema.entities {
                text += "\(e.name) count \(try tx.count(Query(e.name)))\n"
                for index in e.indexes {
                    let ordinals = index.attributes.compactMap { e.ordinal(of: $0) }
                    for r in snapshot.records[e.name] ?? [] {
                        let predicate = StorePredicate.and(zip(index.attributes, ordinals).map { KeyPathExpression($0.0) == r[$0.1] })
                        text += "\(try tx.fetch(Query(e.name, where: predicate)).map { $0[e.primaryKeyOrdinal] })"
                    }
                }
            }
        }
        return Self.fnv1a(text)
    }

    // MARK: Internal helpers

    private enum Status { case exited(Int32), signal(Int32), timedOut }

    /// Runs `storebench damage-probe` on a copy; its status and the tail of its output.
    private func probe(_ arguments: [String]) -> (Status, String) {
        let out = Pipe()
        // A crash names its frames, so the report can tell liblmdb's aborts from ours.
        let p = Process.child(executable, ["damage-probe", "--backend", backend.name] + arguments, output: out,
                              backtrace: "enable=yes,interactive=no,color=no,threads=crashed,registers=none,images=none,limit=12,sanitize=no")
        do { try p.run() } catch { return (.exited(99), "cannot start: \(error)") }
        let box = OutputBox()
        let reader = Thread { box.data = out.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let hung = p.waits(until: Date().addingTimeInterval(timeout))
        if hung { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        while !reader.isFinished { usleep(1_000) }
        let text = String(decoding: box.data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if hung { return (.timedOut, text) }
        if p.terminationReason == .uncaughtSignal { return (.signal(p.terminationStatus), text) }
        return (.exited(p.terminationStatus), text)
    }

    /// Where a crash happened, from the backtrace: `liblmdb` when its assertion fired or the
    /// innermost frame is an `mdb_` function, else that frame's text.
    static func crashSite(_ output: String) -> String {
        if output.contains("Assertion") && output.contains("mdb.c") { return "liblmdb (assertion)" }
        let frames = output.split(separator: "\n").filter { $0.range(of: #"^\s*\d+\s+0x"#, options: .regularExpression) != nil }
        for f in frames {
            if f.contains(" in mdb_") || f.contains("liblmdb") { return "liblmdb" }
            if let r = f.range(of: " in "), !f.contains("libc.so") { return String(f[r.upperBound...].prefix(120)) }
        }
        return "unknown"
    }

    static func fnv1a(_ s: String) -> String { fnv1a(bytes: s.utf8) }

    static func fnv1a(bytes: some Sequence<UInt8>) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(h, radix: 16)
    }
}

/// Output gathered on a reader thread (internal).
final class OutputBox: @unchecked Sendable { var data = Data() }
