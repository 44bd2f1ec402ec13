import Foundation
import ObjectGraphModels

/// A post's state, stored as its raw value.
enum Status: String, PersistentEnum {
    case draft, published, archived
}

/// An integer-backed enum.
enum Priority: Int, PersistentEnum {
    case low = 1, normal = 5, high = 9
}

@Model final class Author {
    var id: Int64
    @Attribute(.unique) var username: String
    var bio: String? = nil
    var age: Int = 0
    var score: Double = 0
    var isActive: Bool = true
    var joined: Date = Date(timeIntervalSince1970: 0)
    var avatar: Data? = nil
    @Relationship(inverse: \Article.author, deleteRule: .cascade) var articles: [Article] = []
    @Transient var scratch: Int = 0

    init(id: Int64, username: String, age: Int = 0) {
        self.id = id
        self.username = username
        self.age = age
    }
}

@Model final class Article {
    @Attribute(.primaryKey) var key: UUID
    @Attribute(.indexed) var title: String
    var status: Status = .draft
    var priority: Priority? = nil
    var views: Int32 = 0
    var author: Author? = nil
    @Relationship(inverse: \Tag.articles) var tags: [Tag] = []

    init(key: UUID = UUID(), title: String, status: Status = .draft) {
        self.key = key
        self.title = title
        self.status = status
    }
}

@Model final class Tag {
    var id: String
    var articles: [Article] = []

    init(id: String) { self.id = id }
}


/// The remaining value types, and a String primary key.
@Model final class Sample {
    var id: String
    var ratio: Float = 0
    var raw: [UInt8] = []
    var small: Int32 = 0
    var token: UUID? = nil
    var note: String? = nil

    init(id: Int) { self.id = String(id) }
}
