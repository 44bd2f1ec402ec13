import Foundation

/// The folder a store lives in, prepared the same way by every backend: created when missing,
/// and refused with a typed error naming the path and what to do when it cannot hold the store.
///
/// ```swift
/// try StoreDirectory.prepare(directory, storeFile: "data.mdb")
/// ```
public enum StoreDirectory {
    /// The files of the built-in engines' stores, so that a backend does not create its store
    /// beside another engine's (its name for the message).
    public static let knownStoreFiles = ["store.sqlite": "SQLite", "store.grdb.sqlite": "GRDB", "data.mdb": "LMDB"]

    /// Creates `directory` when missing. Throws `io` when it is a file, a symbolic-link loop, or
    /// cannot be created (no permission, a read-only parent); `invalidValue` when it holds no
    /// `storeFile` but another engine's store, which this backend would otherwise sit beside.
    public static func prepare(_ directory: URL, storeFile: String) throws {
        let path = directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StoreError(.io, "\(path) is a file, not a folder: give the folder the store is (to be) in")
            }
            try refuseOtherStores(in: directory, storeFile: storeFile)
            return
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.io, "cannot create the store's folder \(path): \(reason(path))", nativeMessage: "\(error)")
        }
    }

    /// Checks, creating nothing, that `directory` holds `storeFile`: what a store opened
    /// read-only needs. Throws `notFound` naming the path otherwise.
    public static func requireStore(_ directory: URL, storeFile: String) throws {
        let file = directory.appendingPathComponent(storeFile).path
        guard FileManager.default.fileExists(atPath: file) else {
            throw StoreError(.notFound, "there is no store at \(file); opened read-only, nothing was created")
        }
    }

    /// Creates the store file at `path` complete or not at all, when it is missing: `build`
    /// writes a new store at a temporary path beside it (the engine's own files beside that one
    /// end with `companions`), which is synced and then linked into place. A crash leaves no
    /// empty store file; of two processes creating the store at once, one store wins and the
    /// other is discarded.
    public static func createFile(_ path: String, companions: [String], build: (String) throws -> Void) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let temp = "\(path).creating-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { for suffix in [""] + companions { unlink(temp + suffix) } }
        try build(temp)
        try sync(temp)
        guard link(temp, path) == 0 || errno == EEXIST else {
            throw StoreError(.io, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        try sync(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// `fsync` of a file or folder.
    private static func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError(.io, "cannot open \(path) to sync it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StoreError(.io, "cannot sync \(path): \(String(cString: strerror(errno)))") }
    }

    private static func refuseOtherStores(in directory: URL, storeFile: String) throws {
        guard !FileManager.default.fileExists(atPath: directory.appendingPathComponent(storeFile).path) else { return }
        for (file, engine) in knownStoreFiles.sorted(by: { $0.key < $1.key }) where file != storeFile {
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path) else { continue }
            throw StoreError(.invalidValue, "\(directory.path) holds a \(engine) store (\(file)), not this backend's (\(storeFile)): open it with its own backend, or give this one another folder; nothing was written")
        }
    }

    /// Why `path` cannot be created: a link loop, a file on the way, no permission, read-only
    /// media. Read from what `mkdir` says of the first missing folder on the way.
    private static func reason(_ path: String) -> String {
        var info = stat()
        if lstat(path, &info) == 0, stat(path, &info) != 0, errno == ELOOP { return "it is a symbolic link loop" }
        var missing = URL(fileURLWithPath: path)
        while missing.deletingLastPathComponent().path != "/", !FileManager.default.fileExists(atPath: missing.deletingLastPathComponent().path) {
            missing.deleteLastPathComponent()
        }
        let parent = missing.deletingLastPathComponent().path
        guard mkdir(missing.path, 0o755) != 0 else {
            rmdir(missing.path)
            return "the file system refused it"
        }
        switch errno {
        case EACCES, EPERM: return "no permission to write in \(parent) (its permissions, or not yours); give a folder you can write, or open an existing store with StoreOptions(readOnly: true)"
        case EROFS: return "\(parent) is on read-only media; open an existing store with StoreOptions(readOnly: true)"
        case ENOTDIR: return "a file is on the way (\(parent) is not a folder)"
        case ELOOP: return "a symbolic link loop is on the way"
        case let code: return String(cString: strerror(code))
        }
    }
}
