import Foundation
import StoreBench

/// Progress of a run on standard error: a bar with the ETA on a terminal, one line per cell
/// otherwise (CI logs). Failed cells are always printed.
final class RunProgressView: RunProgress {
    private let isTerminal = StandardError.isInteractive
    private var total = 0
    private var started = Date()
    private var done = 0
    /// Seconds per finished cell of the current scale: later scales are slower, so the ETA
    /// follows the scale being run.
    private var scale = ""
    private var scaleSeconds: [Double] = []

    func begin(cells: Int) {
        total = cells
        started = Date()
        write("running \(cells) cells\n")
    }

    func planGrew(by cells: Int) { total += cells }

    func cellStarted(index: Int, label: String) {
        guard isTerminal else { return }
        write("\r\u{1B}[K" + bar(index) + " " + label)
    }

    func cellFinished(index: Int, label: String, result: CellResult) {
        done = index + 1
        if result.scale != scale { scale = result.scale; scaleSeconds = [] }
        scaleSeconds.append(result.wallSeconds)
        let status = result.status == .ok ? String(format: "%.1fs", result.wallSeconds) : result.status.rawValue.uppercased()
        if result.status != .ok {
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

    private func bar(_ index: Int) -> String {
        let width = 24
        let filled = total == 0 ? 0 : width * index / total
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] \(index)/\(total) · ETA \(eta())"
    }

    private func eta() -> String {
        guard done > 0 else { return "…" }
        let perCell = scaleSeconds.count >= 3 ? scaleSeconds.reduce(0, +) / Double(scaleSeconds.count)
            : Date().timeIntervalSince(started) / Double(done)
        let left = Int(perCell * Double(total - done))
        return left >= 60 ? "\(left / 60)m\(String(format: "%02d", left % 60))s" : "\(left)s"
    }

    private func write(_ s: String) { StandardError.write(s) }
}
