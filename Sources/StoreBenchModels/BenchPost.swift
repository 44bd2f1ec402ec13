import Foundation
import ObjectGraphModels

/// The runner's `Post` (Sources/StoreConformance/SocialSchema.swift) as a declared model: the
/// attributes the graph workloads read, bound by name to the store's entity.
@Model final class Post {
    var id: Int64
    var title: String
    var body: String = ""
    var score: Int64 = 0
    var createdAt: Date
    var rating: Double? = nil
    var published: Bool = false

    init(id: Int64, title: String, createdAt: Date) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
    }

    /// Every attribute read, folded into a number the optimizer cannot drop.
    var touched: Int {
        Int(truncatingIfNeeded: id) &+ title.utf8.count &+ body.utf8.count &+ Int(truncatingIfNeeded: score)
            &+ Int(createdAt.timeIntervalSince1970) &+ (rating.map { Int($0) } ?? 0) &+ (published ? 1 : 0)
    }
}
