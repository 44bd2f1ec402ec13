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

    func run() throws {
        let r: RunResults
        do { r = try RunResults.read(results) } catch {
            StandardError.write("\(Registry.programName) report: \(error)\n")
            throw ExitCode(1)
        }
        try FileAccess.write(Data(MarkdownReport(r).render().utf8), to: out)
        print("wrote \(out)")
    }
}
