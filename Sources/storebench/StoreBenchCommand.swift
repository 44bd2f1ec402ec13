import ArgumentParser

@main
struct StoreBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storebench",
        abstract: "Choose a Swift persistence backend by measurement.",
        discussion: """
            StoreBench runs every backend behind one repository protocol. Today it lists the \
            built-in backends, runs the conformance kit against them, explains query plans and writes a Markdown \
            report; the workload runner (`run`, `compare`) comes next.
            """,
        subcommands: [ListCommand.self, ConformanceCommand.self, ExplainCommand.self, ProbeCommand.self, GraphMemoryCommand.self, ReportCommand.self]
    )
}

/// A backend name given on the command line; `--help` lists the built-in ones.
struct BackendName: ExpressibleByArgument, Hashable {
    let name: String
    init?(argument: String) {
        guard BuiltinBackends.named(argument) != nil else { return nil }
        name = argument
    }
    static var allValueStrings: [String] { BuiltinBackends.all.map(\.name) }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// Options shared by the commands that pick backends.
struct BackendOptions: ParsableArguments {
    @Option(name: [.customLong("backend"), .customShort("b")],
            help: "A backend to use; repeat for several. Default: every built-in backend.")
    var backends: [BackendName] = []

    var selected: [String] {
        backends.isEmpty ? BuiltinBackends.all.map(\.name) : backends.map(\.name)
    }
}
