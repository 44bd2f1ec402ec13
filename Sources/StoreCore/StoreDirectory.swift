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

    private static func refuseOtherStores(in directory: URL, storeFile: String) throws {
        guard !FileManager.default.fileExists(atPath: directory.appendingPathComponent(storeFile).path) else { return }
        for (file, engine) in knownStoreFiles.sorted(by: { $0.key < $1.key }) where file != storeFile {
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path) else { continue }
            throw StoreError(.invalidValue, "\(directory.path) holds a \(engine) store (\(file)), not this backend's (\(storeFile)): open it with its own backend, or give this one another folder; nothing was written")
        }
    }

    /// Why `path` cannot be created: a link loop, a file on the way, or no permission.
    private static func reason(_ path: String) -> String {
        var info = stat()
        if lstat(path, &info) == 0, stat(path, &info) != 0, errno == ELOOP { return "it is a symbolic link loop" }
        var ancestor = URL(fileURLWithPath: path).deletingLastPathComponent()
        while ancestor.path != "/", !FileManager.default.fileExists(atPath: ancestor.path) { ancestor.deleteLastPathComponent() }
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory)
        if !isDirectory.boolValue { return "\(ancestor.path) is a file, not a folder" }
        if access(ancestor.path, W_OK) != 0 { return "no permission to write in \(ancestor.path) (read-only, or not yours)" }
        return "the file system refused it"
    }
}
