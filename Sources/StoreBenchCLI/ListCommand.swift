import ArgumentParser
import Foundation
import StoreBench
import StoreCore

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the built-in backends with their capabilities, and the registered workloads."
    )

    @Flag(help: "Print JSON ({\"backends\": […], \"workloads\": […]}) instead of Markdown tables.")
    var json = false

    func run() throws {
        var rows: [(String, String, String, [String])] = []
        for d in Registry.backends {
            rows.append((d.name, d.engine, d.summary, try capabilities(of: d)))
        }
        let workloads = WorkloadRegistry.all
        if json {
            let object: [String: Any] = [
                "backends": rows.map { ["name": $0.0, "engine": $0.1, "summary": $0.2, "capabilities": $0.3] as [String: Any] },
                "workloads": workloads.map { ["name": $0.name, "category": $0.category.rawValue, "summary": $0.summary,
                                              "floor": $0.hasFloor && !$0.loadsDataset] as [String: Any] },
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        print("| backend | engine | summary | capabilities |\n|---|---|---|---|")
        for (n, e, s, c) in rows { print("| \(n) | \(e) | \(s) | \(c.joined(separator: ", ")) |") }
        print("\n| workload | category | floor | what it measures |\n|---|---|---|---|")
        for w in workloads {
            print("| \(w.name) | \(w.category.rawValue) | \(w.hasFloor && !w.loadsDataset ? "yes" : "") | \(w.summary) |")
        }
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
