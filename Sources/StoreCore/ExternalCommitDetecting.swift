/// A store that can tell that other processes committed to it, so that `ObjectGraph` brings
/// its contexts and observers up to date with saves made elsewhere (an app and its extension).
///
/// ```swift
/// let before = try store.externalCommitStamp()
/// // … another process commits …
/// if try store.externalCommitStamp() != before { /* refetch */ }
/// ```
public protocol ExternalCommitDetecting: Repository {
    /// A value that changes when another process (or another store over the same files)
    /// commits a change; this store's own commits leave it. Cheap enough to poll every few
    /// milliseconds; it may wait for a write transaction of this store to end.
    func externalCommitStamp() throws -> UInt64
}
