import Foundation

/// A fresh directory under the system's temporary folder, removed when the value is released:
/// one per test, so every store starts empty.
///
/// ```swift
/// let dir = try TemporaryDirectory("my-store")
/// let store = try MyStore(directory: dir.url, schema: schema)
/// ```
public final class TemporaryDirectory {
    public let url: URL

    /// Creates `<tmp>/storebench-<label>-<UUID>`.
    public init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("storebench-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
