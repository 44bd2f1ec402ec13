import Foundation
import StoreCore

/// A file a trial's child appends lines to, each with one `write(2)` on a file opened with
/// `O_APPEND`, so that a SIGKILL leaves whole lines only; closed when released.
final class AppendLog {
    private let fd: Int32
    private let path: String

    init(_ url: URL) throws {
        path = url.path
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StoreError(.io, "cannot open \(path): \(String(cString: strerror(errno)))") }
    }

    /// Appends `line` and a newline.
    func append(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw StoreError(.io, "cannot write to \(path)")
        }
    }

    deinit { close(fd) }
}
