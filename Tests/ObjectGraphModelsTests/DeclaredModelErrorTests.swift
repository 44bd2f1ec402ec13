import Foundation
import ObjectGraphModels
import Testing

/// Access does not throw: errors are recorded and thrown by the context's next save.
@Suite struct DeclaredModelErrorTests {
    /// A second `ann` breaks the unique username (at the store); a second id 1 is refused
    /// by the context's insert.
    @Test(arguments: Engine.allCases, [(Int64(2), "ann"), (Int64(1), "bob")])
    func aUniqueViolationOrDuplicateKeySurfacesAtSave(_ engine: Engine, _ key: (Int64, String)) throws {
        let (store, context, _) = try ModelStore.withAnn(engine, saved: false)
        defer { withExtendedLifetime(store) {} }
        let second = Author(id: key.0, username: key.1)
        context.insert(second)
        expectCategory(.conflict) { try context.save() }
        #expect(second.lastAccessError?.category == (second.id == 1 ? .conflict : nil))
    }

    @Test(arguments: Engine.allCases)
    func readingADeletedRecordSurfacesAtSave(_ engine: Engine) throws {
        let store = try ModelStore(engine)
        let writer = store.context()
        writer.insert(Author(id: 1, username: "ann", age: 40))
        try writer.save()

        let reader = store.context()
        let ann = try #require(try reader.model(Author.self, id: 1))
        #expect(ann.username == "ann" && ann.age == 40)
        let doomed = try #require(try writer.model(Author.self, id: 1))
        writer.delete(doomed)
        try writer.save()

        reader.refresh(try #require(ann.managedObject))
        #expect(ann.username == "ann")          // the last known value, no throw
        #expect(ann.age == 40)
        #expect(ann.lastAccessError?.category == .notFound)
        expectCategory(.notFound) { try reader.save() }
        try reader.save()                         // thrown once
    }

    @Test(arguments: Engine.allCases)
    func writingTheKeyOrADeletedModelSurfacesAtSave(_ engine: Engine) throws {
        let (store, context, ann) = try ModelStore.withAnn(engine)
        defer { withExtendedLifetime(store) {} }
        ann.id = 2
        expectCategory(.invalidValue) { try context.save() }
        context.delete(ann)
        ann.bio = "late"
        expectCategory(.invalidValue) { try context.save() }
    }

    @Test func aModelOfAnotherContextIsRefusedAtSave() throws {
        let store = try ModelStore(.sqlite)
        let a = store.context()
        let b = store.context()
        let ann = Author(id: 1, username: "ann")
        a.insert(ann)
        let post = Article(title: "x")
        b.insert(post)
        post.author = ann
        expectCategory(.invalidValue) { try b.save() }
    }
}
