import Foundation

extension ConformanceKit {
    /// A Markdown summary (one row per backend and group) followed by one table of every case
    /// with a column per backend, and the reasons of failures and skips.
    public static func markdown(_ reports: [ConformanceReport]) -> String {
        guard let first = reports.first else { return "_No backends._\n" }
        var out = "| backend | passed | failed | skipped |\n|---|---:|---:|---:|\n"
        for r in reports { out += "| \(r.backend) | \(r.passed) | \(r.failed) | \(r.skipped) |\n" }
        out += "\n| group | case | " + reports.map(\.backend).joined(separator: " | ") + " |\n"
        out += "|---|---|" + String(repeating: ":---:|", count: reports.count) + "\n"
        for (i, c) in first.cases.enumerated() {
            let marks = reports.map { r -> String in
                guard i < r.cases.count else { return "" }
                switch r.cases[i].status {
                case .passed: return "pass"
                case .failed: return "**FAIL**"
                case .skipped: return "skip"
                }
            }
            out += "| \(c.group) | \(c.name) | " + marks.joined(separator: " | ") + " |\n"
        }
        let notes = reports.flatMap { r in
            r.cases.filter { $0.status != .passed }.map { "- \(r.backend) `\($0.id)` \($0.status.rawValue): \($0.reason ?? "")" }
        }
        if !notes.isEmpty { out += "\n" + notes.joined(separator: "\n") + "\n" }
        return out
    }

    /// Reports as pretty JSON: an array with one object per backend.
    public static func json(_ reports: [ConformanceReport]) throws -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try enc.encode(reports), as: UTF8.self)
    }
}
