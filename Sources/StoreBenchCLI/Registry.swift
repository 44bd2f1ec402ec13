import Foundation
import StoreBench
import StoreCore

/// The backends and programs this process knows: the built-in ones, then those an outside
/// package registered with `StoreBenchCLI.main(backends:programs:)`. Set once, before the
/// command line is parsed (argument parsing checks backend names against it).
enum Registry {
    private static let registered = Locked<(backends: [BackendDescriptor], programs: [FloorProgram])>(([], []))

    static var backends: [BackendDescriptor] { BuiltinBackends.all + registered.withLock { $0.backends } }
    static var programs: [FloorProgram] { BuiltinBackends.programs + registered.withLock { $0.programs } }
    static var names: [String] { backends.map(\.name) }

    static func backend(named name: String) -> BackendDescriptor? { backends.first { $0.name == name } }

    /// The name usage lines give the command: the running executable's (`storebench`, or an
    /// outside package's own).
    static var programName: String {
        let name = URL(fileURLWithPath: CommandLine.arguments.first ?? "storebench").lastPathComponent
        return name.isEmpty ? "storebench" : name
    }

    /// Adds outside backends and programs. Throws when a name is taken, by a built-in one or by
    /// another in the same call: a report must never mix two backends under one name.
    static func register(backends: [BackendDescriptor], programs: [FloorProgram]) throws {
        // `--backends` takes a comma-separated list: a name with a comma or a space could never be picked.
        for d in backends where d.name.isEmpty || d.name.contains(where: { $0 == "," || $0.isWhitespace }) {
            throw RegistryError("backend name '\(d.name)' cannot be selected on the command line: use letters, digits, '+', '-' or '.', no commas or spaces")
        }
        var seen = Set(names)
        for d in backends where !seen.insert(d.name).inserted {
            throw RegistryError("the backend name '\(d.name)' is already taken (taken: \(names.joined(separator: ", "))); give yours another name")
        }
        var programIDs = Set(Self.programs.map(\.id))
        for p in programs where !programIDs.insert(p.id).inserted {
            throw RegistryError("a program with id '\(p.id)' is already registered")
        }
        registered.withLock { $0.backends += backends; $0.programs += programs }
    }
}

/// A registration that cannot be accepted (a duplicate name).
struct RegistryError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
