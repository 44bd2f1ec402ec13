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
        // The runner ignores SIGTERM and SIGHUP (it handles them), and an ignored or blocked
        // signal stays so across exec (a runner started from a thread that blocks signals passes
        // the mask on): restore and unblock them, so the runner can stop a cell with SIGTERM.
        // SIGINT stays as it is: Ctrl-C reaches the whole process group, and the runner stops
        // the cell.
        signal(SIGTERM, SIG_DFL)
        signal(SIGHUP, SIG_DFL)
        var stoppers = sigset_t()
        sigemptyset(&stoppers)
        sigaddset(&stoppers, SIGTERM)
        sigaddset(&stoppers, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &stoppers, nil)
        guard let data = FileManager.default.contents(atPath: spec) else { throw ValidationError("cannot read \(spec)") }
        let cell = try JSONDecoder().decode(CellSpec.self, from: data)
        try CellExecutor(spec: cell, backends: Registry.backends, programs: Registry.programs).runAndWrite()
    }
}
