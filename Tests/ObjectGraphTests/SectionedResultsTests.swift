import Foundation
import ObjectGraph
import StoreConformance
import StoreCore
import Testing

/// `FetchedResultsController`: sections by an attribute, and per-section change sets pushed
/// to a queue-bound context after writes elsewhere.
@Suite("ObjectGraph sectioned results", .onOwnThreads)
struct SectionedResultsTests {
    /// A delivery without objects: each section's name and primary keys, and the change.
    struct Outline: Sendable, Equatable {
        var sections: [[Value]]
        var change: SectionedChange?
    }

    static func outline(_ sections: [ResultsSection], _ change: SectionedChange?) -> Outline {
        Outline(sections: sections.map { [$0.name] + ids($0.objects) }, change: change)
    }

    @Test(arguments: graphEngines)
    func sectionChangeSetsAfterInsertsMovesAndDeletes(_ engine: String) async throws {
        let f = try EngineGraph(engine, seeded: false)
        try f.graph.write { tx in
            for u in [try f.user(1, "amy", group: "A"), try f.user(2, "ben", group: "A"), try f.user(3, "cat", group: "C")] { try tx.insert(u) }
        }
        let context = f.graph.newBackgroundContext()
        let box = Mailbox<Outline>()
        let controller = try context.performAndWait { c in
            let controller = try FetchedResultsController(c, query: Query("User", sort: [.asc("username")]), sectionKey: "displayName")
            try controller.performFetch { change in
                switch change {
                case .initial(let s): box.put(Self.outline(s, nil))
                case .update(let s, let c): box.put(Self.outline(s, c))
                case .error(let e): Issue.record("\(e)")
                }
            }
            return controller
        }
        #expect(box.all.first?.sections == [["A", 1, 2], ["C", 3]])

        func step(_ n: Int, _ write: (any WriteTransaction) throws -> Void) async throws -> Outline {
            try f.graph.write(write)
            try #require(await box.arrived(n + 1))
            return box.all[n]
        }
        // A new section between the others.
        var got = try await step(1) { try $0.insert(try f.user(4, "dan", group: "B")) }
        #expect(got == Outline(sections: [["A", 1, 2], ["B", 4], ["C", 3]], change: SectionedChange(insertedSections: [1])))
        // ben moves from A to C: a deletion in one section, an insertion in the other.
        got = try await step(2) { try $0.update("User", id: 2, set: ["displayName": "C"]) }
        #expect(got.sections == [["A", 1], ["B", 4], ["C", 2, 3]])
        #expect(got.change == SectionedChange(rows: [
            SectionRowsChange(oldSection: 0, newSection: 0, change: CollectionChange(deletions: [1])),
            SectionRowsChange(oldSection: 2, newSection: 2, change: CollectionChange(insertions: [0])),
        ]))
        // An edit in place: a modification in its section.
        got = try await step(3) { try $0.update("User", id: 4, set: ["score": 7.0]) }
        #expect(got.change == SectionedChange(rows: [
            SectionRowsChange(oldSection: 1, newSection: 1, change: CollectionChange(modifications: [0], modificationsInNew: [0])),
        ]))
        // amy leaves: section A goes.
        got = try await step(4) { try $0.delete("User", id: 1) }
        #expect(got == Outline(sections: [["B", 4], ["C", 2, 3]], change: SectionedChange(deletedSections: [0])))
        // cat leaves C, which stays.
        got = try await step(5) { try $0.delete("User", id: 3) }
        #expect(got.change == SectionedChange(rows: [SectionRowsChange(oldSection: 1, newSection: 1, change: CollectionChange(deletions: [1]))]))
        let rows = try context.performAndWait { _ in try controller.object(section: 1, row: 0).id }
        #expect(rows == 2)
        context.performAndWait { _ in
            #expect(throws: StoreError.self) { try controller.object(section: 2, row: 0) }
        }
    }

    /// The controller lives as long as its sequence; updates carry section names and IDs.
    @Test(arguments: graphEngines)
    func sectionedUpdatesAsAnAsyncSequence(_ engine: String) async throws {
        let f = try EngineGraph(engine, seeded: false)
        try f.graph.write { tx in for u in [try f.user(1, "amy", group: "A"), try f.user(3, "cat", group: "C")] { try tx.insert(u) } }
        let context = f.graph.newBackgroundContext()
        let updates = try context.performAndWait { c in
            try FetchedResultsController(c, query: Query("User", sort: [.asc("username")]), sectionKey: "displayName").updates()
        }
        let box = Mailbox<SectionedUpdate>()
        let reader = Task(executorPreference: OwnThreads.shared) { for try await u in updates { box.put(u) } }
        try #require(await box.arrived(1))
        #expect(box.all[0].sections.map(\.name) == ["A", "C"] && box.all[0].change == nil)
        try f.graph.write { try $0.insert(try f.user(2, "ben", group: "B")) }
        try #require(await box.arrived(2))
        #expect(box.all[1].sections.map { $0.objectIDs.map(\.key) } == [[1], [2], [3]])
        #expect(box.all[1].change == SectionedChange(insertedSections: [1]))
        #expect(box.all[1].committedAt != nil)
        reader.cancel()
        try await reader.value
    }

    @Test func aSectionKeyMustBeAnAttribute() throws {
        let f = try EngineGraph("sqlite")
        let context = f.graph.newContext()
        expectCategory(.invalidQuery) { _ = try FetchedResultsController(context, query: Query("User"), sectionKey: "posts") }
        let byAge = try FetchedResultsController(context, query: Query("User", sort: [.asc("username")]), sectionKey: "age")
        #expect(byAge.query.sort.map(\.keyPath) == ["age", "username"])   // sections in the key's order
        try byAge.performFetch()
        // No age first (nulls sort first), then by age; within a section by username.
        #expect(byAge.sections.map { [$0.name] + ids($0.objects) } == [[.null, 3], [25, 2], [30, 1, 4], [41, 5]])
    }
}
