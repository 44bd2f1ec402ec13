/// The faults `FaultyRepository` can inject into a correct backend, one at a time. Each is a
/// plausible backend bug; the kit must catch every one.
enum Fault: String, CaseIterable, Sendable {
    /// A partial update (and update-where) applies only its first change.
    case droppedFieldOnUpdate
    /// Queries ignore their sort keys.
    case ignoredSort
    /// `[c]` is ignored: comparisons stay case-sensitive.
    case caseSensitiveC
    /// `[d]` is ignored: comparisons stay diacritic-sensitive.
    case diacriticSensitiveD
    /// A batch insert keeps the rows before a failing one.
    case nonAtomicBatch
    /// Deletes do not cascade.
    case cascadeNotApplied
    /// Deny rules are not enforced.
    case denyIgnored
    /// Links are not visible from the inverse side.
    case inverseNotUpdated
    /// Counts are one too many.
    case wrongCount
    /// Offsets are one too small.
    case offsetOffByOne
    /// Limits are ignored.
    case limitIgnored
    /// Inserting an existing key replaces the record instead of failing.
    case duplicateKeyAccepted
    /// Reopening a store loses its data.
    case dataLostOnReopen
    /// A write commits even when its closure throws.
    case rollbackIgnored
    /// Updating a missing record succeeds silently.
    case updateOfMissingIgnored
    /// A read transaction sees writes committed after it began.
    case noSnapshot
    /// An iteration inside another iteration of the same transaction finds no rows (the
    /// inner one consumed a shared cursor).
    case nestedIterationEmpty
    /// `close()` inside a transaction does nothing and reports nothing.
    case closeInsideTransactionIgnored
    /// `verify()` reports a problem on a sound store.
    case verifyCriesWolf
}
