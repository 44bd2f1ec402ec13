/// The faults `FaultyRepository` can inject into a correct backend, one at a time. Each is a
/// plausible backend bug; the kit must catch every one.
enum Fault: String, CaseIterable, Sendable {
    /// The backend declares nothing it lacks: observation is neither offered nor declared.
    case capabilityUndeclared
    /// Compaction is declared unsupported, yet compacting works.
    case unsupportedDeclaredButWorks
    /// Sharing between processes is declared unsupported, yet a second open of the store succeeds.
    case sharingDeclaredUnsupportedButOpensTwice
    /// Unique values compare case-insensitively (`ann` and `Ann` collide).
    case uniqueComparedCaseInsensitively
    /// A null in a unique index collides with another null.
    case uniqueNullsCollide
    /// A deleted record's unique values stay taken.
    case freedUniqueValueStaysTaken
    /// Batches over 256 records check unique values within each chunk of 256 only, dropping a
    /// later chunk's record whose value an earlier chunk took.
    case uniqueCheckedPerChunk
    /// `verify()` rewrites a record it checked (a write of the same value).
    case verifyWritesSomething
    /// `verify()` runs the logical checks alone, not the engine's.
    case verifySkipsEngineCheck
    /// `verify()` reports no problem, whatever it found.
    case verifyAlwaysClean
    /// Compaction drops the links of many-to-many relationships.
    case compactionDropsLinks
    /// Compaction rewrites ordered lists in key order.
    case compactionLosesListOrder
    /// Compaction does nothing.
    case compactionKeepsSpace
    /// Compacting an empty folder creates a store there instead of `notFound`.
    case compactOfMissingStoreCreatesOne
    /// Observed modifications are delivered as a deletion plus an insertion.
    case modificationsAsInsertions
    /// Observed modifications are not delivered.
    case modificationsMissed
    /// `modificationsInNew` holds the old indices.
    case modificationsInOldIndices
    /// A wait that times out returns an empty change instead of nil.
    case emptyChangesDelivered
    /// `cancel()` does nothing.
    case cancelIgnored
    /// Only the first thread to observe is told of changes.
    case otherThreadsStarved
    /// `related` of an unordered relationship orders keys as text (10 before 9).
    case relatedOrderedAsText
    /// Delete-where goes in pages of 100 with a growing offset, skipping records.
    case deleteWherePagedWithOffset
    /// A batch over 256 records goes in chunks; a failing chunk after the first is dropped
    /// silently, the earlier ones kept.
    case batchCommittedInChunks
    /// `forEachPacked` ignores the query's limit and offset.
    case packedIgnoresPaging
    /// `forEachPacked` reads an empty string as null.
    case packedEmptyStringIsNull
    /// `forEachPacked` cuts dates to whole milliseconds.
    case packedDatesCutToMilliseconds
    /// An update that replaces a string by a canonically equivalent one ("e\u{301}" by "é")
    /// is skipped, as Swift's `==` calls them equal.
    case equivalentSpellingUpdateIgnored
    /// Unlinking two records that are not linked is `notFound` instead of a no-op.
    case unlinkOfAbsentLinkIsNotFound
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
    /// A read transaction's first read is answered outside it (a caching layer serving it before
    /// the engine took its snapshot), so the snapshot starts at the second read.
    case firstReadBeforeSnapshot
    /// An iteration inside another iteration of the same transaction finds no rows (the
    /// inner one consumed a shared cursor).
    case nestedIterationEmpty
    /// `close()` inside a transaction does nothing and reports nothing.
    case closeInsideTransactionIgnored
    /// `verify()` reports a problem on a sound store.
    case verifyCriesWolf

    // MARK: Isolation

    /// A reader sees records inserted or updated by a write still open on another thread (it
    /// reads the writer's dirty pages).
    case dirtyReadOfInserts
    /// A reader sees the links and unlinks of a write still open on another thread.
    case dirtyReadOfLinks
    /// A reader misses records deleted (or cascaded) by a write still open on another thread.
    case dirtyReadOfDeletes

    // MARK: Delete rules

    /// `deny` is checked on the deleted record only, not on the records its cascade reaches.
    case denyIgnoredInCascade
    /// A cascade deletes children one by one and meets a `deny` late: the children deleted
    /// before it stay deleted.
    case cascadeDeletesBeforeDenyCheck

    // MARK: Batches

    /// A batch holding one key twice keeps the last record (`INSERT OR REPLACE`).
    case batchDuplicateKeepsLast
    /// A batch holding one key twice keeps the first record (`INSERT OR IGNORE`).
    case batchDuplicateKeepsFirst
    /// A unique value twice in one batch: the later record is dropped silently (uniqueness is
    /// checked against the store only, and a de-duplicating pass drops the rest).
    case batchUniqueValueKeepsFirst
    /// A batch's statement is prepared for its first record's entity; records of other entities
    /// are skipped.
    case batchAssumesOneEntity
    /// Records of entities the schema lacks are skipped by a batch instead of refused.
    case batchSkipsUnknownEntities
    /// update-where returns how many records changed, not how many matched (SQLite's
    /// `changes()` behind a `WHERE x IS NOT ?` optimization).
    case updateWhereCountsChangedOnly
    /// delete-where counts only the matches it deleted itself, not those an earlier match's
    /// cascade had already removed.
    case deleteWhereCountsOwnDeletesOnly
    /// update-where drops nil values from its changes (a `compactMapValues` on the way in).
    case updateWhereIgnoresNil
    /// update-where skips a nil for a required attribute (`COALESCE(?, column)`) instead of
    /// refusing it.
    case requiredNilChangeSkipped
    /// A failed update-where or delete-where leaves its transaction unusable: every later write
    /// in it throws.
    case failedBatchOperationPoisonsTransaction

    // MARK: Values and keys

    /// Packed rows (`forEachPacked`) ignore the null bitmap: a null number reads as 0.
    case packedNullsReadAsZero
    /// Strings and bytes over 64 KiB are cut to 64 KiB (a 16-bit length somewhere).
    case largeValuesTruncated
    /// A value of exactly `Limits.maxValueBytes` is refused (`<` for `<=`).
    case valueLimitOffByOne
    /// A string key of exactly `Limits.maxKeyBytes` is refused.
    case keyLimitOffByOne
    /// String keys are cut to 255 bytes when stored and looked up.
    case longStringKeysTruncated
    /// Strings are normalized to NFC on the way in (through a Foundation conversion).
    case stringsNormalizedToNFC
    /// Dates are stored as whole milliseconds.
    case datesTruncatedToMilliseconds
    /// Values over 64 KiB live in a side buffer that is not written at close: after reopening
    /// they read back empty.
    case largeValuesLostOnReopen

    // MARK: Queries

    /// Strings compare by UTF-16 code units (NSString), not Unicode scalars.
    case utf16StringOrder
    /// Strings compare as Swift's `String` does: canonically equivalent spellings are equal.
    case canonicalStringComparison
    /// Integers and doubles compare after converting the integer to a double.
    case mixedNumbersComparedAsDoubles
    /// `CONTAINS`/`BEGINSWITH`/`ENDSWITH ''` with `[c]` or `[d]` match nothing (the folded
    /// search returns no range for an empty needle).
    case emptyNeedleWithOptionsMatchesNothing
    /// `CONTAINS`/`BEGINSWITH`/`ENDSWITH ''` also match null attributes (`coalesce(x, '')`).
    case emptyNeedleMatchesNull
    /// `LIKE ''` matches every non-null string.
    case emptyLikeMatchesEverything
    /// The empty string is treated as null (Oracle's rule).
    case emptyStringIsNull
    /// `LIKE`'s `?` stands for one Swift `Character` (a grapheme cluster).
    case likeByCharacters
    /// `LIKE`'s `?` stands for one UTF-16 code unit.
    case likeByUTF16Units
    /// `NOT (x op y)` is rewritten as `x (negated op) y`, which is false when `x` is null.
    case negationPushedIntoComparison
    /// `BETWEEN {a, b}` with `a > b` is read as `BETWEEN {b, a}`.
    case betweenBoundsSwapped
    /// Ties in a sort (and unsorted results) come in insertion order (SQLite's rowid), not by
    /// primary key.
    case tiesBrokenByInsertionOrder
    /// Nulls are placed right in the first sort key only; in later keys they sort as the
    /// greatest value.
    case nullsMisplacedInLaterSortKeys
    /// `@count` conditions never match a record without links (a `GROUP BY … HAVING` over the
    /// link column, without the records that have no group).
    case zeroCountsMissed
    /// A condition on a to-one key path is false where a link is missing, whatever it asks
    /// (`!= x` and `== nil` included): an inner join where a left join belongs.
    case missingLinkFailsEveryCondition
    /// `NONE` over a to-many is false for every record when a matching record on the other side
    /// has no owner (`NOT IN` over a foreign-key column holding NULL).
    case noneFalseWhenUnlinkedMatches
    /// `NOT (x BEGINSWITH y)` and `NOT (x ENDSWITH y)` are false for an empty string (SQLite's
    /// `substr()` of an empty BLOB is NULL, not empty).
    case emptyStringPrefixIsNull
    /// A page of a sorted query holds the right records in primary-key order (its keys picked in
    /// order, its rows read back by key and not sorted again).
    case pageInKeyOrder

    // MARK: Links

    /// related() returns records in the order they were linked.
    case relatedInLinkOrder
    /// Linking a one-to-many from its to-many side to a record it already holds lists it twice.
    case toManyRelinkDuplicates
    /// A many-to-many link made again from its inverse side (the relationship declared second)
    /// is stored a second time: the join row is looked up in one direction only.
    case relinkFromInverseDuplicates
    /// Linking a one-to-one from its inverse side (`Profile.user`, declared after `User.profile`)
    /// leaves the target's previous partner pointing at it.
    case oneToOneInverseSideKeepsOldPartner
    /// Unlinking through the relationship of a pair declared second does nothing (the link is
    /// looked up on the first-declared, owning side only).
    case unlinkFromInverseSideIgnored
    /// Unlinking a to-one clears it whatever the target (`SET author = NULL WHERE id = ?`).
    case unlinkToOneIgnoresTarget
    /// Unlinking from a missing record succeeds silently.
    case unlinkOfMissingSourceIgnored

    // MARK: Writes and errors

    /// An update that sets nothing returns at once, without checking that the record exists.
    case emptyUpdateOfMissingSucceeds
    /// An upsert replaces any record holding one of its unique values (SQLite's
    /// `INSERT OR REPLACE` deletes the conflicting row).
    case upsertReplacesConflictingRecord
    /// The error that ended a write reaches the caller replaced by a generic one of the same
    /// category, from the rollback.
    case errorReplacedOnRollback
    /// `verify()` on a closed store returns a clean report.
    case verifyOfClosedStoreIsClean

    // MARK: Migrations (the harness bends the plan the way a backend might ignore it)

    /// Per-record transforms are not run.
    case migrationTransformsSkipped
    /// Whole-store steps are not run.
    case migrationStoreStepsSkipped
    /// Declared attribute renames are ignored.
    case migrationRenamesIgnored
    /// A migration that fails on the data deletes the store and starts empty instead.
    case failedMigrationRecreatesStore
    /// A store of another version that the plan cannot migrate (a newer one) is recreated empty.
    case unmigratableStoreRecreated
    /// Progress is never reported.
    case migrationProgressSilent
    /// Only the first step of the plan is known: a chain stops there.
    case migrationChainCut
    /// A read-only open ignores `readOnly`: the store opens writable and writes succeed.
    case readOnlyIgnored
    /// A read-only open of a folder without a store creates an empty store there.
    case readOnlyCreatesMissingStore

    // MARK: Collections

    /// An empty list or map reads back as nil.
    case emptyCollectionReadsAsNil
    /// A list is stored sorted (a set-like column type).
    case listSortedOnWrite
    /// `[c]`/`[d]` are ignored on a list's elements.
    case listStringOptionsIgnored
    /// `ANY` over a list of UUIDs or bytes matches nothing (the operand is compared in its blob
    /// form with the elements' text form).
    case binaryListElementsNeverMatch
    /// `@count` of a list or map is one too many.
    case collectionCountOffByOne
    /// `map.key != v` is false where the key is missing (SQL's null logic leaking).
    case mapMissingKeyFailsNotEqual
    /// Elements of the wrong type in a list of strings are turned into strings, not refused.
    case wrongElementsCoerced
    /// `list == v` is read as `ANY list == v` instead of refused.
    case listComparedWithoutAnyAccepted
    /// `NONE` over an empty list is false (`EXISTS (… NOT …)` for `NOT EXISTS (…)`).
    case noneOverEmptyListIsFalse
    /// A migration's fills of list and map attributes are dropped: new collections start empty.
    case migrationCollectionFillsIgnored
    /// A relationship compared with a key compares the record's own key (`author == 1` read as
    /// `id == 1`).
    case relationshipComparedAsOwnKey

    // MARK: Ordered relationships

    /// `related` returns an ordered to-many by primary key, not in list order.
    case orderedRelatedInKeyOrder
    /// `move` in an ordered to-many does nothing.
    case orderedMoveIgnored
    /// Unlinking from an ordered list moves its last link into the gap (a swap-remove).
    case orderedUnlinkFillsGapWithLast
    /// Deleting a record in an ordered list moves that list's last link into its place.
    case orderedDeleteFillsGapWithLast
    /// A position outside the list is clamped to its ends instead of refused.
    case orderedInsertIndexClamped
    /// A link made from the unordered side of a many-to-many goes first in the ordered list.
    case orderedInverseLinkPrepends
    /// `@count` over an ordered to-many is one too few.
    case orderedCountOffByOne
    /// A migration keeps the links of an ordered to-many but not their order (key order after).
    case orderLostByMigration
    /// A migration that makes a relationship ordered drops its links (a new, empty list).
    case linksDroppedWhenMadeOrdered

    // MARK: Embedded objects

    /// After reopening, the links between owners and their embedded records are not found.
    case embeddedLinksLostOnReopen
    /// An orphan is deleted at commit instead of refused: the rest of the transaction commits.
    case orphanDroppedAtCommit
    /// Linking an embedded record to a second owner moves it there.
    case secondOwnerMovesEmbedded
    /// Deleting an owner does not reach its embedded records: they are unlinked and left behind.
    case embeddedCascadeSkipped
    /// Key paths through an owning relationship (`address.city`, `ANY phones.kind`) match nothing.
    case embeddedKeyPathsMatchNothing
    /// The store records its schema without the embedded flag: another flag opens it.
    case embeddedFlagNotRecorded
}

extension Fault {
    /// The faults `FaultyEvaluator` implements: queries are answered by the wrapper itself,
    /// from the store's full scans, with the fault's semantics.
    var bendsQueryEvaluation: Bool {
        switch self {
        case .utf16StringOrder, .canonicalStringComparison, .mixedNumbersComparedAsDoubles, .emptyNeedleWithOptionsMatchesNothing,
             .emptyNeedleMatchesNull, .emptyLikeMatchesEverything, .emptyStringIsNull, .likeByCharacters, .likeByUTF16Units,
             .negationPushedIntoComparison, .betweenBoundsSwapped, .tiesBrokenByInsertionOrder, .nullsMisplacedInLaterSortKeys,
             .zeroCountsMissed, .missingLinkFailsEveryCondition, .noneFalseWhenUnlinkedMatches, .emptyStringPrefixIsNull, .pageInKeyOrder:
            true
        default: false
        }
    }

    /// The faults of observation: the self-test injects them into the object graph over SQLite.
    var needsObservation: Bool {
        [.modificationsAsInsertions, .modificationsMissed, .modificationsInOldIndices, .emptyChangesDelivered, .cancelIgnored, .otherThreadsStarved].contains(self)
    }

    /// The faults that let readers see an open write.
    var isDirtyRead: Bool { self == .dirtyReadOfInserts || self == .dirtyReadOfLinks || self == .dirtyReadOfDeletes }
}

extension Fault {
    /// The id of the kit case written to catch this fault (or, for the first faults, the case
    /// that catches it most directly). The self-test runs it first and requires it to fail.
    var catcher: String {
        switch self {
        case .capabilityUndeclared: "capabilities.eachOfferedOrDeclaredUnsupported"
        case .unsupportedDeclaredButWorks: "capabilities.declaredUnsupportedIsRefused"
        case .sharingDeclaredUnsupportedButOpensTwice: "capabilities.declaredUnsupportedIsRefused"
        case .uniqueComparedCaseInsensitively: "uniqueness.caseAndSpellingSensitive"
        case .uniqueNullsCollide: "uniqueness.nullsNeverCollide"
        case .freedUniqueValueStaysTaken: "uniqueness.freedValuesAreReusable"
        case .uniqueCheckedPerChunk: "uniqueness.batchesAreCheckedWhole"
        case .verifyWritesSomething: "verify.writesNothing"
        case .verifySkipsEngineCheck: "verify.engineStructureIsChecked"
        case .verifyAlwaysClean: "verify.damageIsReportedOrHarmless"
        case .compactionDropsLinks: "compaction.recordsAndLinksSurviveByteForByte"
        case .compactionLosesListOrder: "compaction.orderedListsKeepTheirOrder"
        case .compactionKeepsSpace: "compaction.spaceOfDeletedRecordsIsGivenBack"
        case .compactOfMissingStoreCreatesOne: "compaction.storeStaysUsableAndMissingIsNotFound"
        case .modificationsAsInsertions, .modificationsInOldIndices: "observation.changeSetIndicesAreOldAndNew"
        case .modificationsMissed: "observation.modificationsAreNeitherInsertionsNorMissed"
        case .emptyChangesDelivered: "observation.unchangedResultsDeliverNothing"
        case .cancelIgnored: "observation.cancelledDeliversNothing"
        case .otherThreadsStarved: "observation.everyObserverOnEveryThreadSees"
        case .relatedOrderedAsText: "sizes.integerKeysPastNineAndTwoToThe31"
        case .deleteWherePagedWithOffset, .batchCommittedInChunks: "sizes.batchesAndDeletesOfTensOfThousands"
        case .packedIgnoresPaging, .packedEmptyStringIsNull, .packedDatesCutToMilliseconds: "sizes.packedRowsWithPagingAndEdgeValues"
        case .equivalentSpellingUpdateIgnored: "uniqueness.updatesBetweenEquivalentSpellings"
        case .unlinkOfAbsentLinkIsNotFound: "model.randomOperationsMatchTheModel"
        case .droppedFieldOnUpdate: "crud.updateSeveralAttributes"
        case .ignoredSort: "queries.sortAscendingDescending"
        case .caseSensitiveC: "queries.containsCaseInsensitive"
        case .diacriticSensitiveD: "queries.containsDiacriticInsensitive"
        case .nonAtomicBatch: "batch.insertIsAtomic"
        case .cascadeNotApplied: "relationships.cascadeDeletes"
        case .denyIgnored: "relationships.denyRefusesAndKeepsEverything"
        case .inverseNotUpdated: "relationships.traverseEveryKind"
        case .wrongCount: "queries.count"
        case .offsetOffByOne, .limitIgnored: "queries.limitAndOffsetPaginate"
        case .duplicateKeyAccepted: "crud.duplicateKeyIsConflict"
        case .dataLostOnReopen: "persistence.dataAndLinksSurviveReopen"
        case .migrationTransformsSkipped: "migrations.transformEveryRecord"
        case .migrationStoreStepsSkipped: "migrations.storeStepCreatesRecords"
        case .migrationRenamesIgnored: "migrations.renameAttribute"
        case .failedMigrationRecreatesStore: "migrations.transformErrorLeavesTheOldVersion"
        case .unmigratableStoreRecreated: "migrations.newerStoreIsRefused"
        case .migrationProgressSilent: "migrations.progressCountsRecords"
        case .migrationChainCut: "migrations.chainInOneOpen"
        case .rollbackIgnored: "transactions.rollbackOnThrow"
        case .updateOfMissingIgnored: "crud.updateMissingIsNotFound"
        case .noSnapshot: "transactions.snapshotReadIgnoresConcurrentCommit"
        case .firstReadBeforeSnapshot: "transactions.snapshotHoldsFromTheFirstReadOfAnyKind"
        case .nestedIterationEmpty: "reentrancy.forEachInsideForEachOfTheSameQuery"
        case .closeInsideTransactionIgnored: "reentrancy.closeInsideATransactionIsBusyAndChangesNothing"
        case .verifyCriesWolf: "persistence.verifyIsCleanOnASoundStore"
        case .readOnlyIgnored: "readOnly.everyWriteIsRefusedAndNoByteChanges"
        case .readOnlyCreatesMissingStore: "readOnly.missingStoreIsNotFoundAndNothingIsCreated"
        case .dirtyReadOfInserts, .dirtyReadOfLinks: "isolation.readerDoesNotSeeUncommittedInsertsUpdatesOrLinks"
        case .dirtyReadOfDeletes: "isolation.readerDoesNotSeeUncommittedDeletesOrUnlinks"
        case .denyIgnoredInCascade, .cascadeDeletesBeforeDenyCheck: "relationships.denyReachedThroughCascadeRefusesEverything"
        case .batchDuplicateKeepsLast, .batchDuplicateKeepsFirst: "batch.insertWithDuplicateKeyInsideTheBatchIsConflict"
        case .batchUniqueValueKeepsFirst: "batch.insertWithDuplicateUniqueValueInsideTheBatchIsConflict"
        case .batchAssumesOneEntity: "batch.insertBatchOfSeveralEntities"
        case .batchSkipsUnknownEntities: "errors.writesNamingUnknownEntities"
        case .updateWhereCountsChangedOnly: "batch.updateWhereCountsEveryMatch"
        case .deleteWhereCountsOwnDeletesOnly: "batch.deleteWhereCountsEveryMatchAlsoReachedByCascade"
        case .updateWhereIgnoresNil: "batch.updateWhereSetsNilAndLeavesTheRest"
        case .requiredNilChangeSkipped: "errors.requiredNilOnEveryWritePath"
        case .failedBatchOperationPoisonsTransaction: "transactions.caughtErrorsOfEveryKindKeepTheTransactionUsable"
        case .packedNullsReadAsZero: "crud.forEachPackedStreamsTheSameRows"
        case .largeValuesTruncated, .valueLimitOffByOne: "crud.valuesUpToTheSizeLimitRoundTrip"
        case .keyLimitOffByOne, .longStringKeysTruncated: "schema.stringKeysAtTheirByteBound"
        case .stringsNormalizedToNFC: "schema.stringsKeepTheirExactScalars"
        case .datesTruncatedToMilliseconds, .mixedNumbersComparedAsDoubles: "schema.extremeNumbersAndDatesRoundTrip"
        case .largeValuesLostOnReopen: "persistence.exactValuesSurviveReopen"
        case .utf16StringOrder: "queries.stringOrderBeyondTheBasicPlane"
        case .canonicalStringComparison: "queries.stringOrderIsUTF8BytesNotCanonical"
        case .emptyNeedleWithOptionsMatchesNothing, .emptyNeedleMatchesNull: "queries.emptyStringOperandsOfTextOperators"
        case .emptyLikeMatchesEverything, .emptyStringIsNull: "queries.emptyStringEqualityAndLike"
        case .likeByCharacters, .likeByUTF16Units: "queries.likeQuestionMarkIsOneUnicodeScalar"
        case .negationPushedIntoComparison: "queries.notIsTheComplementOfEveryCondition"
        case .betweenBoundsSwapped: "queries.betweenBoundsAreInclusiveAndOrdered"
        case .tiesBrokenByInsertionOrder: "queries.sortTiesBrokenByPrimaryKeyNotInsertionOrder"
        case .nullsMisplacedInLaterSortKeys: "queries.nullsOrderInKeyPathsAndLaterSortKeys"
        case .zeroCountsMissed: "queries.countsIncludingZero"
        case .missingLinkFailsEveryCondition: "queries.keyPathsOverMissingLinks"
        case .noneFalseWhenUnlinkedMatches: "queries.anyAndNoneFromEitherSide"
        case .emptyStringPrefixIsNull: "queries.textOperatorsOnEmptyStrings"
        case .pageInKeyOrder: "queries.pagesOfSortedResults"
        case .relatedInLinkOrder: "relationships.relatedIsInPrimaryKeyOrder"
        case .toManyRelinkDuplicates: "relationships.linkTwiceFromTheSameSideIsNoOpOnBothSides"
        case .relinkFromInverseDuplicates: "relationships.linkFromTheInverseSideOfAnExistingLinkIsNoOp"
        case .oneToOneInverseSideKeepsOldPartner: "relationships.oneToOneFromEitherSideTakesTheTarget"
        case .unlinkFromInverseSideIgnored: "relationships.unlinkFromEitherSideRemovesBothSides"
        case .unlinkToOneIgnoresTarget: "relationships.unlinkOfAnotherTargetIsNoOp"
        case .unlinkOfMissingSourceIgnored: "errors.unlinkOfMissingRecords"
        case .emptyUpdateOfMissingSucceeds: "crud.emptyUpdateStillChecksTheRecord"
        case .upsertReplacesConflictingRecord: "errors.upsertMayNotTakeAUniqueValue"
        case .errorReplacedOnRollback: "transactions.firstErrorWins"
        case .verifyOfClosedStoreIsClean: "errors.closedStoreRefusesEveryCall"
        case .emptyCollectionReadsAsNil: "collections.everyElementTypeRoundTrips"
        case .listSortedOnWrite: "collections.listKeepsOrderAndDuplicates"
        case .listStringOptionsIgnored: "collections.anyElementComparisons"
        case .binaryListElementsNeverMatch: "collections.anyOverEveryElementType"
        case .collectionCountOffByOne: "collections.countOfListsAndMaps"
        case .mapMissingKeyFailsNotEqual: "collections.mapValuesByKey"
        case .wrongElementsCoerced: "collections.wrongElementTypesAreInvalidValue"
        case .listComparedWithoutAnyAccepted: "collections.listConditionsNeedAnyOrNone"
        case .noneOverEmptyListIsFalse: "collections.randomQueriesMatchReference"
        case .migrationCollectionFillsIgnored: "collections.addCollectionsByMigration"
        case .relationshipComparedAsOwnKey: "queries.relationshipsComparedByKey"
        case .orderedRelatedInKeyOrder: "orderedRelationships.appendKeepsOrderAcrossReopen"
        case .orderedMoveIgnored: "orderedRelationships.insertAtAndMove"
        case .orderedUnlinkFillsGapWithLast: "orderedRelationships.unlinkClosesTheGap"
        case .orderedDeleteFillsGapWithLast: "orderedRelationships.deleteRulesKeepOrder"
        case .orderedInsertIndexClamped: "orderedRelationships.badPositionRefusedNothingChanged"
        case .orderedInverseLinkPrepends: "orderedRelationships.manyToManyOrderedSide"
        case .orderedCountOffByOne: "orderedRelationships.queriesOverOrderedLists"
        case .orderLostByMigration: "orderedRelationships.orderSurvivesMigration"
        case .linksDroppedWhenMadeOrdered: "orderedRelationships.orderedOrNotByMigration"

        case .embeddedLinksLostOnReopen: "embeddedObjects.roundTripThroughReopen"
        case .orphanDroppedAtCommit: "embeddedObjects.orphanIsRefusedAtCommitAndNothingIsWritten"
        case .secondOwnerMovesEmbedded: "embeddedObjects.secondOwnerIsRefused"
        case .embeddedCascadeSkipped: "embeddedObjects.ownerDeleteCascades"
        case .embeddedKeyPathsMatchNothing: "embeddedObjects.queriesThroughTheOwnersKeyPath"
        case .embeddedFlagNotRecorded: "embeddedObjects.wrongDeclarationsAreRefusedAndTheFlagIsRecorded"
        }
    }
}
