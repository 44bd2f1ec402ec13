import Foundation

/// This process's resident memory, from `/proc/self` (Linux). Values are nil elsewhere.
public enum ResidentMemory {
    /// Resident bytes now.
    public static func current() -> UInt64? { status("VmRSS:") }

    /// The peak resident bytes since start or the last `resetPeak()`.
    public static func peak() -> UInt64? { status("VmHWM:") }

    /// Starts a new peak at the current resident size (writes 5 to `/proc/self/clear_refs`).
    @discardableResult
    public static func resetPeak() -> Bool {
        guard let fh = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? fh.close() }
        return (try? fh.write(contentsOf: Data("5".utf8))) != nil
    }

    private static func status(_ field: String) -> UInt64? {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = s.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return nil }
        let kib = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { UInt64($0) }
        return kib.map { $0 * 1024 }
    }
}
