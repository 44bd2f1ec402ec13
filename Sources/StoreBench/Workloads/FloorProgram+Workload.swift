import StoreBenchKit

extension FloorProgram {
    /// Whether this program runs `workload` (one with a floor body, and one it implements).
    public func runs(_ workload: Workload) -> Bool {
        workload.hasFloor && (workloads?.contains(workload.name) ?? true)
    }
}
