import Foundation
import StoreBenchKit

/// Runs one cell in a child process (the CLI re-executing itself with `cell --spec FILE`),
/// so its peak memory is its own, and a crash or a hang ends only that cell.
struct CellProcess {
    let executable: URL
    let timeout: Double
    /// Called about every `heartbeatInterval` seconds while the child runs, on the waiting
    /// thread, with the seconds since it started and its phase (`CellPhase`), if it said.
    var heartbeat: ((_ elapsed: Double, _ phase: String?) -> Void)?
    var heartbeatInterval = 1.0

    enum Ending {
        /// With the instructions callgrind counted in the measured region, in `--measure instructions`.
        case finished(CellOutcome, instructions: Int64?)
        case failed(reason: String, tail: String)
        case timedOut(tail: String)
        /// `shouldStop` turned true (the run was interrupted) and the child was ended.
        case stopped
    }

    func run(_ spec: CellSpec, shouldStop: () -> Bool = { false }) -> Ending {
        let work = URL(fileURLWithPath: spec.work)
        let files = CellFiles(work)
        let log: FileHandle
        switch files.create(spec) {
        case .success(let handle): log = handle
        case .failure(let reason): return .failed(reason: reason.message, tail: "")
        }
        defer { try? log.close() }
        let process = child(spec, files, log)
        do {
            try process.run()
        } catch {
            return .failed(reason: "cannot start \(executable.path): \(error)", tail: "")
        }
        if wait(for: process, until: Date().addingTimeInterval(timeout), work: work, shouldStop: shouldStop) {
            let stopping = shouldStop()
            Self.end(process)
            return stopping ? .stopped : .timedOut(tail: Self.tail(files.log))
        }
        process.waitUntilExit()
        if shouldStop() || Self.stoppedWithTheRunner(process, shouldStop: shouldStop) { return .stopped }
        return ending(of: process, spec, files)
    }

    /// Waits while the child runs, until `deadline` or `shouldStop`, calling `heartbeat` about
    /// every `heartbeatInterval`. Returns whether the child still runs.
    private func wait(for process: Process, until deadline: Date, work: URL, shouldStop: () -> Bool) -> Bool {
        let started = Date()
        while true {
            let next = heartbeat == nil ? deadline : min(deadline, Date().addingTimeInterval(heartbeatInterval))
            guard process.waits(until: next, polling: 0.01, stop: shouldStop) else { return false }
            if Date() >= deadline || shouldStop() { return true }
            heartbeat?(Date().timeIntervalSince(started), CellPhase.read(work: work))
        }
    }

    /// Whether a child killed by SIGINT, SIGTERM or SIGHUP died of the signal that is stopping
    /// the run: Ctrl-C reaches the child and the runner together, and the child can die before
    /// the runner's handler has noted the signal; it then gets half a second to do so, so the
    /// cell is reported as stopped, not as a crash.
    static func stoppedWithTheRunner(_ process: Process, shouldStop: () -> Bool) -> Bool {
        guard process.terminationReason == .uncaughtSignal, [SIGINT, SIGTERM, SIGHUP].contains(process.terminationStatus) else { return false }
        let deadline = Date().addingTimeInterval(0.5)
        while Date() < deadline {
            if shouldStop() { return true }
            usleep(10_000)
        }
        return shouldStop()
    }

    /// The files of one cell's child: its spec, its output, callgrind's counts.
    struct CellFiles {
        let spec: URL, log: URL, callgrind: URL
        init(_ work: URL) {
            spec = work.appendingPathComponent("cell.json")
            log = work.appendingPathComponent("output.log")
            callgrind = work.appendingPathComponent("callgrind.out")
        }

        /// Writes the spec and an empty log; the log's handle, or why not.
        func create(_ cell: CellSpec) -> Result<FileHandle, BenchError> {
            let work = spec.deletingLastPathComponent()
            try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            do {
                try JSONEncoder().encode(cell).write(to: spec)
                _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            } catch {
                return .failure(BenchError("cannot write the cell's files in \(work.path): \(error)"))
            }
            guard let handle = try? FileHandle(forWritingTo: log) else { return .failure(BenchError("cannot open \(log.path)")) }
            return .success(handle)
        }
    }

    /// The child: `cell --spec FILE`, under callgrind when counting instructions.
    private func child(_ spec: CellSpec, _ files: CellFiles, _ log: FileHandle) -> Process {
        guard spec.measure == .instructions else { return .child(executable, ["cell", "--spec", files.spec.path], output: log) }
        return .child(URL(fileURLWithPath: "/usr/bin/env"),
                      ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=sb_measured_region",
                       "--callgrind-out-file=\(files.callgrind.path)", executable.path, "cell", "--spec", files.spec.path],
                      output: log)
    }

    /// Ends a child that overstayed: SIGTERM, then SIGKILL after 3 s.
    private static func end(_ process: Process) {
        process.terminate()
        if process.waits(until: Date().addingTimeInterval(3), polling: 0.01) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// How a child that exited ended: crashed, failed, or finished with its outcome.
    private func ending(of process: Process, _ spec: CellSpec, _ files: CellFiles) -> Ending {
        let tail = Self.tail(files.log)
        if process.terminationReason == .uncaughtSignal {
            return .failed(reason: "crashed with signal \(process.terminationStatus) (\(Self.signalName(process.terminationStatus)))", tail: tail)
        }
        if process.terminationStatus != 0 {
            return .failed(reason: "exited with status \(process.terminationStatus)", tail: tail)
        }
        guard let data = FileManager.default.contents(atPath: spec.outcome),
              let outcome = try? JSONDecoder().decode(CellOutcome.self, from: data) else {
            return .failed(reason: "finished without writing its results", tail: tail)
        }
        guard spec.measure == .instructions else { return .finished(outcome, instructions: nil) }
        guard let total = Self.callgrindTotal(files.callgrind) else {
            return .failed(reason: "callgrind wrote no instruction total to \(files.callgrind.path)", tail: tail)
        }
        Self.keepCallgrindOutput(files.callgrind, spec)
        return .finished(outcome, instructions: total)
    }

    /// With `STOREBENCH_CALLGRIND_DIR` set, keeps each cell's callgrind output there as
    /// `<target>.<workload>.<scale>.callgrind` (for `callgrind_annotate`: which functions the
    /// instructions of the measured region went to).
    static func keepCallgrindOutput(_ file: URL, _ spec: CellSpec) {
        guard let dir = ProcessInfo.processInfo.environment["STOREBENCH_CALLGRIND_DIR"], !dir.isEmpty else { return }
        let name = "\(spec.target.description).\(spec.workload).\(spec.scale).callgrind".replacingOccurrences(of: "/", with: "_")
        let to = URL(fileURLWithPath: dir).appendingPathComponent(name)
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: to)
        try? FileManager.default.copyItem(at: file, to: to)
    }

    /// The `totals:` (or `summary:`) line of a callgrind output file: instructions counted.
    static func callgrindTotal(_ url: URL) -> Int64? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n").reversed() where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let n = line.split(separator: " ").dropFirst().first.flatMap({ Int64($0) }) { return n }
        }
        return nil
    }

    /// The last 20 lines (at most 2,000 characters) of the cell's output, preceded by the
    /// first line that names the failure (`Fatal error`, `Error:`) when that is further up.
    static func tail(_ url: URL) -> String {
        guard let data = FileManager.default.contents(atPath: url.path) else { return "" }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var kept = Array(lines.suffix(20))
        if let cause = lines.dropLast(20).first(where: { $0.contains("Fatal error") || $0.hasPrefix("Error:") }) {
            kept = [cause, "…"] + kept
        }
        let text = kept.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        return text.count > 2_000 ? String(text.prefix(400)) + "\n…\n" + String(text.suffix(1_600)) : text
    }

    static func signalName(_ s: Int32) -> String {
        switch s {
        case SIGILL: "SIGILL, a Swift runtime trap"
        case SIGTRAP: "SIGTRAP, a Swift runtime trap"
        case SIGABRT: "SIGABRT"
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGKILL: "SIGKILL, perhaps out of memory"
        default: "signal \(s)"
        }
    }
}
