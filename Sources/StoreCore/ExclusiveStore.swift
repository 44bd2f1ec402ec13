import Foundation

/// A store of a backend that cannot share its files (`BackendDescriptor.exclusive`): the
/// backend's store, opened under `ExclusiveStoreLock`, which it holds until it closes. It
/// observes and explains through the backend's store when that does.
public final class ExclusiveStore: Repository, ObservingRepository, QueryExplaining {
    /// The backend's store.
    public let base: any Repository
    private let lock: ExclusiveStoreLock
    private let reason: String

    init(base: any Repository, lock: ExclusiveStoreLock, reason: String) {
        self.base = base
        self.lock = lock
        self.reason = reason
    }

    public var schema: Schema { base.schema }
    public var capabilities: Capabilities { base.capabilities.subtracting(.multiProcess) }
    public var unsupportedCapabilities: [Capabilities: String] { base.unsupportedCapabilities.merging([.multiProcess: reason]) { $1 } }

    public func read<T>(_ body: (any ReadTransaction) throws -> T) throws -> T { try base.read(body) }
    public func write<T>(_ body: (any WriteTransaction) throws -> T) throws -> T { try base.write(body) }
    public func verify() throws -> VerificationReport { try base.verify() }

    public func observeResults(_ query: Query) throws -> any ResultsObservation {
        guard let observing = base as? any ObservingRepository else { throw StoreError(.unsupported, "this store observes nothing") }
        return try observing.observeResults(query)
    }

    public func explain(_ query: Query) throws -> String {
        guard let explaining = base as? any QueryExplaining else { throw StoreError(.unsupported, "this store explains no query plans") }
        return try explaining.explain(query)
    }

    /// Closes the backend's store, then gives the lock back.
    public func close() throws {
        defer { lock.release() }
        try base.close()
    }
}

extension BackendDescriptor {
    /// This backend, for an engine whose files one process at a time may open: each open takes
    /// the directory's `ExclusiveStoreLock` first, so a second open, in any process, is refused
    /// with `unsupported` before the engine touches a file, and the store declares
    /// `multiProcess` unsupported with `reason`.
    ///
    /// ```swift
    /// let single = MyStore.descriptor.exclusive(reason: "MyStore caches pages it never rereads")
    /// ```
    public func exclusive(reason: String) -> BackendDescriptor {
        var d = self
        let (open, name, verify, compact) = (self.open, self.name, self.verify, self.compact)
        // Checking and compacting touch the files too: they take the lock alike.
        d.verify = { schema, directory, options in
            try ExclusiveStoreLock.holding(directory, for: name, readOnly: true) { try verify(schema, directory, options) }
        }
        if let compact {
            d.compact = { schema, directory, options in
                try ExclusiveStoreLock.holding(directory, for: name, readOnly: false) { try compact(schema, directory, options) }
            }
        }
        d.open = { schema, directory, options in
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory)
            if exists ? !isDirectory.boolValue : options.readOnly {
                return try open(schema, directory, options)  // the backend's own error: a file in the way, no store
            }
            if !exists {
                do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
                    throw StoreError(.io, "cannot create the \(name) store's folder \(directory.path)", nativeMessage: "\(error)")
                }
            }
            let lock = try ExclusiveStoreLock(directory: directory, backend: name, readOnly: options.readOnly)
            do {
                return ExclusiveStore(base: try open(schema, directory, options), lock: lock, reason: reason)
            } catch {
                lock.release()
                throw error
            }
        }
        return d
    }
}
