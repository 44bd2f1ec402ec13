import StoreCore

/// Records push latency: for each delivery of a queue-bound context, the time from the commit
/// of the earliest save it carries (when the graph posted it, right after the store committed)
/// to the moment its observers have been told (the query re-run and every handler returned).
///
/// ```swift
/// let probe = PushLatencyProbe()
/// let context = graph.newBackgroundContext(latency: probe)
/// // ... observe, write elsewhere ...
/// let p50 = probe.latencies.sorted()[probe.latencies.count / 2]
/// ```
public final class PushLatencyProbe: Sendable {
    private let samples = Locked<[Duration]>([])

    public init() {}

    /// Every latency recorded so far, in delivery order.
    public var latencies: [Duration] { samples.withLock { $0 } }

    /// Forgets the recorded latencies (e.g. after a warm-up).
    public func reset() { samples.withLock { $0.removeAll() } }

    func record(_ latency: Duration) { samples.withLock { $0.append(latency) } }
}
