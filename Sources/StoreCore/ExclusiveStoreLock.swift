import Foundation

/// What a backend that cannot share its files between processes holds while a store is open:
/// an exclusive `flock(2)` on `exclusive.lock` in the store's directory, with the holder's
/// process id written in it. A second open, from another process or this one, gets a typed
/// `unsupported` error naming the holder instead of two engines writing one file. The kernel
/// releases the lock when the holder exits, killed or not: a stale lock file locks nothing.
///
/// ```swift
/// let lock = try ExclusiveStoreLock(directory: dir, backend: "mystore")
/// defer { lock.release() }
/// ```
public final class ExclusiveStoreLock: @unchecked Sendable {
    // @unchecked: `descriptor` is set once and closed under `released`'s lock.
    public static let fileName = "exclusive.lock"
    private let descriptor: Int32
    private let released = Locked(false)

    /// Takes the lock of `directory` for `backend`, or throws `unsupported` when a process
    /// holds it, `io` when the lock file cannot be opened. `readOnly` opens an existing lock
    /// file for reading and writes no process id (read-only media).
    public init(directory: URL, backend: String, readOnly: Bool = false) throws {
        let path = directory.appendingPathComponent(Self.fileName).path
        let existing = readOnly && FileManager.default.fileExists(atPath: path)
        let fd = existing ? open(path, O_RDONLY | O_CLOEXEC) : open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw StoreError(.io, "cannot open the lock file \(path) of a \(backend) store: \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(fd)
            close(fd)
            throw StoreError(.unsupported, "the \(backend) store at \(directory.path) is already open (\(holder)); \(backend) does not "
                + "share a store between processes or between two opens, so this open is refused and nothing was written")
        }
        if !existing {
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        descriptor = fd
    }

    deinit { release() }

    /// Runs `body` holding the lock of `directory`; without taking it when there is no such
    /// folder (`body` says what is missing), or, `readOnly`, no lock file (creating one would
    /// write to a store that is only checked).
    public static func holding<T>(_ directory: URL, for backend: String, readOnly: Bool, _ body: () throws -> T) throws -> T {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue,
              !readOnly || FileManager.default.fileExists(atPath: directory.appendingPathComponent(fileName).path) else { return try body() }
        let lock = try ExclusiveStoreLock(directory: directory, backend: backend, readOnly: readOnly)
        defer { lock.release() }
        return try body()
    }

    /// Gives the lock back; a second call does nothing.
    public func release() {
        guard released.withLock({ r in defer { r = true }; return !r }) else { return }
        close(descriptor)
    }

    /// Who holds the lock, from the process id its holder wrote.
    private static func holder(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        let text = n > 0 ? String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
        guard let pid = Int32(text) else { return "by a process that wrote no id" }
        return pid == getpid() ? "in this process, pid \(pid)" : "by process \(pid)"
    }
}
