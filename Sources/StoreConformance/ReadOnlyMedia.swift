import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Read-only media, as a store sees it: a folder and files that cannot be written. `run`
/// removes write permission from a folder and its files, runs `body`, and puts the permissions
/// back. A superuser ignores permissions, so when the process runs as root, `body` runs on a
/// thread of its own whose file-system identity is `nobody` (Linux `setfsuid`): every open,
/// create and write then meets the permissions as on read-only media (`EACCES`).
///
/// ```swift
/// try ReadOnlyMedia.run(in: dir) { let store = try MyStore(directory: dir, readOnly: true) … }
/// ```
public enum ReadOnlyMedia {
    /// The file-system identity `body` runs with when the process is root.
    static let nobody: UInt32 = 65_534

    public static func run<T>(in directory: URL, _ body: () throws -> T) throws -> T {
        let paths = [directory.path] + ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .map { directory.appendingPathComponent($0).path }
        let modes = paths.map { path -> mode_t in
            var info = stat()
            return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o755
        }
        for (path, mode) in zip(paths, modes) { chmod(path, mode & ~0o222) }
        defer { for (path, mode) in zip(paths, modes) { chmod(path, mode) } }
        return try getuid() == 0 ? unprivileged(body) : body()
    }

    /// Runs `body` on a new thread with the file-system identity `nobody`, waiting for it.
    private static func unprivileged<T>(_ body: () throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            let box = Box(body)
            let thread = Thread {
                // setfsgid/setfsuid are not in Glibc's Swift module: found by name.
                for name in ["setfsgid", "setfsuid"] {
                    typealias SetID = @convention(c) (UInt32) -> Int32
                    if let f = dlsym(nil, name) { _ = unsafeBitCast(f, to: SetID.self)(nobody) }
                }
                box.result = Result { try box.body!() }
                box.body = nil   // released before the caller's non-escaping closure ends
                box.done.signal()
            }
            thread.start()
            box.done.wait()
            return try box.result!.get()
        }
    }

    /// What crosses to the unprivileged thread and back; the caller waits while it runs.
    private final class Box<T>: @unchecked Sendable {
        var body: (() throws -> T)?
        var result: Result<T, Error>?
        let done = DispatchSemaphore(value: 0)
        init(_ body: @escaping () throws -> T) { self.body = body }
    }
}
