import StoreCore

/// How a `FetchedResultsController`'s sections changed between two notifications
/// (NSFetchedResultsController's section and row changes, Realm's meaning of indices).
///
/// Apply in this order: delete `deletedSections` (old indices, their rows with them), insert
/// `insertedSections` (new indices, with all their rows), then for each entry of `rows` apply
/// its `CollectionChange` to the section that is at `oldSection` before and `newSection` after.
/// An object that moves to another section is a deletion in one and an insertion in the other.
public struct SectionedChange: Sendable, Hashable {
    public var deletedSections: [Int] = []
    public var insertedSections: [Int] = []
    /// Row changes of the sections present before and after (only those that changed).
    public var rows: [SectionRowsChange] = []

    public init(deletedSections: [Int] = [], insertedSections: [Int] = [], rows: [SectionRowsChange] = []) {
        self.deletedSections = deletedSections
        self.insertedSections = insertedSections
        self.rows = rows
    }

    public var isEmpty: Bool { deletedSections.isEmpty && insertedSections.isEmpty && rows.isEmpty }

    /// The change between two groupings (section names with their object IDs, in order).
    static func between(old: [SectionOutline], new: [SectionOutline], isModified: (ObjectID) -> Bool) -> SectionedChange {
        let sections = CollectionChange.between(old: old.map(\.name), new: new.map(\.name)) { _ in false }
        var change = SectionedChange(deletedSections: sections.deletions, insertedSections: sections.insertions)
        var newIndex: [Value: Int] = [:]
        for (i, s) in new.enumerated() { newIndex[s.name] = i }
        let deleted = Set(sections.deletions)
        for (i, s) in old.enumerated() where !deleted.contains(i) {
            guard let j = newIndex[s.name] else { continue }
            let rows = CollectionChange.between(old: s.objectIDs, new: new[j].objectIDs, isModified: isModified)
            if !rows.isEmpty { change.rows.append(SectionRowsChange(oldSection: i, newSection: j, change: rows)) }
        }
        return change
    }
}

/// The row changes of one section kept across a `SectionedChange`.
public struct SectionRowsChange: Sendable, Hashable {
    public var oldSection: Int
    public var newSection: Int
    public var change: CollectionChange

    public init(oldSection: Int, newSection: Int, change: CollectionChange) {
        self.oldSection = oldSection
        self.newSection = newSection
        self.change = change
    }
}
