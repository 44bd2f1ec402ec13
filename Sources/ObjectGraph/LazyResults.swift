import StoreCore

/// A query's results that load in batches as they are touched (Core Data's `fetchBatchSize`):
/// the matching primary keys are read first; touching an element loads its whole batch with
/// one store query and keeps the batch's objects alive while the results are.
///
/// ```swift
/// let posts = try context.fetch(Query("Post", sort: [.desc("createdAt")]), batchSize: 50)
/// print(posts.count)                     // no object loaded yet
/// let title = try posts[120].value("title")   // loads elements 100..<150
/// ```
///
/// A batch that cannot be read (the store failed) leaves faults, which fail with the store's
/// error when touched; an object deleted since the keys were read is a fault that fails with
/// `notFound`.
public struct LazyResults: RandomAccessCollection {
    private let storage: Storage

    init(context: ObjectContext, objectIDs: [ObjectID], batchSize: Int) {
        storage = Storage(context: context, objectIDs: objectIDs, batchSize: batchSize)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.objectIDs.count }
    /// The matching objects' IDs, in the query's order (known without loading any object).
    public var objectIDs: [ObjectID] { storage.objectIDs }
    public var batchSize: Int { storage.batchSize }
    /// How many batches have been loaded.
    public var loadedBatchCount: Int { storage.batches.count { $0 != nil } }

    public subscript(position: Int) -> ManagedObject {
        storage.object(at: position)
    }

    final class Storage {
        let context: ObjectContext
        let objectIDs: [ObjectID]
        let batchSize: Int
        var batches: [[ManagedObject]?]

        init(context: ObjectContext, objectIDs: [ObjectID], batchSize: Int) {
            self.context = context
            self.objectIDs = objectIDs
            self.batchSize = batchSize
            batches = Array(repeating: nil, count: (objectIDs.count + batchSize - 1) / batchSize)
        }

        func object(at i: Int) -> ManagedObject {
            precondition(objectIDs.indices.contains(i), "index \(i) is outside the \(objectIDs.count) results")
            let b = i / batchSize
            if batches[b] == nil {
                let ids = objectIDs[b * batchSize..<Swift.min((b + 1) * batchSize, objectIDs.count)]
                batches[b] = context.loadBatch(Array(ids))
            }
            return batches[b]![i - b * batchSize]
        }
    }
}

extension ObjectContext {
    /// The objects matching a query, loaded in batches of `batchSize` as they are touched
    /// (see `LazyResults`). With unsaved changes in this context the results are judged as by
    /// `fetch(_:)`, which loads them all.
    ///
    /// - Throws: `invalidValue` when `batchSize` is not positive; the store's errors.
    public func fetch(_ query: Query, batchSize: Int) throws -> LazyResults {
        guard batchSize > 0 else {
            throw StoreError(.invalidValue, "batchSize must be positive, not \(batchSize) (fetch of \(query.entity))")
        }
        try checkOnOwnQueue("fetch(\(query.entity), batchSize:)")
        try mergeIfAutomatic()
        if mayHaveUnsavedWork {
            return LazyResults(context: self, objectIDs: try fetch(query).map(\.objectID), batchSize: batchSize)
        }
        let entity = try schema.entity(query.entity)
        let key = entity.primaryKeyOrdinal
        let ids = try withRead { tx in
            var ids: [ObjectID] = []
            try tx.forEach(query) { row in ids.append(ObjectID(entity, row[key])) }
            return ids
        }
        return LazyResults(context: self, objectIDs: ids, batchSize: batchSize)
    }

    /// Internal: the objects for `ids`, in order, loading the ones not loaded yet with one
    /// query (faults stay for records gone or when the read fails).
    func loadBatch(_ ids: [ObjectID]) -> [ManagedObject] {
        let objects = ids.map { fault($0) }
        try? fireFaults(objects)
        return objects
    }
}
