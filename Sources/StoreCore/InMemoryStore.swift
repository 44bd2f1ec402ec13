import Foundation

/// A store of any backend that lives in memory: its files go into a new folder on a RAM file
/// system (`/dev/shm` where it can be written, else the temporary folder) and are removed when
/// the store closes or is released. Reads, writes and their semantics are the backend's own;
/// only `persistence` is gone. Realm's `inMemoryIdentifier`, Core Data's in-memory store type.
///
/// ```swift
/// let scratch = try SQLiteStore.descriptor.openInMemory(schema)
/// let graph = ObjectGraph(store: try LMDBStore.descriptor.openInMemory(schema))
/// ```
public final class InMemoryStore: Repository {
    /// The backend's store.
    public let base: any Repository
    /// Where its files are while it is open.
    public let folder: URL
    private let closed = Locked(false)

    init(base: any Repository, folder: URL) {
        self.base = base
        self.folder = folder
    }

    deinit { try? close() }

    public var schema: Schema { base.schema }
    public var capabilities: Capabilities { base.capabilities.subtracting([.persistence, .readOnlyMode, .multiProcess]) }
    public var unsupportedCapabilities: [Capabilities: String] {
        base.unsupportedCapabilities.merging([
            .persistence: "an in-memory store's files are removed when it closes",
            .readOnlyMode: "an in-memory store starts empty, so there is nothing to open read-only",
            .multiProcess: "an in-memory store's folder is its own: no other process can open it",
        ]) { $1 }
    }

    public func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T { try base.read(body) }
    public func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T { try base.write(body) }
    public func verify() throws -> VerificationReport { try base.verify() }

    /// Closes the backend's store and removes its files; a second call does nothing.
    public func close() throws {
        guard closed.withLock({ c in defer { c = true }; return !c }) else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        try base.close()
    }

    /// The folder a new in-memory store gets: on `/dev/shm` when it is a writable directory.
    static func newFolder(for backend: String) throws -> URL {
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        let root = FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        let folder = root.appendingPathComponent("storebench-memory-\(backend)-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        } catch {
            throw StoreError(.io, "cannot create the folder of an in-memory \(backend) store at \(folder.path): \(error.localizedDescription)")
        }
        return folder
    }
}

extension BackendDescriptor {
    /// Opens a new, empty store of this backend in memory (see `InMemoryStore`). Durability is
    /// relaxed unless `options` says otherwise: nothing outlives the process anyway.
    public func openInMemory(_ schema: Schema, options: StoreOptions = StoreOptions(durability: .relaxed)) throws -> InMemoryStore {
        guard !options.readOnly else {
            throw StoreError(.invalidValue, "an in-memory \(name) store starts empty, so it cannot be opened read-only")
        }
        let folder = try InMemoryStore.newFolder(for: name)
        do {
            return InMemoryStore(base: try open(schema, folder, options), folder: folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }
}
