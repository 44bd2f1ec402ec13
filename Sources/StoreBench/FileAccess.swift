import Foundation

/// Reading and writing the CLI's files (results, reports) with errors that name the file and
/// the reason in one line (`FileAccessError`), never a Foundation error dump.
///
/// ```swift
/// try FileAccess.checkWritable(["Reports/latest.json", "Reports/latest.md"])   // before a run's first cell
/// try FileAccess.write(Data(markdown.utf8), to: "Reports/latest.md")
/// ```
public enum FileAccess {
    /// Reads the whole file at `path`.
    public static func read(_ path: String) throws -> Data {
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch { throw FileAccessError(.read, path, error) }
    }

    /// Writes `data` to `path` atomically, creating the folders above it.
    public static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try createFolder(url.deletingLastPathComponent().path, shownAs: (path as NSString).deletingLastPathComponent)
        do { try data.write(to: url, options: .atomic) } catch { throw FileAccessError(.write, path, error) }
    }

    /// Creates `path` and the folders above it when missing.
    public static func createFolder(_ path: String, shownAs shown: String? = nil) throws {
        let name = shown.flatMap { $0.isEmpty ? nil : $0 } ?? path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw FileAccessError(.createFolder, name, reason: String(cString: strerror(EEXIST))) }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw FileAccessError(.createFolder, name, error)
        }
    }

    /// For each folder of `files`: creates it when missing and writes, then removes, a probe
    /// file in it, so a file that could not be written fails now, not after a long run. The
    /// error names the first of `files` in the folder that failed.
    public static func checkWritable(_ files: [String]) throws {
        var checked = Set<String>()
        for file in files {
            let folder = (file as NSString).deletingLastPathComponent.isEmpty ? "." : (file as NSString).deletingLastPathComponent
            guard checked.insert(folder).inserted else { continue }
            try createFolder(folder)
            let probe = URL(fileURLWithPath: folder).appendingPathComponent(".storebench-probe-\(getpid())")
            do { try Data("probe\n".utf8).write(to: probe) } catch { throw FileAccessError(.write, file, error) }
            try? FileManager.default.removeItem(at: probe)
        }
    }
}
