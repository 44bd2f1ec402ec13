// The seed tutorials' batch-write and memory comparisons (Realm's write and memory optimization
// managers, Core Data's batch insert and batched fetch), ported to declared models:
// `seed-batch-memory sqlite|lmdb`. Checked lines go to standard output, timings to standard error.
import Foundation
import LMDBStore
import ObjectGraphModels
import SQLiteStore

@Model final class User {
    var id: Int
    var username: String
    var createdAt: Date

    init(_ n: Int) {
        id = n
        username = "user\(n)"
        createdAt = Date(timeIntervalSince1970: Double(n))
    }
}

let store = CommandLine.arguments.dropFirst().first == "lmdb" ? LMDBStore.descriptor : SQLiteStore.descriptor
let graph = try ObjectGraph.inMemory(over: store, schema: try Schema(version: 1, User.self))
let context = graph.newContext()

func timed(_ label: String, _ body: () throws -> Void) rethrows {
    let start = Date()
    try body()
    FileHandle.standardError.write("\(label): \(Int(Date().timeIntervalSince(start) * 1000)) ms\n".data(using: .utf8)!)
}

// Writes: a save per user, one save for all, saves of 250.
try timed("a save per user") {
    for n in 0..<500 {
        context.insert(User(n))
        try context.save()
    }
}
try timed("one save") {
    for n in 500..<1_000 { context.insert(User(n)) }
    try context.save()
}
try timed("saves of 250") {
    for batch in stride(from: 1_000, to: 2_000, by: 250) {
        for n in batch..<(batch + 250) { context.insert(User(n)) }
        try context.save()
    }
}
let entity = try graph.schema.entity("User")
try timed("batch insert") {
    try context.batchInsert((2_000..<3_000).map { try entity.record(["id": .int64(Int64($0)), "username": .string("user\($0)"),
                                                                     "createdAt": .date(Date(timeIntervalSince1970: Double($0)))]) })
}
print("users:", try context.count(User.self))

// Memory: every user in an array, against results faulted in batches of 50 as they are touched.
context.reset()
let base = LiveObjects.current
do {
    let all = try context.fetch(User.self)
    print("an array of", all.count, "users holds", LiveObjects.current - base, "objects")
}
let lazy = try context.fetch(Query("User", sort: [.asc("id")]), batchSize: 50)
for user in lazy.prefix(120) { _ = try user.value("username") }
print("lazy results of", lazy.count, "users, 120 touched:", lazy.loadedBatchCount, "batches,", LiveObjects.current - base, "objects")

// A page of the newest users.
print("page 2:", try context.fetch(User.self, sort: [.desc("createdAt")], limit: 3, offset: 3).map(\.username))
try graph.close()
