import ArgumentParser
import Foundation
import StoreBench

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render the Markdown report again from a results file.",
        discussion: """
            `storebench run` writes both; this re-renders one from its JSON, e.g. after a CI run. \
            Exit status: 0 written, 1 when the results file cannot be read (one line says why), \
            73 when the report cannot be written (one line names it and the reason).
            """
    )

    @Argument(help: "Results file written by `storebench run`.")
    var results: String = "Reports/latest.json"

    @Option(name: .shortAndLong, help: "Where to write the Markdown (its folder is created when missing).")
    var out: String = "Reports/latest.md"

    @Option(help: "Equivalence margin in percent: two times within it count as equivalent, one beyond it as faster (default: the run's, else 5).")
    var margin: Double?

    func validate() throws {
        if let margin, !(margin > 0 && margin < 100) { throw ValidationError("--margin must be a percentage between 0 and 100, not \(margin)") }
    }

    func run() throws {
        var r: RunResults
        do { r = try RunResults.read(results) } catch {
            StandardError.write("\(Registry.programName) report: \(error)\n")
            throw ExitCode(1)
        }
        if let margin { r.margin = margin / 100 }
        let file = URL(fileURLWithPath: out)
        let report = MarkdownReport(r, folder: file.deletingPathExtension().lastPathComponent)
        try report.write(to: file)
        print("wrote \(out) and \(report.pages().count) pages in \(file.deletingLastPathComponent().appendingPathComponent(report.folder).path)/")
    }
}
