/// The matches an offset still skips, shared by a walk and its visitor: the walk passes over
/// the candidates its keys answer for certain (a key's duplicates counted at once), the
/// visitor those it had to check. Used by one walk on one thread. Internal.
final class SkipBudget {
    var remaining: Int

    init(_ remaining: Int) { self.remaining = remaining }

    /// Takes `n` certain matches at once when the budget covers them all.
    @inline(__always)
    func takes(_ n: Int) -> Bool {
        guard n <= remaining else { return false }
        remaining -= n
        return true
    }
}
