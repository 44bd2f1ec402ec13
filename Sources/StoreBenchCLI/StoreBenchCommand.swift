import ArgumentParser

/// The root command; `StoreBenchCLI.main` runs it.
struct StoreBenchCommand: ParsableCommand {
    /// Computed, so that usage lines name the executable an outside package built
    /// (`counting-bench run …`), not `storebench`.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
        commandName: Registry.programName,
        abstract: "Choose a Swift persistence backend by measurement.",
        discussion: """
            StoreBench measures every backend behind one repository protocol on identical data. \
            `run` measures and writes Reports/latest.md with its JSON; `compare` diffs two runs for CI; \
            `choose` ranks the backends of a results file for an operation mix; `list` names backends and workloads; `conformance` runs the kit a backend must pass; `verify` checks a store for damage; `torture` runs crash trials; `damage` runs damaged-file trials.
            """,
        version: StoreBenchCLI.version,
        subcommands: [RunCommand.self, CompareCommand.self, ChooseCommand.self, ListCommand.self, ConformanceCommand.self, ReportCommand.self, MergeCommand.self,
                      ExplainCommand.self, VerifyCommand.self, TortureCommand.self, DamageCommand.self, ProbeCommand.self, GraphMemoryCommand.self, CellCommand.self, TortureWriterCommand.self, TortureMigratorCommand.self, SharedStoreChildCommand.self, SoakChildCommand.self, PeerCommand.self, DamageProbeCommand.self]
        )
    }
}

/// A backend name given on the command line; `--help` lists the built-in ones.
struct BackendName: ExpressibleByArgument, Hashable {
    let name: String
    init?(argument: String) {
        guard Registry.backend(named: argument) != nil else { return nil }
        name = argument
    }
    static var allValueStrings: [String] { Registry.names }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// Options shared by the commands that pick backends.
struct BackendOptions: ParsableArguments {
    @Option(name: [.customLong("backend"), .customShort("b")],
            help: "A backend to use; repeat for several. Default: every registered backend (the built-in ones and any an outside package added).")
    var backends: [BackendName] = []

    var selected: [String] {
        backends.isEmpty ? Registry.names : backends.map(\.name)
    }
}
