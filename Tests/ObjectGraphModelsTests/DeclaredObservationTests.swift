import Foundation
import ObjectGraphModels
import Observation
import Synchronization
import Testing

/// Declared models are `Observable`: setters and reloads tell observers.
@Suite struct DeclaredObservationTests {
    /// Whether `read`'s observed properties changed by the end of `change`.
    private func changes(_ read: () -> Void, after change: () throws -> Void) rethrows -> Bool {
        let fired = Atomic(false)
        withObservationTracking(read, onChange: { fired.store(true, ordering: .relaxed) })
        try change()
        return fired.load(ordering: .relaxed)
    }

    @Test func settersNotify() throws {
        let ann = Author(id: 1, username: "ann")
        #expect(changes({ _ = ann.age }, after: { ann.age = 3 }))
        #expect(!changes({ _ = ann.age }, after: { ann.bio = "x" }))
        let store = try ModelStore(.sqlite)
        let context = store.context()
        context.insert(ann)
        #expect(changes({ _ = ann.username }, after: { ann.username = "anna" }))
    }

    @Test(arguments: Engine.allCases)
    func aReloadNotifies(_ engine: Engine) throws {
        let (store, context, ann) = try ModelStore.withAnn(engine)
        let other = try #require(try store.context().model(Author.self, id: 1))
        #expect(try changes({ _ = ann.age }, after: {
            other.age = 9
            try #require(other.modelContext).save()
            context.refresh(try #require(ann.managedObject))
        }))
        #expect(ann.age == 9)
    }

    @Test(arguments: Engine.allCases)
    func anotherContextsSaveNotifiesWhenMerged(_ engine: Engine) throws {
        let (store, context, ann) = try ModelStore.withAnn(engine)
        let other = try #require(try store.context().model(Author.self, id: 1))
        #expect(try changes({ _ = ann.age }, after: {
            other.age = 12
            try #require(other.modelContext).save()
            try context.mergeChanges()                  // no refresh: the merge tells the observers
        }))
        #expect(ann.age == 12)
    }

    @Test func linkingNotifiesTheOtherSide() throws {
        let store = try ModelStore(.sqlite)
        let context = store.context()
        let ann = Author(id: 1, username: "ann")
        let post = Article(title: "t")
        context.insert(ann)
        context.insert(post)
        #expect(changes({ _ = post.author }, after: { ann.articles = [post] }))
        #expect(changes({ _ = ann.articles }, after: { post.author = nil }))
    }
}
