/// What a run's cells measure.
public enum MeasureMode: String, Codable, Sendable, CaseIterable {
    /// Wall-clock time per operation (with allocation counts and, where offered, CPU instructions).
    case time
    /// Instructions per operation under `valgrind --tool=callgrind`: slow, but the same count
    /// for the same build on any machine, whatever else it is doing.
    case instructions
}
