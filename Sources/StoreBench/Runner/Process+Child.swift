import Foundation
import StoreBenchKit

extension Process {
    /// A child of the runner: `executable` with `arguments`, no standard input, and Swift's
    /// backtracer set by `backtrace` (`SWIFT_BACKTRACE`). The default prints a crash's message
    /// without the multi-page register dump, so the tail of the output says what went wrong.
    /// Internal helper.
    static func child(_ executable: URL, _ arguments: [String], output: Any, backtrace: String = "enable=no") -> Process {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.standardOutput = output
        p.standardError = output
        p.standardInput = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = backtrace
        p.environment = environment
        return p
    }

    /// Waits while the process runs, until `deadline` or until `stop()` turns true, polling
    /// every `interval` seconds. Returns whether it is still running. Internal helper.
    func waits(until deadline: Date, polling interval: Double = 0.002, stop: () -> Bool = { false }) -> Bool {
        while isRunning && Date() < deadline && !stop() { usleep(useconds_t(interval * 1_000_000)) }
        return isRunning
    }
}
