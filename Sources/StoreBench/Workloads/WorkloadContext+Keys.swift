import StoreBenchKit

extension WorkloadContext {
    /// `count` keys drawn from `1…upTo` with `keyDistribution` (uniform unless the run asks
    /// for another), with repeats. Under `latest` the highest keys are the newest.
    public func randomKeys(_ count: Int, upTo n: Int) -> [Int64] {
        var r = random()
        var chooser = KeyChooser(keyDistribution, count: n)
        return (0..<count).map { _ in Int64(chooser.next(&r) + 1) }
    }

    /// `count` distinct keys from `1…upTo`, in random order.
    public func distinctKeys(_ count: Int, upTo n: Int) -> [Int64] {
        var r = random()
        var seen = Set<Int64>()
        var out: [Int64] = []
        out.reserveCapacity(count)
        while out.count < min(count, n) {
            let k = Int64(r.below(n) + 1)
            if seen.insert(k).inserted { out.append(k) }
        }
        return out
    }

    /// Ids for new users, past the dataset's, different at each repetition.
    public func newUserIDs(_ count: Int) -> ClosedRange<Int64> {
        let first = Int64(generator.users) + 1 + Int64(repetition) * Int64(count)
        return first...(first + Int64(count) - 1)
    }
}
