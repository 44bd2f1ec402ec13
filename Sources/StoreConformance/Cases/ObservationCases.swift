import Foundation
import StoreCore

/// Observation (`ObservingRepository`), with Realm's change-set semantics: deletions are old
/// indices, insertions and `modificationsInNew` new ones; an object that moved relative to the
/// others is a deletion plus an insertion; commits between two waits coalesce into one change;
/// a commit that leaves the results as they were delivers nothing; every observer, on any
/// thread, sees every change.
enum ObservationCases {
    static let all: [ConformanceCase] = [
        ConformanceCase.seeded("observation", "changeSetIndicesAreOldAndNew", requires: .observation) { ctx in
            try ctx.write { try $0.insert(try CRUDCases.newUser(ctx, -1, "unlinked")) }    // no links: its delete changes no other user
            let watched = try WatchedResults(ctx, Query("User", where: KeyPathExpression("id") <= 100, sort: [.asc("id")]))
            try ctx.write { tx in
                try tx.delete("User", id: -1)
                try tx.insert(try CRUDCases.newUser(ctx, 6, "fay"))
                try tx.update("User", id: 4, set: ["age": 31])
            }
            let change = try watched.next("deleting user -1, inserting 6 and updating 4's age")
            try ctx.expectEqual(change, CollectionChange(deletions: [0], insertions: [5], modifications: [4], modificationsInNew: [3]),
                                "the change of users [-1, 1…5] to [1…6] with 4 modified")
            try ctx.expectEqual(try watched.observation.value("age", at: 3), 31, "user 4's age through the observation")
        },
        ConformanceCase.seeded("observation", "modificationsAreNeitherInsertionsNorMissed", requires: .observation) { ctx in
            let watched = try WatchedResults(ctx, Query("User", sort: [.asc("id")]))
            try ctx.write { tx in
                try tx.update("User", id: 1, set: ["age": 60])
                try tx.update("User", id: 3, set: ["email": "e@x"])
                try tx.update("User", id: 5, set: ["score": 9.5])
            }
            let change = try watched.next("updating users 1, 3 and 5")
            try ctx.expectEqual(change, CollectionChange(modifications: [0, 2, 4], modificationsInNew: [0, 2, 4]), "the change of three updates")
            try ctx.write { try $0.update("User", id: 2, set: ["displayName": "Robert"]) }
            try ctx.expectEqual(try watched.next("updating user 2"), CollectionChange(modifications: [1], modificationsInNew: [1]), "the change of one update")
        },
        ConformanceCase.seeded("observation", "unchangedResultsDeliverNothing", requires: .observation) { ctx in
            let watched = try WatchedResults(ctx, Query("User", where: KeyPathExpression("id") <= 100, sort: [.asc("id")]))
            try ctx.write { tx in
                try tx.insert(try CRUDCases.newUser(ctx, 200, "outside"))
                try tx.update("Post", id: 10, set: ["score": 99])
                try tx.update("User", id: 200, set: ["age": 1])
            }
            try ctx.expect(try watched.observation.waitForChange(timeout: 0.5) == nil, "a commit touching no observed user delivered a change")
            try ctx.write { try $0.update("User", id: 3, set: ["age": 3]) }
            try ctx.expectEqual(try watched.next("updating user 3"), CollectionChange(modifications: [2], modificationsInNew: [2]), "the change after an unseen commit")
        },
        ConformanceCase.seeded("observation", "commitsBetweenWaitsCoalesce", requires: .observation) { ctx in
            let watched = try WatchedResults(ctx, Query("User", sort: [.asc("id")]))
            try ctx.write { try $0.insert(try CRUDCases.newUser(ctx, 6, "fay")) }
            try ctx.write { try $0.update("User", id: 6, set: ["age": 20]) }
            try ctx.write { try $0.update("User", id: 4, set: ["age": 44]) }
            try ctx.write { try $0.delete("User", id: 1) }                     // last: its results end the wait
            Thread.sleep(forTimeInterval: 1)                                   // let the deliveries pile up
            try watched.follow(until: ids(2, 3, 4, 5, 6), modifying: [4], "four commits")
            try ctx.expect(watched.inserted.contains(6), "user 6's insert was not delivered")
            try ctx.expect(watched.deliveries > 1 || !watched.modified.contains(6), "user 6, inserted and updated within one change, was delivered as a modification too")
            try ctx.expect(watched.modified.contains(4), "user 4's update was not delivered")
            try ctx.expect(watched.deliveries <= 4, "four commits delivered \(watched.deliveries) changes")
            try ctx.expect(try watched.observation.waitForChange(timeout: 0.3) == nil, "a change was delivered after the last commit's")
        },
        ConformanceCase.seeded("observation", "movesAreDeletionPlusInsertion", requires: .observation) { ctx in
            let watched = try WatchedResults(ctx, Query("User", sort: [.asc("username")]))     // ann bob chloe emile zoe
            try ctx.write { try $0.update("User", id: 1, set: ["username": "zz"]) }
            try ctx.expectEqual(try watched.next("renaming ann to zz"), CollectionChange(deletions: [0], insertions: [4]), "ann moving from first to last")
            try ctx.write { try $0.update("User", id: 2, set: ["username": "bobby"]) }
            try ctx.expectEqual(try watched.next("renaming bob to bobby"), CollectionChange(modifications: [0], modificationsInNew: [0]), "bob keeping his place")
        },
        ConformanceCase.seeded("observation", "singleObject", requires: .observation) { ctx in
            let watched = try WatchedResults(ctx, Query("User", where: "id" == 3))
            try ctx.write { try $0.update("User", id: 4, set: ["age": 1]) }
            try ctx.expect(try watched.observation.waitForChange(timeout: 0.3) == nil, "user 3's observer saw user 4's update")
            try ctx.write { try $0.update("User", id: 3, set: ["age": 9]) }
            try ctx.expectEqual(try watched.next("updating user 3"), CollectionChange(modifications: [0], modificationsInNew: [0]), "user 3's update")
            try ctx.write { try $0.delete("User", id: 3) }
            try ctx.expectEqual(try watched.next("deleting user 3"), CollectionChange(deletions: [0]), "user 3's delete")
            try ctx.expectEqual(watched.observation.count, 0, "results after the delete")
        },
        ConformanceCase.seeded("observation", "everyObserverOnEveryThreadSees", requires: .observation) { ctx in
            try ObservationThreads.run(ctx)
        },
        ConformanceCase.seeded("observation", "cancelledDeliversNothing", requires: .observation) { ctx in
            let watched = try WatchedResults(ctx, Query("User", sort: [.asc("id")]))
            watched.observation.cancel()
            watched.observation.cancel()
            try ctx.write { try $0.delete("User", id: 1) }
            try ctx.expect(try watched.observation.waitForChange(timeout: 0.3) == nil, "a cancelled observation delivered a change")
            for i in 0..<3 { _ = try WatchedResults(ctx, Query("User", sort: [.asc("id")])); try ctx.write { try $0.update("User", id: 2, set: ["age": .int64(Int64(i))]) } }
            Thread.sleep(forTimeInterval: 0.3)                               // deliveries to released observations find no one
            try ctx.expectEqual(try ctx.read { try $0.fetch("User", id: 2)?["age"] }, 2, "bob's age after commits beside released observations")
        },
    ]
}
