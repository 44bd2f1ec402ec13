import ArgumentParser
import Foundation
import StoreCore

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the built-in backends and their capabilities."
    )

    @Flag(help: "Print JSON instead of a Markdown table.")
    var json = false

    func run() throws {
        var rows: [(String, String, [String])] = []
        for d in BuiltinBackends.all {
            rows.append((d.name, d.summary, try capabilities(of: d)))
        }
        if json {
            let objects = rows.map { ["name": $0.0, "summary": $0.1, "capabilities": $0.2] as [String: Any] }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        print("| backend | summary | capabilities |\n|---|---|---|")
        for (n, s, c) in rows { print("| \(n) | \(s) | \(c.joined(separator: ", ")) |") }
    }

    /// Opens a throw-away store to ask the backend what it supports.
    private func capabilities(of d: BackendDescriptor) throws -> [String] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-list-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let schema = try Schema(version: 1, entities: [EntityDescription("Probe", primaryKey: "id", attributes: [Attribute("id", .int64)])])
        let repo = try d.open(schema, dir, StoreOptions(durability: .relaxed))
        defer { try? repo.close() }
        return repo.capabilities.names
    }
}
