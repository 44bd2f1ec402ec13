import Foundation
import Testing

/// A task executor with threads of its own, for the tests that wait for pushed deliveries.
///
/// The test process's default executor has one thread per core (two on CI), and many tests
/// block theirs for long (a runner test waits half a minute on its child process). A push
/// test's reader task waiting behind them missed its 20-second deadline although the push
/// had arrived; on these threads it runs at once.
final class OwnThreads: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is touched with `condition` locked.
    static let shared = OwnThreads(count: 4)

    /// The key of the thread dictionary entry that marks these threads.
    static let marker = "OwnThreads"
    /// True on one of these threads.
    static var isCurrent: Bool { Thread.current.threadDictionary[marker] != nil }

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    init(count: Int) {
        for i in 0..<count {
            Thread { [unowned self] in
                Thread.current.threadDictionary[Self.marker] = i
                self.work()
            }.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs each test of a suite, and its child tasks, on `OwnThreads.shared`; an unstructured
/// task goes there when started with `Task(executorPreference: OwnThreads.shared)`.
struct OnOwnThreads: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(OwnThreads.shared) { try await function() }
    }
}

extension Trait where Self == OnOwnThreads {
    /// Each test and its child tasks run on threads of their own (`OwnThreads`).
    static var onOwnThreads: Self { OnOwnThreads() }
}

@Suite("OwnThreads", .onOwnThreads)
struct OwnThreadsTests {
    /// The premise of the push tests' deadlines: their bodies and their reader tasks run here.
    @Test func aTestAndTheTasksItStartsRunOnOwnThreads() async {
        #expect(OwnThreads.isCurrent)
        #expect(await Task(executorPreference: OwnThreads.shared) { OwnThreads.isCurrent }.value)
        #expect(await withTaskGroup { g in g.addTask { OwnThreads.isCurrent }; return await g.next()! }, "a child task inherits")
        try? await Task.sleep(for: .milliseconds(1))
        #expect(OwnThreads.isCurrent, "and a resumption after a sleep")
    }
}
