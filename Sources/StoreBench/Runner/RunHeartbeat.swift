/// A `RunProgress` that is also told, about once a second, that the running cell is alive: how
/// long it has run and what its child says it is doing (`CellPhase`), so a cell that runs for
/// minutes does not look hung. Called on the thread that runs the plan, between
/// `cellStarted` and `cellFinished`; only for cells in child processes.
public protocol RunHeartbeat: RunProgress {
    func cellRunning(index: Int, elapsed: Double, phase: String?)
}
