import Foundation

/// Runs one cell in a child process (the CLI re-executing itself with `cell --spec FILE`),
/// so its peak memory is its own, and a crash or a hang ends only that cell.
struct CellProcess {
    let executable: URL
    let timeout: Double

    enum Ending {
        /// With the instructions callgrind counted in the measured region, in `--measure instructions`.
        case finished(CellOutcome, instructions: Int64?)
        case failed(reason: String, tail: String)
        case timedOut(tail: String)
        /// `shouldStop` turned true (the run was interrupted) and the child was ended.
        case stopped
    }

    func run(_ spec: CellSpec, shouldStop: () -> Bool = { false }) -> Ending {
        let fm = FileManager.default
        let work = URL(fileURLWithPath: spec.work)
        try? fm.createDirectory(at: work, withIntermediateDirectories: true)
        let specURL = work.appendingPathComponent("cell.json")
        let logURL = work.appendingPathComponent("output.log")
        do {
            try JSONEncoder().encode(spec).write(to: specURL)
            _ = fm.createFile(atPath: logURL.path, contents: nil)
        } catch {
            return .failed(reason: "cannot write the cell's files in \(work.path): \(error)", tail: "")
        }
        guard let log = try? FileHandle(forWritingTo: logURL) else {
            return .failed(reason: "cannot open \(logURL.path)", tail: "")
        }
        defer { try? log.close() }

        let callgrindOut = work.appendingPathComponent("callgrind.out")
        let process: Process
        if spec.measure == .instructions {
            process = .child(URL(fileURLWithPath: "/usr/bin/env"),
                             ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=sb_measured_region",
                              "--callgrind-out-file=\(callgrindOut.path)", executable.path, "cell", "--spec", specURL.path],
                             output: log)
        } else {
            process = .child(executable, ["cell", "--spec", specURL.path], output: log)
        }
        do {
            try process.run()
        } catch {
            return .failed(reason: "cannot start \(executable.path): \(error)", tail: "")
        }
        let deadline = Date().addingTimeInterval(timeout)
        if process.waits(until: deadline, polling: 0.01, stop: shouldStop) {
            let stopping = shouldStop()
            process.terminate()
            let grace = Date().addingTimeInterval(3)
            if process.waits(until: grace, polling: 0.01) { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return stopping ? .stopped : .timedOut(tail: Self.tail(logURL))
        }
        process.waitUntilExit()
        if shouldStop() { return .stopped }
        let tail = Self.tail(logURL)
        if process.terminationReason == .uncaughtSignal {
            return .failed(reason: "crashed with signal \(process.terminationStatus) (\(Self.signalName(process.terminationStatus)))", tail: tail)
        }
        if process.terminationStatus != 0 {
            return .failed(reason: "exited with status \(process.terminationStatus)", tail: tail)
        }
        guard let data = fm.contents(atPath: spec.outcome),
              let outcome = try? JSONDecoder().decode(CellOutcome.self, from: data) else {
            return .failed(reason: "finished without writing its results", tail: tail)
        }
        guard spec.measure == .instructions else { return .finished(outcome, instructions: nil) }
        guard let total = Self.callgrindTotal(callgrindOut) else {
            return .failed(reason: "callgrind wrote no instruction total to \(callgrindOut.path)", tail: tail)
        }
        Self.keepCallgrindOutput(callgrindOut, spec)
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
