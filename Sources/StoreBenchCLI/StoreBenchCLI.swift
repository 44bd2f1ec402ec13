import ArgumentParser
import Foundation
import StoreBench
import StoreCore

/// The `storebench` command line as a library: an outside package gets `run`, `conformance`,
/// `compare`, `list`, `verify`, `torture`, `damage` and the reports for its own backends,
/// measured beside the built-in ones.
///
/// ```swift
/// // Sources/mystore-bench/main.swift, an executable target depending on
/// // .product(name: "StoreBenchCLI", package: "StoreBench") and your backend.
/// import StoreBenchCLI
/// StoreBenchCLI.main(backends: [MyStore.descriptor])
/// ```
///
/// Then `swift run -c release mystore-bench run --backends mystore,sqlite` measures both. Every
/// cell runs in a child process of *that* executable (it re-executes itself with the hidden
/// `cell` subcommand), so your backend is linked into every cell; keep `main` free of other work.
/// Threading: call once, from the main thread, at the start of the process.
public enum StoreBenchCLI {
    /// Registers `backends` (and any floors or reference `programs` and workload `suites` of
    /// your own) beside the built-in ones, parses `arguments` (default: the process's) and runs
    /// the command. Exits the process with the command's status; a name that a built-in backend,
    /// suite or workload already uses exits 64 with a message naming it.
    public static func main(backends: [BackendDescriptor] = [], programs: [FloorProgram] = [],
                            suites: [any WorkloadSuite] = [], arguments: [String]? = nil) -> Never {
        do {
            try Registry.register(backends: backends, programs: programs)
            for suite in suites { try Suites.register(suite) }
        } catch {
            FileHandle.standardError.write(Data("storebench: \(error)\n".utf8))
            exit(64)
        }
        do {
            var command = try StoreBenchCommand.parseAsRoot(arguments)
            try command.run()
        } catch let error as FileAccessError {
            // A file that cannot be read or written: one line naming it and the reason.
            FileHandle.standardError.write(Data("\(Registry.programName): \(error)\n".utf8))
            exit(error.operation == .read ? 1 : 73)
        } catch {
            StoreBenchCommand.exit(withError: error)
        }
        exit(0)
    }

    /// This StoreBench's version, as `storebench --version` prints it.
    public static let version = "0.1.0"

    /// The names of the backends a command line may pick: the built-in ones, then the registered.
    public static var backendNames: [String] { Registry.names }
}
