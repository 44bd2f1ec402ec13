import ArgumentParser
import Foundation
import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreCore

/// Walks many records through one object-graph context and reports resident memory: the
/// check that refreshing objects lets their memory go.
struct GraphMemoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph-memory",
        abstract: "Resident memory of an object-graph context walking N records.",
        discussion: """
            Writes N records of Item(id, name, group, score, createdAt) to a temporary store \
            (in chunks, so loading stays small), then walks them all through one ObjectGraph \
            context, a page of --page objects at a time ordered by id, reading every attribute. \
            Every --refresh-every records the context is reset (objects become faults and \
            released ones leave the identity map). With --refresh-every 0 the walk keeps every \
            object instead, which shows what the refreshes save. Resident memory is sampled after \
            each page; the output (JSON with --json) gives the growth above the resident size \
            before the walk. Run it as its own process so the figure is the walk's alone. Over \
            LMDB the figure includes the pages of the memory-mapped data file the walk touched.
            """
    )

    enum StoreKind: String, ExpressibleByArgument, CaseIterable {
        case sqlite, lmdb
    }

    @Option(help: "Records to walk.")
    var records = 200_000

    @Option(help: "Objects fetched per page.")
    var page = 1_000

    @Option(help: "Reset the context after this many records; 0 keeps every object.")
    var refreshEvery = 10_000

    @Option(help: "The store under the graph: \(StoreKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var store: StoreKind = .sqlite

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        guard (1...10_000_000).contains(records) else { throw ValidationError("--records must be 1...10000000") }
        guard (1...100_000).contains(page) else { throw ValidationError("--page must be 1...100000") }
        guard refreshEvery >= 0 else { throw ValidationError("--refresh-every must be 0 or more") }
    }

    struct Result: Codable {
        var records: Int, page: Int, refreshEvery: Int, store: String
        var residentBeforeWalk: Int, peakResidentDuringWalk: Int, growthBytes: Int
        var maxRegisteredObjects: Int, maxLiveObjects: Int, walked: Int
    }

    func run() throws {
        let schema = try Self.schema()
        let item = schema["Item"]!
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-graph-memory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = try openStore(schema, in: dir)
        defer { try? base.close() }
        try load(item, into: base)
        let graph = ObjectGraph(store: base)
        let context = graph.newContext()
        var kept: [ManagedObject] = []
        let result = try walk(context, keeping: &kept)
        try report(result)
        _ = kept.count
    }

    /// Item(id, name, group, score, createdAt).
    private static func schema() throws -> Schema {
        try Schema(version: 1, entities: [
            EntityDescription("Item", primaryKey: "id",
                              attributes: [Attribute("id", .int64), Attribute("name", .string), Attribute("group", .int64),
                                           Attribute("score", .double), Attribute("createdAt", .date)]),
        ])
    }

    /// A new store of `--store`'s kind in `dir`.
    private func openStore(_ schema: Schema, in dir: URL) throws -> any Repository {
        let options = StoreOptions(durability: .relaxed)
        return switch store {
        case .sqlite: try SQLiteStore(directory: dir, schema: schema, options: options)
        case .lmdb: try LMDBStore(directory: dir, schema: schema, options: options)
        }
    }

    /// Writes `records` items, 10,000 per write.
    private func load(_ item: Entity, into base: any Repository) throws {
        for start in stride(from: 0, to: records, by: 10_000) {
            let rows = (start..<min(start + 10_000, records)).map { i in
                Record(item, values: [.int64(Int64(i)), .string("item-\(i)-\(String(repeating: "x", count: 20 + i % 40))"),
                                      .int64(Int64(i % 100)), .double(Double(i) * 0.5), .date(Date(timeIntervalSince1970: Double(i)))])
            }
            try base.write { try $0.insert(contentsOf: rows) }
        }
    }

    /// Walks every item through `context` a page at a time, reading every attribute and
    /// resetting the context every `refreshEvery` records (with 0, every object goes to `kept`
    /// instead); samples memory after each page.
    private func walk(_ context: ObjectContext, keeping kept: inout [ManagedObject]) throws -> Result {
        let before = ResidentMemory.current()
        var result = Result(records: records, page: page, refreshEvery: refreshEvery, store: store.rawValue,
                            residentBeforeWalk: before, peakResidentDuringWalk: before, growthBytes: 0,
                            maxRegisteredObjects: 0, maxLiveObjects: 0, walked: 0)
        var last: Int64 = -1
        var sinceRefresh = 0
        var checksum = 0.0
        while true {
            let objects = try context.fetch(Query("Item", where: "id" > Value.int64(last), sort: [.asc("id")], limit: page))
            guard let tail = objects.last else { break }
            try readEveryAttribute(of: objects, into: &checksum)
            last = tail.id.int64Value!
            result.walked += objects.count
            sinceRefresh += objects.count
            if refreshEvery == 0 { kept += objects }
            // Sampled while the page is still held, as a caller working on it would hold it.
            withExtendedLifetime(objects) {
                result.maxRegisteredObjects = max(result.maxRegisteredObjects, context.registeredObjectCount)
                result.maxLiveObjects = max(result.maxLiveObjects, LiveObjects.current)
                result.peakResidentDuringWalk = max(result.peakResidentDuringWalk, ResidentMemory.current())
            }
            if refreshEvery > 0, sinceRefresh >= refreshEvery {
                context.reset()
                sinceRefresh = 0
            }
        }
        result.growthBytes = result.peakResidentDuringWalk - before
        precondition(checksum.isFinite)
        return result
    }

    /// Reads every attribute of each object, folding the values into `checksum` so that the
    /// reads are not optimized away.
    private func readEveryAttribute(of objects: [ManagedObject], into checksum: inout Double) throws {
        for o in objects {
            checksum += try o.require("score", as: Double.self)
            checksum += Double(try o.require("name", as: String.self).utf8.count)
            checksum += Double(try o.require("group", as: Int64.self))
            _ = try o.require("createdAt", as: Date.self)
        }
    }

    /// Prints the result as JSON (`--json`) or as three lines of text.
    private func report(_ result: Result) throws {
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try enc.encode(result), as: UTF8.self))
        } else {
            let mb = { (b: Int) in String(format: "%.1f MiB", Double(b) / 1_048_576) }
            print("walked \(result.walked) records over objectgraph+\(store.rawValue), page \(page), reset every \(refreshEvery == 0 ? "never (objects kept)" : "\(refreshEvery)")")
            print("resident before walk \(mb(result.residentBeforeWalk)), peak during walk \(mb(result.peakResidentDuringWalk)), growth \(mb(result.growthBytes))")
            print("registered objects at most \(result.maxRegisteredObjects), live objects at most \(result.maxLiveObjects)")
        }
    }
}

/// Resident set size of this process, from /proc (Linux); 0 where unavailable.
enum ResidentMemory {
    static func current() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = s.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
