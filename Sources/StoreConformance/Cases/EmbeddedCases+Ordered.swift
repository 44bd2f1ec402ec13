import Foundation
import StoreCore

extension EmbeddedCases {
    /// Embedded records in an ordered list (Realm's `List` of an `EmbeddedObject`): the list
    /// keeps its order through `link(at:)` and `move`; unlinking one without deleting it fails the
    /// commit with its position kept; unlinking and deleting closes the gap; a second owner is
    /// refused; the owner's delete takes the whole list.
    static let inAnOrderedList = ConformanceCase(
        "embeddedObjects", "inAnOrderedList", requires: EmbeddedSchema.needs.union(.orderedRelationships)
    ) { ctx in
        try ctx.startOver(with: EmbeddedSchema.make { d in
            d[0].relationships[1] = Relationship("phones", to: "Phone", inverse: "user", .toMany, ordered: true, deleteRule: .cascade)
        })
        let phones = { (user: Int64) in try ctx.read { try $0.related("User", id: .int64(user), via: "phones") }.map(\.id) }
        try ctx.write { tx in
            for u in [1, 2] as [Int64] { try tx.insert(try ctx.record("User", ["id": .int64(u)])) }
            for p in [11, 12, 13, 21] as [Int64] { try tx.insert(try ctx.record("Phone", ["id": .int64(p), "kind": "mobile"])) }
            try tx.link("User", id: 1, "phones", to: 11)
            try tx.link("User", id: 1, "phones", to: 12)
            try tx.link("User", id: 1, "phones", to: 13, at: 0)
            try tx.link("Phone", id: 21, "user", to: 2)
        }
        try ctx.expectEqual(try phones(1), ids(13, 11, 12), "user 1's phones after link(at: 0)")
        try ctx.write { tx in try tx.move("User", id: 1, "phones", from: 0, to: 2) }
        try ctx.expectEqual(try phones(1), ids(11, 12, 13), "user 1's phones after move(from: 0, to: 2)")
        try ctx.expectError(.constraintViolation, "committing a Phone unlinked from its ordered list and kept") {
            try ctx.write { tx in try tx.unlink("User", id: 1, "phones", from: 12) }
        }
        try ctx.expectEqual(try phones(1), ids(11, 12, 13), "user 1's phones after the refused unlink")
        try ctx.expectError(.constraintViolation, "inserting user 2's phone into user 1's list") {
            try ctx.write { tx in try tx.link("User", id: 1, "phones", to: 21, at: 1) }
        }
        try ctx.write { tx in
            try tx.unlink("User", id: 1, "phones", from: 12)
            try tx.delete("Phone", id: 12)
        }
        try ctx.expectEqual(try phones(1), ids(11, 13), "user 1's phones after unlinking and deleting 12")
        try ctx.expectEqual(try phones(2), ids(21), "user 2's phones")
        try ctx.write { tx in try tx.delete("User", id: 1) }
        try ctx.expectEqual(try ctx.ids(Query("Phone")), ids(21), "phones after deleting user 1")
    }
}
