import ArgumentParser
import Foundation
import StoreConformance

struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run the conformance kit against backends.",
        discussion: """
            Prints a Markdown pass/fail/skip table. With --json, prints one object per backend \
            {"backend","passed","failed","skipped","cases":[{"group","name","status","reason"}]} \
            (a single object for one backend, an array for several). Exits 1 when a case fails.
            """
    )

    @OptionGroup var backendOptions: BackendOptions

    @Flag(help: "Print JSON instead of Markdown.")
    var json = false

    @Option(help: "Run only the cases whose group.name contains this text.")
    var filter: String?

    @Flag(name: .shortAndLong, help: "Print a line per case to standard error as it runs.")
    var verbose = false

    func validate() throws {
        if let f = filter, !ConformanceKit.cases.contains(where: { $0.id.contains(f) }) {
            throw ValidationError("no case matches '\(f)'; groups are: \(ConformanceKit.groups.joined(separator: ", "))")
        }
    }

    func run() throws {
        let reports = runKit(backendOptions.selected, filter: filter, verbose: verbose)
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = reports.count == 1 ? try enc.encode(reports[0]) : try enc.encode(reports)
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(ConformanceKit.markdown(reports), terminator: "")
        }
        if reports.contains(where: { $0.failed > 0 }) { throw ExitCode(1) }
    }
}

/// Runs the kit for each backend, reporting progress on standard error.
func runKit(_ backends: [String], filter: String?, verbose: Bool) -> [ConformanceReport] {
    let cases = ConformanceKit.cases.filter { filter == nil || $0.id.contains(filter!) }
    let progress = Progress(total: cases.count * backends.count)
    return backends.map { name in
        let harness = DescriptorHarness(Registry.backend(named: name)!)
        return ConformanceKit.run(harness, cases: cases) { r in
            progress.step("\(name) \(r.id)", status: r.status.rawValue, verbose: verbose || r.status == .failed)
        }
    }
}
