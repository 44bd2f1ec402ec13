import StoreCore
import StoreBenchKit

/// How the runner runs a cell.
public enum CellLaunch: Sendable {
    /// In a child process of the runner's executable (`storebench cell`): peak memory is the
    /// cell's own, and a crash or a hang ends only that cell.
    case childProcess
    /// In the runner's own process, with these backends: no isolation, and no time limit. For
    /// tests, and for suites registered at run time that the executable does not know.
    case inProcess([BackendDescriptor])

    func run(_ spec: CellSpec, _ process: CellProcess, shouldStop: () -> Bool) -> CellProcess.Ending {
        switch self {
        case .childProcess:
            return process.run(spec, shouldStop: shouldStop)
        case .inProcess(let backends):
            do {
                return .finished(try CellExecutor(spec: spec, backends: backends).run(), instructions: nil)
            } catch {
                return .failed(reason: "\(error)", tail: "")
            }
        }
    }
}
