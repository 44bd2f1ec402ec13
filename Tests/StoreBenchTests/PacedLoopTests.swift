import StoreBench
import Testing

/// The coordinated-omission correction on a crafted stall, on a virtual clock: operations due
/// every 1 ms take 0.1 ms, one of them 50 ms.
@Suite("Paced loop")
struct PacedLoopTests {
    /// A clock that moves only when the loop sleeps or an operation works.
    final class VirtualClock {
        var now: UInt64 = 1_000_000_000
    }

    private func run(stallAt stall: Int?, operations: Int = 1_000) -> PacedLoop {
        let clock = VirtualClock()
        var loop = PacedLoop(interval: 1_000_000, clock: { clock.now }, sleep: { clock.now += $0 })
        var i = 0
        loop.run(operations: operations) {
            clock.now += i == stall ? 50_000_000 : 100_000
            i += 1
        }
        return loop
    }

    @Test func withoutAStallLatencyIsTheServiceTime() {
        let loop = run(stallAt: nil)
        #expect(loop.late == 0)
        #expect(loop.latency.max < 101_000 && loop.service.max < 101_000)
        #expect(loop.latency.totalCount == 1_000)
    }

    @Test func aStallIsChargedToTheOperationsQueuedBehindIt() {
        let loop = run(stallAt: 100)
        // The naive view: one slow operation in 1,000, so p99 is the ordinary 0.1 ms.
        #expect(loop.service.valueAtPercentile(99) < 101_000)
        #expect(loop.service.max >= 49_900_000)
        // From the due times: the 50 operations due during the stall waited for it,
        // 49 ms, 48 ms, … so about 5% of operations exceed 1 ms and p99 is tens of ms.
        #expect(loop.late >= 49 && loop.late <= 56)
        #expect(loop.latency.valueAtPercentile(99) >= 39_000_000)
        #expect(loop.latency.valueAtPercentile(95) >= 400_000)
        #expect(loop.latency.valueAtPercentile(90) < 101_000)
        #expect(loop.latency.max >= 49_900_000)
    }

    @Test func theLoopKeepsToItsRate() {
        let clock = VirtualClock()
        let begin = clock.now
        var loop = PacedLoop(interval: 2_000_000, clock: { clock.now }, sleep: { clock.now += $0 })
        loop.run(operations: 500) { clock.now += 10_000 }
        // 500 operations due every 2 ms: the last is due at 998 ms and ends 10 µs later.
        #expect(clock.now - begin == 998_000_000 + 10_000)
    }
}
