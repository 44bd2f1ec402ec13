import ArgumentParser
import Foundation
import StoreConformance
import StoreCore

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a store for damage: the engine's structure, then every record, index and link.",
        discussion: """
            The store is checked against the schema it records (every built-in backend stores \
            its schema's entities, attributes, indexes and relationships beside the version). \
            The store is opened read-only: nothing in its folder is written, deleted or \
            checkpointed, so a store in use by another process can be checked (LMDB: readers \
            and writers go on; SQLite: a snapshot).

            sqlite, grdb: PRAGMA integrity_check, the stored DDL, then the logical checks. \
            lmdb: a walk of every page of data.mdb that checks each page before following it \
            (liblmdb itself trusts its pages), then every index and relationship entry against \
            the records, then the logical checks. An object graph checks its store.

            Exit status: 0 clean, 1 damage found, 2 no store there or the check could not run.

            Example:
              storebench verify --backend lmdb /tmp/torture-lmdb/store
            """
    )

    @Option(name: [.customLong("backend"), .customShort("b")], help: "The backend that wrote the store.")
    var backend: BackendName

    @Argument(help: "The store's directory.", completion: .directory)
    var directory: String

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("'\(directory)' is not a directory")
        }
    }

    func run() throws {
        let descriptor = Registry.backend(named: backend.name)!
        let url = URL(fileURLWithPath: directory)
        var report: VerificationReport
        do {
            // A store whose recorded schema cannot be read is damaged or not a store: checked
            // against the social schema, it reports that it cannot be opened.
            var unreadable: StoreError?
            var schema = try SocialSchema.make()
            do { schema = try descriptor.storedSchema?(url) ?? schema } catch let e as StoreError where e.category == .corrupted { unreadable = e }
            report = try descriptor.verify(schema, url, StoreOptions(readOnly: true))
            if let unreadable, report.isClean { report.add("schema", "the recorded schema cannot be read: \(unreadable)") }
        } catch {
            StandardError.write("storebench verify: \(error)\n")
            throw ExitCode(2)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print("\(backend.name) \(directory): \(report)")
        }
        if !report.isClean { throw ExitCode(1) }
    }
}
