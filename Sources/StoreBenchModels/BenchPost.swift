import Foundation
import ObjectGraphModels
import StoreBenchKit

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

    /// Every attribute read and folded as `Touch.row` folds the stored row (through the floors'
    /// `PostOutput`), so the three ways give one sink.
    var touched: Int {
        PostOutput(id: id, title: title, body: body, score: score, createdAt: createdAt, rating: rating, published: published).touch
    }
}
