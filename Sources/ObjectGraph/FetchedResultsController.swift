import StoreCore

/// One section of a `FetchedResultsController`: the objects sharing a value of the section key.
public struct ResultsSection {
    /// The section key's value.
    public let name: Value
    public let objects: [ManagedObject]
}

/// What a `FetchedResultsController`'s handler receives.
public enum SectionedResultsChange {
    case initial([ResultsSection])
    /// The sections after a save or merge changed them, with the change from the previous ones.
    case update([ResultsSection], SectionedChange)
    /// Re-running the query failed; observation goes on.
    case error(any Error)
}

/// A query's results grouped in sections by an attribute (Core Data's
/// `NSFetchedResultsController`, Realm's `SectionedResults`), observed: after each save or
/// merge that changes them, the handler gets the new sections and a `SectionedChange`. On a
/// queue-bound context the changes are pushed on its queue.
///
/// ```swift
/// let posts = try FetchedResultsController(context, query: Query("Post", sort: [.desc("createdAt")]),
///                                          sectionKey: "published")
/// try posts.performFetch { change in
///     if case .update(_, let c) = change { table.deleteSections(c.deletedSections) /* ... */ }
/// }
/// ```
///
/// Sections follow the query's order: unless the query's first sort key is the section key,
/// the section key ascending is put first.
public final class FetchedResultsController {
    public let context: ObjectContext
    /// The query as run: sorted by the section key first.
    public let query: Query
    public let sectionKey: String
    public private(set) var sections: [ResultsSection] = []
    private var token: ObservationToken?

    /// - Throws: `invalidQuery` when `sectionKey` is not an attribute of the query's entity.
    public init(_ context: ObjectContext, query: Query, sectionKey: String) throws {
        let entity = try context.schema.entity(query.entity)
        guard entity.ordinal(of: sectionKey) != nil else {
            throw StoreError(.invalidQuery, "section key '\(sectionKey)' is not an attribute of \(entity.name)", context: entity.name)
        }
        var sorted = query
        if sorted.sort.first?.keyPath != KeyPathExpression(sectionKey) { sorted.sort.insert(.asc(KeyPathExpression(sectionKey)), at: 0) }
        self.context = context
        self.query = sorted
        self.sectionKey = sectionKey
    }

    /// Fetches the sections and starts observing: `handler` gets `.initial` at once, then an
    /// `.update` after each change (on a queue-bound context, call this on its queue).
    public func performFetch(_ handler: @escaping (SectionedResultsChange) -> Void = { _ in }) throws {
        token?.cancel()
        token = nil
        token = try observe(handler, retainingSelf: false)
    }

    /// Internal: observes the query, grouping each result into sections for `handler`.
    func observe(_ handler: @escaping (SectionedResultsChange) -> Void, retainingSelf: Bool) throws -> ObservationToken {
        let retained = retainingSelf ? self : nil
        return try context.observe(query) { [weak self] change in
            guard let self = self ?? retained else { return }
            switch change {
            case .initial(let objects): self.receive(objects, change: nil, handler)
            case .update(let objects, let flat): self.receive(objects, change: flat, handler)
            case .error(let error): handler(.error(error))
            }
        }
    }

    /// Stops observing (also when the controller is released).
    public func cancel() {
        token?.cancel()
        token = nil
    }

    /// The object at a row of a section.
    public func object(section: Int, row: Int) throws -> ManagedObject {
        guard sections.indices.contains(section), sections[section].objects.indices.contains(row) else {
            throw StoreError(.invalidValue, "no row \(row) in section \(section) of \(sections.count) sections of \(query.entity)")
        }
        return sections[section].objects[row]
    }

    private func receive(_ objects: [ManagedObject], change flat: CollectionChange?, _ handler: (SectionedResultsChange) -> Void) {
        let grouped: [ResultsSection]
        do { grouped = try group(objects) } catch {
            handler(.error(error))
            return
        }
        let old = sections
        sections = grouped
        guard let flat else { return handler(.initial(grouped)) }
        let modified = Set(flat.modificationsInNew.map { objects[$0].objectID })
        let change = SectionedChange.between(old: old.map(\.outlineValue), new: grouped.map(\.outlineValue)) { modified.contains($0) }
        if !change.isEmpty { handler(.update(grouped, change)) }
    }

    /// Groups sorted objects by their section key's value (runs of equal values).
    private func group(_ objects: [ManagedObject]) throws -> [ResultsSection] {
        var out: [ResultsSection] = []
        var name: Value?
        var run: [ManagedObject] = []
        for o in objects {
            let v = try o.value(sectionKey)
            if let n = name, n != v {
                out.append(ResultsSection(name: n, objects: run))
                run = []
            }
            name = v
            run.append(o)
        }
        if let name { out.append(ResultsSection(name: name, objects: run)) }
        return out
    }
}
