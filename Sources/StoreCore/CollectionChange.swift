/// How an observed query's results changed between two notifications, in the shape of Realm's
/// collection notifications and NSFetchedResultsController's changes.
///
/// Apply in this order to go from the old results to the new ones: remove `deletions` (old
/// indices), insert `insertions` (new indices), reload `modifications` (old indices; the same
/// objects are at `modificationsInNew` in the new results). An object whose position changed
/// relative to the others is reported as a deletion plus an insertion.
public struct CollectionChange: Sendable, Hashable {
    public var deletions: [Int]
    public var insertions: [Int]
    public var modifications: [Int]
    public var modificationsInNew: [Int]

    public init(deletions: [Int] = [], insertions: [Int] = [], modifications: [Int] = [], modificationsInNew: [Int] = []) {
        self.deletions = deletions
        self.insertions = insertions
        self.modifications = modifications
        self.modificationsInNew = modificationsInNew
    }

    public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    /// The change from `old` to `new`. Elements kept in place are the longest run of common
    /// elements whose relative order is unchanged; `isModified` marks kept elements as changed.
    ///
    /// ```swift
    /// CollectionChange.between(old: ["a", "b", "c"], new: ["b", "c", "a"]) { _ in false }
    /// // deletions [0], insertions [2]
    /// ```
    public static func between<ID: Hashable>(old: [ID], new: [ID], isModified: (ID) -> Bool) -> CollectionChange {
        var newIndex: [ID: Int] = [:]
        newIndex.reserveCapacity(new.count)
        for (i, id) in new.enumerated() { newIndex[id] = i }
        // Old positions of common elements with their new positions; keep a longest increasing run.
        let common = old.enumerated().compactMap { i, id in newIndex[id].map { (old: i, new: $0) } }
        let kept = longestIncreasingRun(common.map(\.new))
        var keptOld = Set<Int>()
        var keptNew = Set<Int>()
        for k in kept {
            keptOld.insert(common[k].old)
            keptNew.insert(common[k].new)
        }
        var change = CollectionChange()
        change.deletions = old.indices.filter { !keptOld.contains($0) }
        change.insertions = new.indices.filter { !keptNew.contains($0) }
        for k in kept where isModified(old[common[k].old]) {
            change.modifications.append(common[k].old)
            change.modificationsInNew.append(common[k].new)
        }
        return change
    }

    /// Indices into `xs` of one longest strictly increasing subsequence (patience sorting).
    static func longestIncreasingRun(_ xs: [Int]) -> [Int] {
        var tails: [Int] = []          // index into xs of the smallest tail of each length
        var previous = [Int](repeating: -1, count: xs.count)
        for (i, x) in xs.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if xs[tails[mid]] < x { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var out: [Int] = []
        var k = tails.last ?? -1
        while k >= 0 {
            out.append(k)
            k = previous[k]
        }
        return out.reversed()
    }
}
