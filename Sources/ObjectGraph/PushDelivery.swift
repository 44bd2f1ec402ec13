import Dispatch

/// When a queue-bound context merges other contexts' saves and tells its observers.
public enum PushDelivery: Sendable, Hashable {
    /// A merge and a notification as soon as a save arrives. Observers re-read their results
    /// from the store, which may already hold later saves: saves that arrive while the queue
    /// is busy are delivered together.
    case eachSave
    /// Saves arriving within the window after the first one are merged together
    /// (`SavedChanges.merge`) and delivered as one change set when the window closes.
    case coalescing(Duration)
}

extension Duration {
    /// This duration for Dispatch (nanosecond precision).
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
