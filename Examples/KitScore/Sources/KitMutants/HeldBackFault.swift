/// Held-back faults: realistic bugs a new backend could ship, written from the README, the design
/// and StoreCore's doc comments only, without looking at the kit's cases or its own fault list.
/// `HeldBackRepository` injects one of them into a correct backend (SQLiteStore), and
/// `HeldBackFaultTests` measures how many the conformance kit catches.
///
/// Each fault only changes behaviour in the data shape its comment names; everywhere else the
/// wrapped store answers exactly as the correct one does.
public enum HeldBackFault: String, CaseIterable, Sendable {
    // MARK: Ordering

    /// Nulls are treated as the largest value (PostgreSQL's default): last when ascending,
    /// first when descending, instead of first ascending and last descending.
    case nullsSortLastAscending
    /// Ties are broken by primary key in the direction of the last sort key (`ORDER BY x DESC,
    /// id DESC`), instead of always ascending. Only visible when the last key is descending.
    case tieBreakFollowsLastSortDirection
    /// Strings sort by UTF-16 code units (NSString order): characters above U+FFFF (emoji) sort
    /// before U+E000–U+FFFF (e.g. fullwidth letters) instead of after them.
    case stringsSortByUTF16
    /// Only the first sort key is applied (an index walk on its first component); later keys
    /// are dropped and ties fall straight to the primary key.
    case secondarySortKeysIgnored
    /// A sort key's `[c]`/`[d]` options are ignored: strings sort by their raw scalars.
    case sortIgnoresFoldingOptions
    /// `int64` sort keys encoded big-endian without flipping the sign bit: negative numbers sort
    /// after every non-negative one.
    case negativeIntegersSortAfterPositives
    /// `double`/`date` sort keys encoded by flipping only the sign bit: negative values sort in
    /// reverse order among themselves (-1 before -5 ascending).
    case negativeDoublesSortReversed
    /// The direction of a sort key that goes through a to-one relationship (`author.username`)
    /// is lost in the join: it always sorts ascending.
    case descendingIgnoredThroughKeyPath

    // MARK: Predicates

    /// SQL's three-valued logic leaks through `NOT`: a comparison on a null value is unknown,
    /// so `NOT (age > 26)` does not match a user without an age.
    case notOverNullIsUnknown
    /// `!= value` is a plain SQL `<>`: records whose attribute is null do not match.
    case notEqualSkipsNull
    /// `BETWEEN` is a half-open range: the upper bound is excluded.
    case betweenExcludesUpperBound
    /// `IN` is SQL's `IN`: a `nil` in the list never matches a null attribute.
    case inListNullNeverMatches
    /// `IN` lists are bound in chunks of 1,000 and only the first chunk is used: values after
    /// the 1,000th never match.
    case inListTruncatedAfter1000
    /// `[c]` folds ASCII letters only (SQLite's `lower()`/`LIKE`): `"ÉCOLE" ==[c] "école"` and
    /// `"Straße" ==[c] "STRASSE"` are false.
    case caseFoldingASCIIOnly
    /// `[d]` without `[c]` is ignored (the options switch handles `[c]` and `[cd]` only): the
    /// comparison is exact.
    case diacriticOnlyOptionIgnored
    /// `CONTAINS`/`BEGINSWITH`/`ENDSWITH` with an empty string match nothing (implemented with
    /// `range(of:)`, which finds no empty range).
    case emptyNeedleMatchesNothing
    /// `LIKE` is translated to SQL `LIKE` without escaping: `%` and `_` in the pattern are
    /// wildcards instead of ordinary characters.
    case likeTreatsPercentAndUnderscoreAsWildcards
    /// `LIKE` runs over UTF-16 code units: `?` matches only half of a character above U+FFFF.
    case likeQuestionMarkMatchesUTF16Unit
    /// `BEGINSWITH[c]`/`[d]` is answered by a raw prefix scan: the options are ignored.
    case beginsWithIgnoresOptions
    /// `NONE` is built on an inner join: a record with no related records at all does not match.
    case noneFalseForEmptyToMany
    /// `@count` is computed with `GROUP BY` over an inner join: records with no related
    /// records never match any `@count` comparison (`posts.@count == 0` finds nobody).
    case countZeroNeverMatches
    /// Key paths through to-one relationships use an inner join: a record whose link is
    /// missing never matches, not even `author == nil`-style or `!=` conditions.
    case keyPathMissingLinkDropsRecord
    /// A fractional `double` operand compared with an `int64` attribute is bound as an integer
    /// (truncated): `age >= 26.5` matches 26.
    case fractionalOperandTruncatedOnIntegerAttribute
    /// A sort key that does not resolve is silently dropped instead of throwing `invalidQuery`.
    case unknownSortKeyIgnored

    // MARK: Pagination and count

    /// SQL needs `LIMIT` before `OFFSET`; without a limit the offset is not emitted at all.
    case offsetIgnoredWithoutLimit
    /// `count` wraps `LIMIT`/`OFFSET` around the aggregate row: with an offset it is 0, with
    /// a limit (but no offset) it is the full count.
    case countAppliesLimitToAggregate
    /// `limit: 0` is taken as "no limit" and returns every match.
    case limitZeroMeansUnlimited
    /// Offset pages with a sort are continued after the last sort value of the previous page
    /// (keyset style): records tied with it on the next page are skipped.
    case keysetPaginationSkipsTies

    // MARK: Records and values

    /// `upsert` of an existing record is `INSERT OR REPLACE`: the old row is deleted with its
    /// links, so the record loses its relationships.
    case upsertDropsRelationships
    /// A partial update ignores assignments of `nil` (`changes[k] ?? old`): an optional
    /// attribute cannot be cleared.
    case updateIgnoresNullAssignments
    /// Deleting a record leaves its many-to-many join rows; inserting a record with the same
    /// key again brings the old links back.
    case deleteLeavesManyToManyRowsForReinsert
    /// `fetch(_:id:)` keeps a per-transaction row cache that partial updates and deletes do not
    /// invalidate: a fetch after them returns the stale record.
    case fetchCacheNotInvalidated
    /// Dates are stored as whole milliseconds (truncated): sub-millisecond parts are lost.
    case datesTruncatedToMilliseconds
    /// Integers pass through a `Double` on the way to storage: values beyond ±2^53 lose their
    /// low bits (primary keys excepted).
    case largeIntegersRoundTripThroughDouble
    /// Empty `bytes` are bound with a nil pointer and stored as `NULL`.
    case emptyBytesStoredAsNull
    /// Strings are bound as C strings: everything from the first NUL character is lost.
    case stringsTruncatedAtNul
    /// String and bytes values longer than 65,535 bytes are cut to 65,535 bytes (a 16-bit
    /// length field), silently; strings at a character boundary.
    case longValuesTruncatedAt64KiB
    /// NaN is bound as a double and SQLite turns it into `NULL`, instead of `invalidValue`.
    case nanStoredAsNull
    /// A value of exactly `Limits.maxValueBytes` bytes is refused (`>=` instead of `>`).
    case valueOfExactlyMaxBytesRefused
    /// A string key of exactly `Limits.maxKeyBytes` bytes is refused (`>=` instead of `>`).
    case keyOfExactlyMaxBytesRefused
    /// A decimal string given for an `int64` attribute is stored as that integer (SQLite's type
    /// affinity) instead of `invalidValue`.
    case numericStringCoercedToInteger

    // MARK: Batches

    /// Duplicate keys inside one batch insert are `INSERT OR REPLACE`d: the last one wins
    /// instead of a `conflict`.
    case batchDuplicateKeysLastWins
    /// A unique-index conflict in a batch is only found while writing: the records before the
    /// offending one stay inserted.
    case batchUniqueConflictNotAtomic
    /// A batch with several invalid records reports the last one's error, not the first's.
    case batchReportsLastError
    /// The batch statement's bindings are not cleared between records and nulls are skipped:
    /// a null in a record after the first keeps the previous record's value.
    case batchNullInheritsPreviousRow
    /// `update(where:)` returns the number of rows whose values actually changed (SQL's
    /// "affected rows"), not the number that matched.
    case updateWhereCountsChangedRowsOnly
    /// `update(where:)` walks the matches in pages of 16 by offset while updating: when the
    /// update makes records stop matching, later records are skipped.
    case updateWhereChunkedByOffset
    /// `delete(where:)` returns all rows deleted, cascaded ones included (total changes).
    case deleteWhereCountIncludesCascade
    /// `delete(where:)` deletes matches one by one without a savepoint: when one is denied,
    /// the ones before it stay deleted.
    case deleteWhereNotAtomicOnDeny

    // MARK: Relationships

    /// Relinking a to-one does not remove the source from its old target's inverse to-many.
    case relinkToOneLeavesOldInverse
    /// Linking a one-to-one to a target that already has a partner leaves the old partner
    /// pointing at it too.
    case oneToOneNotExclusive
    /// The many-to-many join table has no unique constraint: linking twice shows the target twice.
    case manyToManyDoubleLinkDuplicates
    /// Many-to-many unlink forgets the target in its `WHERE`: every link of the source in that
    /// relationship is removed.
    case unlinkManyToManyRemovesAll
    /// `related` over a many-to-many relationship returns join-table order (the order links
    /// were made), not primary key order.
    case relatedInLinkOrder
    /// Cascades go one level deep: records reached by a cascade keep their own cascading
    /// children (orphaned) instead of deleting them. Single deletes and `delete(where:)`.
    case cascadeOneLevelOnly
    /// `deny` is checked on the deleted record only; a deny reached through a cascade is
    /// ignored (its links are dropped). Single deletes and `delete(where:)`.
    case denyIgnoredThroughCascade
    /// A cascade deletes depth-first and meets a `deny` part-way: what it deleted before stays
    /// deleted, although the error is reported. Single deletes and `delete(where:)`.
    case cascadeDenyNotAtomic
    /// `related` of a missing record returns an empty list instead of `notFound`.
    case relatedOfMissingRecordIsEmpty
    /// Linking to a missing target is silently a no-op (no foreign key check).
    case linkToMissingTargetIgnored
    /// Unlinking from a missing source record is silently a no-op instead of `notFound`.
    case unlinkFromMissingSourceIgnored

    // MARK: Errors

    /// A unique-index violation (not the primary key) maps to `constraintViolation` (SQLite's
    /// generic constraint code) instead of `conflict`.
    case uniqueConflictIsConstraintViolation
    /// An unknown attribute in a partial update ("no such column") is `invalidQuery`
    /// instead of `invalidValue`.
    case unknownAttributeInUpdateIsInvalidQuery
    /// An unknown entity in a write (`insert`, `update`, `delete`, `link`: "no such table") is
    /// `notFound` instead of `invalidValue`.
    case unknownEntityInWriteIsNotFound
    /// A partial update writes one attribute per statement: when a later one is invalid, the
    /// earlier ones stay written.
    case updateNotAtomicAcrossAttributes
    /// After an operation fails inside a write, the transaction is aborted: every later
    /// operation throws `busy`, even when the closure caught the error.
    case caughtErrorAbortsTransaction
    /// When the closure throws, `write` rethrows the last error an operation raised in the
    /// transaction (kept on the transaction) instead of the closure's own error.
    case writeRethrowsRecordedError

    // MARK: Transactions and reentrancy

    /// Reads are not wrapped in a transaction: each call sees the latest commit, so a read
    /// closure does not see one snapshot.
    case readsNotSnapshotted
    /// A read that starts while a write runs on another thread goes through the writer's
    /// connection and sees its uncommitted changes.
    case dirtyReadsFromActiveWriter
    /// A batch insert commits on its own (a bulk-load fast path): it survives the rollback of
    /// the transaction it ran in.
    case batchInsertSurvivesRollback
    /// `close()` inside a transaction does not throw `busy`: it closes the store as soon as the
    /// transaction ends.
    case closeInsideTransactionDeferred
    /// A nested run (`fetch` or `forEach`) of the very same query inside `forEach` reuses the
    /// cached statement and resets it: the outer iteration ends after the row it was on.
    case nestedSameQueryEndsOuterIteration

    // MARK: Persistence and verify

    /// `delete(where:)` only writes tombstones in memory: after a reopen the records are back.
    case deleteWhereReappearsAfterReopen
    /// Opening a store written with another schema reports `corrupted` instead of
    /// `schemaMismatch`.
    case schemaMismatchReportedCorrupted
    /// `verify()` expects every link to be a foreign key and reports many-to-many join rows as
    /// orphans: a sound store with such links is not clean.
    case verifyFlagsManyToManyLinks

    // MARK: Reported by an outside test of the 197-case kit (issue 36), among the bugs it let through

    /// Results observation delivers a modification as a deletion plus an insertion.
    case observationModificationsAsInsertions
    /// Results observation drops modifications.
    case observationMissesModifications
    /// Results observation delivers an empty change set when a wait times out.
    case observationDeliversEmptyChanges
    /// Compaction drops the links of many-to-many relationships.
    case compactionDropsLinks
    /// A migration plan's store steps run again at every open with the plan.
    case migrationPlanRerunOnEveryOpen
    /// `verify()` runs the logical checks alone, not the engine's.
    case verifySkipsEngineCheck
    /// Packed-row reads ignore the query's limit and offset.
    case packedReadsIgnorePaging
    /// Packed-row reads give null for an empty string.
    case packedReadsEmptyStringAsNull
    /// Packed-row reads cut dates to whole milliseconds.
    case packedReadsDatesToMilliseconds
    /// Batch inserts of more than 256 records are committed in chunks: a failing chunk after
    /// the first is dropped, the earlier ones kept.
    case batchInsertCommittedInChunks
    /// Delete-where with more than 100 matches goes in pages with a growing offset, skipping some.
    case deleteWherePagedWithOffset
    /// Unique constraints compare strings case-insensitively.
    case uniqueComparedCaseInsensitively
    /// Nulls in a unique attribute conflict with each other.
    case uniqueNullsConflict
    /// `related(...)` orders integer ids as text (10 before 9).
    case relatedOrdersIdsAsText

    /// Why no behaviour the protocol promises can reveal this mutation, for those where none can.
    public var unrevealable: String? {
        switch self {
        case .batchReportsLastError: "the protocol promises that a batch with a bad record fails whole, not which of several bad records its error names"
        default: nil
        }
    }

    /// The mutations of observation, injected into the object graph over SQLite (SQLiteStore
    /// itself observes nothing).
    var needsObservation: Bool {
        [.observationModificationsAsInsertions, .observationMissesModifications, .observationDeliversEmptyChanges].contains(self)
    }
}
