import ArgumentParser
import Foundation
import StoreConformance
import StoreCore

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Print how each backend runs a query (index, scan, filter, order).",
        discussion: """
            The query runs against the conformance kit's social schema (User, Post, Comment, Tag, \
            Profile) on an empty temporary store. The SQLite backends (sqlite, grdb) print the SQL the \
            query compiles to and SQLite's EXPLAIN QUERY PLAN for it, a subquery's steps indented under \
            it; lmdb prints its planner's plan; an object graph prints its store's. Plans do not depend \
            on the data, except where LMDB crosses a relationship from its other side: it does when that \
            side is read through a key or an index, or holds no more records (on an empty store, it holds none).

            Example:
              storebench explain User 'age == 30 AND score > 1.5' --sort score --limit 10
              storebench explain Post 'title CONTAINS[cd] "cafe"' --sort createdAt:desc -b lmdb
            """
    )

    @OptionGroup var backendOptions: BackendOptions

    @Argument(help: "The entity to query: \(SocialSchema.make().entities.map(\.name).joined(separator: ", ")).")
    var entity: String

    @Argument(help: "A predicate in NSPredicate syntax (default: every record).")
    var predicate: String = "TRUEPREDICATE"

    @Option(name: .long, parsing: .upToNextOption,
            help: "Sort keys: an attribute or to-one key path, with :desc for descending (e.g. createdAt:desc).")
    var sort: [String] = []

    @Option(help: "At most this many results.")
    var limit: Int?

    @Option(help: "Skip this many results first.")
    var offset: Int = 0

    func validate() throws {
        guard SocialSchema.make()[entity] != nil else {
            throw ValidationError("unknown entity '\(entity)'; the schema has \(SocialSchema.make().entities.map(\.name).joined(separator: ", "))")
        }
        _ = try query()
    }

    /// The query the arguments describe, checked against the schema.
    private func query() throws -> Query {
        do {
            let keys = sort.map { k in
                k.hasSuffix(":desc") ? SortKey(KeyPathExpression(String(k.dropLast(5))), ascending: false)
                    : SortKey(KeyPathExpression(k.hasSuffix(":asc") ? String(k.dropLast(4)) : k))
            }
            let q = Query(entity, where: try StorePredicate(format: predicate), sort: keys, limit: limit, offset: offset)
            _ = try SocialSchema.make().resolve(q)
            return q
        } catch let e as StoreError {
            throw ValidationError("\(e)")
        }
    }

    func run() throws {
        let schema = SocialSchema.make()
        let query = try query()
        for name in backendOptions.selected {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-explain-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: dir) }
            let repo = try Registry.backend(named: name)!.open(schema, dir, StoreOptions(durability: .relaxed))
            defer { try? repo.close() }
            // A wrapper may explain through the store it wraps, or say it cannot (`unsupported`).
            let plan: String?
            do { plan = try (repo as? any QueryExplaining)?.explain(query) } catch let e as StoreError where e.category == .unsupported { plan = nil }
            guard let plan else {
                print("\(name): does not explain its plans")
                continue
            }
            print("\(name):")
            for line in plan.split(separator: "\n") { print("  \(line)") }
        }
    }
}
