import Foundation

/// What a cell's child is doing (`loading the dataset`, `warm-up 1 of 1`, `measuring 2 of 5`,
/// `counting allocations`), so the runner can show a long cell is alive. The child writes it to
/// `phase` in the cell's work folder between repetitions, never inside one; the runner reads it
/// about once a second. Best effort: a phase that cannot be written or read is simply not shown.
enum CellPhase {
    static func file(in work: URL) -> URL { work.appendingPathComponent("phase") }

    /// Records `phase` for the runner (the child side).
    static func write(_ phase: String, work: String) {
        try? Data(phase.utf8).write(to: file(in: URL(fileURLWithPath: work)), options: .atomic)
    }

    /// The phase the child last recorded, or nil before the first (the runner side).
    static func read(work: URL) -> String? {
        guard let data = FileManager.default.contents(atPath: file(in: work).path), !data.isEmpty else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The phase of repetition `rep`: a load, a warm-up, a measured repetition or the one that counts allocations.
    static func of(loads: Bool, counting: Bool, measured: Bool, rep: Int, warmups: Int, repetitions: Int) -> String {
        if loads { return "loading the dataset" }
        if counting { return "counting allocations" }
        return measured ? "measuring \(rep - warmups + 1) of \(repetitions)" : "warm-up \(rep + 1) of \(warmups)"
    }
}
