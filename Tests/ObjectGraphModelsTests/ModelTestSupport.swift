import Foundation
import LMDBStore
import ObjectGraphModels
import SQLiteStore
import StoreConformance
import Testing

/// The stores one model declaration runs on, unchanged.
enum Engine: String, CaseIterable, Sendable {
    case sqlite = "objectgraph+sqlite"
    case lmdb = "objectgraph+lmdb"
}

/// An object graph over a real store in a temporary folder, its schema derived from the models.
final class ModelStore {
    let directory: TemporaryDirectory
    let graph: ObjectGraph

    init(_ engine: Engine) throws {
        directory = try TemporaryDirectory("models-\(engine)")
        let schema = try Schema(version: 1, Author.self, Article.self, Tag.self, Sample.self)
        let options = StoreOptions(durability: .relaxed)
        let store: any Repository = switch engine {
        case .sqlite: try SQLiteStore(directory: directory.url, schema: schema, options: options)
        case .lmdb: try LMDBStore(directory: directory.url, schema: schema, options: options)
        }
        graph = ObjectGraph(store: store)
    }

    func context() -> ObjectContext { graph.newContext() }

    /// A new store and context holding the author ann (id 1), saved unless `saved` is false.
    static func withAnn(_ engine: Engine, saved: Bool = true) throws -> (ModelStore, ObjectContext, Author) {
        let store = try ModelStore(engine)
        let context = store.context()
        let ann = Author(id: 1, username: "ann")
        context.insert(ann)
        if saved { try context.save() }
        return (store, context, ann)
    }
}

/// Runs `body` and checks it throws a `StoreError` of category `c`.
func expectCategory(_ c: StoreError.Category, _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
    do { try body() } catch let e as StoreError {
        #expect(e.category == c, "\(e)", sourceLocation: sourceLocation)
        return
    } catch { Issue.record("not a StoreError: \(error)", sourceLocation: sourceLocation); return }
    Issue.record("expected a \(c) error", sourceLocation: sourceLocation)
}
