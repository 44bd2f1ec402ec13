import StoreBenchKit

extension FloorProgram {
    /// Whether this program runs `workload` (one with a floor body, and one it implements;
    /// one for named programs only where it names it).
    public func runs(_ workload: Workload) -> Bool {
        guard workload.hasFloor else { return false }
        return workload.namedProgramsOnly ? alsoRuns.contains(workload.name) : workloads?.contains(workload.name) ?? true
    }
}
