import Foundation
import ObjectGraphModels
import Testing

/// Access does not throw: errors are recorded and thrown by the context's next save.
@Suite struct DeclaredModelErrorTests {
    @Test(arguments: Engine.allCases)
    func aUniqueViolationSurfacesAtSave(_ engine: Engine) throws {
        let store = try ModelStore(engine)
        let context = store.context()
        context.insert(Author(id: 1, username: "ann"))
        context.insert(Author(id: 2, username: "ann"))
        expectCategory(.conflict) { try context.save() }
    }

    @Test(arguments: Engine.allCases)
    func aDuplicateInsertSurfacesAtSave(_ engine: Engine) throws {
        let store = try ModelStore(engine)
        let context = store.context()
        context.insert(Author(id: 1, username: "ann"))
        context.insert(Author(id: 1, username: "bob"))
        expectCategory(.conflict) { try context.save() }
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
        let store = try ModelStore(engine)
        let context = store.context()
        let ann = Author(id: 1, username: "ann")
        context.insert(ann)
        try context.save()
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
