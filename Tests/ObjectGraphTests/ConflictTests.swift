import Foundation
import LMDBStore
import ObjectGraph
import SQLiteStore
import StoreConformance
import StoreCore
import Testing

/// Two writers edit one record: the default merge policy reports it at save and loses no edit.
@Suite("ObjectGraph merge conflicts and object lifetime")
struct ConflictTests {
    enum Engine: String, CaseIterable { case sqlite, lmdb }

    /// An object graph over a seeded store of `engine`.
    final class Stores {
        let directory: TemporaryDirectory
        let graph: ObjectGraph

        init(_ engine: Engine) throws {
            directory = try TemporaryDirectory("conflict-\(engine)")
            let schema = try SocialSchema.make()
            let store: any Repository = switch engine {
            case .sqlite: try SQLiteStore(directory: directory.url, schema: schema)
            case .lmdb: try LMDBStore(directory: directory.url, schema: schema)
            }
            try SocialFixture.load(into: store)
            graph = ObjectGraph(store: store)
        }

        func storedAge(_ id: Int64) throws -> Value? {
            try graph.store.read { try $0.fetch("User", id: .int64(id)) }?["age"]
        }
    }

    @Test(arguments: Engine.allCases)
    func theDefaultPolicyReportsAConcurrentEditAndKeepsBoth(_ engine: Engine) throws {
        let s = try Stores(engine)
        let a = s.graph.newContext()
        let b = s.graph.newContext()
        #expect(b.mergePolicy == .reportConflicts)
        let zoeA = try #require(try a.object("User", id: 4))
        let zoeB = try #require(try b.object("User", id: 4))
        try zoeA.set("age", 50)
        try zoeB.set("age", 33)
        try a.save()
        let error = try #require(throws: StoreError.self) { try b.save() }
        #expect(error.category == .conflict)
        #expect(error.message.contains("User(4).{age}"), "\(error)")
        #expect(error.context == "User(4)")
        #expect(try s.storedAge(4) == 50)                    // a's save stands
        #expect(try zoeB.value("age") == 33)                 // b's edit is still there
        #expect(zoeB.changedKeys == ["age"])
        b.mergePolicy = .objectWins
        try b.save()
        #expect(try s.storedAge(4) == 33)
    }

    @Test(arguments: Engine.allCases)
    func aWriterOutsideTheGraphIsAConflictToo(_ engine: Engine) throws {
        let s = try Stores(engine)
        let c = s.graph.newContext()
        let bob = try #require(try c.object("User", id: 2))
        try bob.set("age", 41)
        try s.graph.store.write { try $0.update("User", id: 2, set: ["age": 77]) }
        #expect(throws: StoreError.self) { try c.save() }
        #expect(try s.storedAge(2) == 77)
        c.mergePolicy = .storeWins
        try c.save()                                         // takes the stored value
        #expect(try bob.value("age") == 77)
        #expect(!bob.hasChanges)
    }

    @Test(arguments: Engine.allCases)
    func editsOfDifferentAttributesMergeWithoutConflict(_ engine: Engine) throws {
        let s = try Stores(engine)
        let a = s.graph.newContext()
        let b = s.graph.newContext()
        try #require(try a.object("User", id: 3)).set("age", 61)
        try #require(try b.object("User", id: 3)).set("email", "c@b")
        try a.save()
        try b.save()
        let stored = try #require(try s.graph.store.read { try $0.fetch("User", id: 3) })
        #expect(stored["age"] == 61 && stored["email"] == "c@b")
    }

    @Test(arguments: Engine.allCases)
    func aRecordDeletedElsewhereUnderAnEditIsReported(_ engine: Engine) throws {
        let s = try Stores(engine)
        let a = s.graph.newContext()
        let b = s.graph.newContext()
        let postB = try #require(try b.object("Post", id: 12))
        try postB.set("title", "renamed")
        try a.delete(try #require(try a.object("Post", id: 12)))
        try a.save()
        let error = try #require(throws: StoreError.self) { try b.save() }
        #expect(error.message.contains("Post(12) (deleted in the store)"), "\(error)")
        #expect(!postB.isInvalidated && postB.hasChanges)      // the edit is not dropped silently
        b.mergePolicy = .storeWins
        try b.save()
        #expect(postB.isInvalidated)
    }

    @Test func objectsKeepTheirContextAlive() throws {
        let s = try Stores(.sqlite)
        let ann = try #require(try s.graph.newContext().object("User", id: 1))   // the context is not kept
        #expect(try ann.value("username") == "ann")
        try ann.set("age", 19)
        try #require(ann.context).save()
        #expect(try s.storedAge(1) == 19)
    }
}
