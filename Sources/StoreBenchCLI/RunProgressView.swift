import Foundation
import StoreBench

/// Progress of a run on standard error: a bar with the ETA on a terminal, one line per cell
/// otherwise (CI logs). Failed cells are always printed. A cell that runs long shows it is
/// alive: on a terminal the line shows its elapsed time and phase, rewritten about once a
/// second; in a log, a `still running <cell>: 1 min 30 s, <phase>` line every `stillRunningEvery` seconds.
final class RunProgressView: RunHeartbeat {
    private let isTerminal: Bool
    private let stillRunningEvery: Double
    private let write: (String) -> Void
    /// The terminal's width; nil asks the terminal (tests set it).
    var columns: Int?
    private(set) var total = 0
    /// Cells that ended, not counting one an interruption stopped.
    private(set) var ran = 0
    private var started = Date()
    private var done = 0
    /// The running cell: its label, and when its next `still running` line is due.
    private var running = (index: 0, label: "", nextLine: 0.0)
    /// Seconds per finished cell of the current scale: later scales are slower, so the ETA
    /// follows the scale being run.
    private var scale = ""
    private var scaleSeconds: [Double] = []

    init(isTerminal: Bool = StandardError.isInteractive, stillRunningEvery: Double = 30,
         write: @escaping (String) -> Void = StandardError.write) {
        self.isTerminal = isTerminal
        self.stillRunningEvery = stillRunningEvery
        self.write = write
    }

    func begin(cells: Int) {
        total = cells
        started = Date()
        write("running \(cells) cells\n")
    }

    func planGrew(by cells: Int) { total += cells }

    func cellStarted(index: Int, label: String) {
        running = (index, label, stillRunningEvery)
        guard isTerminal else { return }
        write("\r\u{1B}[K" + fitted(bar(index) + " " + label))
    }

    func cellRunning(index: Int, elapsed: Double, phase: String?) {
        let alive = Self.duration(elapsed) + (phase.map { ", \($0)" } ?? "")
        if isTerminal {
            write("\r\u{1B}[K" + fitted(bar(index) + " " + running.label + " · " + alive))
        } else if elapsed >= running.nextLine {
            write("still running \(running.label): \(alive)\n")
            while running.nextLine <= elapsed { running.nextLine += stillRunningEvery }
        }
    }

    func cellFinished(index: Int, label: String, result: CellResult) {
        done = index + 1
        let stopped = result.status == .skipped && result.reason == BenchmarkRunner.interruptedReason
        if !stopped { ran += 1 }
        if result.scale != scale { scale = result.scale; scaleSeconds = [] }
        scaleSeconds.append(result.wallSeconds)
        let status = result.status == .ok ? String(format: "%.1fs", result.wallSeconds) : result.status.rawValue.uppercased()
        if stopped {
            if isTerminal { write("\r\u{1B}[K") }
        } else if result.status != .ok {
            if isTerminal { write("\r\u{1B}[K") }
            write("[\(done)/\(total)] \(status) \(label): \(result.reason ?? "")\n")
            if let tail = result.outputTail, !tail.isEmpty {
                write(tail.split(separator: "\n").prefix(4).map { "    | \($0)\n" }.joined())
            }
        } else if !isTerminal {
            write("[\(done)/\(total)] \(label) \(status) · ETA \(eta())\n")
        }
        if done == total && isTerminal { write("\r\u{1B}[K") }
    }

    func note(_ message: String) {
        if isTerminal { write("\r\u{1B}[K") }
        write(message + "\n")
    }

    /// `42 s`, `1 min 30 s`, `2 h 5 min`.
    static func duration(_ seconds: Double) -> String {
        let s = max(0, Int(seconds))
        if s < 60 { return "\(s) s" }
        if s < 3_600 { return s % 60 == 0 ? "\(s / 60) min" : "\(s / 60) min \(s % 60) s" }
        return "\(s / 3_600) h \(s % 3_600 / 60) min"
    }

    private func bar(_ index: Int) -> String {
        let width = 24
        let filled = total == 0 ? 0 : width * index / total
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] \(index)/\(total) · ETA \(eta())"
    }

    /// A line cut to the terminal's width, so rewriting it in place never wraps.
    private func fitted(_ line: String) -> String {
        var size = winsize()
        let columns = self.columns ?? (ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 120)
        return line.count < columns ? line : String(line.prefix(columns - 2)) + "…"
    }

    private func eta() -> String {
        guard done > 0 else { return "…" }
        let perCell = scaleSeconds.count >= 3 ? scaleSeconds.reduce(0, +) / Double(scaleSeconds.count)
            : Date().timeIntervalSince(started) / Double(done)
        let left = Int(perCell * Double(total - done))
        return left >= 60 ? "\(left / 60)m\(String(format: "%02d", left % 60))s" : "\(left)s"
    }
}
