import Foundation
import StoreBenchKit

/// Workloads that test the runner: a cell that crashes and one that never ends. They run only
/// when named exactly (`--workloads selftest.crash`), never in a profile.
enum SelfTestWorkloads {
    static var all: [Workload] { [crash, hang] }

    static var crash: Workload {
        .define("selftest.crash", .selftest, "Crashes its cell process on purpose (tests crash reporting)",
                setup: { _ in () },
                body: { _, _, _ in
                    FileHandle.standardError.write(Data("selftest.crash: about to crash on purpose\n".utf8))
                    fatalError("selftest.crash: crashing on purpose")
                })
    }

    static var hang: Workload {
        .define("selftest.hang", .selftest, "Never finishes (tests the cell time limit)",
                setup: { _ in () },
                body: { _, _, _ in
                    FileHandle.standardError.write(Data("selftest.hang: hanging on purpose\n".utf8))
                    while true { sleep(60) }
                })
    }
}
