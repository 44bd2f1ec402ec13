import Foundation

/// Progress on standard error: a rewritten counter line on a terminal, plain lines otherwise
/// (CI logs), only for the steps asked for.
final class Progress {
    private let total: Int
    private var done = 0
    private let isTerminal = StandardError.isInteractive

    init(total: Int) { self.total = total }

    func step(_ label: String, status: String, verbose: Bool) {
        done += 1
        if verbose {
            if isTerminal { write("\r\u{1B}[K") }
            write("[\(done)/\(total)] \(status) \(label)\n")
        } else if isTerminal {
            write("\r\u{1B}[K[\(done)/\(total)] \(label)")
        }
        if done == total && isTerminal { write("\r\u{1B}[K") }
    }

    private func write(_ s: String) { StandardError.write(s) }
}
