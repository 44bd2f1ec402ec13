import ArgumentParser
import Foundation
import LMDBStore
import SQLiteStore
import StoreConformance

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the Markdown report: machine, versions and the conformance matrix.",
        discussion: "`make bench` runs this in a release build and writes Reports/latest.md."
    )

    @OptionGroup var backendOptions: BackendOptions

    @Option(name: .shortAndLong, help: "Where to write the report.")
    var out: String = "Reports/latest.md"

    func run() throws {
        let started = Date()
        let reports = runKit(backendOptions.selected, filter: nil, verbose: false)
        var md = "# StoreBench report\n\n"
        md += "Generated \(ISO8601DateFormatter().string(from: started)) by `storebench report`"
        md += " (\(Machine.buildConfiguration) build) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s.\n\n"
        md += "## Machine and versions\n\n" + Machine.describe().map { "- \($0.0): \($0.1)" }.joined(separator: "\n") + "\n"
        md += "- SQLite: \(SQLiteStore.libraryVersion)\n"
        md += "- LMDB: \(LMDBStore.libraryVersion)\n\n"
        md += "## Conformance\n\n"
        md += "Each backend runs the same \(ConformanceKit.cases.count) cases of the conformance kit"
        md += " (groups: \(ConformanceKit.groups.joined(separator: ", "))). A skip names the missing capability.\n\n"
        md += ConformanceKit.markdown(reports)
        md += "\n## Workloads\n\nThe workload runner has not landed yet; this report holds the conformance matrix only.\n"
        let url = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try md.write(to: url, atomically: true, encoding: .utf8)
        let failed = reports.reduce(0) { $0 + $1.failed }
        print("wrote \(out): \(reports.map { "\($0.backend) \($0.passed) passed, \($0.failed) failed, \($0.skipped) skipped" }.joined(separator: "; "))")
        if failed > 0 { throw ExitCode(1) }
    }
}
