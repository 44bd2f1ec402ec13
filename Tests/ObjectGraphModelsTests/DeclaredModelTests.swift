import Foundation
import ObjectGraphModels
import Testing

/// One model declaration (Models.swift) on the object graph over SQLite and over LMDB.
@Suite struct DeclaredModelTests {
    @Test(arguments: Engine.allCases)
    func insertFetchAndIdentity(_ engine: Engine) throws {
        let store = try ModelStore(engine)
        let context = store.context()
        let ann = Author(id: 1, username: "ann", age: 30)
        #expect(ann.managedObject == nil)
        #expect(ann.username == "ann")
        context.insert(ann)
        context.insert(Author(id: 2, username: "bob"))
        try context.save()
        #expect(ann.managedObject != nil)
        #expect(try context.fetch(Author.self, where: "age" >= 18).first === ann)
        #expect(try context.model(Author.self, id: 1) === ann)

        let other = store.context()
        let fetched = try other.fetch(Author.self, sort: [.asc("username")])
        #expect(fetched.map(\.username) == ["ann", "bob"])
        #expect(try other.model(Author.self, id: 1) === fetched[0])
        #expect(try other.fetch(Author.self, where: "username" == "ann").first === fetched[0])
        #expect(fetched[0].age == 30)
        #expect(try other.model(Author.self, id: 3) == nil)
    }

    @Test(arguments: Engine.allCases)
    func settersWriteAndStringKeyedAccessStays(_ engine: Engine) throws {
        let (store, context, ann) = try ModelStore.withAnn(engine)
        ann.bio = "hello"
        ann.age += 1
        #expect(ann.managedObject?.changedKeys == ["bio", "age"])
        try context.save()
        #expect(try ann.managedObject?.value("bio") == .string("hello"))
        try ann.managedObject?.set("age", .int64(7))
        #expect(ann.age == 7)

        let again = try #require(try store.context().model(Author.self, id: 1))
        #expect(again.bio == "hello")
        #expect(again.age == 1)
    }

    @Test(arguments: Engine.allCases)
    func optionalsDefaultsAndEnums(_ engine: Engine) throws {
        let store = try ModelStore(engine)
        let context = store.context()
        let draft = Article(title: "draft")
        let live = Article(title: "live", status: .published)
        live.priority = .high
        live.views = 12
        context.insert(draft)
        context.insert(live)
        try context.save()
        #expect(try live.managedObject?.value("status") == .string("published"))
        #expect(try live.managedObject?.value("priority") == .int64(9))

        let other = store.context()
        let published = try other.fetch(Article.self, where: "status" == Status.published)
        #expect(published.map(\.key) == [live.key])
        #expect(published.first?.priority == .high)
        #expect(published.first?.views == 12)
        let d = try #require(try other.model(Article.self, id: draft.key))
        #expect(d.status == .draft)
        #expect(d.priority == nil)
        #expect(d.author == nil)
        #expect(try other.count(Article.self, where: "status" != Status.published) == 1)
    }

    @Test(arguments: Engine.allCases)
    func inversesChangeBothWays(_ engine: Engine) throws {
        let (store, context, ann) = try ModelStore.withAnn(engine, saved: false)
        let first = Article(title: "first")
        let second = Article(title: "second")
        context.insert(first)
        first.author = ann
        #expect(ann.articles.map(\.title) == ["first"])
        ann.articles.append(second)                 // unmanaged: inserted by the link
        #expect(second.managedObject != nil)
        #expect(second.author === ann)
        #expect(Set(ann.articles.map(\.title)) == ["first", "second"])
        try context.save()

        let other = store.context()
        let ann2 = try #require(try other.model(Author.self, id: 1))
        #expect(Set(ann2.articles.map(\.title)) == ["first", "second"])
        let second2 = try #require(try other.model(Article.self, id: second.key))
        #expect(second2.author === ann2)
        ann2.articles.removeAll { $0.title == "second" }
        #expect(second2.author == nil)
        try other.save()
        #expect(try store.context().model(Article.self, id: second.key)?.author == nil)
    }

    @Test(arguments: Engine.allCases)
    func anUnmanagedGraphIsInsertedWhole(_ engine: Engine) throws {
        let store = try ModelStore(engine)
        let context = store.context()
        let ann = Author(id: 1, username: "ann")
        let post = Article(title: "hi")
        let swift = Tag(id: "swift")
        post.tags = [swift]
        ann.articles = [post]
        context.insert(ann)
        #expect(post.managedObject != nil && swift.managedObject != nil)
        #expect(post.author === ann)
        #expect(swift.articles.first === post)
        try context.save()
        let tag = try #require(try store.context().model(Tag.self, id: "swift"))
        #expect(tag.articles.first?.author?.username == "ann")
    }

    @Test(arguments: Engine.allCases)
    func deleteAppliesTheCascade(_ engine: Engine) throws {
        let store = try ModelStore(engine)
        let context = store.context()
        let ann = Author(id: 1, username: "ann")
        ann.articles = [Article(title: "a"), Article(title: "b")]
        context.insert(ann)
        try context.save()
        context.delete(ann)
        #expect(ann.isDeleted)
        try context.save()
        #expect(try store.context().count(Article.self) == 0)
    }
}

/// Every supported Swift type is stored and read back as it was.
@Suite struct DeclaredValueTests {
    @Test(arguments: Engine.allCases)
    func everySupportedTypeRoundTrips(_ engine: Engine) throws {
        let store = try ModelStore(engine)
        let context = store.context()
        let ann = Author(id: 1, username: "ann")
        ann.score = 2.5
        ann.isActive = false
        ann.joined = Date(timeIntervalSince1970: 1_700_000_000)
        ann.avatar = Data([1, 2, 3])
        let sample = Sample(id: 7)
        sample.ratio = 0.25
        sample.raw = [9, 8]
        sample.small = -3
        sample.token = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
        context.insert(ann)
        context.insert(sample)
        try context.save()

        let other = store.context()
        let a = try #require(try other.model(Author.self, id: 1))
        #expect(a.score == 2.5 && !a.isActive && a.avatar == Data([1, 2, 3]))
        #expect(a.joined == Date(timeIntervalSince1970: 1_700_000_000))
        let s = try #require(try other.model(Sample.self, id: "7"))
        #expect(s.ratio == 0.25 && s.raw == [9, 8] && s.small == -3 && s.token == sample.token)
        #expect(s.note == nil)
    }
}
