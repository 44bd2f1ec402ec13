import Foundation

/// Standard error, where the CLI's progress and notes go (internal).
enum StandardError {
    /// A terminal that is not a CI log: progress may rewrite its line.
    static let isInteractive = isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["CI"] == nil

    static func write(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }
}
