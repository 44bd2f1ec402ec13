import ArgumentParser
import Foundation
import StoreBench

/// One process of a multi-process workload (`multiprocess.*`); the cell starts it. Not for direct use.
struct PeerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peer",
        abstract: "Read or write a shared store beside other processes; a multi-process cell starts it.",
        shouldDisplay: false
    )

    @Option(help: "The task (JSON) the cell wrote.")
    var task: String

    func run() throws {
        guard let data = FileManager.default.contents(atPath: task) else { throw ValidationError("cannot read \(task)") }
        let work = try JSONDecoder().decode(PeerTask.self, from: data)
        guard let backend = Registry.backend(named: work.backend) else {
            throw ValidationError("unknown backend '\(work.backend)'; known: \(Registry.backends.map(\.name).joined(separator: ", "))")
        }
        try PeerWork.run(work, backend: backend)
    }
}
