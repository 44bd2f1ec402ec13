import StoreConformance
import StoreCore

/// The schema every workload runs on: the social domain of the conformance kit plus `Row`,
/// the 10-integer row shape of GRDB's performance suite (`id` is SQLite's rowid).
public enum BenchSchema {
    public static let version = 1

    public static let row = EntityDescription(
        "Row", primaryKey: "id",
        attributes: [Attribute("id", .int64)] + (0..<10).map { Attribute("i\($0)", .int64) })

    /// The schema; its declarations are fixed and valid, so a failure is a bug here.
    public static let schema: Schema = try! Schema(version: version, entities: SocialSchema.descriptions + [row])

    package static let user = schema["User"]!
    package static let post = schema["Post"]!
    package static let comment = schema["Comment"]!
    package static let tag = schema["Tag"]!
    package static let rowEntity = schema["Row"]!
}
