import ArgumentParser
import Foundation
import StoreBench

/// The child side of `run`: one cell in its own process. Not for direct use.
struct CellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cell",
        abstract: "Run one (backend, workload, scale) cell; `run` starts this in a child process.",
        shouldDisplay: false
    )

    @Option(help: "The cell specification (JSON) that `run` wrote.")
    var spec: String

    func run() throws {
        guard let data = FileManager.default.contents(atPath: spec) else { throw ValidationError("cannot read \(spec)") }
        let cell = try JSONDecoder().decode(CellSpec.self, from: data)
        try CellExecutor(spec: cell, backends: BuiltinBackends.all, programs: BuiltinBackends.programs).runAndWrite()
    }
}
