import Foundation
import StoreBenchKit

extension Floors {
    /// The rows workloads in plain C (`Sources/CReference`), checking `floor:<engine>`.
    public static func cReference(_ engine: String) -> FloorProgram {
        FloorProgram(id: .reference("c:\(engine)"), engine: engine, checks: .floor(engine),
                     workloads: RowsSuite.referenceWorkloads,
                     summary: "The rows workloads as plain C over the \(engine) C API: the physical limit the Swift floor is checked against") { dir, durability in
            try CReferenceFloors.open(engine: engine, directory: dir, durability: durability)
        }
    }
}
