import ArgumentParser
import Foundation
import StoreBench

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render the Markdown report again from a results file.",
        discussion: "`storebench run` writes both; this re-renders one from its JSON, e.g. after a CI run."
    )

    @Argument(help: "Results file written by `storebench run`.")
    var results: String = "Reports/latest.json"

    @Option(name: .shortAndLong, help: "Where to write the Markdown.")
    var out: String = "Reports/latest.md"

    func run() throws {
        let r: RunResults
        do { r = try RunResults.read(results) } catch { throw ValidationError("\(error)") }
        try MarkdownReport(r).render().write(toFile: out, atomically: true, encoding: .utf8)
        print("wrote \(out)")
    }
}
