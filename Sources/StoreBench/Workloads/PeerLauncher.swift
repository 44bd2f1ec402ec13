import Foundation
import StoreCore

/// How a multi-process workload starts the processes that share the store under test: the
/// runner's executable, run as `storebench peer`, opening the cell's backend with its durability.
/// The runner sets it for a backend's cell (`WorkloadContext.peers`); nil on a floor and in a
/// run in the runner's own process, which has no executable to start.
public struct PeerLauncher: Sendable {
    public let executable: URL
    /// The backend's name, as the executable's registry knows it.
    public let backend: String
    public let durability: Durability
    /// The store every peer opens.
    public let store: URL
    /// A scratch folder of the cell, for the peers' task and result files.
    public let work: URL

    public init(executable: URL, backend: String, durability: Durability, store: URL, work: URL) {
        self.executable = executable
        self.backend = backend
        self.durability = durability
        self.store = store
        self.work = work
    }
}
