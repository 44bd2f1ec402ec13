import Foundation
import ObjectGraphModels
import Testing

/// A managed object refers to its model weakly (the model retains the object): a model that
/// ended is replaced by a new one on the next look-up, and the object and its edits live on.
@Suite struct ModelLifetimeTests {
    @Test(arguments: Engine.allCases)
    func aModelThatEndedIsReplacedNotReached(_ engine: Engine) throws {
        let (store, _, _) = try ModelStore.withAnn(engine)
        let context = store.context()
        weak var first: Author?
        var object: ManagedObject?
        do {
            let ann = try #require(try context.model(Author.self, id: 1))
            first = ann
            object = ann.managedObject
        }
        #expect(first == nil)
        let again = try #require(try context.model(Author.self, id: 1))
        #expect(again.username == "ann")
        #expect(again.managedObject === object)
        #expect(try context.fetch(Author.self).first === again)
    }

    @Test(arguments: Engine.allCases)
    func aBackingKeptPastItsModelDoesNotKeepTheBinding(_ engine: Engine) throws {
        let (store, _, _) = try ModelStore.withAnn(engine)
        let context = store.context()
        var kept: ModelBacking?
        do {
            let ann = try #require(try context.model(Author.self, id: 1))
            kept = ann.persistentBacking
            ann.bio = "kept"
        }
        // The backing (and through it the object, with its unsaved edit) outlives the model.
        #expect(kept?.object != nil)
        let again = try #require(try context.model(Author.self, id: 1))
        #expect(again.bio == "kept")
        again.age = 41
        try context.save()
        #expect(try store.context().model(Author.self, id: 1)?.age == 41)
        kept = nil
        #expect(again.username == "ann")
    }

    @Test(arguments: Engine.allCases)
    func aModelKeepsItsContextAlive(_ engine: Engine) throws {
        let (store, _, _) = try ModelStore.withAnn(engine)
        weak var gone: ObjectContext?
        let ann: Author
        do {
            let context = store.context()
            gone = context
            ann = try #require(try context.model(Author.self, id: 1))
        }
        #expect(gone != nil)
        #expect(ann.username == "ann")
        #expect(ann.lastAccessError == nil)
    }
}
