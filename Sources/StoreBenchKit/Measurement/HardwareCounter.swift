import CBenchSupport
import Foundation

/// The CPU's instruction counter for the calling thread, through `perf_event_open` (Linux).
/// Many virtual machines and locked-down kernels offer none: `open()` then says why.
///
/// Internal: one counter per cell process, used by the thread that runs the cell.
package final class HardwareCounter {
    private let fd: Int32

    /// The counter, or the reason there is none.
    package static func open() -> Result<HardwareCounter, BenchError> {
        let fd = sb_perf_open_instructions()
        guard fd >= 0 else {
            return .failure(BenchError("perf_event_open: \(String(cString: strerror(-fd)))"))
        }
        return .success(HardwareCounter(fd: fd))
    }

    /// Whether this machine offers the counter, or why not.
    package static var availability: String {
        switch open() {
        case .success: "available (perf_event_open, user-space instructions)"
        case .failure(let e): "unavailable: \(e.message)"
        }
    }

    private init(fd: Int32) { self.fd = fd }
    deinit { sb_perf_close(fd) }

    /// Instructions executed by this thread while `body` ran, or nil when the read failed.
    package func counting<T>(_ body: () throws -> T) rethrows -> (result: T, instructions: Int64?) {
        sb_perf_start(fd)
        let result = try body()
        let n = sb_perf_stop(fd)
        return (result, n >= 0 ? n : nil)
    }
}
