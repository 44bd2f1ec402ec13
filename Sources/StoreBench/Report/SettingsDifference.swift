import StoreBenchKit

/// The settings two results files ran with that differ: a comparison of their numbers would
/// compare the settings too. Run-wide: durability, key distribution, what was measured, each
/// shared scale's dataset; per cell: every parameter both recorded (rounds and repetitions
/// aside, which change the precision, not the work).
///
/// ```swift
/// let d = SettingsDifference(base: old, new: new)
/// if !d.isEmpty { print(d.lines.joined(separator: "\n")) }
/// ```
public struct SettingsDifference: Sendable {
    /// One line per difference: what, then the base's and the new file's values.
    public let lines: [String]
    public var isEmpty: Bool { lines.isEmpty }

    /// Parameters compared per cell: not those that say how precisely a cell was measured,
    /// nor the run-wide ones compared once above, nor YCSB settings that changed nothing.
    static let notPerCell: Set<String> = [Parameter.rounds.name, Parameter.repetitions.name, Parameter.warmup.name,
                                          Parameter.durability.name, Parameter.distribution.name, Parameter.scale.name,
                                          YCSBSuite.Parameters.withoutEffect.name]

    public init(base: RunResults, new: RunResults) {
        var lines: [String] = []
        func differ(_ what: String, _ a: String, _ b: String) { if a != b { lines.append("\(what): \(a) in the base, \(b) in the new file") } }
        differ("durability", base.durability.rawValue, new.durability.rawValue)
        differ("key distribution", (base.distribution ?? .uniform).rawValue, (new.distribution ?? .uniform).rawValue)
        differ("measure", (base.measure ?? .time).rawValue, (new.measure ?? .time).rawValue)
        let (scalesA, scalesB) = (base.datasets.map(\.scale), new.datasets.map(\.scale))
        differ("scales", scalesA.joined(separator: ", "), scalesB.joined(separator: ", "))
        for d in base.datasets {
            guard let e = new.datasets.first(where: { $0.scale == d.scale }) else { continue }
            differ("the \(d.scale) dataset", "checksum \(d.checksum)", "checksum \(e.checksum)")
        }
        var seen = Set<String>()
        for b in base.cells {
            guard let n = new.cell(b.key), let bp = b.parameters, let np = n.parameters else { continue }
            for (name, value) in bp.sorted(by: { $0.key < $1.key }) where !Self.notPerCell.contains(name) {
                guard let other = np[name], other != value, seen.insert("\(b.workload) \(name)").inserted else { continue }
                differ("`\(b.workload)` \(name)", value, other)
            }
        }
        self.lines = lines
    }
}
