import Foundation
import StoreBenchKit

/// What a cell measures: a backend, an engine's bare C-API floor, or a reference program that
/// checks a floor or a backend (a C loop, a plain program over a peer's library).
///
/// It travels typed from the plan to the child process, the JSON and the report; `description`
/// is only for people (`sqlite`, `floor:lmdb`, `c:sqlite`).
///
/// ```swift
/// let floor = TargetID.floor("sqlite")
/// floor.description      // "floor:sqlite"
/// ```
public struct TargetID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case backend, floor, reference
    }

    public let kind: Kind
    /// The backend's name, the floor's engine, or the reference program's name.
    public let name: String

    public init(kind: Kind, name: String) {
        self.kind = kind
        self.name = name
    }

    public static func backend(_ name: String) -> TargetID { TargetID(kind: .backend, name: name) }
    public static func floor(_ engine: String) -> TargetID { TargetID(kind: .floor, name: engine) }
    public static func reference(_ name: String) -> TargetID { TargetID(kind: .reference, name: name) }

    public var isBackend: Bool { kind == .backend }

    public var description: String { kind == .floor ? "floor:\(name)" : name }

    public static func < (a: TargetID, b: TargetID) -> Bool { (a.kind.rawValue, a.name) < (b.kind.rawValue, b.name) }
}

extension TargetID: Codable {
    private enum Keys: String, CodingKey { case kind, name }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(name, forKey: .name)
    }

    /// Reads `{"kind": …, "name": …}`, or the plain string of results schema 1 (`sqlite`, `floor:lmdb`).
    public init(from decoder: Decoder) throws {
        if let c = try? decoder.container(keyedBy: Keys.self), c.contains(.kind) {
            self.init(kind: try c.decode(Kind.self, forKey: .kind), name: try c.decode(String.self, forKey: .name))
            return
        }
        let text = try decoder.singleValueContainer().decode(String.self)
        self = Self.legacy(text)
    }

    /// A target as results schema 1 spelled it.
    static func legacy(_ text: String) -> TargetID {
        text.hasPrefix("floor:") ? .floor(String(text.dropFirst("floor:".count))) : .backend(text)
    }
}

/// One cell's place in a run: what was measured, on which workload, at which scale.
public struct CellKey: Hashable, Sendable, Codable, CustomStringConvertible {
    public var target: TargetID
    public var workload: String
    public var scale: String

    public init(_ target: TargetID, _ workload: String, _ scale: String) {
        self.target = target
        self.workload = workload
        self.scale = scale
    }

    public var description: String { "\(target) \(workload) \(scale)" }
}
